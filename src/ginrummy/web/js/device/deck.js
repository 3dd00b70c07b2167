// Chance on the device: decks and the first dealer from crypto.getRandomValues, as the
// server's engine/shuffle.py draws them (unbiased Fisher–Yates with rejection sampling);
// fair decks as the server deals them (docs/fairness.md, gin-fair-v1) from local seeds.
import { DECK, parseCard } from "../engine/index.js";
import { VERSION, commitment, dealDeck, toHex } from "../fair/verify.js";

/** @typedef {import("../engine/cards.js").Card} Card */
/** @typedef {import("../engine/seats.js").Seat} Seat */
/** @typedef {import("../engine/record.js").FairBlock} FairBlock */

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
  if (!Number.isInteger(n) || n < 1 || n > RANGE)
    throw new RangeError(`randomBelow: ${n} is not in 1..2^32`);
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

/** 32 random bytes (eight words of `fill`). @param {RandomFill} fill */
export function randomSeedBytes(fill = cryptoFill) {
  const words = new Uint32Array(8);
  fill(words);
  return new Uint8Array(words.buffer);
}

/**
 * A fair deal on the device: the server's seed and both seat seeds drawn here (there is
 * no other party to commit to, so the server seed is revealed at once), the deck made
 * from them as the server makes it, and the round's fair block, which `ginrummy verify`
 * and the verify page check like a server's.
 * @param {{room: string, match: number, round: number}} where  the device game id, the
 *   match's number in the game and the round's in the match (both from 1)
 * @param {RandomFill} fill
 * @returns {Promise<{deck: Card[], fair: FairBlock}>}
 */
export async function fairDeal({ room, match, round }, fill = cryptoFill) {
  const server = randomSeedBytes(fill);
  const seatOne = randomSeedBytes(fill);
  const seatTwo = randomSeedBytes(fill);
  const texts = await dealDeck(server, { seatOne, seatTwo, room, match, round });
  const fair = Object.freeze({
    version: VERSION,
    commitment: await commitment(server),
    serverSeed: toHex(server),
    seeds: Object.freeze({ one: toHex(seatOne), two: toHex(seatTwo) }),
    room,
    match,
    round,
  });
  return { deck: texts.map(parseCard), fair };
}

/**
 * The deck of a round on the device: a fair deal (fairDeal) where WebCrypto is there; in
 * a page that is not a secure context (plain http to another host) `crypto.subtle` is
 * missing, so the deck is shuffled as before, with no fair block (the record then does
 * not verify), and the console says why.
 * @param {{room: string, match: number, round: number}} where
 * @param {RandomFill} fill
 * @param {SubtleCrypto|null|undefined} subtle  the page's crypto.subtle (null: none)
 * @returns {Promise<{deck: Card[], fair: FairBlock|null}>}
 */
export async function dealRound(
  where,
  fill = cryptoFill,
  subtle = globalThis.crypto?.subtle,
) {
  if (subtle) return fairDeal(where, fill);
  console.warn(
    `device game ${where.room}: no crypto.subtle (not a secure context); round ${where.round} is dealt without a fair block`,
  );
  return { deck: shuffledDeck(fill), fair: null };
}
