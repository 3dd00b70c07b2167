// Chance on the device: decks and the first dealer from crypto.getRandomValues, as the
// server's engine/shuffle.py draws them (unbiased Fisher–Yates with rejection sampling).
import { DECK } from "../engine/index.js";

/** @typedef {import("../engine/cards.js").Card} Card */
/** @typedef {import("../engine/seats.js").Seat} Seat */

/** Fills a Uint32Array with random words (crypto.getRandomValues in the page).
 * @typedef {(words: Uint32Array) => unknown} RandomFill */

/** @type {RandomFill} */
export const cryptoFill = (words) => globalThis.crypto.getRandomValues(words);

const RANGE = 2 ** 32;

/**
 * A uniform whole number in [0, n): a 32-bit word is thrown away when it falls into the
 * last, incomplete run of n values (a plain `word % n` would favour the small numbers).
 * @param {number} n  1 .. 2^32
 * @param {RandomFill} fill
 */
export function randomBelow(n, fill = cryptoFill) {
  if (!Number.isInteger(n) || n < 1 || n > RANGE) throw new RangeError(`randomBelow: ${n} is not in 1..2^32`);
  const limit = RANGE - (RANGE % n);
  const word = new Uint32Array(1);
  for (;;) {
    fill(word);
    if (word[0] < limit) return word[0] % n;
  }
}

/**
 * The 52 cards in a uniformly random order (the order they are dealt in).
 * @param {RandomFill} fill
 * @returns {Card[]}
 */
export function shuffledDeck(fill = cryptoFill) {
  const deck = [...DECK];
  for (let i = deck.length - 1; i > 0; i -= 1) {
    const j = randomBelow(i + 1, fill);
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  return deck;
}

/** The first dealer, drawn at random. @param {RandomFill} fill @returns {Seat} */
export function drawFirstDealer(fill = cryptoFill) {
  return /** @type {Seat} */ (randomBelow(2, fill));
}

/** A 32-bit seed for a bot's own random numbers. @param {RandomFill} fill */
export function randomSeed(fill = cryptoFill) {
  return randomBelow(RANGE, fill);
}
