// What the table asks of this page now. One pure function of the state (the last server
// view and a few local flags) decides both the status sentence and the buttons, so the
// page can never tell someone to press a button it does not show, nor the other way round.
import { t, has, computerName } from "./i18n.js";
import { cardName } from "./cards.js";

/** @typedef {import("./types.js").State} State */
/** @typedef {import("./types.js").Seat} Seat */
/** @typedef {import("./types.js").MatchResult} MatchResult */

/** Both seats, in table order. @type {readonly Seat[]} */
export const SEATS = ["one", "two"];

/**
 * The one button between rounds or after a match.
 * @typedef {object} Between
 * @property {"next-round"|"new-match"|"next-match"} cmd  the command the button sends
 * @property {string} label                  its catalogue key
 * @property {boolean} disabled              already asked: waiting for the other seat
 */

/**
 * @typedef {object} TableStatus
 * @property {string} text            the sentence of the "Game status" region
 * @property {string[]} actions       the legal actions the page offers as buttons now
 * @property {Between|null} between   the next-round or new-match button, if any
 * @property {string} [seen]          the part of `text` the table shows anyway (the top
 *   discard, the scores, the target, the deadwood): a small window hides it from sight
 *   (table.js renderStatus), a screen reader still reads the whole sentence
 */

/**
 * @param {Seat} seat
 * @returns {Seat}
 */
export function otherSeat(seat) {
  return seat === "one" ? "two" : "one";
}

/**
 * The seat shown at the bottom ("me") and the one at the top.
 * @param {State} state
 * @returns {{me: Seat, them: Seat}}
 */
export function displaySeats(state) {
  const me = state.seat ?? "one";
  return { me, them: otherSeat(me) };
}

/**
 * Whether this page's user plays `seat` (at a table of more than two people, one may see
 * the seat of one's side without playing it: State.seating).
 * @param {State} state
 * @param {Seat|null|undefined} seat
 */
export function isMine(state, seat) {
  return Boolean(
    seat && state.seat && seat === state.seat && (state.seating?.plays ?? true),
  );
}

/**
 * How a seat is called on this page: "You", the name it was taken with, a computer's
 * level, or a fallback.
 * @param {State} state
 * @param {Seat|null|undefined} seat
 */
export function seatName(state, seat) {
  if (!seat) return "";
  if (isMine(state, seat)) return t("name.you");
  const player = state.players?.[seat] ?? state.info?.seats?.[seat];
  // A computer is called by its level in the page's language, unless the table's fold
  // named it already (PlayerEntry.named).
  const named = Boolean(player && "named" in player && player.named);
  if (player?.bot && !named) return computerName(player.bot);
  if (player?.name) return player.name;
  return player?.bot ? t("name.computer") : t("name.player");
}

/**
 * How a side of the match is called: as the table names its sides when a side is more
 * than one person (State.seating), else the seat's name.
 * @param {State} state
 * @param {Seat|null|undefined} seat
 */
export function sideName(state, seat) {
  const label = seat ? state.seating?.sides[seat] : null;
  if (!label) return seatName(state, seat);
  return t(label.key, { name: seatName(state, label.seat) });
}

/**
 * Why a match ended early ("Ann ran out of time."), or "" when it was played out.
 * @param {State} state
 * @param {Pick<MatchResult, "forfeit"|"forfeited_by">|null|undefined} result
 */
export function forfeitText(state, result) {
  if (!result?.forfeit || !result.forfeited_by) return "";
  const mine = isMine(state, result.forfeited_by);
  const key = `forfeit.${result.forfeit}${mine ? ".you" : ""}`;
  return has(key) ? t(key, { name: seatName(state, result.forfeited_by) }) : "";
}

/**
 * "The match is over: … wins." with the winner's own sentence when it is this page's user.
 * @param {State} state
 */
function matchOverText(state) {
  const winner = state.view?.table.match_result?.winner;
  return isMine(state, winner)
    ? t("status.match_over.you")
    : t("status.match_over", { name: seatName(state, winner) });
}

/**
 * The connection sentence, or null while connected.
 * @param {State} state
 */
export function connectionText(state) {
  const c = state.connection;
  if (c.connected) return null;
  if (c.restart && c.everConnected) return t("conn.restarting");
  if (c.retryIn != null && c.everConnected)
    return t("conn.lost", { s: Math.max(1, Math.round(c.retryIn / 1000)) });
  return t("conn.connecting");
}

/**
 * The button between rounds (next round) or after the match (new match), for a seat
 * whose table is complete; disabled once this seat asked, until the other one does.
 * A tournament's room plays one match: no New match after it (the server refuses one).
 * @param {State} state
 * @returns {Between|null}
 */
