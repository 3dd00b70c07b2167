// The person's optional seed phrase (docs/fairness.md §5a). Typed beforehand, never while
// a deal waits (that would race the seed timeout), kept only in this browser; while it is
// set, every round's seat seed is derived from it, so the person can recompute it.
import { phraseSeatSeed, toHex } from "./verify.js";

const KEY = "ginrummy.seedPhrase";

/** @returns {string|null} the phrase set in this browser */
export function seedPhrase() {
  try {
    return globalThis.localStorage?.getItem(KEY) || null;
  } catch {
    return null; // storage refused: no phrase, random seeds
  }
}

/**
 * Keep a phrase (without leading and trailing white space); an empty one is refused.
 * @param {string} text  @returns {string} the phrase as kept
 */
export function setSeedPhrase(text) {
  const phrase = text.trim();
  if (!phrase) throw new RangeError("a seed phrase must not be empty");
  globalThis.localStorage.setItem(KEY, phrase);
  return phrase;
}

export function forgetSeedPhrase() {
  globalThis.localStorage?.removeItem(KEY);
}

/**
 * The seat seed a phrase gives for a deal, as 64 lowercase hex digits.
 * @param {string} phrase  @param {{room: string, match: number, round: number}} deal
 * @param {"one"|"two"} seat
 */
export async function phraseSeed(phrase, deal, seat) {
  return toHex(await phraseSeatSeed(phrase, deal.room, deal.match, deal.round, seat));
}
