// A chouette table in the client state (docs/protocol.md, "Chouette rooms"; docs/rules.md
// §8): the page's own part of the state (`chouette`), folded from its frames by pure
// functions. Its match is the table's part of the state (`seat`, `view`, `players`,
// `timer`), which the shared parts draw: seat one is the box, seat two the team, played by
// its captain; `seating` tells those parts how the sides are called and that a partner
// sees the captain's seat without playing it. Frames a chouette has as a two-player room
// has them (chat, tips, errors) go to the two-player fold (store.js applyMessage).
import { applyMessage, splitAction, followMoves } from "../store.js";
import { t, has, computerName } from "../i18n.js";
import { cardName } from "../cards.js";

/** @typedef {import("../types.js").State} State */
/** @typedef {import("../types.js").Seat} Seat */
/** @typedef {import("../types.js").ChouetteState} ChouetteState */
/** @typedef {import("../types.js").ChouetteInfo} ChouetteInfo */
/** @typedef {import("../types.js").ChouettePlayer} ChouettePlayer */
/** @typedef {import("../types.js").PlayerEntry} PlayerEntry */
/** @typedef {import("../types.js").Seating} Seating */
/** @typedef {import("../types.js").Suggestion} Suggestion */
/** @typedef {import("../types.js").ServerMessage} ServerMessage */
/** @typedef {import("../types.js").Announcement} Announcement */

const TEAM_KEEP = 100;

/** @returns {ChouetteState} */
export function initialChouette() {
  return {
    position: null,
    role: null,
    info: null,
    advice: [],
    players: [],
    room: null,
    suggestions: [],
    team: { messages: [], draft: "" },
    sent: null,
  };
}

/**
 * The match seat of a position: the box plays seat one, every team member's view is the
 * team's seat two (docs/bot-protocol.md, Chouette: `chouette.seats`).
 * @param {ChouetteInfo|null} info
 * @param {number|null|undefined} position
 * @returns {Seat|null}
 */
export function seatOfPosition(info, position) {
  if (!info || position === null || position === undefined) return null;
  return position === info.box ? "one" : "two";
}

/**
 * The position that plays a match seat now: the box, or the team's captain.
 * @param {ChouetteInfo} info
 * @param {Seat} seat
 */
export function positionOfSeat(info, seat) {
  return seat === "one" ? info.box : info.captain;
}

/**
 * The name a seat is shown with: its own (a computer's: its level's in the page's
 * language), with the seat's number when another seat has the same name (computers of
 * one level are all called by it).
 * @param {({name: string, bot?: string|null}|null|undefined)[]} players
 * @param {number} position
 */
export function shownName(players, position) {
  const base = (/** @type {{name: string, bot?: string|null}|null|undefined} */ p) =>
    p?.bot ? computerName(p.bot) : (p?.name ?? "");
  const name = base(players[position]);
  const twin = players.some((q, i) => i !== position && q && base(q) === name);
  return twin ? `${name} ${position + 1}` : name;
}

/**
 * A chouette seat as the two-player table shows a player.
 * @param {(ChouettePlayer|null)[]} players
 * @param {number} position
 * @returns {PlayerEntry|null}
 */
function entry(players, position) {
  const p = players[position];
  if (!p) return null;
  return {
    name: shownName(players, position),
    bot: p.bot,
    connected: p.connected,
    ready: p.ready,
    rematch: p.next_match,
    grace_remaining_ms: p.grace_remaining_ms ?? null,
    named: true, // shownName: computers of one level are told apart by their seat
  };
}

/**
 * The two-player `players` of a chouette table: the box and the captain.
 * @param {ChouetteInfo} info
 * @param {(ChouettePlayer|null)[]} players
 */
export function matchPlayers(info, players) {
  return { one: entry(players, info.box), two: entry(players, info.captain) };
}

/**
 * How the shared parts show the match to this page's position: the box's side is seat
 * one, the team's (all its members) seat two; a partner sees the captain's seat without
 * playing it.
 * @param {ChouetteInfo} info
 * @param {number|null} position
 * @param {ChouetteState["role"]} role
 * @returns {Seating}
 */
export function seating(info, position, role) {
  const team = position !== null && position !== info.box;
  return {
    plays: role !== "partner",
    sides: {
      one:
        position === info.box
          ? { key: "name.you" }
          : { key: "chouette.side.box", seat: "one" },
      two: { key: team ? "chouette.side.your_team" : "chouette.side.team" },
    },
    match: info.number,
  };
}

