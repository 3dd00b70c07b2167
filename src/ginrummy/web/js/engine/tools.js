// The engine's command-line tools as functions: `analyze` and `settle`, with the same
// JSON as src/ginrummy/tools.py (cli.mjs reads arguments and lines and prints them).

import { parseCards } from "./cards.js";
import { HandSizeError } from "./errors.js";
import { bestArrangement, bestDiscards } from "./melds.js";
import { Rules } from "./rules.js";
import { settle } from "./showdown.js";

/** @typedef {import("./cards.js").Card} Card */

/** @param {Iterable<Card>} cards */
function texts(cards) {
  return Array.from(cards, (c) => c.text);
}

/** A value that is not what the tool asked for (the reference's ValueError). */
export class InputError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = "InputError";
    this.code = "bad_input";
  }
}

/** Best arrangement of a 10- or 11-card hand; for 11 also the best discards.
 * @param {string} text @returns {Record<string, unknown>} */
export function analyzeHand(text) {
  const cards = parseCards(text);
  if (cards.length !== 10 && cards.length !== 11) {
    throw new HandSizeError(`a hand to analyze has 10 or 11 cards, got ${cards.length}`);
  }
  const arrangement = bestArrangement(cards);
  /** @type {Record<string, unknown>} */
  const out = {
    deadwood: arrangement.deadwood,
    melds: arrangement.melds.map((m) => texts(m.cards)),
    deadwood_cards: texts(arrangement.unmatched),
  };
  if (cards.length === 11) {
    const options = bestDiscards(cards);
    const best = options[0].deadwood;
    out.best_discards = options
      .filter((o) => o.deadwood === best)
      .map((o) => ({ card: o.card.text, deadwood: o.deadwood }));
    out.discards = options.map((o) => ({ card: o.card.text, deadwood: o.deadwood }));
  }
  return out;
}

/** Score a knock from the two hands (the knocker's after the knock discard).
 * @param {string} knocker @param {string} defender @param {string} [preset]
 * @param {number | null} [knockLimit] @returns {Record<string, unknown>} */
export function settleHands(knocker, defender, preset = "standard", knockLimit = null) {
  const rules = Rules.preset(preset);
  const sd = settle(parseCards(knocker), parseCards(defender), rules, { knockLimit });
  return {
    result: sd.kind,
    knocker_deadwood: sd.knockerDeadwood,
    defender_deadwood: sd.defenderDeadwood,
    knocker_melds: sd.knocker.melds.map((m) => texts(m.cards)),
    knocker_deadwood_cards: texts(sd.knocker.unmatched),
    defender_melds: sd.defender.melds.map((m) => texts(m.cards)),
    defender_deadwood_cards: texts(sd.defenderDeadwoodCards),
    layoffs: sd.layoffs.map((lo) => ({ card: lo.card.text, onto: texts(lo.onto.cards) })),
    winner: sd.winner,
    points: sd.points,
    bonus: sd.bonus,
  };
}

/** One batch line of `settle`: {"knocker": "...", "defender": "...", "preset": "...",
 * "knock_limit": n}. @param {string} line */
export function settleLine(line) {
  let data;
  try {
    data = JSON.parse(line);
  } catch {
    throw new InputError("not a JSON line");
  }
  if (data === null || typeof data !== "object" || Array.isArray(data)) {
    throw new InputError(
      'expected {"knocker": "...", "defender": "...", "preset": "..."}',
    );
  }
  const { knocker, defender } = data;
  const preset = data.preset ?? "standard";
  const limit = data.knock_limit ?? null;
  if (typeof knocker !== "string" || typeof defender !== "string") {
    throw new InputError('"knocker" and "defender" must be texts of cards');
  }
  if (typeof preset !== "string") throw new InputError('"preset" must be a text');
  if (limit !== null && !Number.isInteger(limit))
    throw new InputError('"knock_limit" must be a whole number');
  return settleHands(knocker, defender, preset, limit);
}

/** JSON text as Python's json.dumps writes it by default (", " and ": "), so that both
 * command lines print the same bytes. @param {unknown} value @returns {string} */
export function pyJson(value) {
  if (Array.isArray(value)) return `[${value.map(pyJson).join(", ")}]`;
  if (value !== null && typeof value === "object") {
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}: ${pyJson(v)}`)
      .join(", ")}}`;
  }
  return JSON.stringify(value);
}
