// The composition root: wires the HTTP api, the socket, the store, the renderer and input.
import { api, ApiError, ensureToken, storedToken } from "./api.js";
import { GameSocket } from "./socket.js";
import { publicPlay } from "./publicplay.js";
import { tournamentPlay } from "./tournamentplay.js";
import { NAME_KEY, COLOUR_KEY, LARGE_KEY, SOUND_KEY, NOTE_KEY, remembered, remember, friendlyName, playerName } from "./prefs.js";
import {
  initialState, createStore, applyMessage, afterOwnDecision, tipsSwitch, wantsTip,
  handOrder, moveCard, placeCard,
} from "./store.js";
import { render, useChouetteRenderer } from "./render.js";
import { copyField, keepingFocus } from "./dom.js";
import { announcementText, tipText } from "./words.js";
import { normaliseLevels } from "./home.js";
import { levelId, levelsKnown, setLevels, catalogPath, loadLanguage, rememberLanguage, t } from "./i18n.js";
import { patchClocks } from "./table.js";
import { seatName } from "./status.js";
import { chatIntents, resetChat } from "./chat.js";
import { attachInput } from "./input.js";
import { atTable, routeOf } from "./routes.js";
import { reviewJob } from "./reviewjob.js";
import { cardName, sortedByRank, sortedBySuit } from "./cards.js";
import {
  afterPaint, keepFile, knownLevels, needsConnection, watchNetwork,
} from "./offline.js";
import { confirmSeed, seedMessage } from "./fair/seed.js";
import { startPage } from "./startup.js";

/** @typedef {import("./types.js").State} State */
/** @typedef {import("./types.js").Route} Route */
/** @typedef {import("./types.js").ServerMessage} ServerMessage */


/**
 * An element index.html has, by id.
 * @param {string} id
 */
function pagePart(id) {
  const el = document.getElementById(id);
  if (!el) throw new Error(`index.html has no #${id}`);
  return el;
}

const topbar = pagePart("topbar");
const main = pagePart("main");
const announcer = pagePart("announcer");
const skip = pagePart("skip");
const store = createStore(initialState());
setLevels(normaliseLevels(knownLevels(null)));  // the remembered ones, until the server's
/** The table's transport: the server's socket, or a game on this device (docs/device.md).
 * @type {GameSocket|import("./device/game.js").DeviceGame|null} */
let socket = null;
/** Device games (web/js/device/play.js), loaded after the first paint.
 * @type {Promise<ReturnType<import("./device/play.js").devicePlay>>} */
const device = afterPaint().then(() => import("./device/play.js")).then((m) => m.devicePlay({
  store, receive: (msg) => receive(msg), navigate: (path) => navigate(path), say: (text) => say(text),
  delayMs: Number(Reflect.get(globalThis, "ginrummyDeviceDelayMs") ?? 600), // a test hook (docs/device.md)
}));

// ---------------------------------------------------------------- rendering

/** Moves shown moving, the title and the sound of a turn (web/js/follow.js), once a table
 * is drawn: after the drawing, purely visual. @type {((state: State) => void)|null} */
let follow = null;
let followLoading = false;

/**
 * @param {State} state
 */
function draw(state) {
  keepingFocus(() => {
    render(state, { topbar, main, now: performance.now() });
    announcer.setAttribute("aria-label", t("ann.label"));
    skip.textContent = t("skip");
  });
  if (follow) follow(state);
  else if (state.view && !followLoading) {
    followLoading = true;
    // Offline before it was ever kept (docs/offline.md), the table shows its moves without motion.
    import("./follow.js").then((m) => { follow = m.follower(() => draw(store.get())); }, () => {});
  }
}


/**
 * @param {string} text
 */
function say(text) {
  if (!text) return;
  const line = document.createElement("p");
  line.textContent = text;
  announcer.append(line);
  while (announcer.childElementCount > 30) announcer.firstElementChild?.remove();
}

/** `drawingOnce` calls running: the state's changes are drawn once at their end. */
let held = 0;
/** A pointer is pressed: a render now would replace the pressed button before its release,
 * and the click would be lost (it goes to the button's old parent, not to any button). The
 * state's changes are drawn right after the click instead; at most PRESS_HOLD_MS later, so
 * that a release the page never hears of (outside the window) cannot freeze the table. */
