// What each side may know (docs/rules.md §5): the only path from a state to bots, JSON
// and logs; the port of engine/views.py. A seat sees its own hand, the whole discard
// pile, the stock size, the cards the opponent took from the pile (and has not
// discarded since), passes on the first upcard, the hand sizes and the scores; after a
// round both hands. A spectator sees the public facts only. The knock discard is face
// down and only its knocker sees it.

import { fromMask } from "./cards.js";
import { bitCount52 } from "./masks.js";
import { MatchPhase, roundNumber } from "./match.js";
import { arrangementOfMask } from "./melds.js";
import { legalActions } from "./round.js";
import { Pair, otherSeat } from "./seats.js";

/** @typedef {import("./actions.js").Action} Action */
/** @typedef {import("./cards.js").Card} Card */
/** @typedef {import("./melds.js").Arrangement} Arrangement */
/** @typedef {import("./match.js").MatchState} MatchState */
/** @typedef {import("./match.js").MatchResult} MatchResult */
/** @typedef {import("./match.js").ScoredRound} ScoredRound */
/** @typedef {import("./round.js").PublicMove} PublicMove */
/** @typedef {import("./round.js").RoundResult} RoundResult */
/** @typedef {import("./rules.js").Rules} Rules */
/** @typedef {import("./seats.js").Seat} Seat */

/**
 * The public part of the table, the same for everyone.
 * @typedef {Readonly<{rules: Rules, matchPhase: string, roundPhase: string | null,
 *   roundNumber: number, dealer: Seat | null, turn: Seat | null, stockSize: number,
 *   discardPile: readonly Card[], firstUpcard: Card | null, upcardPasses: readonly Seat[],
 *   knockLimit: number, doubled: boolean, handSizes: Pair<number>, known: Pair<readonly Card[]>,
 *   scores: Pair<number>, roundsWon: Pair<number>, rounds: readonly ScoredRound[],
 *   roundResult: RoundResult | null, matchResult: MatchResult | null}>} TableView
 */

/**
 * Everything a player in `seat` may know; all a bot or a client ever gets.
 * @typedef {Readonly<{seat: Seat, table: TableView, hand: readonly Card[], arrangement: Arrangement,
 *   legalActions: readonly Action[], taken: Card | null, moves: readonly PublicMove[],
 *   knockDiscard: Card | null}>} SeatView
 */

/** @typedef {Readonly<{table: TableView, moves: readonly PublicMove[]}>} SpectatorView */

/** @param {MatchState} match @returns {TableView} */
function table(match) {
  const rnd = match.round;
  const common = {
    rules: match.rules,
    matchPhase: match.phase,
    roundNumber: roundNumber(match),
    scores: match.scores,
    roundsWon: match.roundsWon,
    rounds: match.rounds,
    matchResult: match.result,
  };
  if (rnd === null) {
    return Object.freeze({
      ...common,
      roundPhase: null,
      dealer: null,
      turn: null,
      stockSize: 0,
      discardPile: [],
      firstUpcard: null,
      upcardPasses: [],
      knockLimit: match.rules.knockLimit,
      doubled: false,
      handSizes: new Pair(0, 0),
      known: new Pair([], []),
      roundResult: null,
    });
  }
  return Object.freeze({
    ...common,
    roundPhase: rnd.phase,
    dealer: rnd.dealer,
    turn: match.phase === MatchPhase.ROUND ? rnd.turn : null,
    stockSize: rnd.stock.length,
    discardPile: rnd.discardPile,
    firstUpcard: rnd.firstUpcard,
    upcardPasses: rnd.upcardPasses,
    knockLimit: rnd.knockLimit,
    doubled: rnd.doubled,
    handSizes: rnd.hands.map(bitCount52),
    known: rnd.known.map(fromMask),
    roundResult: rnd.result,
  });
}

/** The view of the player in `seat`. @param {MatchState} match @param {Seat} seat @returns {SeatView} */
export function viewForSeat(match, seat) {
  const rnd = match.round;
  const tableView = table(match);
  if (rnd === null) {
    return Object.freeze({
      seat,
      table: tableView,
      hand: [],
      arrangement: arrangementOfMask(0),
      legalActions: [],
      taken: null,
      moves: [],
      knockDiscard: null,
    });
  }
  const mine = rnd.hands.get(seat);
  const acting = match.phase === MatchPhase.ROUND && rnd.turn === seat;
  return Object.freeze({
    seat,
    table: tableView,
    hand: fromMask(mine),
    arrangement: arrangementOfMask(mine),
    legalActions: acting ? legalActions(rnd) : [],
    taken: rnd.turn === seat ? rnd.taken : null,
    moves: rnd.publicMoves,
    knockDiscard:
      rnd.result !== null && rnd.result.knocker === seat ? rnd.knockDiscard : null,
  });
}

/** The view of someone watching: no hidden card at all. @param {MatchState} match @returns {SpectatorView} */
export function viewForSpectator(match) {
  return Object.freeze({
    table: table(match),
    moves: match.round !== null ? match.round.publicMoves : [],
  });
}

/** The cards the opponent of the view's seat is known to hold. @param {SeatView} view */
export function opponentKnown(view) {
  return view.table.known.get(otherSeat(view.seat));
}
