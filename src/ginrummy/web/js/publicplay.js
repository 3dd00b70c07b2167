// Public play's intents (docs/protocol.md, "Public play"): the nickname, the lobby and its
// live socket, quick match, tables. Its page module (pages/public.js) wires them to
// commands; they change the state only through the store.
import { api, ApiError, ensureToken, storedToken } from "./api.js";
import { LobbySocket } from "./socket.js";
import { nicknameProblem } from "./store.js";
import { QUICK_OFFER_S, nameProblemText } from "./lobby.js";
import { t } from "./i18n.js";
import { NAME_KEY, remember, playerName } from "./prefs.js";
import { conductNotice } from "./civility.js";

/** @typedef {import("./types.js").ServerMessage} ServerMessage */

/**
 * What public play needs of the page.
 * @typedef {object} App
 * @property {import("./store.js").Store} store
 * @property {(text: string) => void} say         announce to a screen reader
 * @property {(path: string) => void} navigate
 * @property {() => import("./types.js").Limits} limits  the served limits
 * @property {import("./me.js").Me} me  who this browser is
 */

/**
 * The intents of public play, bound to the page. One closure over the page's store and
 * lobby socket (so it is longer than a function should be); each intent inside is a
 * small function of its own.
 * @param {App} app
 */
export function publicPlay({ store, say, navigate, limits, me }) {
  /** @type {LobbySocket|null} */
  let lobbySocket = null;

  /**
   * @param {() => Promise<any>} load
   */
  async function enterPage(load) {
    const route = store.get().route;
    store.update((s) => ({ ...s, page: { status: "loading", data: null } }));
    try {
      const data = await load();
      if (store.get().route !== route) return;
      store.update((s) => ({ ...s, page: { status: "ok", data } }));
    } catch (err) {
      if (store.get().route !== route) return;
      const status = err instanceof ApiError && err.status === 404 ? "missing" : "error";
      store.update((s) => ({ ...s, page: { status, data: null } }));
    }
  }

  async function enterLobby() {
    const route = store.get().route;
    // The lobby socket says who this browser is, so a quick match can reach it.
    try {
      await ensureToken();
    } catch {
      /* the list still shows; joining will retry */
    }
    if (store.get().route !== route) return;
    void showConduct();
    api
      .lobby()
      .then((data) => {
        if (store.get().route.name === "lobby")
          store.update((s) => ({ ...s, lobby: { ...s.lobby, data } }));
      })
      .catch(() => {
        store.update((s) => ({ ...s, lobby: { ...s.lobby, error: t("error.network") } }));
      });
    lobbySocket = new LobbySocket({
      token: () => storedToken(),
      onMessage: receiveLobby,
      onConnection: (c) =>
        store.update((s) => ({ ...s, lobby: { ...s.lobby, connected: c.connected } })),
    });
    lobbySocket.open();
  }

  // A live update must not replace a button between the press and the release of a click:
  // while a pointer is down, the newest lobby waits and is shown right after the click.
  let pointerHeld = false;
  /** @type {any} the newest GET /api/lobby body, held while a pointer is down */
  let heldLobby = null;
  window.addEventListener(
    "pointerdown",
    () => {
      pointerHeld = true;
    },
    true,
  );
  for (const type of ["pointerup", "pointercancel"]) {
    window.addEventListener(
      type,
      () => {
        pointerHeld = false;
        if (heldLobby)
          setTimeout(() => {
            const data = heldLobby;
            heldLobby = null;
            if (data) showLobby(data);
          }, 0);
      },
      true,
    );
  }

  /**
   * @param {any} data
   */
  function showLobby(data) {
    if (store.get().route.name !== "lobby") return;
    if (JSON.stringify(store.get().lobby.data) === JSON.stringify(data)) return;
    store.update((s) => ({ ...s, lobby: { ...s.lobby, data, error: null } }));
  }

  /**
   * @param {ServerMessage} msg
   */
  function receiveLobby(msg) {
    if (msg.type === "lobby" && msg.lobby) {
      if (pointerHeld) heldLobby = msg.lobby;
      else showLobby(msg.lobby);
    } else if (msg.type === "matched" && msg.room) {
      say(t("lobby.quick.found"));
      navigate(`/r/${encodeURIComponent(msg.room)}`);
    }
  }

  /** A play ban or a warning (GET /api/me/conduct) in the quick match's panel. */
  async function showConduct() {
    try {
      const conduct = conductNotice(await api.conduct());
      store.update((s) => ({ ...s, lobby: { ...s.lobby, conduct } }));
      return conduct;
    } catch {
      return null; /* no conduct to show: the refusals still say why */
    }
  }

  /**
   * A refusal of quick match or a table: a play ban in words (its reason and time
   * left), anything else as the lobby's error.
   * @param {unknown} err
   */
  async function refused(err) {
    if (err instanceof ApiError && err.code === "play_banned") {
      const conduct = await showConduct();
      if (conduct?.banned) {
        store.update((s) => ({ ...s, lobby: { ...s.lobby, error: null, busy: false } }));
        return;
      }
    }
    store.update((s) => ({
      ...s,
      lobby: { ...s.lobby, busy: false, error: lobbyError(err) },
    }));
  }

  /**
   * @param {unknown} err
   */
  function lobbyError(err) {
    // rated play counts accounts only (issue 22): a guest is told to make one
    if (err instanceof ApiError && err.code === "account_required")
      return t("error.account_required");
    if (err instanceof ApiError && err.status)
      return t("error.generic", { message: err.message || err.code });
    return t("error.network");
  }

  async function rename() {
    const state = store.get();
    const name = (state.lobby.nickname ?? state.me?.name ?? "").trim();
    const problem = nicknameProblem(name, limits());
    if (problem) {
      store.update((s) => ({
        ...s,
        lobby: {
          ...s.lobby,
          nicknameError: nameProblemText(problem, limits()),
          nicknameSaved: false,
        },
      }));
      document.getElementById("nickname")?.focus();
      return;
    }
    try {
      me.supersede();
      const answer = await api.rename(name);
      const player = answer?.player ?? (await api.me()).player;
      remember(NAME_KEY, name);
      store.update((s) => ({
        ...s,
        me: player ?? s.me,
        lobby: { ...s.lobby, nickname: null, nicknameError: null, nicknameSaved: true },
      }));
      say(t("lobby.nickname.saved"));
    } catch (err) {
      const message =
        err instanceof ApiError && err.code === "bad_name"
          ? t("nick.refused", { message: err.message })
          : lobbyError(err);
      store.update((s) => ({
        ...s,
        lobby: { ...s.lobby, nicknameError: message, nicknameSaved: false },
      }));
    }
  }

  /**
   * @param {import("./types.js").TableForm} form
   */
  function settingsBody(form) {
    return {
      preset: form.preset,
      ...(form.preset === "first-to-knock" ? {} : { target_score: Number(form.target) }),
      timer: form.timer === "off" ? null : Number(form.timer),
    };
  }

  async function quickMatch() {
    const form = store.get().lobby.quickForm;
    try {
      await ensureToken();
      const answer = await api.quick(settingsBody(form));
      if (answer.status === "matched") {
        navigate(`/r/${encodeURIComponent(answer.room)}`);
        return;
      }
      // The wait is counted on this page's clock; the server's `since` may be another's.
      store.update((s) => ({
        ...s,
        lobby: {
          ...s.lobby,
          error: null,
          quick: { start: performance.now(), elapsed: 0, offered: false },
        },
      }));
      say(t("lobby.quick.waiting"));
    } catch (err) {
      await refused(err);
    }
  }

  async function cancelQuick() {
    store.update((s) => ({ ...s, lobby: { ...s.lobby, quick: null } }));
    try {
      await api.leaveQuick();
    } catch {
      /* not in the queue any more */
    }
  }

  async function quickComputer() {
    const form = store.get().lobby.quickForm;
    await cancelQuick();
    try {
      const created = await api.createRoom({
        kind: "solo",
        ...settingsBody(form),
        name: store.get().me?.name ?? playerName(""),
      });
      navigate(`/r/${encodeURIComponent(created.room)}`);
    } catch (err) {
      store.update((s) => ({ ...s, lobby: { ...s.lobby, error: lobbyError(err) } }));
    }
  }

  async function createTable() {
    const form = store.get().lobby.form;
    const isPublic = form.visibility === "public";
    const body = {
      kind: "room",
      opponent: "friend",
      name: store.get().me?.name ?? playerName(""),
      ...settingsBody(form),
      visibility: form.visibility,
      spectators: Boolean(form.spectators),
      spectator_chat: Boolean(form.spectators && form.spectatorChat),
      // a guest's public table is casual: rated play counts accounts only (issue 22)
      ...(isPublic && store.get().me?.account ? { rated: Boolean(form.rated) } : {}),
    };
    store.update((s) => ({ ...s, lobby: { ...s.lobby, busy: true, error: null } }));
    try {
      await ensureToken();
      const created = await api.createRoom(body);
      navigate(`/r/${encodeURIComponent(created.room)}`);
    } catch (err) {
      await refused(err);
    }
  }

  /**
   * @param {string} roomId
   */
  async function joinTable(roomId) {
    try {
      await api.join(roomId, store.get().me?.name ?? playerName(""));
      navigate(`/r/${encodeURIComponent(roomId)}`);
    } catch (err) {
      if (err instanceof ApiError && err.status === 409) {
        store.update((s) => ({
          ...s,
          lobby: { ...s.lobby, error: t("error.room_full") },
        }));
        return;
      }
      await refused(err);
    }
  }

  /**
   * @param {string} name   "form.<field>" or "quickForm.<field>"
   * @param {string|number} value
   * @param {HTMLElement|undefined} el
   */
  function lobbyField(name, value, el) {
    const [part, key] = name.split(".");
    const formName = part === "quickForm" ? "quickForm" : "form";
    const v =
      el instanceof HTMLInputElement && el.type === "checkbox" ? el.checked : value;
    store.update(
      (s) => {
        const form = { ...s.lobby[formName], [key]: v };
        // Friends play without a clock and unrated by default; public tables with both.
        if (formName === "form" && key === "visibility") {
          form.timer = v === "public" ? "30" : "off";
          form.rated = v === "public";
        }
        return { ...s, lobby: { ...s.lobby, [formName]: form } };
      },
      { silent: !["preset", "visibility", "spectators"].includes(key) },
    );
  }

  // One clock for everything that counts down between server messages.

  /**
   * The quick-match wait counted on this page's clock (the page's tick, every 250 ms from main.js).
   * @param {number} now  performance.now()
   */
  function tickQuick(now) {
    const state = store.get();
    const quick = state.lobby.quick;
    if (state.route.name !== "lobby" || !quick) return;
    const elapsed = Math.floor((now - quick.start) / 1000);
    if (elapsed === quick.elapsed) return;
    const offered = quick.offered || elapsed >= QUICK_OFFER_S;
    const el = document.getElementById("quick-elapsed");
    if (offered !== quick.offered || !el) {
      store.update((s) => ({
        ...s,
        lobby: { ...s.lobby, quick: { ...quick, elapsed, offered } },
      }));
      if (offered && !quick.offered) say(t("lobby.quick.computer.hint"));
    } else {
      store.update(
        (s) => ({ ...s, lobby: { ...s.lobby, quick: { ...quick, elapsed } } }),
        { silent: true },
      );
      el.textContent = t("lobby.quick.seconds", { s: elapsed });
    }
  }

  function closeLobby() {
    if (lobbySocket) lobbySocket.close();
    lobbySocket = null;
  }

  return {
    enterPage,
    enterLobby,
    closeLobby,
    rename,
    quickMatch,
    cancelQuick,
    quickComputer,
    createTable,
    joinTable,
    lobbyField,
    tickQuick,
  };
}
