// The composition root: wires the HTTP api, the socket, the store, the renderer and input.
import { api, ApiError, ensureToken, storedToken } from "./api.js";
import { GameSocket } from "./socket.js";
import {
  initialState, createStore, applyMessage, afterOwnDecision, toggleTips, wantsTip,
  handOrder, moveCard, placeCard,
} from "./store.js";
import { render, announcementText, seatName, tipText, levelId } from "./render.js";
import { attachInput } from "./input.js";
import { detectLanguage, loadLanguage, rememberLanguage, t, list } from "./i18n.js";
import { cardName } from "./cards.js";

const NAME_KEY = "ginrummy.name";
const COLOUR_KEY = "ginrummy.fourColour";

const topbar = document.getElementById("topbar");
const main = document.getElementById("main");
const announcer = document.getElementById("announcer");
const store = createStore(initialState());
let socket = null;

// ---------------------------------------------------------------- rendering

function draw(state) {
  const active = document.activeElement;
  const focusKey = active?.dataset?.key ?? null;
  const selection = active instanceof HTMLInputElement ? [active.selectionStart, active.selectionEnd] : null;
  render(state, { topbar, main });
  if (focusKey) {
    const again = document.querySelector(`[data-key="${CSS.escape(focusKey)}"]`);
    if (again && again !== document.activeElement) {
      again.focus({ preventScroll: true });
      if (selection && again instanceof HTMLInputElement) {
        try { again.setSelectionRange(...selection); } catch { /* not a text input */ }
      }
    }
  }
}

function say(text) {
  if (!text) return;
  const line = document.createElement("p");
  line.textContent = text;
  announcer.append(line);
  while (announcer.childElementCount > 30) announcer.firstElementChild.remove();
}

store.subscribe(draw);

// ---------------------------------------------------------------- names and prefs

function remembered(key) {
  try { return localStorage.getItem(key); } catch { return null; }
}

function remember(key, value) {
  try { localStorage.setItem(key, value); } catch { /* private mode */ }
}

function friendlyName() {
  const names = list("names.friendly");
  return names.length ? names[Math.floor(Math.random() * names.length)] : "Guest";
}

function playerName(typed) {
  const name = (typed ?? "").trim() || remembered(NAME_KEY) || friendlyName();
  remember(NAME_KEY, name);
  return name.slice(0, 24);
}

// ---------------------------------------------------------------- routes

function routeOf(pathname) {
  const match = /^\/r\/([^/]+)\/?$/.exec(pathname);
  return match ? { name: "room", room: decodeURIComponent(match[1]) } : { name: "home", room: null };
}

function navigate(path, { replace = false } = {}) {
  if (replace) history.replaceState(null, "", path);
  else history.pushState(null, "", path);
  enter(routeOf(new URL(path, location.href).pathname));
}

function leaveRoom() {
  if (socket) socket.close();
  socket = null;
}

function enter(route) {
  leaveRoom();
  const fresh = initialState();
  store.update((s) => ({
    ...fresh,
    lang: s.lang,
    fourColour: s.fourColour,
    home: { ...s.home, busy: false, error: null },
    route,
  }));
  if (route.name === "room") enterRoom(route.room);
  else enterHome();
  main.focus({ preventScroll: true });
  window.scrollTo(0, 0);
}

async function enterHome() {
  const [levels, me] = await Promise.allSettled([api.levels(), storedToken() ? api.me() : Promise.resolve({ games: [] })]);
  const levelList = levels.status === "fulfilled" ? normaliseLevels(levels.value) : [];
  const games = me.status === "fulfilled" ? me.value.games ?? [] : [];
  store.update((s) => {
    if (s.route.name !== "home") return s;
    const form = { ...s.home.form };
    if (!form.level && levelList.length) form.level = levelId(levelList[0]);
    if (!form.name) form.name = remembered(NAME_KEY) ?? "";
    return { ...s, home: { ...s.home, levels: levelList, games, form } };
  });
}

