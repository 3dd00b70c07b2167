// Scenario helpers for the browser engine's tests: explicit decks in the deal
// convention of round.js, and action lists (like tests/engine/helpers.py).
import { DECK, parseCards } from "../../src/ginrummy/web/js/engine/cards.js";
import { parseAction } from "../../src/ginrummy/web/js/engine/actions.js";
import { apply, legalActions } from "../../src/ginrummy/web/js/engine/round.js";

/** The non-dealer's hand, the dealer's, the upcard, then the stock top first; cards
 * not named follow in canonical order. */
export function deckOf(nonDealer, dealer, upcard = "", stock = "") {
  const front = [nonDealer, dealer, upcard, stock].flatMap((t) => parseCards(t));
  const deck = [...front, ...DECK.filter((c) => !front.includes(c))];
  if (new Set(deck).size !== 52) throw new Error("a card is named twice");
  return deck;
}

export function play(state, ...actions) {
  for (const text of actions) state = apply(state, parseAction(text));
  return state;
}

export function acts(state) {
  return legalActions(state).map(String);
}

export function texts(cards) {
  return cards.map(String);
}
