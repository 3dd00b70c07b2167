// The client state: the last server view plus a little presentation state (language,
// hand order, tips switch, connection). Messages are folded in by pure functions.

/** @typedef {import("./types.js").State} State */
/** @typedef {import("./types.js").View} View */
/** @typedef {import("./types.js").Seat} Seat */
/** @typedef {import("./types.js").Players} Players */
/** @typedef {import("./types.js").Limits} Limits */
/** @typedef {import("./types.js").Timer} Timer */
/** @typedef {import("./types.js").TipsState} TipsState */
/** @typedef {import("./types.js").ChatMessage} ChatMessage */
/** @typedef {import("./types.js").Announcement} Announcement */
/** @typedef {import("./types.js").ServerMessage} ServerMessage */

/** @type {readonly Seat[]} */
const SEATS = ["one", "two"];

/** @returns {State} */
export function initialState() {
  return {
    lang: "en",
    route: { name: "home", room: null },
    home: {
      levels: [],
      games: [],
      busy: false,
      error: null,
      deviceGames: [],
      tally: null,
      form: {
        level: null,
        soloTarget: 100,
        preset: "standard",
        roomTarget: 100,
        seat2: "friend",
        name: "",
        players: 2,
        seat3: "friend",
        seat4: "friend",
        seat5: "friend",
      },
    },
    room: { phase: "loading", info: null, error: null, joinName: "" },
    seat: null,
    seating: null,
    info: null,
    view: null,
    version: null,
    players: null,
    connection: { connected: false, retryIn: null, everConnected: false },
    animation: null,
    lastMoves: [],
    fresh: [],
    pending: null,
    manualOrder: null,
    choose: null,
    tips: {
      allowed: false,
      on: false,
      left: 0,
      requested: null,
      tip: null,
      message: null,
    },
    notice: null,
    fourColour: false,
    largeCards: false,
    turnSound: false,
    deviceNoteHidden: false, // the "played on this device" note was dismissed (remembered)
    settingsOpen: false, // the top bar's settings menu is open (a narrow window)
    sheetOpen: false, // the score sheet (sheet.js) is open
    resultClosed: null, // the result whose dialog the person closed (results.js resultKey)
    copied: false,
    // Public play.
    me: null,
    lobby: {
      data: null,
      connected: false,
      error: null,
      nickname: null,
      nicknameError: null,
      quick: null,
      form: {
        preset: "standard",
        target: 100,
        timer: "30",
        visibility: "public",
        rated: true,
        spectators: true,
        spectatorChat: false,
      },
      quickForm: { preset: "standard", target: 100, timer: "30" },
    },
    page: { status: "loading", data: null },
    // GET /api/config: the server's limits and quick phrases (loaded before the first page).
    config: null,
    chat: { messages: [], draft: "" },
    muted: [],
    timer: null,
    fair: null,
    watchers: null,
    playersAt: 0,
    claimDismissed: false,
    confirmResign: false,
    device: null, // a game on this device (docs/device.md)
    online: true, // navigator.onLine: false shows the pages that need the server as such
  };
}

/**
 * @typedef {object} Store
 * @property {() => State} get
 * @property {(change: ((s: State) => State)|Partial<State>, options?: {silent?: boolean}) => void} update
 *   replace the state with `change(state)` (or merge a patch); listeners re-render unless silent
 * @property {(listener: (s: State) => void) => () => void} subscribe
 */

/**
 * @param {State} state
 * @returns {Store}
 */
