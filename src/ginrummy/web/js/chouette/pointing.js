// A chouette partner's advice as the shared felt shows it (table.js FeltLook): the
// suggestions lit for the captain, and what a partner's press on a card sends.
import { splitAction } from "../store.js";
import { t } from "../i18n.js";
import { cardName } from "../cards.js";

/** @typedef {import("../types.js").State} State */
/** @typedef {import("../types.js").Suggestion} Suggestion */
/** @typedef {import("../table.js").Lit} Lit  what the captain is pointed at */

/**
 * The suggestions for the decision on the table now (the captain's highlight).
 * @param {State} state
 * @returns {Suggestion[]}
 */
export function currentSuggestions(state) {
  const c = state.chouette;
  if (!c || state.version === null) return [];
  return c.suggestions.filter((s) => s.version === state.version);
}

/**
 * The legal actions and cards the captain is pointed at now (the table asks once a render).
 * @param {State} state
 * @returns {Lit}
 */
export function suggested(state) {
  /** @type {Set<string>} */
  const actions = new Set();
  /** @type {Set<string>} */
  const cards = new Set();
  for (const s of currentSuggestions(state)) {
    if (s.action) actions.add(s.action);
    // A knock or gin names its face-down card: that card is lit too.
    const [verb, card] = splitAction(s.action ?? "");
    if (card && (verb === "knock" || verb === "gin")) cards.add(card);
    if (s.card) cards.add(s.card);
  }
  return { actions, cards };
}

/**
 * Whether this page advises the captain now: a partner, while a person captain decides
 * (a computer captain takes no advice).
 * @param {State} state
 */
export function canAdvise(state) {
  const c = state.chouette;
  if (!c?.info || c.role !== "partner" || !c.advice.length) return false;
  return !c.players[c.info.captain]?.bot;
}

/**
 * What a partner's press on a card of the captain's hand sends: a suggestion to discard
 * it when that is one of the captain's choices, else a pointer at the card.
 * @param {State} state
 * @param {string} card
 * @returns {{cmd: "advise"|"advise-card", arg: string}}
 */
export function pointCommand(state, card) {
  const discard = `discard ${card}`;
  return state.chouette?.advice.includes(discard)
    ? { cmd: "advise", arg: discard }
    : { cmd: "advise-card", arg: card };
}

/**
 * The description of such a card: what pressing it does.
 * @param {State} state
 * @param {string} card
 */
export function pointText(state, card) {
  const { cmd } = pointCommand(state, card);
  return t(cmd === "advise" ? "chouette.hand.suggest_discard" : "chouette.hand.point", {
    card: cardName(card),
  });
}