let pressed = false;
/** A render waits for the release. */
let owed = false;
const PRESS_HOLD_MS = 1000;
/** @type {ReturnType<typeof setTimeout>|undefined} */
let pressTimer;
store.subscribe((state) => {
  if (held) return;
  if (pressed) owed = true;
  else draw(state);
});
function released() {
  if (!pressed) return;
  pressed = false;
  clearTimeout(pressTimer);
  // After the click that follows the release (same task): then draw what waited.
  setTimeout(() => {
    if (owed && !pressed && !held) draw(store.get());
    if (!pressed) owed = false;
  }, 0);
}
window.addEventListener("pointerdown", (event) => {
  if (event.button !== 0) return;
  pressed = true;
  clearTimeout(pressTimer);
  pressTimer = setTimeout(released, PRESS_HOLD_MS);
}, true);
for (const type of ["pointerup", "pointercancel", "blur"]) window.addEventListener(type, released, true);

/**
 * Run `work`, which changes the state several times in a row (the first frames of a
 * device game), and draw the page once at the end rather than after every change.
 * @param {() => void} work
 */
function drawingOnce(work) {
  held += 1;
  try {
    work();
  } finally {
    held -= 1;
    if (!held && pressed) owed = true;
    else if (!held) draw(store.get());
  }
}

function limits() {
  const config = store.get().config;
  if (!config) throw new Error("the server's configuration is not loaded yet");
  return config.limits;
}

const play = publicPlay({ store, say, navigate: (path) => navigate(path), limits });
const tournaments = tournamentPlay({ store, say, navigate: (path) => navigate(path) });
const reviews = reviewJob({ store });
/** A chouette table's intents and fold (web/js/chouette/), loaded by its first use only.
 * @type {(ReturnType<typeof import("./chouette/play.js").chouettePlay> & {apply: typeof import("./chouette/state.js").applyChouetteMessage})|null} */
let chouette = null;
async function loadChouette() {
  const [intents, fold, table] = await Promise.all([import("./chouette/play.js"), import("./chouette/state.js"), import("./chouette/table.js")]);
  useChouetteRenderer(table.renderChouetteTable);
  chouette ??= { ...intents.chouettePlay({
    store, say, navigate: (path) => navigate(path), send: (msg) => socket?.send(msg) ?? false,
    connect: (room, asPlayer) => openSocket(room, asPlayer), adoptNickname: (name) => play.adoptNickname(name), limits,
  }), apply: fold.applyChouetteMessage };
  return chouette;
}

// ---------------------------------------------------------------- routes

/**
 * @param {string} path
 * @param {{replace?: boolean}} [options]
 */
function navigate(path, { replace = false } = {}) {
  if (replace) history.replaceState(null, "", path);
  else history.pushState(null, "", path);
  enter(routeOf(new URL(path, location.href).pathname));
}

function leaveRoom() {
  if (socket) socket.close();
  socket = null;
  play.closeLobby();
  tournaments.close();
  reviews.stop();
  resetChat();
}

/**
 * @param {Route} route
 */
function enter(route) {
  leaveRoom();
  const fresh = initialState();
  store.update((s) => ({
    ...fresh,
    lang: s.lang,
    fourColour: s.fourColour,
    largeCards: s.largeCards,
    turnSound: s.turnSound,
    deviceNoteHidden: s.deviceNoteHidden,
    home: { ...s.home, busy: false, error: null },
    me: s.me,
    muted: s.muted,
    lobby: { ...fresh.lobby, form: s.lobby.form, quickForm: s.lobby.quickForm, data: s.lobby.data },
    config: s.config,
    online: s.online,
    route,
  }));
  const { room, player } = route;
  // Offline, a page that needs the server says so; it is entered again when the network is back.
  if (needsConnection(store.get())) return;
  if (route.device && room) enterDevice(room);
  else if (route.name === "room" && room) enterRoom(room);
  else if (route.name === "chouette" && room) loadChouette().then((c) => c.enter(room));
  else if (route.name === "lobby") play.enterLobby();
  else if (route.name === "player" && player) {
    play.enterPage(() => api.player(player));
  }
  else if (route.name === "leaderboard") play.enterPage(() => api.leaderboard());
  else if (route.name === "tournament" && route.tournament) tournaments.enter(route.tournament);
  else if (route.name === "review" && room && route.seat) reviews.enter(room, route.seat);
  else homeEntry = enterHome();
  if (route.name !== "home" && !route.device) play.loadMe();
  if (route.name !== "home" && !levelsKnown()) loadLevels();
  main.focus({ preventScroll: true });
  window.scrollTo(0, 0);
}

