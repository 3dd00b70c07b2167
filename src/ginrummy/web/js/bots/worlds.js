// Sampled worlds: the hidden cards of a view filled in by the expert's model; the port
// of bots/worlds.py (see there for the why). A world is a match whose round agrees with
// everything the seat's view shows and draws what it hides: the opponent's hidden cards
// by the expert's inference (sampleHands), the stock order by a shuffle of the rest. It
// starts in the middle of the round: no deck order, no history, the view's public moves.

import { ActionKind } from "../engine/actions.js";
import { DECK } from "../engine/cards.js";
import { GinRummyError } from "../engine/errors.js";
import { andNot52, hasBit } from "../engine/masks.js";
import { MatchPhase, apply } from "../engine/match.js";
import { Phase, legalActions } from "../engine/round.js";
import { Pair } from "../engine/seats.js";
import { viewForSeat } from "../engine/views.js";
import { maskOf } from "./base.js";
import { PLAN, expertOdds, sampleHands } from "./expert.js";
import { read } from "./knowledge.js";

/** @typedef {import("./base.js").SeatView} SeatView */
/** @typedef {import("./base.js").Chooser} Chooser */
/** @typedef {import("./knowledge.js").Knowledge} Knowledge */
/** @typedef {import("./random.js").PortableRandom} PortableRandom */
/** @typedef {import("../engine/match.js").MatchState} MatchState */
/** @typedef {import("../engine/round.js").RoundState} RoundState */
/** @typedef {import("../engine/seats.js").Seat} Seat */
/** @typedef {import("../engine/actions.js").Action} Action */

/** A view that no world agrees with (not a decision of a round under way). */
export class WorldError extends GinRummyError {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.code = "world";
  }
}

/** `count` matches whose current round agrees with `view` (the seat's decision now)
 * and differs in the hidden cards. Deterministic for the state of `rng`.
 * @param {SeatView} view @param {number} count @param {PortableRandom} rng @returns {MatchState[]} */
export function sampleWorlds(view, count, rng) {
  const table = view.table;
  if (!view.legalActions.length || table.roundPhase === null || table.dealer === null)
    throw new WorldError("a world is sampled for a decision of a round under way");
  const know = read(view);
  const odds = expertOdds(know);
  const improve = Math.min(
    PLAN.improveCap,
    Math.floor(know.oppStockDraws / PLAN.improveEvery),
  );
  const hands = sampleHands(know, odds, count, improve, rng);
  return hands.map((hand) => world(view, know, hand, rng));
}

/** @param {SeatView} view @param {Knowledge} know @param {number} opponent @param {PortableRandom} rng
 * @returns {MatchState} */
function world(view, know, opponent, rng) {
  const table = view.table;
  const seat = view.seat;
  const rest = andNot52(know.unseen, opponent);
  const stock = DECK.filter((c) => hasBit(rest, c.index));
  if (stock.length !== table.stockSize)
    throw new WorldError(
      `the view hides ${stock.length} cards besides the opponent's hand, ` +
        `but the stock holds ${table.stockSize}`,
    );
  rng.shuffle(stock);
  const legal = view.legalActions;
  const phase = /** @type {string} */ (table.roundPhase);
  const dealer = /** @type {Seat} */ (table.dealer);
  /** @type {RoundState} */
  const rnd = Object.freeze({
    rules: table.rules,
    dealer,
    deck: Object.freeze([]),
    hands: Pair.of((s) => (s === seat ? know.hand : opponent)),
    stock: Object.freeze(stock),
    discardPile: table.discardPile,
    phase,
    turn: /** @type {Seat} */ (table.turn),
    firstUpcard: table.firstUpcard,
    knockLimit: table.knockLimit,
    doubled: table.doubled,
    known: table.known.map(maskOf),
    upcardPasses: table.upcardPasses,
    taken: view.taken,
    // Both passed on the first upcard: the stock only (the view says so by its legal
    // actions); the last discard taken to knock: knocks only.
    stockOnly:
      phase === Phase.DRAW &&
      table.discardPile.length > 0 &&
      legal.every((a) => a.kind !== ActionKind.DRAW_DISCARD),
    mustKnock:
      phase === Phase.DISCARD && legal.every((a) => a.kind !== ActionKind.DISCARD),
    knockDiscard: null,
    history: Object.freeze([]),
    publicMoves: view.moves,
    result: null,
  });
  const offered = legalActions(rnd);
  if (offered.length !== legal.length || offered.some((a, i) => a !== legal[i]))
    throw new WorldError("the sampled world does not offer the view's legal actions");
  return Object.freeze({
    rules: table.rules,
    firstDealer: dealer, // not read in a round under way
    phase: MatchPhase.ROUND,
    scores: table.scores,
    roundsWon: table.roundsWon,
    rounds: table.rounds,
    nextDealer: dealer,
    round: rnd,
    result: null,
    played: Object.freeze([]),
  });
}

/** Play the round of `match` to its end with `player` in both seats; the round's points
 * for `seat` (negative when the opponent scores, 0 for a void round).
 * @param {MatchState} match @param {Seat} seat @param {PortableRandom} rng @param {Chooser} player */
export function playOut(match, seat, rng, player) {
  const played = playOutWithin(match, seat, rng, player, null);
  if (played === null) throw new Error("a round without a limit always ends");
  return played[0];
}

/** playOut within `limit` moves (null: no limit): [the round's points for `seat`, the
 * moves played], or null when the round needs more moves.
 * @param {MatchState} match @param {Seat} seat @param {PortableRandom} rng @param {Chooser} player
 * @param {number | null} limit @returns {[number, number] | null} */
export function playOutWithin(match, seat, rng, player, limit) {
  let rnd = /** @type {RoundState} */ (match.round);
  let moves = 0;
  while (rnd.result === null) {
    if (limit !== null && moves >= limit) return null;
    match = apply(match, player(viewForSeat(match, rnd.turn), rng));
    moves++;
    rnd = /** @type {RoundState} */ (match.round);
  }
  const result = rnd.result;
  if (result.winner === null) return [0, moves];
  return [result.winner === seat ? result.points : -result.points, moves];
}
