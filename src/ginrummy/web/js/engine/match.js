// A match: rounds until a target score (or one scoring round), then end-of-match
// bonuses; the port of engine/match.py. Chance stays outside: `deal` takes the next
// deck order, which the caller shuffles and records.

import { IllegalActionError } from "./errors.js";
import {
  ResultKind,
  newRound,
  apply as applyRound,
  legalActions as roundLegalActions,
} from "./round.js";
import { AfterVoid, NextDealer } from "./rules.js";
import { Pair, SEATS, otherSeat, seatLabel } from "./seats.js";

/** @typedef {import("./actions.js").Action} Action */
/** @typedef {import("./cards.js").Card} Card */
/** @typedef {import("./rules.js").Rules} Rules */
/** @typedef {import("./seats.js").Seat} Seat */
/** @typedef {import("./round.js").RoundState} RoundState */
/** @typedef {import("./round.js").RoundResult} RoundResult */

export const MatchPhase = Object.freeze({
  DEAL: "deal", // waiting for the next deck order
  ROUND: "round", // a round is being played
  OVER: "over",
});

export const ForfeitReason = Object.freeze({
  TIMEOUT: "timeout", // the move timer ran out (docs/rules.md §4: running out loses the match)
  ABANDONED: "abandoned", // left and did not come back in time; the opponent claimed
  RESIGNED: "resigned",
});

/** A finished round with the match scores after it (number: 1-based).
 * @typedef {Readonly<{number: number, dealer: Seat, result: RoundResult, scores: Pair<number>}>} ScoredRound */

/** The end of a match: points from rounds plus the preset's end-of-match bonuses.
 * @typedef {Readonly<{winner: Seat, roundPoints: Pair<number>, roundsWon: Pair<number>,
 *   boxBonus: Pair<number>, gameBonus: Pair<number>, shutoutBonus: Pair<number>,
 *   totals: Pair<number>, forfeit: string | null, forfeitedBy: Seat | null}>} MatchResult */

/**
 * @typedef {Readonly<{rules: Rules, firstDealer: Seat, phase: string, scores: Pair<number>,
 *   roundsWon: Pair<number>, rounds: readonly ScoredRound[], nextDealer: Seat,
 *   round: RoundState | null, result: MatchResult | null, played: readonly RoundState[]}>} MatchState
 * round: the current round, or the last one between rounds; played: finished rounds'
 * final states (hidden: their decks).
 */

/** @param {MatchState} match @param {Partial<MatchState>} changes @returns {MatchState} */
function copy(match, changes) {
  return Object.freeze({ ...match, ...changes });
}

/** 1-based number of the current (or, between rounds, the last) round. @param {MatchState} match */
export function roundNumber(match) {
  return match.phase === MatchPhase.ROUND ? match.rounds.length + 1 : match.rounds.length;
}

/** The seat that must decide now, or null between rounds and after the match.
 * @param {MatchState} match @returns {Seat | null} */
export function matchTurn(match) {
  return match.phase === MatchPhase.ROUND && match.round !== null
    ? match.round.turn
    : null;
}

const ZERO = new Pair(0, 0);

/** A match before its first deal; the first dealer is drawn at random by the caller.
 * @param {Rules} rules @param {Seat} firstDealer @returns {MatchState} */
export function newMatch(rules, firstDealer) {
  return Object.freeze({
    rules,
    firstDealer,
    phase: MatchPhase.DEAL,
    scores: ZERO,
    roundsWon: ZERO,
    rounds: Object.freeze([]),
    nextDealer: firstDealer,
    round: null,
    result: null,
    played: Object.freeze([]),
  });
}

/** Start the next round with `deck` (52 cards in deal order).
 * @param {MatchState} match @param {readonly Card[]} deck */
export function deal(match, deck) {
  if (match.phase !== MatchPhase.DEAL) {
    throw new IllegalActionError(
      "deal",
      match.phase,
      "a round is under way or the match is over",
    );
  }
  return copy(match, {
    phase: MatchPhase.ROUND,
    round: newRound(match.rules, deck, match.nextDealer),
  });
}

/** @param {MatchState} match @returns {readonly Action[]} */
export function legalActions(match) {
  if (match.phase !== MatchPhase.ROUND || match.round === null) return [];
  return roundLegalActions(match.round);
}

/** Apply `action` to the current round; fold the result in when the round ends.
 * @param {MatchState} match @param {Action} action @returns {MatchState} */
