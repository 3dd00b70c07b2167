// Sampled worlds: the hidden cards of a view filled in by the expert's model; the port
// of bots/worlds.py (see there for the why). A world is a match whose round agrees with
// everything the seat's view shows and draws what it hides: the opponent's hidden cards
// by the expert's inference (sampleHands), the stock order by a shuffle of the rest. It
// starts in the middle of the round: no deck order, no history, the view's public moves.

import { ActionKind } from "../engine/actions.js";
import { DECK } from "../engine/cards.js";
import { GinRummyError } from "../engine/errors.js";
import { andNot52, hasBit, or52 } from "../engine/masks.js";
import { MatchPhase, apply } from "../engine/match.js";
import { Phase, legalActions } from "../engine/round.js";
import { Pair, otherSeat } from "../engine/seats.js";
import { viewForSeat } from "../engine/views.js";
import { maskOf } from "./base.js";
import { discardScores } from "./evaluation.js";
import { EXPERT, PLAN, expertOdds, sampleHands, weightedDraw } from "./expert.js";
import { Player } from "./heuristic.js";
import { ALL_CARDS, read } from "./knowledge.js";

/** @typedef {import("./base.js").SeatView} SeatView */
/** @typedef {import("./base.js").Chooser} Chooser */
/** @typedef {import("./knowledge.js").Knowledge} Knowledge */
/** @typedef {import("./random.js").PortableRandom} PortableRandom */
/** @typedef {import("../engine/match.js").MatchState} MatchState */
/** @typedef {import("../engine/round.js").RoundState} RoundState */
/** @typedef {import("../engine/seats.js").Seat} Seat */
/** @typedef {import("../engine/actions.js").Action} Action */
/** @typedef {import("../engine/cards.js").Card} Card */

/** A view that no world agrees with (not a decision of a round under way). */
export class WorldError extends GinRummyError {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.code = "world";
  }
}

/**
 * How the opponent's hidden hand of a world is drawn: Python's Belief (the same fields,
 * camel-cased, and defaults). The hidden cards are drawn by the expert's odds, each hand
 * chose from `improveCap` cards more; with `particles` above 1, `particles` hands are
 * drawn for each world kept, and the hands kept are drawn from them by how well each
 * explains the opponent's last discard (a hand in which it was a discard the expert
 * scores `gap` points worse than the hand's best weighs 1 / (1 + gap / fit) ** 2).
 * @typedef {Readonly<{improveCap: number, particles: number, fit: number, knocked: number}>} Belief
 */

/** A belief with Python's defaults, `changes` on top; refuses what Python refuses.
 * @param {Partial<Belief>} [changes] @returns {Belief} */
export function belief(changes = {}) {
  const out = Object.freeze({
    improveCap: PLAN.improveCap,
    particles: 1,
    fit: 3.0, // the gap, in score points, at which a hand weighs a quarter
    // The weight of a hand with which the expert would have knocked or gone gin rather
    // than discard as the opponent did (1.0: no weight for it).
    knocked: 1.0,
    ...changes,
  });
  checkBelief(out);
  return out;
}

/** @param {Belief} b */
function checkBelief(b) {
  if (b.improveCap < 0 || b.particles < 1 || b.fit <= 0)
    throw new RangeError("a belief needs improveCap >= 0, particles >= 1 and fit > 0");
  if (!(b.knocked > 0 && b.knocked <= 1))
    throw new RangeError("a belief needs 0 < knocked <= 1");
}

/** The expert's judgement of a hand, without its sampled check. */
const JUDGE = new Player(EXPERT);

/** The expert's own picture, as its undercut check draws it. */
export const BELIEF = belief();

/** `count` matches whose current round agrees with `view` (the seat's decision now)
 * and differs in the hidden cards, drawn by `drawn` (a Belief). Deterministic for the
 * state of `rng`.
 * @param {SeatView} view @param {number} count @param {PortableRandom} rng
 * @param {Belief} [drawn] @returns {MatchState[]} */
export function sampleWorlds(view, count, rng, drawn = BELIEF) {
  const table = view.table;
  if (!view.legalActions.length || table.roundPhase === null || table.dealer === null)
    throw new WorldError("a world is sampled for a decision of a round under way");
  checkBelief(drawn); // Python's Belief refuses these when it is made
  if (drawn.particles > 1 && count * drawn.particles > 52)
    throw new RangeError("a belief with particles draws at most 52 hands a decision");
  const know = read(view);
  const odds = expertOdds(know);
  const improve = Math.min(
    drawn.improveCap,
    Math.floor(know.oppStockDraws / PLAN.improveEvery),
  );
  let hands = sampleHands(know, odds, count * drawn.particles, improve, rng);
  if (drawn.particles > 1) {
    const weights = fits(view, know, hands, drawn);
    const kept = weightedDraw(
      hands.map((_, i) => i),
      weights,
      count,
      rng,
    );
    hands = hands.filter((_, i) => hasBit(kept, i));
  }
  return hands.map((hand) => world(view, know, hand, rng));
}

/** How well each opponent hand explains its last discard (all 1.0 when its last move
 * was not a discard); the float operations in Python's order.
 * @param {SeatView} view @param {Knowledge} know @param {readonly number[]} hands
 * @param {Belief} drawn @returns {number[]} */
function fits(view, know, hands, drawn) {
  const fit = drawn.fit;
  const other = otherSeat(view.seat);
  const mine = view.moves.filter((m) => m.seat === other);
  const last = mine.length ? mine[mine.length - 1] : null;
  if (last === null || last.kind !== ActionKind.DISCARD || last.card === null)
    return hands.map(() => 1.0);
  const thrown = last.card;
  const taken = justTaken(view);
  const seen = or52(know.pile, maskOf(view.table.known.get(view.seat)));
  const weight = JUDGE.weight(know),
    limit = view.table.knockLimit;
  const out = [];
  for (const hand of hands) {
    const held = or52(hand, thrown.bit);
    const scored = discardScores(held, andNot52(andNot52(ALL_CARDS, held), seen), weight);
    let best = Infinity;
    for (const [i, [, s]] of scored)
      if ((taken === null || i !== taken.index) && s < best) best = s;
    const own = /** @type {[number, number]} */ (scored.get(thrown.index));
    const [left, score] = own;
    const gap = (score - best) / fit;
    let w = 1.0 / ((1.0 + gap) * (1.0 + gap));
    // It would have knocked (or gone gin) instead.
    if (left <= limit && JUDGE.knockWanted(view, know, left)) w *= drawn.knocked;
    out.push(w);
  }
  return out;
}

/** The card the opponent took from the pile before its last discard, which it could not
 * throw (null when it drew from the stock): the pile's top at the time.
 * @param {SeatView} view @returns {Card | null} */
function justTaken(view) {
  const other = otherSeat(view.seat);
  let top = view.table.firstUpcard;
  /** @type {Card | null} */
  let taken = null;
  for (const move of view.moves) {
    if (move.kind === ActionKind.DISCARD) top = move.card;
    else if (
      move.seat === other &&
      (move.kind === ActionKind.TAKE || move.kind === ActionKind.DRAW_DISCARD)
    )
      taken = top;
    else if (move.seat === other && move.kind === ActionKind.DRAW_STOCK) taken = null;
  }
  return taken;
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