function normaliseLevels(data) {
  const items = (Array.isArray(data) ? data : data?.levels ?? []).filter((item) => item && typeof item === "object");
  // The server's default level first, so it is preselected.
  const preferred = data?.default;
  return preferred ? [...items].sort((a, b) => Number(levelId(b) === preferred) - Number(levelId(a) === preferred)) : items;
}

async function enterRoom(roomId) {
  let info;
  try {
    info = await api.room(roomId);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) {
      store.update((s) => ({ ...s, room: { ...s.room, phase: "unknown" } }));
    } else {
      store.update((s) => ({ ...s, room: { ...s.room, phase: "unknown", error: t("error.network") } }));
    }
    return;
  }
  if (store.get().route.room !== roomId) return;
  if (info.your_seat) {
    store.update((s) => ({ ...s, info, room: { ...s.room, info, phase: "table" } }));
    openSocket(roomId, true);
    return;
  }
  const free = info.status !== "over" && (!info.seats?.one || !info.seats?.two);
  if (free) {
    store.update((s) => ({ ...s, info, room: { ...s.room, info, phase: "join", joinName: remembered(NAME_KEY) ?? friendlyName() } }));
    return;
  }
  if (info.spectators) {
    store.update((s) => ({ ...s, info, room: { ...s.room, info, phase: "table" } }));
    openSocket(roomId, false);
    say(`${t("join.full")} ${t("join.watch")}`);
    return;
  }
  store.update((s) => ({ ...s, info, room: { ...s.room, info, phase: "nospect" } }));
}

function openSocket(roomId, asPlayer) {
  leaveRoom();
  socket = new GameSocket({
    room: roomId,
    token: () => (asPlayer ? storedToken() : null),
    onMessage: receive,
    onConnection: (connection) => {
      const before = store.get().connection;
      if (connection.connected && before.everConnected && !before.connected) say(t("conn.back"));
      store.update((s) => ({
        ...s,
        connection: { ...connection, everConnected: s.connection.everConnected || connection.connected },
      }));
    },
  });
  socket.open();
}

function receive(msg) {
  const before = store.get();
  const { state, announce } = applyMessage(before, msg);
  let next = state;
  if (msg.type === "error" && msg.code === "stale_version") socket?.send({ type: "resync" });
  if (wantsTip(next) && socket?.send({ type: "tip" })) {
    next = { ...next, tips: { ...next.tips, requested: next.version } };
  }
  store.update(next);
  for (const item of announce) say(announcementText(next, item));
  if (msg.type === "tip" && next.tips.on) say(tipText(msg));
  if (msg.type === "error" && msg.code === "tips_unavailable") say(t("tips.unavailable"));
}

// ---------------------------------------------------------------- intents

function act(action) {
  const state = store.get();
  if (!socket || !state.view || !state.view.legal_actions.includes(action)) return;
  if (socket.send({ type: "act", version: state.version, action })) {
    store.update((s) => ({ ...afterOwnDecision(s), notice: null, pending: s.version }));
  }
}

async function createGame(kind) {
  const state = store.get();
  const form = state.home.form;
  const level = form.level ?? (state.home.levels[0] ? levelId(state.home.levels[0]) : "");
  const body = kind === "solo"
    ? { kind: "solo", preset: "standard", target_score: Number(form.soloTarget), opponent: `bot:${level}`, name: playerName(form.name) }
    : {
      kind: "room", preset: form.preset, opponent: form.seat2, name: playerName(form.name), spectators: true,
      ...(form.preset === "first-to-knock" ? {} : { target_score: Number(form.roomTarget) }),
    };
  store.update((s) => ({ ...s, home: { ...s.home, busy: true, error: null } }));
  try {
    await ensureToken();
    const created = await api.createRoom(body);
    navigate(`/r/${encodeURIComponent(created.room)}`);
  } catch (err) {
    const message = err instanceof ApiError && err.status ? `${t("error.generic", { message: err.message || err.code })}` : t("error.network");
    store.update((s) => ({ ...s, home: { ...s.home, busy: false, error: message } }));
  }
}

