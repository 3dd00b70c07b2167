// A chouette room's intents (docs/protocol.md, "Chouette rooms"): open one from the start
// page, enter it by its link (to play, take a seat as the table parts' `join` does, or watch), advise, ask the computer partners,
// the team chat, the next round and the next match. Its page module (pages/chouette.js) wires
// them to commands; they change the state only through the store.
import { api, ApiError, ensureToken, storedToken } from "../api.js";
import { t } from "../i18n.js";
import { NAME_KEY, remembered, friendlyName, playerName } from "../prefs.js";
import { chatText } from "../store.js";
import { initialChouette } from "./state.js";

/** @typedef {import("../types.js").State} State */
/** @typedef {import("../types.js").HomeForm} HomeForm */

/**
 * What chouette play needs of the page.
 * @typedef {object} App
 * @property {import("../store.js").Store} store
 * @property {(text: string) => void} say
 * @property {(path: string) => void} navigate
 * @property {(message: Record<string, unknown>) => boolean} send   on the room's socket
 * @property {(room: string, asPlayer: boolean) => void} connect    open the room's socket
 * @property {(name: string) => Promise<unknown>} adoptNickname
 * @property {() => import("../types.js").Limits} limits
 */

/**
 * The body of `POST /api/chouette` from the start page's form: the creator's seat, then
 * one entry per further seat (a friend, or a computer level).
 * @param {HomeForm} form
 */
export function chouetteBody(form) {
  const players = Number(form.players);
  const fields = /** @type {const} */ (["seat2", "seat3", "seat4", "seat5"]);
  const seats = ["me", ...fields.slice(0, players - 1).map((f) => form[f] || "friend")];
  return {
    seats,
    preset: form.preset,
    name: playerName(form.name),
    spectators: true,
    ...(form.preset === "first-to-knock"
      ? {}
      : { target_score: Number(form.roomTarget) }),
  };
}

/**
 * The intents, bound to the page.
 * @param {App} app
 */
export function chouettePlay({
  store,
  say,
  navigate,
  send,
  connect,
  adoptNickname,
  limits,
}) {
  /** @param {(s: State) => State} change */
  const update = (change) => store.update(change);

  /** Open a table from the start page's form and go to it. */
  async function create() {
    const body = chouetteBody(store.get().home.form);
    update((s) => ({ ...s, home: { ...s.home, busy: true, error: null } }));
    try {
      await ensureToken();
      await adoptNickname(body.name);
      const created = await api.createChouette(body);
      navigate(`/c/${encodeURIComponent(created.room)}`);
    } catch (err) {
      const message =
        err instanceof ApiError && err.status
          ? t("error.generic", { message: err.message || err.code })
          : t("error.network");
      update((s) => ({ ...s, home: { ...s.home, busy: false, error: message } }));
    }
  }

  /**
   * Enter a table by its link: as its player, to take a free seat, or to watch.
   * @param {string} roomId
   */
  async function enter(roomId) {
    update((s) => ({ ...s, chouette: initialChouette() }));
    let info;
    try {
      info = await api.chouette(roomId);
    } catch (err) {
      const error =
        err instanceof ApiError && err.status === 404 ? null : t("error.network");
      update((s) => ({ ...s, room: { ...s.room, phase: "unknown", error } }));
      return;
    }
    if (store.get().route.room !== roomId) return;
    /** The table's info taken in, and the page's phase (with what else the room needs). */
    const withInfo = (/** @type {string} */ phase, extra = {}) =>
      update((s) => ({
        ...s,
        room: { ...s.room, phase, ...extra },
        chouette: { ...(s.chouette ?? initialChouette()), room: info },
      }));
    if (Number.isInteger(info.your_position)) {
      withInfo("table");
      connect(roomId, true);
      return;
    }
    const free = (info.seats ?? []).some((/** @type {unknown} */ seat) => !seat);
    if (free) {
      let known = null;
      if (storedToken()) {
        try {
          known = (await api.me()).player?.name ?? null;
        } catch {
          known = null;
        }
      }
      withInfo("join", { joinName: known ?? remembered(NAME_KEY) ?? friendlyName() });
      return;
    }
    if (info.spectators) {
      withInfo("table");
      connect(roomId, false);
      say(`${t("chouette.join.full")} ${t("join.watch")}`);
      return;
    }
    withInfo("nospect");
  }

  /**
   * Point the captain at an action or a card (a partner's advice; not game state).
   * @param {"action"|"card"} kind
   * @param {string} what
   */
  function advise(kind, what) {
    const state = store.get();
    const c = state.chouette;
    if (!c || c.role !== "partner" || state.version === null) return;
    if (send({ type: "advice", version: state.version, [kind]: what })) {
      update((s) => ({
        ...s,
        chouette: s.chouette && {
          ...s.chouette,
          sent: { version: state.version ?? 0, what },
        },
      }));
    }
  }

  function askAdvice() {
    const state = store.get();
    if (state.version === null) return;
    if (send({ type: "ask_advice", version: state.version })) {
      update((s) => ({
        ...s,
        chouette: s.chouette && {
          ...s.chouette,
          sent: { version: state.version ?? 0, what: "ask" },
        },
      }));
      say(t("chouette.asked"));
    }
  }

  function sendTeamChat() {
    const c = store.get().chouette;
    const text = c ? chatText(c.team.draft, limits()) : null;
    if (!text) return;
    if (send({ type: "team_chat", text })) {
      update((s) => ({
        ...s,
        chouette: s.chouette && {
          ...s.chouette,
          team: { ...s.chouette.team, draft: "" },
        },
      }));
    }
  }

  /**
   * A text field of the table changed (the team chat's draft).
   * @param {string} value
   */
  function teamDraft(value) {
    store.update(
      (s) => ({
        ...s,
        chouette: s.chouette && {
          ...s.chouette,
          team: { ...s.chouette.team, draft: value },
        },
      }),
      { silent: true },
    );
  }

  /** The commands (data-cmd) a chouette table handles itself. @type {Record<string, (arg: string) => unknown>} */
  const commands = {
    advise: (action) => advise("action", action),
    "advise-card": (card) => advise("card", card),
    "ask-advice": () => askAdvice(),
    "send-team-chat": () => sendTeamChat(),
    "team-phrase": (phrase) => send({ type: "team_chat", phrase }),
    "next-round": () => send({ type: "next_round" }),
    "next-match": () => send({ type: "next_match" }),
  };

  return { create, enter, commands, teamDraft };
}