function betweenButton(state) {
  const view = state.view;
  const me = state.seat ? state.players?.[state.seat] : null;
  if (!view || !me || !state.players?.one || !state.players?.two) return null;
  const table = view.table;
  if (table.match_phase === "over") {
    if (state.info?.tournament) return null;
    return { cmd: "new-match", label: "act.new_match", disabled: Boolean(me.rematch) };
  }
  if (table.match_phase === "deal" && table.round > 0) {
    return { cmd: "next-round", label: "act.next_round", disabled: Boolean(me.ready) };
  }
  return null;
}

/**
 * "Your turn: ..." for the offered actions: every button the sentence names is among them.
 * @param {string} phase
 * @param {string[]} actions
 * @param {string} topName
 */
function yourTurnText(phase, actions, topName) {
  const offers = (/** @type {string} */ prefix) =>
    actions.some((a) => a.startsWith(prefix));
  if (phase === "first_upcard" && actions.includes("take") && actions.includes("pass")) {
    return t("status.you_first_upcard", { card: topName });
  }
  if (phase === "last_discard") {
    return actions.includes("draw discard")
      ? t("status.you_last_discard")
      : t("status.you_last_discard_pass");
  }
  if (phase === "draw" && actions.includes("draw stock")) {
    return actions.includes("draw discard")
      ? t("status.you_draw", { card: topName })
      : t("status.you_draw_stock");
  }
  if (offers("discard ")) {
    if (offers("gin ")) return t("status.you_discard_gin");
    if (actions.includes("big gin")) return t("status.you_discard_big_gin");
    if (offers("knock ")) return t("status.you_discard_knock");
    return t("status.you_discard");
  }
  return t("status.you_decide");
}

/**
 * The moment of a full table in words: the match over (`overText`, and why if by a
 * forfeit), between rounds, this page's turn with the `actions` it offers, or whose turn.
 * @param {State} state
 * @param {string[]} actions
 * @param {string} overText
 */
export function momentText(state, actions, overText) {
  if (!state.view) return "";
  const table = state.view.table;
  const top = table.discard_pile.at(-1);
  if (table.match_phase === "over")
    return [overText, forfeitText(state, table.match_result)].filter(Boolean).join(" ");
  if (table.match_phase === "deal" || table.round_phase === "over")
    return table.round > 0 ? t("status.round_over", { n: table.round }) : "";
  if (actions.length)
    return yourTurnText(table.round_phase, actions, top ? cardName(top) : "");
  if (!table.turn || isMine(state, table.turn)) return "";
  /** @type {Record<string, string>} */
  const keys = {
    first_upcard: "status.they_first_upcard",
    draw: "status.they_draw",
    last_discard: "status.they_last_discard",
  };
  return t(keys[table.round_phase] ?? "status.they_discard", {
    name: seatName(state, table.turn),
  });
}

/**
 * What happens at the table in words, and what this page offers.
 * @param {State} state
 * @returns {TableStatus}
 */
export function tableStatus(state) {
  const view = state.view;
  if (!view) return { text: t("status.connecting"), actions: [], between: null };
  const table = view.table;
  const players = state.players ?? { one: null, two: null };
  const top = table.discard_pile.at(-1);
  const topName = top ? cardName(top) : "";
  const inRound = table.match_phase === "round" && table.round_phase !== "over";
  // Actions are offered only on the felt of a running round, and not while an own move
  // is on its way.
  const offered =
    inRound && state.seat && players.one && players.two && state.pending == null;
  const actions = offered ? [...view.legal_actions] : [];
  const between = betweenButton(state);
  const parts = [];
  if (!players.one || !players.two) parts.push(t("status.waiting_player"));
  else parts.push(momentText(state, actions, matchOverText(state)));
  if (between && state.seat) {
    const other = seatName(state, otherSeat(state.seat));
    if (between.cmd === "new-match")
      parts.push(
        between.disabled
          ? t("status.waiting_rematch", { name: other })
          : t("status.press_new"),
      );
    else
      parts.push(
        between.disabled
          ? t("status.waiting_ready", { name: other })
          : t("status.press_next"),
      );
  }
  if (!state.seat) parts.unshift(t("status.spectator"));
  const seen = [];
  if (inRound)
    seen.push(
      top ? t("status.discard_top", { card: topName }) : t("status.discard_none"),
    );
  const { me, them } = displaySeats(state);
  seen.push(
    t("status.scores", {
      a: seatName(state, me),
      sa: table.scores[me],
      b: seatName(state, them),
      sb: table.scores[them],
    }),
  );
  if (table.rules?.target_score)
    seen.push(t("status.target", { n: table.rules.target_score }));
  if (state.seat && view.arrangement && inRound)
    seen.push(t("status.deadwood", { n: view.arrangement.deadwood }));
  if (state.pending != null) parts.unshift(t("status.sending"));
  const conn = connectionText(state);
  return {
    text: [...parts, ...seen, conn].filter(Boolean).join(" "),
    actions,
    between,
    seen: seen.join(" "),
  };
}