const chat = chatIntents({ store, say, send: (msg) => socket?.send(msg) ?? false, limits });

// One clock for everything that counts down between server messages.
setInterval(() => {
  const state = store.get();
  const now = performance.now();
  play.tickQuick(now);
  if (atTable(state.route) && state.view && patchClocks(state, now)) store.update((s) => ({ ...s }));
}, 250);

/** The start page's last entry (enterHome): done once the page shows and the computer
 * players are loaded. @type {Promise<void>} */
let homeEntry = Promise.resolve();

async function enterHome() {
  await afterPaint();
  const [levels, me] = await Promise.allSettled([api.levels(), storedToken() ? api.me() : Promise.resolve({ games: [] })]);
  const levelList = normaliseLevels(knownLevels(levels.status === "fulfilled" ? levels.value : null));
  setLevels(levelList);
  const games = me.status === "fulfilled" ? me.value.games ?? [] : [];
  const local = await device;
  store.update((s) => ({ ...s, home: { ...s.home, deviceGames: local.list(), tally: local.tally() } }), { silent: true });
  store.update((s) => {
    if (s.route.name !== "home") return s;
    const form = { ...s.home.form };
    if (!form.level && levelList.length) form.level = levelId(levelList[0]);
    if (!form.name) form.name = remembered(NAME_KEY) ?? "";
    return { ...s, home: { ...s.home, levels: levelList, games, form } };
  });
  // The start page is in: the computer players load now, not on the click (issue 11).
  await local.warm();
}

/** The computer levels, whose names are the computer players' (i18n.js): asked once
 * where no page of this browser had them yet, then drawn again. */
function loadLevels() {
  api.levels().then((data) => {
    setLevels(normaliseLevels(knownLevels(data)));
    store.update((s) => ({ ...s }));
  }).catch(() => { /* offline: the level keys are shown */ });
}

/** @param {string} id */
async function enterDevice(id) {
  const game = await (await device).open(id);
  const route = store.get().route;
  if (!game || !route.device || route.room !== id) return;
  socket = game;
  store.update((s) => ({ ...s, room: { ...s.room, phase: "table" } }), { silent: true });
  // Welcome, view, chat history and tips come at once: one render of the table, not four.
  drawingOnce(() => game.open());
}