export function apply(match, action) {
  if (match.phase !== MatchPhase.ROUND || match.round === null) {
    const reason =
      match.phase === MatchPhase.OVER
        ? "the match is over"
        : "no round is being played; deal first";
    throw new IllegalActionError(action, match.phase, reason);
  }
  const rnd = applyRound(match.round, action);
  if (rnd.result === null) return copy(match, { round: rnd });
  return finishRound(copy(match, { round: rnd }), rnd.dealer, rnd.result);
}

/** End the match with a loss for `seat` (timer ran out, abandoned, resigned). The
 * round under way stays unfinished and its hidden cards stay hidden; the scores stand
 * and no end-of-match bonus is added.
 * @param {MatchState} match @param {Seat} seat @param {string} reason */
export function forfeit(match, seat, reason) {
  if (match.phase === MatchPhase.OVER) {
    throw new IllegalActionError(
      `forfeit by ${seatLabel(seat)}`,
      match.phase,
      "the match is over",
    );
  }
  /** @type {MatchResult} */
  const result = Object.freeze({
    winner: otherSeat(seat),
    roundPoints: match.scores,
    roundsWon: match.roundsWon,
    boxBonus: ZERO,
    gameBonus: ZERO,
    shutoutBonus: ZERO,
    totals: match.scores,
    forfeit: reason,
    forfeitedBy: seat,
  });
  return copy(match, { phase: MatchPhase.OVER, result });
}

/** @param {MatchState} match @param {Seat} dealer @param {RoundResult} result */
function finishRound(match, dealer, result) {
  const rules = match.rules;
  let scores = match.scores,
    won = match.roundsWon;
  if (result.winner !== null) {
    scores = scores.replace(result.winner, scores.get(result.winner) + result.points);
    won = won.replace(result.winner, won.get(result.winner) + 1);
  }
  /** @type {ScoredRound} */
  const scored = Object.freeze({
    number: match.rounds.length + 1,
    dealer,
    result,
    scores,
  });
  let nextDealer;
  if (result.kind === ResultKind.VOID) {
    // "Der Geber wechselt jede Runde", void rounds included, unless the rules say the
    // same dealer deals again.
    nextDealer = rules.afterVoid === AfterVoid.SAME ? dealer : otherSeat(dealer);
  } else if (rules.nextDealer === NextDealer.LOSER && result.winner !== null) {
    nextDealer = otherSeat(result.winner);
  } else {
    nextDealer = otherSeat(dealer);
  }
  const next = copy(match, {
    scores,
    roundsWon: won,
    rounds: Object.freeze([...match.rounds, scored]),
    played:
      match.round !== null ? Object.freeze([...match.played, match.round]) : match.played,
    nextDealer,
    phase: MatchPhase.DEAL,
  });
  const winner = matchWinner(rules, scores, result);
  if (winner === null) return next;
  return copy(next, { phase: MatchPhase.OVER, result: matchResult(rules, winner, next) });
}

/** @param {Rules} rules @param {Pair<number>} scores @param {RoundResult} result @returns {Seat | null} */
function matchWinner(rules, scores, result) {
  // First to knock: the first round that scores decides; void rounds are redealt.
  if (rules.targetScore === null) return result.winner;
  const target = rules.targetScore;
  return SEATS.find((seat) => scores.get(seat) >= target) ?? null;
}

/** @param {Rules} rules @param {Seat} winner @param {MatchState} match @returns {MatchResult} */
function matchResult(rules, winner, match) {
  const box = match.roundsWon.map((n) => n * rules.boxBonus);
  const game = ZERO.replace(winner, rules.gameBonus);
  const shutout = ZERO.replace(
    winner,
    match.scores.get(otherSeat(winner)) === 0 ? rules.shutoutBonus : 0,
  );
  const totals = Pair.of(
    (s) => match.scores.get(s) + box.get(s) + game.get(s) + shutout.get(s),
  );
  return Object.freeze({
    winner,
    roundPoints: match.scores,
    roundsWon: match.roundsWon,
    boxBonus: box,
    gameBonus: game,
    shutoutBonus: shutout,
    totals,
    forfeit: null,
    forfeitedBy: null,
  });
}

/** The winner's total minus the loser's. @param {MatchResult} result */
export function margin(result) {
  return result.totals.get(result.winner) - result.totals.get(otherSeat(result.winner));
}
