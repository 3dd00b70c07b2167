// What every table shares (docs/architecture.md, "The browser client"): its transport (the
// server's socket, or a game on this device), the frames it receives folded by the page's
// fold and announced, a move sent, taking a free seat, and the table's commands (the hand,
// the round's end, chat, resigning). The two-player room (pages/room.js), the device game
// (pages/device.js) and every other table page are made of these parts, each with its
// own fold and its own commands besides.
import { ApiError, storedToken } from "../api.js";
import { GameSocket } from "../socket.js";
import {
  afterOwnDecision,
  tipsSwitch,
  wantsTip,
  handOrder,
  moveCard,
  placeCard,
} from "../store.js";
import { copyField } from "../dom.js";
import { announcementText, tipText } from "../words.js";
import { t } from "../i18n.js";
import { patchClocks } from "../table.js";
import { chatIntents, resetChat } from "../chat.js";
import { cardName, sortedByRank, sortedBySuit } from "../cards.js";
import { afterPaint } from "../offline.js";
import { confirmSeed, seedMessage } from "../fair/seed.js";
import { playerName } from "../prefs.js";
import { routeOf } from "../routes.js";

/** @typedef {import("../types.js").State} State */
/** @typedef {import("../types.js").ServerMessage} ServerMessage */
/** @typedef {import("../types.js").Announcement} Announcement */
/** @typedef {import("../pages.js").Command} Command */
/** @typedef {(state: State, msg: ServerMessage) => {state: State, announce: Announcement[]}} Fold */

/**
 * What the table's parts need of the page (main.js).
 * @typedef {object} Host
 * @property {import("../store.js").Store} store
 * @property {(text: string) => void} say
 * @property {(path: string, options?: {replace?: boolean}) => void} navigate
 * @property {() => import("../types.js").Limits} limits
 * @property {import("../me.js").Me} me
 * @property {Fold} fold   the page's fold of a frame (pages.js Page.fold)
 * @property {(route: import("../types.js").Route) => void} enter   show a route's page again
 */

/**
 * @typedef {object} TableParts
 * @property {(roomId: string) => void} connect   open the server's socket of a room (a seat's
 *   or a watcher's, as the stored token says)
 * @property {(transport: GameSocket|import("../device/game.js").DeviceGame) => void} use   play over a transport
 * @property {() => GameSocket|import("../device/game.js").DeviceGame|null} transport
 * @property {(msg: object) => boolean} send
 * @property {(msg: ServerMessage) => void} receive   a frame from the transport
 * @property {() => void} close   close the transport and forget the chat
 * @property {(take: (room: string, name: string) => Promise<unknown>) => Promise<void>} join
 *   take a free seat (with `take`, the page's kind of room's) with the name typed, then connect
 * @property {(action: string) => void} act   send a legal move
 * @property {(card: string, delta: number) => void} move   move a card of the hand by `delta`
 * @property {(card: string, target: string|null, after: boolean) => void} place   drop a card before or after another
 * @property {Record<string, Command>} commands   the commands every table has
 * @property {(name: string, value: string) => boolean} field   the chat's draft and the join form's name
 * @property {(now: number) => void} tick   the move timers between frames
 * @property {Promise<ReturnType<import("../device/play.js").devicePlay>>} device
 *   games on this device (web/js/device/play.js), loaded after the first paint
 */

/**
 * @param {Host} host
 * @returns {TableParts}
 */
