// Typed actions with a canonical text that `text` holds and `parseAction` reads; the
// port of engine/actions.py. Actions are interned: compare with `===`.
//
//   parseAction("Discard qs").text === "discard Qs"

import { DECK, parseCard } from "./cards.js";
import { ActionParseError, CardParseError, pyRepr } from "./errors.js";

/** @typedef {import("./cards.js").Card} Card */

export const ActionKind = Object.freeze({
  TAKE: "take", // take the first upcard
  PASS: "pass", // pass on the first upcard (or on the last discard, alternative stock rule)
  DRAW_STOCK: "draw stock",
  DRAW_DISCARD: "draw discard",
  DISCARD: "discard",
  KNOCK: "knock", // discard face down and knock, 0 < deadwood <= knock limit
  GIN: "gin", // discard face down with 0 deadwood
  BIG_GIN: "big gin", // show 11 melded cards without a discard (if the rules allow)
});

const WITH_CARD = new Set(
  /** @type {string[]} */ ([ActionKind.DISCARD, ActionKind.KNOCK, ActionKind.GIN]),
);

/** @param {string} kind */
export function takesCard(kind) {
  return WITH_CARD.has(kind);
}

/** @typedef {Readonly<{kind: string, card: Card | null, text: string, toString(): string}>} Action */

/** @param {string} kind @param {Card | null} card @returns {Action} */
function makeAction(kind, card) {
  const text = card === null ? kind : `${kind} ${card.text}`;
  return Object.freeze({
    kind,
    card,
    text,
    toString() {
      return text;
    },
  });
}

export const TAKE = makeAction(ActionKind.TAKE, null);
export const PASS = makeAction(ActionKind.PASS, null);
export const DRAW_STOCK = makeAction(ActionKind.DRAW_STOCK, null);
export const DRAW_DISCARD = makeAction(ActionKind.DRAW_DISCARD, null);
export const BIG_GIN = makeAction(ActionKind.BIG_GIN, null);

/** @type {Record<string, readonly Action[]>} */
const BY_CARD = {};
for (const kind of WITH_CARD)
  BY_CARD[kind] = Object.freeze(DECK.map((c) => makeAction(kind, c)));

/** The interned discard/knock/gin action with `card`. @param {string} kind @param {Card} card */
export function cardAction(kind, card) {
  const actions = BY_CARD[kind];
  if (actions === undefined)
    throw new ActionParseError(`action ${pyRepr(kind)} takes no card`);
  return actions[card.index];
}

/** @type {Record<string, Action>} */
const PLAIN = Object.fromEntries(
  [TAKE, PASS, DRAW_STOCK, DRAW_DISCARD, BIG_GIN].map((a) => [a.kind, a]),
);

/** Read take, pass, draw stock, draw discard, discard 7h, knock 7h, gin 7h or big gin
 * (case-insensitive, spaces folded). @param {unknown} text @returns {Action} */
export function parseAction(text) {
  if (typeof text !== "string") {
    throw new ActionParseError(
      `an action is a text, got ${text === null ? "NoneType" : typeof text}`,
    );
  }
  const words = text
    .trim()
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w !== "");
  const joined = words.join(" ");
  if (Object.hasOwn(PLAIN, joined)) return PLAIN[joined];
  if (words.length === 2 && WITH_CARD.has(words[0])) {
    try {
      return cardAction(words[0], parseCard(words[1]));
    } catch (exc) {
      if (exc instanceof CardParseError)
        throw new ActionParseError(`${pyRepr(text.trim())}: ${exc.message}`);
      throw exc;
    }
  }
  const expected =
    "take, pass, draw stock, draw discard, discard <card>, knock <card>, gin <card>";
  throw new ActionParseError(
    `not an action: ${pyRepr(text.trim())} (expected ${expected}, big gin)`,
  );
}
