// Encode views to JSON-ready objects: the port of ginrummy/protocol/codec.py's
// encoders, field for field and in the same key order, so that both engines write the
// same JSON text for the same view (docs/protocol.md). Cards travel as their text
// ("7h"), actions as their engine text ("discard Qs"), seats as "one"/"two".

import { seatLabel } from "./seats.js";

/** @typedef {import("./cards.js").Card} Card */
/** @typedef {import("./melds.js").Arrangement} Arrangement */
/** @typedef {import("./match.js").MatchResult} MatchResult */
/** @typedef {import("./match.js").ScoredRound} ScoredRound */
/** @typedef {import("./round.js").PublicMove} PublicMove */
/** @typedef {import("./round.js").RoundResult} RoundResult */
/** @typedef {import("./rules.js").Rules} Rules */
/** @typedef {import("./seats.js").Seat} Seat */
/** @typedef {import("./views.js").SeatView} SeatView */
/** @typedef {import("./views.js").SpectatorView} SpectatorView */
/** @typedef {import("./views.js").TableView} TableView */
/** @typedef {Record<string, unknown>} Json */

/** @param {Iterable<Card>} cards @returns {string[]} */
function cards(cards) {
  return Array.from(cards, (c) => c.text);
}

/** @template T @param {import("./seats.js").Pair<T>} pair @param {(value: T) => unknown} [fn] */
function pair(pair, fn = (x) => x) {
  return { one: fn(pair.one), two: fn(pair.two) };
}

/** @param {Seat | null} seat */
function seat(seat) {
  return seat === null ? null : seatLabel(seat);
}

/** @param {Rules} rules */
export function encodeRules(rules) {
  return rules.toDict();
}

/** @param {Arrangement} arr @returns {Json} */
function arrangement(arr) {
  return {
    melds: arr.melds.map((m) => cards(m.cards)),
    deadwood_cards: cards(arr.unmatched),
    deadwood: arr.deadwood,
  };
}

/** A finished round with its full score breakdown. @param {RoundResult} result @returns {Json} */
export function encodeRoundResult(result) {
  const sd = result.showdown;
  return {
    kind: result.kind,
    knocker: seat(result.knocker),
    winner: seat(result.winner),
    points: result.points,
    hands: pair(result.hands, cards),
    showdown:
      sd === null
        ? null
        : {
            knocker_melds: sd.knocker.melds.map((m) => cards(m.cards)),
            knocker_deadwood_cards: cards(sd.knocker.unmatched),
            knocker_deadwood: sd.knockerDeadwood,
            defender_melds: sd.defender.melds.map((m) => cards(m.cards)),
            defender_deadwood_cards: cards(sd.defenderDeadwoodCards),
            defender_deadwood: sd.defenderDeadwood,
            layoffs: sd.layoffs.map((lo) => ({
              card: lo.card.text,
              onto: cards(lo.onto.cards),
            })),
            base_points: sd.basePoints,
            bonus: sd.bonus,
            multiplier: sd.multiplier,
            points: sd.points,
          },
  };
}

/** @param {ScoredRound} r @returns {Json} */
function scoredRound(r) {
  return {
    number: r.number,
    dealer: seatLabel(r.dealer),
    result: encodeRoundResult(r.result),
    scores: pair(r.scores),
  };
}

/** @param {MatchResult | null} m @returns {Json | null} */
function matchResult(m) {
  if (m === null) return null;
  return {
    winner: seatLabel(m.winner),
    round_points: pair(m.roundPoints),
    rounds_won: pair(m.roundsWon),
    box_bonus: pair(m.boxBonus),
    game_bonus: pair(m.gameBonus),
    shutout_bonus: pair(m.shutoutBonus),
    totals: pair(m.totals),
    forfeit: m.forfeit,
    forfeited_by: seat(m.forfeitedBy),
  };
}

/** @param {TableView} t @returns {Json} */
function table(t) {
  return {
    rules: encodeRules(t.rules),
    match_phase: t.matchPhase,
    round_phase: t.roundPhase,
    round: t.roundNumber,
    dealer: seat(t.dealer),
    turn: seat(t.turn),
    stock_size: t.stockSize,
    discard_pile: cards(t.discardPile),
    first_upcard: t.firstUpcard === null ? null : t.firstUpcard.text,
    upcard_passes: t.upcardPasses.map(seatLabel),
    knock_limit: t.knockLimit,
    doubled: t.doubled,
    hand_sizes: pair(t.handSizes),
    known: pair(t.known, cards),
    scores: pair(t.scores),
    rounds_won: pair(t.roundsWon),
    rounds: t.rounds.map(scoredRound),
    result: t.roundResult === null ? null : encodeRoundResult(t.roundResult),
    match_result: matchResult(t.matchResult),
  };
}

/** @param {readonly PublicMove[]} moves */
function moves(moves) {
  return moves.map((m) => ({ seat: seatLabel(m.seat), action: m.text }));
}

/** What every viewer of a version sees alike: the table and the public moves.
 * @param {SeatView | SpectatorView} view @returns {Json} */
export function encodePublicView(view) {
  return { table: table(view.table), moves: moves(view.moves) };
}

/** What differs by viewer: a seat's hand and choices (null: a spectator, empty).
 * @param {SeatView | null} view @returns {Json} */
export function encodeOwnView(view) {
  if (view === null) {
    return {
      seat: null,
      hand: [],
      arrangement: null,
      legal_actions: [],
      taken: null,
      knock_discard: null,
    };
  }
  return {
    seat: seatLabel(view.seat),
    hand: cards(view.hand),
    arrangement: arrangement(view.arrangement),
    legal_actions: view.legalActions.map(String),
    taken: view.taken === null ? null : view.taken.text,
    knock_discard: view.knockDiscard === null ? null : view.knockDiscard.text,
  };
}

/** The view of one seat. @param {SeatView} view @returns {Json} */
export function encodeSeatView(view) {
  return { ...encodeOwnView(view), ...encodePublicView(view) };
}

/** The view of a spectator: no hidden card. @param {SpectatorView} view @returns {Json} */
export function encodeSpectatorView(view) {
  return { ...encodeOwnView(null), ...encodePublicView(view) };
}

/** Compact JSON text, as frames carry it (Python's separators (",", ":")). @param {unknown} value */
export function toJson(value) {
  return JSON.stringify(value);
}