/**
 * How a position is called on this page: "You", the name its seat was taken with, or a
 * fallback while the seat is free.
 * @param {State} state
 * @param {number|null|undefined} position
 */
export function positionName(state, position) {
  if (position === null || position === undefined) return "";
  const c = state.chouette;
  if (c && c.position === position) return t("name.you");
  const seats = c?.players.length ? c.players : (c?.room?.seats ?? []);
  const p = seats[position];
  if (p?.name) return shownName(seats, position);
  return p?.bot ? t("name.computer") : t("chouette.seat_free", { n: position + 1 });
}

/**
 * Whether every seat of the table is taken (the match starts then).
 * @param {ChouetteState} c
 */
export function tableFull(c) {
  const total = c.info?.players ?? c.room?.players ?? 0;
  return total > 0 && c.players.length === total && c.players.every(Boolean);
}

/**
 * Whether this page's player takes part in the next round's deal (the box and the
 * captain who plays it; docs/protocol.md `next_round`).
 * @param {ChouetteState} c
 */
export function playsNextRound(c) {
  return (
    c.info !== null &&
    c.position !== null &&
    (c.position === c.info.box || c.position === c.info.captain)
  );
}

/**
 * Fold one server message of a chouette room into the state.
 * @param {State} state
 * @param {ServerMessage} msg
 * @returns {{state: State, announce: Announcement[]}}
 */
export function applyChouetteMessage(state, msg) {
  const c = state.chouette ?? initialChouette();
  switch (msg.type) {
    case "welcome": {
      const position = Number.isInteger(msg.position) ? msg.position : null;
      return {
        state: {
          ...state,
          chouette: { ...c, position, room: msg.room ?? c.room },
          notice: null,
          watchers: msg.room?.watchers ?? state.watchers,
        },
        announce: [],
      };
    }
    case "view":
      return foldChouetteView(state, c, msg);
    case "presence": {
      const players = Array.isArray(msg.players) ? msg.players : c.players;
      const announce = presenceChanges(state, c.players, players);
      const projected = c.info ? matchPlayers(c.info, players) : state.players;
      return {
        state: {
          ...state,
          chouette: { ...c, players },
          players: projected,
          playersAt: msg.receivedAt ?? 0,
          watchers: msg.watchers ?? state.watchers,
        },
        announce,
      };
    }
    case "event":
      return foldEvent(state, c, msg);
    case "advice": {
      if (
        typeof msg.version !== "number" ||
        (state.version !== null && msg.version < state.version)
      )
        return { state, announce: [] };
      /** @type {Suggestion} */
      const s = {
        version: msg.version,
        from: msg.from,
        action: msg.action ?? null,
        card: msg.card ?? null,
      };
      const others = c.suggestions.filter(
        (old) => old.from?.position !== s.from?.position,
      );
      const next = { ...state, chouette: { ...c, suggestions: [...others, s] } };
      const mine = s.from?.position === c.position;
      return {
        state: next,
        announce: mine ? [] : [{ kind: "text", text: suggestionText(next, s) }],
      };
    }
    case "team_chat_history":
      return {
        state: {
          ...state,
          chouette: {
            ...c,
            team: { ...c.team, messages: (msg.messages ?? []).slice(-TEAM_KEEP) },
          },
        },
        announce: [],
      };
    case "team_chat": {
      if (!msg.message) return { state, announce: [] };
      const known = c.team.messages.some((m) => m.id != null && m.id === msg.message.id);
      const messages = known
        ? c.team.messages
        : [...c.team.messages, msg.message].slice(-TEAM_KEEP);
      return {
        state: { ...state, chouette: { ...c, team: { ...c.team, messages } } },
        announce: [],
      };
    }
    default:
      return applyMessage(state, msg);
  }
}

/**
 * A chouette view: the chouette part, and the match as the two-player table shows it.
 * @param {State} state
 * @param {ChouetteState} c
 * @param {ServerMessage} msg
 */
