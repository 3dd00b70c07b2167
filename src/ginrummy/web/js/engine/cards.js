// Cards, their values and their text notation (docs/rules.md §1); the port of
// engine/cards.py. A card is one of 52 interned, frozen values; `index` (0..51,
// suit-major) and `bit` (2**index) let the meld maths work on 52-bit masks (masks.js).
//
//   parseCard("10♥").text === "Th"; parseCard("10♥").value === 10

import { CardParseError, DuplicateCardError, pyRepr } from "./errors.js";
import { BIT, indices } from "./masks.js";

/** @typedef {0 | 1 | 2 | 3} Suit */
export const Suit = Object.freeze({ CLUBS: 0, DIAMONDS: 1, HEARTS: 2, SPADES: 3 });
export const SUIT_LETTERS = "cdhs";
export const SUIT_SYMBOLS = "♣♦♥♠";
export const RANK_LETTERS = "A23456789TJQK";

/**
 * A playing card. Instances are interned: compare with `===`.
 * @typedef {Readonly<{rank: number, suit: Suit, index: number, bit: number, value: number,
 *   text: string, toString(): string}>} Card
 */

/** @param {number} rank 1..13 @param {Suit} suit @returns {Card} */
function makeCard(rank, suit) {
  const index = suit * 13 + rank - 1;
  const text = RANK_LETTERS[rank - 1] + SUIT_LETTERS[suit];
  return Object.freeze({
    rank,
    suit,
    index,
    bit: BIT[index],
    value: Math.min(rank, 10), // A = 1, 2-10 face value, J Q K = 10
    text,
    toString() {
      return text;
    },
  });
}

/** All 52 cards in canonical order: clubs A..K, diamonds, hearts, spades. */
export const DECK = Object.freeze(
  /** @type {Card[]} */ (
    [0, 1, 2, 3].flatMap((s) =>
      Array.from({ length: 13 }, (_, r) => makeCard(r + 1, /** @type {Suit} */ (s))),
    )
  ),
);

/** @type {Record<string, Suit>} */
const SUIT_BY_TEXT = {
  c: 0,
  d: 1,
  h: 2,
  s: 3,
  "♣": 0,
  "♦": 1,
  "♥": 2,
  "♠": 3,
  "♡": 2,
  "♢": 1,
  "♤": 3,
  "♧": 0,
};
/** @type {Record<string, number>} */
const RANK_BY_TEXT = { 10: 10 };
for (let i = 0; i < 13; i++) RANK_BY_TEXT[RANK_LETTERS[i].toLowerCase()] = i + 1;

/** @param {number} index 0..51 @returns {Card} */
export function cardFromIndex(index) {
  return DECK[index];
}

/** The card of `rank` (1..13) and `suit`. @param {number} rank @param {Suit} suit */
export function cardOf(rank, suit) {
  if (!Number.isInteger(rank) || rank < 1 || rank > 13)
    throw new CardParseError(`rank must be 1..13, got ${rank}`);
  return DECK[suit * 13 + rank - 1];
}

/** Read one card: 7h, Td, 10d, 7♥, case-insensitive. @param {string} text @returns {Card} */
export function parseCard(text) {
  const stripped = text.trim();
  // Python's str indexing counts code points; so does Array.from.
  const chars = Array.from(stripped.toLowerCase());
  const suitText = chars.length >= 2 ? chars[chars.length - 1] : "";
  const rankText = chars.slice(0, -1).join("");
  if (!Object.hasOwn(SUIT_BY_TEXT, suitText) || !Object.hasOwn(RANK_BY_TEXT, rankText)) {
    throw new CardParseError(
      `not a card: ${pyRepr(stripped)} (expected e.g. 7h, Td, 10d, 7♥)`,
    );
  }
  return DECK[SUIT_BY_TEXT[suitText] * 13 + RANK_BY_TEXT[rankText] - 1];
}

/** Read cards separated by spaces or commas; each card may appear once.
 * @param {string} text @returns {Card[]} */
export function parseCards(text) {
  const cards = text
    .replaceAll(",", " ")
    .split(/\s+/)
    .filter((t) => t !== "")
    .map(parseCard);
  checkDistinct(cards);
  return cards;
}

/** @param {Iterable<Card>} cards */
export function checkDistinct(cards) {
  const seen = new Set();
  for (const card of cards) {
    if (seen.has(card))
      throw new DuplicateCardError(`card ${card.text} appears more than once`);
    seen.add(card);
  }
}

/** @param {Iterable<Card>} cards */
export function cardsText(cards) {
  return Array.from(cards, (c) => c.text).join(" ");
}

/** The mask of distinct cards (a sum: each bit once). @param {Iterable<Card>} cards */
export function toMask(cards) {
  let mask = 0;
  for (const card of cards) mask += card.bit;
  return mask;
}

/** The cards of a mask in canonical order (suit, then rank). @param {number} mask @returns {Card[]} */
export function fromMask(mask) {
  return indices(mask).map((i) => DECK[i]);
}

/** Cards sorted by (rank, suit): how melds and unmatched cards are shown.
 * @param {Card[]} cards @returns {Card[]} */
export function byRank(cards) {
  return [...cards].sort((a, b) => a.rank - b.rank || a.suit - b.suit);
}

/** Display order of a hand: by suit, then rank. @param {Iterable<Card>} cards */
export function handOrder(cards) {
  return [...cards].sort((a, b) => a.index - b.index);
}
