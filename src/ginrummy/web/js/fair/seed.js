// The seat's own seed for each deal (docs/fairness.md §1): drawn with
// crypto.getRandomValues when the server shows its commitment (or derived from the
// person's seed phrase: docs/fairness.md §5a, phrase.js), sent once, and kept in
// localStorage per room, match and round so the player can compare it with the record.
import { phraseSeed, seedPhrase } from "./phrase.js";

const KEY = "ginrummy.seeds";
const KEEP = 200; // deals remembered (the oldest are dropped)

/** @typedef {import("../types.js").Fair} Fair */
/** @typedef {{seed: string, commitment: string, confirmed?: boolean}} KeptSeed */

/** Sent from this page: never twice for one commitment (the server refuses a second). */
const sent = new Set();

/** A fresh seed: 32 random bytes as 64 lowercase hex digits. */
export function newSeed() {
  const bytes = new Uint8Array(32);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** @param {{room: string, match: number, round: number}} fair */
export function dealKey(fair) {
  return `${fair.room}/${fair.match}/${fair.round}`;
}

/** @returns {Record<string, KeptSeed>} the seeds this browser sent, by deal */
export function keptSeeds() {
  try {
    const kept = JSON.parse(globalThis.localStorage?.getItem(KEY) ?? "{}");
    return kept && typeof kept === "object" ? kept : {};
  } catch {
    return {};
  }
}

/** @param {Record<string, KeptSeed>} kept */
function save(kept) {
  const keys = Object.keys(kept);
  for (const old of keys.slice(0, Math.max(0, keys.length - KEEP))) delete kept[old];
  try {
    globalThis.localStorage?.setItem(KEY, JSON.stringify(kept));
  } catch {
    // Storage full or refused: the seed is still sent, only not remembered.
  }
}

/** @param {Fair} fair  @param {string} seed */
function keep(fair, seed) {
  const kept = keptSeeds();
  kept[dealKey(fair)] = { seed, commitment: fair.commitment };
  save(kept);
}

/**
 * The server shows this seat's seed back (`your_seed`): if it is the one sent, mark it
 * confirmed. Only confirmed seeds are compared with records (one that came too late
 * was replaced by the default seed, rightly).
 * @param {Fair|null} fair
 */
export function confirmSeed(fair) {
  if (!fair || !fair.your_seed) return;
  const kept = keptSeeds();
  const mine = kept[dealKey(fair)];
  if (
    !mine ||
    mine.confirmed ||
    mine.commitment !== fair.commitment ||
    mine.seed !== fair.your_seed
  )
    return;
  mine.confirmed = true;
  save(kept);
}

/**
 * This seat's seed for a deal: the one its seed phrase gives, if one is set, else a
 * fresh random one (also when this page cannot derive one: no WebCrypto over plain HTTP).
 * @param {Fair} fair  @param {"one"|"two"} seat  @returns {Promise<string>}
 */
async function ownSeed(fair, seat) {
  const phrase = seedPhrase();
  if (!phrase) return newSeed();
  try {
    return await phraseSeed(phrase, fair, seat);
  } catch (error) {
    console.warn("the seed phrase gave no seed (a random one is sent instead):", error);
    return newSeed();
  }
}

/**
 * The `seed` message for a deal waiting for this seat's seed, or null (a spectator, no
 * deal waiting, the server has this seat's seed, or this page sent it already).
 * @param {Fair|null} fair
 * @param {string|null} seat
 * @returns {Promise<{type: "seed", seed: string, commitment: string}|null>}
 */
export async function seedMessage(fair, seat) {
  if (
    !seat ||
    !fair ||
    fair.state !== "seeding" ||
    fair.your_seed ||
    sent.has(fair.commitment)
  )
    return null;
  sent.add(fair.commitment); // before any await: a second view in between sends nothing
  const before = keptSeeds()[dealKey(fair)];
  const seed =
    before && before.commitment === fair.commitment
      ? before.seed
      : await ownSeed(fair, seat === "two" ? "two" : "one");
  keep(fair, seed);
  return { type: "seed", seed, commitment: fair.commitment };
}
