// The computer's Web Worker for games on the device (bots/decider.js, which starts it as
// a module worker): each message is a request (the match's record, the seat, the level,
// the generator's state) and is answered with the decision and the generator's state
// after it. The computer players think here, off the page's main thread, so the page
// stays responsive however long a level thinks. Type-checked with the worker's globals
// (tsconfig.worker.json).
import * as bots from "./index.js";
import { playersOf, reply } from "./decider.js";

const scope = /** @type {DedicatedWorkerGlobalScope} */ (/** @type {unknown} */ (self));
const players = playersOf(bots);

scope.addEventListener("message", (event) => {
  scope.postMessage(reply(bots, players, event.data));
});