async function join() {
  const state = store.get();
  const roomId = state.route.room;
  const name = playerName(state.room.joinName);
  try {
    await api.join(roomId, name);
    store.update((s) => ({ ...s, room: { ...s.room, phase: "table", error: null } }));
    openSocket(roomId, true);
  } catch (err) {
    if (err instanceof ApiError && err.status === 409) {
      enter(routeOf(location.pathname));
      return;
    }
    store.update((s) => ({ ...s, room: { ...s.room, error: err.message || t("error.network") } }));
  }
}

async function copyInvite(el) {
  const input = document.getElementById("invite-link");
  const url = input?.value ?? location.href;
  let ok = false;
  try {
    await navigator.clipboard.writeText(url);
    ok = true;
  } catch {
    if (input) {
      input.select();
      try { ok = document.execCommand("copy"); } catch { ok = false; }
    }
  }
  say(ok ? t("ann.copied") : t("ann.copy_failed"));
  store.update((s) => ({ ...s, copied: ok }));
  el?.focus();
}

const commands = {
  "play-solo": () => createGame("solo"),
  "open-room": () => createGame("room"),
  join: () => join(),
  lang: async (code) => {
    await loadLanguage(code);
    rememberLanguage(code);
    store.update((s) => ({ ...s, lang: code }));
  },
  "four-colour": () => {
    store.update((s) => ({ ...s, fourColour: !s.fourColour }));
    remember(COLOUR_KEY, store.get().fourColour ? "1" : "0");
  },
  tips: () => {
    let next = toggleTips(store.get());
    if (wantsTip(next) && socket?.send({ type: "tip" })) next = { ...next, tips: { ...next.tips, requested: next.version } };
    store.update(next);
    say(next.tips.on ? t("tips.on", { n: next.tips.left }) : t("tips.off"));
  },
  choose: (kind) => store.update((s) => ({ ...s, choose: kind || null })),
  sort: () => store.update((s) => ({ ...s, manualOrder: null })),
  "next-round": () => socket?.send({ type: "next_round", version: store.get().version }),
  "new-match": () => socket?.send({ type: "new_match", version: store.get().version }),
  "copy-invite": (_arg, el) => copyInvite(el),
};

attachInput(document.body, {
  act,
  cmd: (name, arg, el) => commands[name]?.(arg, el),
  navigate: (path) => navigate(path),
  field: (name, value) => {
    if (name === "joinName") store.update((s) => ({ ...s, room: { ...s.room, joinName: value } }), { silent: true });
    else {
      const rerender = name === "preset";
      store.update((s) => ({ ...s, home: { ...s.home, form: { ...s.home.form, [name]: value } } }), { silent: !rerender });
    }
  },
  move: (card, delta) => {
    const state = store.get();
    const order = moveCard(handOrder(state.view, state.manualOrder), card, delta);
    store.update((s) => ({ ...s, manualOrder: order }));
    say(t("ann.moved", { card: cardName(card), n: order.indexOf(card) + 1 }));
  },
  place: (card, target, after) => {
    const state = store.get();
    const order = placeCard(handOrder(state.view, state.manualOrder), card, target, after);
    store.update((s) => ({ ...s, manualOrder: order }));
  },
});

window.addEventListener("popstate", () => enter(routeOf(location.pathname)));

// ---------------------------------------------------------------- boot

async function boot() {
  const lang = detectLanguage();
  await loadLanguage(lang);
  store.update((s) => ({ ...s, lang, fourColour: remembered(COLOUR_KEY) === "1" }), { silent: true });
  enter(routeOf(location.pathname));
}

// Exposed for debugging in the console only; nothing depends on it.
globalThis.ginrummy = { store, seatName: (seat) => seatName(store.get(), seat) };

boot();