function foldChouetteView(state, c, msg) {
  const wrapped = msg.view ?? {};
  /** @type {ChouetteInfo} */
  const info = wrapped.chouette;
  const position = Number.isInteger(wrapped.position) ? wrapped.position : null;
  const players = Array.isArray(msg.players) ? msg.players : c.players;
  const seat = seatOfPosition(info, position);
  const timer =
    msg.timer && Number.isInteger(msg.timer.position)
      ? {
          seat: seatOfPosition(info, msg.timer.position) ?? "one",
          remaining_ms: msg.timer.remaining_ms,
          total_ms: msg.timer.total_ms,
        }
      : null;
  /** @type {ChouetteState} */
  const next = {
    ...c,
    position,
    role: wrapped.role ?? null,
    info,
    advice: Array.isArray(wrapped.advice) ? wrapped.advice : [],
    players,
    suggestions: c.suggestions.filter((s) => s.version >= msg.version),
    sent: c.sent && c.sent.version >= msg.version ? c.sent : null,
  };
  const announce = c.info ? presenceChanges(state, c.players, players) : [];
  if (c.info && c.info.number !== info.number)
    announce.push({
      kind: "text",
      text:
        next.position === info.box
          ? t("chouette.ann.next_match.you", { n: info.number })
          : t("chouette.ann.next_match", {
              n: info.number,
              box: positionName({ ...state, chouette: next }, info.box),
            }),
    });
  const before = {
    ...state,
    seat,
    seating: seating(info, position, next.role),
    chouette: next,
  };
  // `fair` as in two-player rooms: seat one the box, seat two that round's captain.
  const folded = applyMessage(before, {
    ...msg,
    view: wrapped.view,
    players: undefined,
    timer,
    fair: msg.fair ?? null,
  });
  return {
    state: {
      ...folded.state,
      players: matchPlayers(info, players),
      playersAt: msg.players ? (msg.receivedAt ?? 0) : state.playersAt,
    },
    announce: [...folded.announce, ...announce],
  };
}

/**
 * An `event`: its animation (by match seat), and a move of someone else said aloud.
 * @param {State} state
 * @param {ChouetteState} c
 * @param {ServerMessage} msg
 */
function foldEvent(state, c, msg) {
  const seat = seatOfPosition(c.info, msg.position);
  /** @type {Announcement[]} */
  const announce = [];
  const top = state.view?.table.discard_pile.at(-1) ?? null;
  if (
    typeof msg.action === "string" &&
    msg.kind === "action" &&
    msg.position !== c.position &&
    seat
  ) {
    announce.push({ kind: "move", seat, action: msg.action, top });
  }
  return {
    state: {
      ...state,
      animation: {
        version: msg.version,
        seat,
        action: msg.action ?? null,
        kind: msg.kind ?? null,
        top,
      },
      lastMoves: followMoves(state, msg.kind, seat, msg.action, top),
    },
    announce,
  };
}

/**
 * People who took a seat, went away or came back (not this page's player, not computers).
 * @param {State} state
 * @param {(ChouettePlayer|null)[]} before
 * @param {(ChouettePlayer|null)[]} after
 * @returns {Announcement[]}
 */
function presenceChanges(state, before, after) {
  /** @type {Announcement[]} */
  const out = [];
  after.forEach((now, position) => {
    const was = before[position];
    if (!now || now.bot || position === state.chouette?.position) return;
    const name = now.name;
    if (!was) out.push({ kind: "text", text: t("ann.presence.joined", { name }) });
    else if (was.connected && !now.connected)
      out.push({ kind: "text", text: t("ann.presence.away", { name }) });
    else if (!was.connected && now.connected)
      out.push({ kind: "text", text: t("ann.presence.back", { name }) });
  });
  return out;
}

/**
 * An action (or a card pointed at) in words: "discard Queen of spades".
 * @param {string|null} action
 * @param {string|null} [card]
 */
export function choiceText(action, card = null) {
  if (card) return t("chouette.choice.card", { card: cardName(card) });
  const [verb, actionCard] = splitAction(action ?? "");
  const key = `tip.choice.${verb.replace(" ", "_")}`;
  return has(key)
    ? t(key, { card: actionCard ? cardName(actionCard) : "" })
    : (action ?? "");
}

/**
 * "Cleo suggests: discard Queen of spades." (the adviser's name, "you" for one's own).
 * @param {State} state
 * @param {Suggestion} s
 */
export function suggestionText(state, s) {
  const position = s.from?.position;
  const seated =
    typeof position === "number" && Boolean(state.chouette?.players[position]);
  const choice = choiceText(s.action, s.card);
  // One's own suggestion has a text of its own: "You suggest", never "You suggests".
  if (seated && state.chouette?.position === position)
    return t("chouette.suggests.you", { choice });
  const name = seated ? positionName(state, position) : (s.from?.name ?? "");
  const key = s.from?.computer ? "chouette.suggests.computer" : "chouette.suggests";
  return t(key, { name, choice });
}