/**
 * @param {string} roomId
 */
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
    if (info.tournament) tournaments.follow(roomId);
    return;
  }
  const free = info.status !== "over" && (!info.seats?.one || !info.seats?.two);
  if (free) {
    // The player's nickname (the same in chat, lobby and at the table) when known.
    let known = null;
    if (storedToken()) {
      try { known = (await api.me()).player?.name ?? null; } catch { known = null; }
    }
    const joinName = known ?? remembered(NAME_KEY) ?? friendlyName();
    store.update((s) => ({ ...s, info, room: { ...s.room, info, phase: "join", joinName } }));
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

/**
 * @param {string} roomId
 * @param {boolean} asPlayer
 */
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

/**
 * @param {ServerMessage} raw
 */
function receive(raw) {
  /** @type {ServerMessage} */
  const msg = { ...raw, receivedAt: performance.now() };
  const before = store.get();
  const { state, announce } = before.route.name === "chouette" && chouette ? chouette.apply(before, msg) : applyMessage(before, msg);
  let next = state;
  if (msg.type === "error" && msg.code === "stale_version") socket?.send({ type: "resync" });
  if (wantsTip(next) && socket?.send({ type: "tip" })) {
    next = { ...next, tips: { ...next.tips, requested: next.version } };
  }
  store.update(next);
  // The server committed to its seed for the next deal: send this seat's own.
  if (msg.type === "view") confirmSeed(next.fair);
  if (msg.type === "view") seedMessage(next.fair, next.seat).then((seed) => seed && socket?.send(seed));
  for (const item of announce) say(announcementText(next, item));
  if (msg.type === "tip" && next.tips.tip) say(tipText(next.tips.tip));
  if (msg.type === "error" && msg.code.startsWith("tips_") && next.tips.message) say(t(next.tips.message));
}

// ---------------------------------------------------------------- intents

/**
 * @param {string} action
 */
function act(action) {
  const state = store.get();
  if (!socket || !state.view || !state.view.legal_actions.includes(action)) return;
  if (socket.send({ type: "act", version: state.version, action })) {
    store.update((s) => ({ ...afterOwnDecision(s), notice: null, pending: s.version }));
  }
}

/**
 * @param {string} kind
 */
async function createGame(kind) {
  const state = store.get();
  const form = state.home.form;
  const level = form.level ?? (state.home.levels[0] ? levelId(state.home.levels[0]) : "");
  if (kind === "solo" && await (await device).play(level, playerName(form.name))) return;
  const body = kind !== "room"
    ? { kind: "solo", preset: "standard", target_score: Number(form.soloTarget), opponent: `bot:${level}`, name: playerName(form.name) }
    : {
      kind: "room", preset: form.preset, opponent: form.seat2, name: playerName(form.name), spectators: true,
      ...(form.preset === "first-to-knock" ? {} : { target_score: Number(form.roomTarget) }),
    };
  store.update((s) => ({ ...s, home: { ...s.home, busy: true, error: null } }));
  try {
    await ensureToken();
    await play.adoptNickname(body.name);
    const created = await api.createRoom(body);
    navigate(`/r/${encodeURIComponent(created.room)}`);
  } catch (err) {
    const message = err instanceof ApiError && err.status ? `${t("error.generic", { message: err.message || err.code })}` : t("error.network");
    store.update((s) => ({ ...s, home: { ...s.home, busy: false, error: message } }));
  }
}

/** Take the free seat of the room (or a chouette table's first). @param {(room: string, name: string) => Promise<unknown>} take */
async function join(take) {
  const state = store.get();
  const roomId = state.route.room;
  if (!roomId) return;
  const name = playerName(state.room.joinName);
  try {
    await play.adoptNickname(name);
    await take(roomId, name);
    store.update((s) => ({ ...s, room: { ...s.room, phase: "table", error: null } }));
    openSocket(roomId, true);
  } catch (err) {
    if (err instanceof ApiError && err.status === 409) {
      enter(routeOf(location.pathname));
      return;
    }
    const message = err instanceof Error && err.message ? err.message : t("error.network");
    store.update((s) => ({ ...s, room: { ...s.room, error: message } }));
  }
}

/**
 * @param {HTMLElement|undefined} el
 */
async function copyInvite(el) {
  const ok = await copyField("invite-link", location.href);
  say(ok ? t("ann.copied") : t("ann.copy_failed"));
  store.update((s) => ({ ...s, copied: ok }));
  el?.focus();
}

/**
 * The page commands (data-cmd) with their argument (data-arg) and element.
 * @type {Record<string, (arg: string, el: HTMLElement) => unknown>}
 */
const commands = {
  "play-solo": () => createGame("solo"),
  "play-verified": () => createGame("verified"),
  "device-discard": async (id) => {
    (await device).discard(id);
    navigate("/", { replace: true });
  },
  "device-record": async () => { if (socket && "finishedRecord" in socket) (await device).download(socket); },
  "open-room": () => (Number(store.get().home.form.players) > 2 ? loadChouette().then((c) => c.create()) : createGame("room")),
  join: () => join(store.get().route.name === "chouette" ? api.joinChouette : api.join),
  lang: async (code) => {
    try {
      await loadLanguage(code);
    } catch {
      say(t("error.network")); // offline, and that language was never used here
      return;
    }
    rememberLanguage(code);
    keepFile(catalogPath(code));
    store.update((s) => ({ ...s, lang: code }));
  },
  "four-colour": () => {
    store.update((s) => ({ ...s, fourColour: !s.fourColour }));
    remember(COLOUR_KEY, store.get().fourColour ? "1" : "0");
  },
  "large-cards": () => {
    store.update((s) => ({ ...s, largeCards: !s.largeCards }));
    remember(LARGE_KEY, store.get().largeCards ? "1" : "0");
  },
  "turn-sound": async () => {
    store.update((s) => ({ ...s, turnSound: !s.turnSound }));
    remember(SOUND_KEY, store.get().turnSound ? "1" : "0");
    if (store.get().turnSound) (await import("./follow.js")).chime();  // how it sounds
  },
  settings: () => store.update((s) => ({ ...s, settingsOpen: !s.settingsOpen })),
  "hide-device-note": () => {
    store.update((s) => ({ ...s, deviceNoteHidden: true }));
    remember(NOTE_KEY, "1");
    main.focus({ preventScroll: true });  // the note's button is gone: the focus stays on the page
  },
  // The server decides: it answers with `tips` (then a tip is asked for) or an error.
  tips: () => socket?.send(tipsSwitch(store.get())),
  choose: (kind) => store.update((s) => ({ ...s, choose: kind || null })),
  sort: () => store.update((s) => ({ ...s, manualOrder: null })),
  // Sorted once, then kept like a dragged order (drawn cards join at the end).
  "sort-suit": () => store.update((s) => ({ ...s, manualOrder: sortedBySuit(handOrder(s.view, s.manualOrder)) })),
  "sort-rank": () => store.update((s) => ({ ...s, manualOrder: sortedByRank(handOrder(s.view, s.manualOrder)) })),
  "next-round": () => socket?.send({ type: "next_round", version: store.get().version }),
  "new-match": () => socket?.send({ type: "new_match", version: store.get().version }),
  "copy-invite": (_arg, el) => copyInvite(el),
  rename: () => play.rename(),
  quick: () => play.quickMatch(),
  "quick-cancel": () => play.cancelQuick(),
  "quick-computer": () => play.quickComputer(),
  "create-table": () => play.createTable(),
  "join-table": (room) => play.joinTable(room),
  "t-create": () => tournaments.create(),
  "t-join": () => tournaments.command("join"),
  "t-leave": () => tournaments.command("leave"),
  "t-start": () => tournaments.command("start"),
  "t-withdraw": () => tournaments.command("withdraw"),
  "send-chat": () => chat.send(),
  phrase: (phrase) => socket?.send({ type: "chat", phrase }),
  mute: (key) => chat.toggleMute(key),
  claim: () => socket?.send({ type: "claim" }),
  "claim-wait": () => {
    store.update((s) => ({ ...s, claimDismissed: true }));
    say(t("claim.waiting.ann"));
  },
  resign: () => store.update((s) => ({ ...s, confirmResign: !s.confirmResign })),
  "review-step": (delta) => reviews.step(Number(delta)),
  "resign-no": () => store.update((s) => ({ ...s, confirmResign: false })),
  "resign-yes": () => {
    socket?.send({ type: "resign" });
    store.update((s) => ({ ...s, confirmResign: false }));
  },
};

attachInput(document.body, {
  act,
  // A chouette table handles some commands itself (chouette/play.js).
  cmd: (name, arg, el) => ((store.get().route.name === "chouette" && chouette?.commands[name]) || commands[name])?.(arg, el),
  navigate: (path) => navigate(path),
  field: (name, value, el) => {
    if (name === "chatDraft") store.update((s) => ({ ...s, chat: { ...s.chat, draft: value } }), { silent: true });
    else if (name === "nickname") store.update((s) => ({ ...s, lobby: { ...s.lobby, nickname: value, nicknameSaved: false } }), { silent: true });
    else if (name.startsWith("tform.")) tournaments.field(name.slice("tform.".length), value, el);
    else if (name.includes(".")) play.lobbyField(name, value, el);
    else if (name === "teamDraft") chouette?.teamDraft(value);
    else if (name === "joinName") store.update((s) => ({ ...s, room: { ...s.room, joinName: value } }), { silent: true });
    else {
      const rerender = name === "preset" || name === "players";
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
// The settings menu (render.js renderTopbar) closes with Escape, the focus back on its
// button, and with a press anywhere outside it.
document.addEventListener("keydown", (event) => {
  if (event.key !== "Escape" || !store.get().settingsOpen) return;
  store.update((s) => ({ ...s, settingsOpen: false }));
  const toggle = document.querySelector("button[data-key='settings']");
  if (toggle instanceof HTMLElement) toggle.focus();
});
document.addEventListener("pointerdown", (event) => {
  const inside = event.target instanceof Element && event.target.closest(".top-controls");
  if (!inside && store.get().settingsOpen) store.update((s) => ({ ...s, settingsOpen: false }));
}, true);
document.addEventListener("keydown", (event) => reviews.key(event));

watchNetwork((online) => {
  const waiting = needsConnection(store.get());
  store.update((s) => ({ ...s, online }));
  if (online && (waiting || store.get().route.name === "home")) enter(routeOf(location.pathname));
});

// ---------------------------------------------------------------- boot

// Exposed for debugging in the console only; nothing depends on it.
Object.assign(globalThis, { ginrummy: { store, seatName: (/** @type {import("./types.js").Seat} */ seat) => seatName(store.get(), seat) } });

startPage({ store, enter, homeEntry: () => homeEntry });
