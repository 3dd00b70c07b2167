// What a seat knows about the cards, read from its view alone (docs/rules.md §5); the
// port of bots/knowledge.py. Masks are 52-bit numbers (engine/masks.js). Python's
// Reader only resumes the replay where it left off; the result is the same as a full
// replay, which is what this module does.

import { ActionKind } from "../engine/actions.js";
import { andNot52, bitCount52, or52 } from "../engine/masks.js";
import { maskOf } from "./base.js";

/** @typedef {import("./base.js").SeatView} SeatView */
/** @typedef {import("../engine/round.js").PublicMove} PublicMove */

export const ALL_CARDS = 2 ** 52 - 1;

/**
 * @typedef {Readonly<{hand: number, pile: number, top: number, oppKnown: number,
 *   oppDiscarded: number, oppPassed: number, oppHidden: number, oppStockDraws: number,
 *   unseen: number, stockSize: number}>} Knowledge
 */

/** Gather the public card facts of a view. @param {SeatView} view @returns {Knowledge} */
export function read(view) {
  const first = view.table.firstUpcard;
  const stack = first !== null ? [first.bit] : [];
  let discarded = 0,
    passed = 0,
    draws = 0;
  const me = view.seat;
  for (const move of view.moves) {
    const kind = move.kind;
    if (kind === ActionKind.DISCARD) {
      if (move.card !== null) {
        stack.push(move.card.bit);
        if (move.seat !== me) discarded = or52(discarded, move.card.bit);
      }
    } else if (kind === ActionKind.DRAW_STOCK) {
      if (move.seat !== me) {
        draws++;
        if (stack.length) passed = or52(passed, stack[stack.length - 1]);
      }
    } else if (kind === ActionKind.TAKE || kind === ActionKind.DRAW_DISCARD) {
      stack.pop();
    } else if (kind === ActionKind.PASS && move.seat !== me && stack.length) {
      passed = or52(passed, stack[stack.length - 1]);
    }
  }
  return knowledge(view, discarded, passed, draws);
}

/** @param {SeatView} view @param {number} discarded @param {number} passed @param {number} draws @returns {Knowledge} */
function knowledge(view, discarded, passed, draws) {
  const table = view.table;
  const opp = view.seat === 0 ? 1 : 0;
  const hand = maskOf(view.hand);
  const pileCards = table.discardPile;
  const pile = maskOf(pileCards);
  const oppKnown = maskOf(table.known.get(opp));
  const oppHidden = table.handSizes.get(opp) - bitCount52(oppKnown);
  return Object.freeze({
    hand,
    pile,
    top: pileCards.length ? pileCards[pileCards.length - 1].bit : 0,
    oppKnown,
    oppDiscarded: discarded,
    oppPassed: andNot52(passed, oppKnown),
    oppHidden: Math.max(oppHidden, 0),
    oppStockDraws: draws,
    unseen: andNot52(andNot52(andNot52(ALL_CARDS, hand), pile), oppKnown),
    stockSize: table.stockSize,
  });
}

/** A memoryless reading: own hand and the pile top, nothing else is remembered.
 * @param {SeatView} view @returns {Knowledge} */
export function readPlain(view) {
  const hand = maskOf(view.hand);
  const pileCards = view.table.discardPile;
  const top = pileCards.length ? pileCards[pileCards.length - 1].bit : 0;
  const opp = view.seat === 0 ? 1 : 0;
  return Object.freeze({
    hand,
    pile: top,
    top,
    oppKnown: 0,
    oppDiscarded: 0,
    oppPassed: 0,
    oppHidden: view.table.handSizes.get(opp),
    oppStockDraws: 0,
    unseen: andNot52(andNot52(ALL_CARDS, hand), top),
    stockSize: view.table.stockSize,
  });
}