export function tableParts({ store, say, navigate, limits, me, fold, enter }) {
  /** The table's transport: the server's socket, or a game on this device (docs/device.md).
   * @type {GameSocket|import("../device/game.js").DeviceGame|null} */
  let socket = null;
  /** @param {object} msg */
  const send = (msg) => socket?.send(/** @type {any} */ (msg)) ?? false;

  function close() {
    if (socket) socket.close();
    socket = null;
    resetChat();
  }

  /** @param {ServerMessage} raw */
  function receive(raw) {
    /** @type {ServerMessage} */
    const msg = { ...raw, receivedAt: performance.now() };
    const { state, announce } = fold(store.get(), msg);
    let next = state;
    if (msg.type === "error" && msg.code === "stale_version") send({ type: "resync" });
    if (wantsTip(next) && send({ type: "tip" })) {
      next = { ...next, tips: { ...next.tips, requested: next.version } };
    }
    store.update(next);
    // The server committed to its seed for the next deal: send this seat's own.
    if (msg.type === "view") confirmSeed(next.fair);
    if (msg.type === "view")
      seedMessage(next.fair, next.seat).then((seed) => seed && send(seed));
    for (const item of announce) say(announcementText(next, item));
    if (msg.type === "tip" && next.tips.tip) say(tipText(next.tips.tip));
    if (msg.type === "error" && msg.code.startsWith("tips_") && next.tips.message)
      say(t(next.tips.message));
  }

  /**
   * @param {string} roomId
   */
  function connect(roomId) {
    close();
    socket = new GameSocket({
      room: roomId,
      // A watcher's identity too: the room knows who writes in its chat, and friends
      // see where they are; a token that holds no seat here only watches.
      token: () => storedToken(),
      onMessage: receive,
      onConnection: (connection) => {
        const before = store.get().connection;
        if (connection.connected && before.everConnected && !before.connected)
          say(t("conn.back"));
        store.update((s) => ({
          ...s,
          connection: {
            ...connection,
            everConnected: s.connection.everConnected || connection.connected,
          },
        }));
      },
    });
    socket.open();
  }

  /** @param {string} action */
  function act(action) {
    const state = store.get();
    if (!socket || !state.view || !state.view.legal_actions.includes(action)) return;
    if (socket.send({ type: "act", version: state.version, action })) {
      store.update((s) => ({ ...afterOwnDecision(s), notice: null, pending: s.version }));
    }
  }

  /** @param {(room: string, name: string) => Promise<unknown>} take */
  async function join(take) {
    const state = store.get();
    const roomId = state.route.room;
    if (!roomId) return;
    const name = playerName(state.room.joinName);
    try {
      await me.adopt(name);
      await take(roomId, name);
      store.update((s) => ({ ...s, room: { ...s.room, phase: "table", error: null } }));
      connect(roomId);
    } catch (err) {
      if (err instanceof ApiError && err.status === 409) {
        enter(routeOf(location.pathname));
        return;
      }
      const message =
        err instanceof Error && err.message ? err.message : t("error.network");
      store.update((s) => ({ ...s, room: { ...s.room, error: message } }));
    }
  }

  /** @param {HTMLElement|undefined} el */
  async function copyInvite(el) {
    const ok = await copyField("invite-link", location.href);
    say(ok ? t("ann.copied") : t("ann.copy_failed"));
    store.update((s) => ({ ...s, copied: ok }));
    el?.focus();
  }

  const chat = chatIntents({ store, say, send, limits });

  /** @type {Record<string, Command>} */
  const commands = {
    // The server decides: it answers with `tips` (then a tip is asked for) or an error.
    tips: () => send(tipsSwitch(store.get())),
    choose: (kind) => store.update((s) => ({ ...s, choose: kind || null })),
    sort: () => store.update((s) => ({ ...s, manualOrder: null })),
    // Sorted once, then kept like a dragged order (drawn cards join at the end).
    "sort-suit": () =>
      store.update((s) => ({
        ...s,
        manualOrder: sortedBySuit(handOrder(s.view, s.manualOrder)),
      })),
    "sort-rank": () =>
      store.update((s) => ({
        ...s,
        manualOrder: sortedByRank(handOrder(s.view, s.manualOrder)),
      })),
    "next-round": () => send({ type: "next_round", version: store.get().version }),
    "new-match": () => send({ type: "new_match", version: store.get().version }),
    // The result's dialog (results.js resultPlace): closed, it leaves a button that opens it again.
    "close-result": (key) => store.update((s) => ({ ...s, resultClosed: key })),
    "show-result": () => store.update((s) => ({ ...s, resultClosed: null })),
    "score-sheet": () => store.update((s) => ({ ...s, sheetOpen: true })),
    "score-sheet-close": () => store.update((s) => ({ ...s, sheetOpen: false })),
    "copy-invite": (_arg, el) => copyInvite(el),
    "send-chat": () => chat.send(),
    phrase: (phrase) => send({ type: "chat", phrase }),
    mute: (key) => chat.toggleMute(key),
    claim: () => send({ type: "claim" }),
    "claim-wait": () => {
      store.update((s) => ({ ...s, claimDismissed: true }));
      say(t("claim.waiting.ann"));
    },
    resign: () => store.update((s) => ({ ...s, confirmResign: !s.confirmResign })),
    "resign-no": () => store.update((s) => ({ ...s, confirmResign: false })),
    "resign-yes": () => {
      send({ type: "resign" });
      store.update((s) => ({ ...s, confirmResign: false }));
    },
  };

  /**
   * @param {string} name
   * @param {string} value
   */
  function field(name, value) {
    if (name === "chatDraft")
      store.update((s) => ({ ...s, chat: { ...s.chat, draft: value } }), {
        silent: true,
      });
    else if (name === "joinName")
      store.update((s) => ({ ...s, room: { ...s.room, joinName: value } }), {
        silent: true,
      });
    else return false;
    return true;
  }

  /** @param {number} now */
  function tick(now) {
    const state = store.get();
    if (state.view && patchClocks(state, now)) store.update((s) => ({ ...s }));
  }

  /**
   * @param {string} card
   * @param {number} delta
   */
  function move(card, delta) {
    const state = store.get();
    const order = moveCard(handOrder(state.view, state.manualOrder), card, delta);
    store.update((s) => ({ ...s, manualOrder: order }));
    say(t("ann.moved", { card: cardName(card), n: order.indexOf(card) + 1 }));
  }

  /**
   * @param {string} card
   * @param {string|null} target   null: the end of the hand
   * @param {boolean} after
   */
  function place(card, target, after) {
    const state = store.get();
    const order = placeCard(
      handOrder(state.view, state.manualOrder),
      card,
      target,
      after,
    );
    store.update((s) => ({ ...s, manualOrder: order }));
  }

  const device = afterPaint()
    .then(() => import("../device/play.js"))
    .then((m) =>
      m.devicePlay({
        store,
        receive: (msg) => receive(msg),
        navigate: (path) => navigate(path),
        say: (text) => say(text),
        delayMs: Number(Reflect.get(globalThis, "ginrummyDeviceDelayMs") ?? 600), // a test hook (docs/device.md)
      }),
    );

  return {
    connect,
    use: (transport) => {
      socket = transport;
    },
    transport: () => socket,
    send,
    receive,
    close,
    join,
    act,
    move,
    place,
    commands,
    field,
    tick,
    device,
  };
}
