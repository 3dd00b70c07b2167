// Computer players and the coach in the browser: the port of src/ginrummy/bots/ and
// src/ginrummy/hints/coach.py. Same view and same seed, same decision as Python
// (docs/browser-engine.md, "Bots and the coach").
//
//   const choose = makeBot("casual");
//   const action = choose(view, new PortableRandom(seed));   // one of view.legalActions
//   const { action: hint, key, params } = tip(view);

import { Expert } from "./expert.js";
import { BEGINNER, CASUAL, STRONG, Player } from "./heuristic.js";
import { Master } from "./master.js";
import { chooseBaseline, chooseRandom } from "./simple.js";

export { PortableRandom } from "./random.js";
export { tip, advise } from "./coach.js";

/** @typedef {import("./base.js").Chooser} Chooser */

/** Every level, in the Python LEVELS order; `OFFERED` ones are for the UI, in the
 * order of the ladder, weakest first. */
export const LEVELS = Object.freeze([
  "beginner",
  "casual",
  "strong",
  "expert",
  "random",
  "baseline",
  "master",
]);
export const OFFERED = Object.freeze([
  "beginner",
  "casual",
  "strong",
  "expert",
  "master",
]);

/** The player of `level`, as Python's make_bot: a function `choose(view, rng)` that
 * returns one of `view.legalActions`. Throws RangeError for an unknown level.
 * @param {string} level @returns {Chooser} */
export function makeBot(level) {
  switch (level) {
    case "random":
      return chooseRandom;
    case "baseline":
      return chooseBaseline;
    case "beginner":
    case "casual":
    case "strong": {
      const player = new Player(
        level === "beginner" ? BEGINNER : level === "casual" ? CASUAL : STRONG,
      );
      return (view, rng) => player.choose(view, rng);
    }
    case "expert": {
      const player = new Expert();
      return (view, rng) => player.choose(view, rng);
    }
    case "master": {
      const player = new Master();
      return (view, rng) => player.choose(view, rng);
    }
    default:
      throw new RangeError(
        `unknown level '${level}'; choose one of ${LEVELS.join(", ")}`,
      );
  }
}
