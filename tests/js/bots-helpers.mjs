// Positions from real play, for the browser bots' tests (like tests/bots/helpers.py).
import { DECK } from "../../src/ginrummy/web/js/engine/cards.js";
import {
  MatchPhase,
  apply,
  deal,
  matchTurn,
  newMatch,
} from "../../src/ginrummy/web/js/engine/match.js";
import { Rules } from "../../src/ginrummy/web/js/engine/rules.js";
import { viewForSeat } from "../../src/ginrummy/web/js/engine/views.js";
import { makeBot } from "../../src/ginrummy/web/js/bots/index.js";
import { PortableRandom } from "../../src/ginrummy/web/js/bots/random.js";

/** The deck shuffled by `rng`. @param {PortableRandom} rng */
export function shuffled(rng) {
  const deck = DECK.slice();
  rng.shuffle(deck);
  return deck;
}

/** Views of decisions with a choice, from a seeded match of `level` against itself
 * (at most `count`).
 * @param {number} seed @param {string} level @param {number} count @param {Rules} rules */
export function views(seed, level = "expert", count = 40, rules = new Rules()) {
  const rng = new PortableRandom(seed);
  const bot = makeBot(level);
  let m = newMatch(rules, 0);
  const out = [];
  while (m.phase !== MatchPhase.OVER && out.length < count) {
    if (m.phase === MatchPhase.DEAL) {
      m = deal(m, shuffled(rng));
      continue;
    }
    const view = viewForSeat(m, matchTurn(m));
    if (view.legalActions.length > 1) out.push(view);
    m = apply(m, bot(view, rng));
  }
  return out;
}