export function createStore(state) {
  let current = state;
  /** @type {Set<(s: State) => void>} */
  const listeners = new Set();
  return {
    get: () => current,
    update(change, { silent = false } = {}) {
      current =
        typeof change === "function" ? change(current) : { ...current, ...change };
      if (!silent) for (const listener of listeners) listener(current);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}

/**
 * The other side's moves since this seat's last one, shown on the table (marked, named in
 * the status) until the person acts: an `event` of `kind` by `seat` adds its move, or
 * clears them (an own move, a deal).
 * @param {State} state
 * @param {string|undefined} kind
 * @param {Seat|null|undefined} seat
 * @param {unknown} action
 * @param {string|null} top  the discard pile's top before the event
 * @returns {Announcement[]}
 */
export function followMoves(state, kind, seat, action, top) {
  if (kind === "deal" || (kind === "action" && seat === state.seat)) return [];
  if (kind !== "action" || !seat || typeof action !== "string") return state.lastMoves;
  return [...state.lastMoves, { kind: "move", seat, action, top }];
}

/** @param {View|null} view */
function roundKey(view) {
  return view
    ? `${view.table.round}:${view.table.match_phase === "over" ? "over" : ""}`
    : "";
}

/** @param {View|null} view */
function roundRunning(view) {
  return Boolean(
    view && view.table.match_phase === "round" && view.table.round_phase !== "over",
  );
}

/**
 * Fold one server message into the state. Returns the new state and the things worth
 * announcing in words (structured; the renderer turns them into text).
 * @param {State} state
 * @param {ServerMessage} msg
 * @returns {{state: State, announce: Announcement[]}}
 */
export function applyMessage(state, msg) {
  /** @type {Announcement[]} */
  const announce = [];
  let next = state;
  switch (msg.type) {
    case "welcome":
      next = {
        ...state,
        seat: msg.seat ?? null,
        info: msg.room ?? state.info,
        notice: null,
        watchers: msg.room?.watchers ?? state.watchers,
      };
      break;
    case "chat_history":
      next = {
        ...state,
        chat: { ...state.chat, messages: (msg.messages ?? []).slice(-CHAT_KEEP) },
      };
      break;
    case "chat": {
      if (!msg.message) break;
      const known = state.chat.messages.some(
        (m) => m.id != null && m.id === msg.message.id,
      );
      if (!known)
        next = {
          ...state,
          chat: {
            ...state.chat,
            messages: [...state.chat.messages, msg.message].slice(-CHAT_KEEP),
          },
        };
      break;
    }
    case "event": {
      const prevTop = state.view?.table.discard_pile.at(-1) ?? null;
      next = {
        ...state,
        animation: {
          version: msg.version,
          seat: msg.seat ?? null,
          action: msg.action ?? null,
          kind: msg.kind ?? null,
          top: prevTop,
        },
        lastMoves: followMoves(state, msg.kind, msg.seat, msg.action, prevTop),
      };
      if (typeof msg.action === "string" && msg.seat && msg.seat !== state.seat) {
        announce.push({ kind: "move", seat: msg.seat, action: msg.action, top: prevTop });
      }
      // A forfeit's reason is in the view that follows (match_result.forfeit), not here.
      break;
    }
    case "view":
      next = foldView(state, msg, announce);
      break;
    case "presence":
      next = {
        ...state,
        players: msg.players,
        playersAt: msg.receivedAt ?? 0,
        watchers: msg.watchers ?? state.watchers,
        claimDismissed: graceOver(msg.players) ? state.claimDismissed : false,
      };
      announce.push(...presenceChanges(state.players, msg.players, state.seat));
      break;
    case "tips": {
      next = { ...state, tips: tipsFromServer(state.tips, msg) };
      if (next.tips.on !== state.tips.on)
        announce.push({
          kind: "tips",
          on: next.tips.on,
          left: next.tips.left,
          message: next.tips.message,
        });
      break;
    }
    case "tip":
      if (state.tips.on)
        next = {
          ...state,
          tips: {
            ...state.tips,
            tip: /** @type {import("./types.js").Tip} */ (/** @type {unknown} */ (msg)),
            message: null,
          },
        };
      break;
    case "error":
      if (TIPS_ERRORS[msg.code]) {
        next = {
          ...state,
          tips: { ...state.tips, tip: null, message: TIPS_ERRORS[msg.code] },
        };
      } else {
        next = {
          ...state,
          pending: null,
          notice: { code: msg.code, message: msg.message ?? "" },
        };
      }
      break;
    default:
      break;
  }
  return { state: next, announce };
}

/**
 * A new view: the state it makes, and what changed that is worth saying (pushed onto
 * `announce`): a deal, a round's end, a forfeit with its reason, presence.
 * @param {State} state
 * @param {ServerMessage} msg
 * @param {Announcement[]} announce
 * @returns {State}
 */
function foldView(state, msg, announce) {
  /** @type {View} */
  const view = msg.view;
  const prev = state.view;
  const newRound = roundKey(prev) !== roundKey(view);
  const prevHand = new Set(prev?.hand ?? []);
  const fresh = newRound || !prev ? [] : view.hand.filter((card) => !prevHand.has(card));
  const tips =
    state.tips.tip && state.tips.tip.version !== msg.version
      ? { ...state.tips, tip: null }
      : state.tips;
  const forfeit = view.table.match_result?.forfeit;
  if (
    prev &&
    prev.table.match_phase !== "over" &&
    view.table.match_phase === "over" &&
    forfeit
  ) {
    announce.push({
      kind: "forfeit",
      seat: view.table.match_result?.forfeited_by ?? null,
      reason: forfeit,
    });
  } else if (
    prev &&
    roundRunning(prev) &&
    !roundRunning(view) &&
    view.table.match_phase !== "round"
  ) {
    announce.push({ kind: "round_end" });
  } else if (prev && !roundRunning(prev) && roundRunning(view)) {
    announce.push({ kind: "deal" });
  }
  if (msg.players)
    announce.push(...presenceChanges(state.players, msg.players, state.seat));
  return {
    ...state,
    view,
    version: msg.version,
    pending: null,
    players: msg.players ?? state.players,
    fresh,
    manualOrder: newRound ? null : state.manualOrder,
    choose:
      state.choose && view.legal_actions.some((a) => /^(knock|gin) /.test(a))
        ? state.choose
        : null,
    tips,
    animation:
      state.animation && state.animation.version === msg.version ? state.animation : null,
    timer: msg.timer ? { ...msg.timer, at: msg.receivedAt ?? 0 } : null,
    fair: msg.fair ?? null,
    watchers: msg.watchers ?? state.watchers,
    playersAt: msg.players ? (msg.receivedAt ?? 0) : state.playersAt,
    confirmResign: view.table.match_phase === "over" ? false : state.confirmResign,
  };
}

const CHAT_KEEP = 100;

/** @param {Players|null} players */
function graceOver(players) {
  return SEATS.some((seat) => players?.[seat]?.grace_remaining_ms === 0);
}

/**
 * Milliseconds left on the move timer at `now` (same clock as `receivedAt`).
 * @param {Timer|null} timer
 * @param {number} now
 */
export function timeLeft(timer, now) {
  if (!timer) return null;
  return Math.max(0, timer.remaining_ms - Math.max(0, now - (timer.at ?? 0)));
}

/**
 * Milliseconds left of `seat`'s grace period at `now`, or null when it has none.
 * @param {State} state
 * @param {Seat} seat
 * @param {number} now
 */
export function graceLeft(state, seat, now) {
  const ms = state.players?.[seat]?.grace_remaining_ms;
  if (typeof ms !== "number") return null;
  return Math.max(0, ms - Math.max(0, now - (state.playersAt ?? 0)));
}

/**
 * The key that mutes a chat author: the player id when known, else the tag.
 * @param {State} state
 * @param {{seat?: Seat|null, tag?: string, player?: string}|undefined} from
 * @returns {string}
 */
export function authorKey(state, from) {
  const seat = from?.seat;
  const player = seat
    ? (state.players?.[seat]?.player ?? state.info?.seats?.[seat]?.player)
    : null;
  return from?.player ?? player?.id ?? from?.tag ?? "";
}

/**
 * The chat messages to show: muted authors are left out (own messages always shown).
 * @param {State} state
 * @returns {ChatMessage[]}
 */
export function visibleChat(state) {
  const muted = new Set(state.muted);
  return state.chat.messages.filter(
    (m) =>
      (m.from?.seat && m.from.seat === state.seat) ||
      !muted.has(authorKey(state, m.from)),
  );
}

/**
 * A typed text as the server will see it: NFC, whitespace runs collapsed, trimmed.
 * @param {unknown} raw
 */
export function cleanText(raw) {
  return String(raw ?? "")
    .normalize("NFC")
    .split(/\s+/)
    .filter(Boolean)
    .join(" ");
}

/**
 * Length in code points, as the server counts (an emoji is one, not two).
 * @param {string} text
 */
function codePoints(text) {
  return [...text].length;
}

/**
 * Why a name is not acceptable under the served rule (a catalogue key and its
 * parameters), or null when it is. `limits` is `limits` of GET /api/config.
 * @param {unknown} name
 * @param {Limits} limits
 * @returns {{key: string, params: Record<string, number>}|null}
 */
export function nicknameProblem(name, limits) {
  const rule = limits.name;
  const clean = cleanText(name);
  if (codePoints(clean) < rule.min)
    return { key: "nick.too_short", params: { n: rule.min } };
  if (codePoints(clean) > rule.max)
    return { key: "nick.too_long", params: { n: rule.max } };
  if (!new RegExp(rule.pattern, "u").test(clean))
    return { key: "nick.bad_chars", params: {} };
  return null;
}

/**
 * Chat text as it will be sent, or null when there is nothing (or too much) to send.
 * @param {unknown} draft
 * @param {Limits} limits
 */
export function chatText(draft, limits) {
  const text = cleanText(draft);
  return text.length >= 1 && codePoints(text) <= limits.chat.max ? text : null;
}

/**
 * @param {Players|null} before
 * @param {Players|null} after
 * @param {Seat|null} mySeat
 * @returns {Announcement[]}
 */
function presenceChanges(before, after, mySeat) {
  /** @type {Announcement[]} */
  const out = [];
  if (!before || !after) return out;
  for (const seat of SEATS) {
    if (seat === mySeat) continue;
    const was = before[seat];
    const now = after[seat];
    if (!now || now.bot) continue;
    if (!was && now) out.push({ kind: "presence", seat, what: "joined" });
    else if (was && was.connected && !now.connected)
      out.push({ kind: "presence", seat, what: "away" });
    else if (was && !was.connected && now.connected)
      out.push({ kind: "presence", seat, what: "back" });
  }
  return out;
}

/** The state after this seat confirmed a decision: the shown tip is spent (the server counts). */
/** @param {State} state */
export function afterOwnDecision(state) {
  return {
    ...state,
    choose: null,
    lastMoves: [],
    tips: { ...state.tips, tip: null, message: null },
  };
}

/** The message that asks the server to switch tips over (it answers with `tips`). */
/** @param {State} state */
export function tipsSwitch(state) {
  return { type: "tips", on: !state.tips.on };
}

/** Catalogue keys of the tips errors (docs/protocol.md, Tips). */
/** @type {Record<string, string>} */
const TIPS_ERRORS = {
  tips_not_allowed: "tips.not_allowed",
  tips_off: "tips.off",
  tips_unavailable: "tips.unavailable",
};

/** The tips state after the server's `tips` message: it decides allowed, on and left. */
/**
 * @param {TipsState} before
 * @param {ServerMessage} msg
 * @returns {TipsState}
 */
function tipsFromServer(before, msg) {
  const allowed = Boolean(msg.allowed);
  const on = allowed && Boolean(msg.on);
  const left = Number.isInteger(msg.left) ? Math.max(0, msg.left) : 0;
  if (on)
    return { ...before, allowed, on, left, message: before.on ? before.message : null };
  let message = null;
  if (before.on) message = left === 0 ? "tips.done" : "tips.off";
  return { allowed, on: false, left, requested: null, tip: null, message };
}

/**
 * Whether the coach should be asked now (tips on, this seat decides, not asked yet).
 * @param {State} state
 */
export function wantsTip(state) {
  const view = state.view;
  return Boolean(
    state.tips.allowed &&
    state.tips.on &&
    view &&
    state.seat &&
    view.legal_actions.length > 0 &&
    state.tips.requested !== state.version,
  );
}

/**
 * The own hand in display order: melds grouped first (as the server arranged them), then
 * deadwood; or the player's manual order, with newly drawn cards appended.
 * @param {View|null} view
 * @param {string[]|null} manualOrder
 * @returns {string[]}
 */
export function handOrder(view, manualOrder) {
  if (!view) return [];
  const hand = view.hand;
  if (manualOrder) {
    const inHand = new Set(hand);
    const kept = manualOrder.filter((card) => inHand.has(card));
    const keptSet = new Set(kept);
    return [...kept, ...hand.filter((card) => !keptSet.has(card))];
  }
  const arrangement = view.arrangement;
  if (!arrangement) return [...hand];
  const ordered = [...arrangement.melds.flat(), ...arrangement.deadwood_cards];
  const seen = new Set(ordered);
  return [
    ...ordered.filter((card) => hand.includes(card)),
    ...hand.filter((card) => !seen.has(card)),
  ];
}

/**
 * Meld index of each card of the own hand (undefined for deadwood).
 * @param {View|null} view
 */
export function meldIndex(view) {
  /** @type {Map<string, number>} */
  const index = new Map();
  (view?.arrangement?.melds ?? []).forEach((meld, i) =>
    meld.forEach((card) => index.set(card, i)),
  );
  return index;
}

/**
 * Move `card` by `delta` places in the displayed order; returns the new manual order.
 * @param {string[]} order
 * @param {string} card
 * @param {number} delta
 */
export function moveCard(order, card, delta) {
  const from = order.indexOf(card);
  if (from < 0) return order;
  const to = Math.max(0, Math.min(order.length - 1, from + delta));
  const next = order.filter((c) => c !== card);
  next.splice(to, 0, card);
  return next;
}

/**
 * Put `card` before `target` (or at the end when target is null), or after it.
 * @param {string[]} order
 * @param {string} card
 * @param {string|null} target
 * @param {boolean} [after]
 */
export function placeCard(order, card, target, after = false) {
  if (card === target) return order;
  const next = order.filter((c) => c !== card);
  if (target === null) return [...next, card];
  const at = next.indexOf(target);
  if (at < 0) return order;
  next.splice(after ? at + 1 : at, 0, card);
  return next;
}

/**
 * Legal actions of a kind ("discard", "knock", "gin") keyed by card.
 * @param {View|null} view
 * @param {string} kind
 */
export function actionsByCard(view, kind) {
  /** @type {Map<string, string>} */
  const out = new Map();
  for (const action of view?.legal_actions ?? []) {
    const [verb, card] = splitAction(action);
    if (verb === kind && card) out.set(card, action);
  }
  return out;
}

/**
 * An action's verb and card: "discard Qs" is ["discard", "Qs"], "pass" is ["pass", null].
 * @param {string} action
 * @returns {[string, string|null]}
 */
export function splitAction(action) {
  const parts = String(action).trim().split(/\s+/);
  const last = parts[parts.length - 1];
  if (parts.length >= 2 && /^[2-9TJQKA][cdhs]$/i.test(last))
    return [parts.slice(0, -1).join(" "), last];
  return [parts.join(" "), null];
}

const RANK_ORDER = "A23456789TJQK";

/**
 * The knock (or gin) the big button plays: among the legal ones, a card the server counts
 * as deadwood, highest rank first. Legality is the server's; this only picks among them.
 * @param {View} view
 * @param {string} kind
 * @returns {string|null}
 */
export function preferredCardAction(view, kind) {
  const options = actionsByCard(view, kind);
  if (options.size === 0) return null;
  const deadwood = new Set(view.arrangement?.deadwood_cards ?? []);
  const cards = [...options.keys()].sort((a, b) => {
    const dead = Number(deadwood.has(b)) - Number(deadwood.has(a));
    return (
      dead ||
      RANK_ORDER.indexOf(b[0].toUpperCase()) - RANK_ORDER.indexOf(a[0].toUpperCase())
    );
  });
  return options.get(cards[0]) ?? null;
}
