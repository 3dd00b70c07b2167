// Where the computer thinks in a game on the device (docs/browser-engine.md, "Where the
// bots run"): in a module Web Worker (bots/worker.js), so that the page never waits for
// a decision, or in the page where there is no Worker (Node, old browsers). Either way
// one function decides (`decide`), with the same view and the same PortableRandom
// state, so the decision and the generator's state after it are the same wherever it
// ran. The worker gets the match as its record (the saved game's format) and rebuilds
// the computer's view by replaying it, as a resumed game does.
//
//   const decider = makeDecider(bots);        // bots: web/js/bots/index.js
//   const { action, rng, error } = await decider.decide({ level, match, seat, rng: g.state });
//   g.state = rng;                             // the generator goes on where it left off
//
// No import of the bots themselves: the page loads them once, on the first device game
// (device/play.js), and hands their module in.
import {
  loadRecord,
  matchRecordToDict,
  recordOf,
  replayMatch,
  viewForSeat,
} from "../engine/index.js";

/** @typedef {import("../engine/match.js").MatchState} MatchState */
/** @typedef {import("../engine/seats.js").Seat} Seat */
/** @typedef {import("../engine/views.js").SeatView} SeatView */

/**
 * What `decide` needs of the bots' module (web/js/bots/index.js): a level's player and
 * a generator whose `state` can be read and set (a structured-cloneable value).
 * @typedef {object} Bots
 * @property {(level: string) => (view: SeatView, rng: any) => unknown} makeBot
 * @property {new (seed: number) => {state: any}} PortableRandom
 */

/**
 * A decision to make: the computer's level, the match, its seat, and its generator's
 * state before the decision.
 * @typedef {{level: string, match: MatchState, seat: Seat, rng: unknown}} Question
 */

/**
 * A decision made: the chosen action's text (`discard Qs`) and the generator's state
 * after it; or, when the bot failed (a bug), no action and what went wrong. The state is
 * the one the bot left, failed or not, as when it ran in the page.
 * @typedef {{action: string|null, rng: unknown, error: string|null}} Answer
 */

/**
 * The message to the worker: a question with the match as its record.
 * @typedef {{id: number, level: string, record: Record<string, unknown>, seat: Seat, rng: unknown}} Request
 */

/** @typedef {Answer & {id: number}} Reply */

/**
 * @typedef {object} Decider
 * @property {(question: Question) => Promise<Answer>} decide
 * @property {() => void} close   ends its worker, if any (a later question starts another)
 * @property {string} where   "worker" or "page"
 */

/** @param {unknown} exc */
const described = (exc) =>
  exc instanceof Error ? (exc.stack ?? `${exc.name}: ${exc.message}`) : String(exc);

/** The players of a bots' module by level, made once (a player keeps nothing between
 * decisions that changes one: docs/browser-engine.md, "Bots and the coach").
 * @param {Bots} bots */
export function playersOf(bots) {
  /** @type {Map<string, (view: SeatView, rng: any) => unknown>} */
  const made = new Map();
  /** @param {string} level */
  return (level) => {
    let choose = made.get(level);
    if (!choose) {
      choose = bots.makeBot(level);
      made.set(level, choose);
    }
    return choose;
  };
}

/**
 * The one decision: `level`'s choice on `view` with a generator in `state`.
 * @param {Bots} bots
 * @param {(level: string) => (view: SeatView, rng: any) => unknown} players  playersOf(bots)
 * @param {string} level @param {SeatView} view @param {unknown} state
 * @returns {Answer}
 */
export function decide(bots, players, level, view, state) {
  const rng = new bots.PortableRandom(0);
  rng.state = state;
  try {
    const chosen = players(level)(view, rng);
    return { action: String(chosen), rng: rng.state, error: null };
  } catch (exc) {
    return { action: null, rng: rng.state, error: described(exc) };
  }
}

/** The worker's message for a question. @param {number} id @param {Question} question
 * @returns {Request} */
export function requestOf(id, { level, match, seat, rng }) {
  return { id, level, record: matchRecordToDict(recordOf(match)), seat, rng };
}

/**
 * The worker's side: the answer to a request, the view rebuilt from its record.
 * @param {Bots} bots
 * @param {(level: string) => (view: SeatView, rng: any) => unknown} players  playersOf(bots)
 * @param {Request} request @returns {Reply}
 */
export function reply(bots, players, request) {
  let view;
  try {
    const loaded = loadRecord(request.record);
    if (loaded.kind !== "match") throw new TypeError("the request holds no match record");
    view = viewForSeat(replayMatch(loaded.match), request.seat);
  } catch (exc) {
    return { id: request.id, action: null, rng: request.rng, error: described(exc) };
  }
  return { id: request.id, ...decide(bots, players, request.level, view, request.rng) };
}

/**
 * Decisions in the page, each in a task of its own (not in the task that asked).
 * @param {Bots} bots @returns {Decider}
 */
export function pageDecider(bots) {
  const players = playersOf(bots);
  return {
    where: "page",
    decide: ({ level, match, seat, rng }) =>
      new Promise((resolve) =>
        setTimeout(() =>
          resolve(decide(bots, players, level, viewForSeat(match, seat), rng)),
        ),
      ),
    close: () => {},
  };
}

/** The worker's script, next to this module. */
export const WORKER_URL = new URL("./worker.js", import.meta.url).href;

/**
 * The part of a Worker the decider uses (a stand-in in the tests).
 * @typedef {Pick<Worker, "postMessage" | "terminate" | "addEventListener">} WorkerLike
 */

/**
 * @typedef {object} WorkerOptions
 * @property {() => WorkerLike} [spawn]   a new worker (default: a module Worker on WORKER_URL)
 * @property {number} [timeoutMs]   a worker silent this long on a question is taken for dead
 * @property {number} [attempts]   workers lost in a row before the page decides itself
 */

/**
 * Decisions in a module Web Worker. A worker that fails (its script does not load, it
 * throws outside a decision, an answer cannot be read, it says nothing for `timeoutMs`)
 * is ended and a new one gets the same questions again: the same record and generator
 * state, so the same answers. After `attempts` workers lost in a row (module workers
 * not supported, say) the page decides instead, the same decisions, from then on.
 * @param {Bots} bots @param {WorkerOptions} [options] @returns {Decider}
 */
export function workerDecider(
  bots,
  {
    spawn = () => new Worker(WORKER_URL, { type: "module" }),
    timeoutMs = 20_000,
    attempts = 3,
  } = {},
) {
  const inPage = pageDecider(bots);
  /** Questions sent and not answered yet, by id.
   * @type {Map<number, {request: Request, question: Question, resolve: (a: Answer) => void, timer?: ReturnType<typeof setTimeout>}>} */
  const waiting = new Map();
  /** @type {WorkerLike|null} */
  let worker = null;
  let lost = 0; // workers lost since the last answer
  let nextId = 1;

  /** @param {MessageEvent} event */
  const answered = (event) => {
    if (event.target !== worker) return; // from a worker ended meanwhile
    const { id, action, rng, error } = /** @type {Reply} */ (event.data);
    const entry = waiting.get(id);
    if (!entry) return; // a question no longer asked
    waiting.delete(id);
    clearTimeout(entry.timer);
    lost = 0;
    entry.resolve({ action, rng, error });
  };

  /** @param {WorkerLike} which @param {string} why */
  const fail = (which, why) => {
    if (which !== worker) return;
    console.warn(`the computer's worker failed (${why}); the question goes to a new one`);
    worker.terminate();
    worker = null;
    lost += 1;
    dispatch();
  };

  /** Send every waiting question to a worker (a new one if needed), or to the page once
   * too many workers were lost. */
  const dispatch = () => {
    while (lost < attempts) {
      try {
        if (!worker) {
          const made = spawn();
          worker = made;
          made.addEventListener("message", answered);
          made.addEventListener("messageerror", () => fail(made, "an unreadable answer"));
          made.addEventListener("error", (event) => {
            event.preventDefault(); // handled: not an error of the page
            fail(made, event.message || "its script failed");
          });
        }
        for (const entry of waiting.values()) send(worker, entry);
        return;
      } catch (exc) {
        console.warn("the computer's worker could not be started or asked", exc);
        worker?.terminate();
        worker = null;
        lost += 1;
      }
    }
    if (waiting.size) console.warn("the computer thinks in the page: its workers failed");
    for (const entry of waiting.values()) {
      clearTimeout(entry.timer);
      inPage.decide(entry.question).then(entry.resolve);
    }
    waiting.clear();
  };

  /** @param {WorkerLike} to @param {NonNullable<ReturnType<typeof waiting.get>>} entry */
  const send = (to, entry) => {
    to.postMessage(entry.request);
    clearTimeout(entry.timer);
    entry.timer = setTimeout(() => fail(to, `no answer in ${timeoutMs} ms`), timeoutMs);
  };

  return {
    get where() {
      return lost < attempts ? "worker" : "page";
    },
    decide(question) {
      if (lost >= attempts) return inPage.decide(question);
      const id = nextId++;
      return new Promise((resolve) => {
        const entry = { request: requestOf(id, question), question, resolve };
        waiting.set(id, entry);
        if (worker) {
          try {
            send(worker, entry);
          } catch (exc) {
            fail(worker, described(exc));
          }
        } else dispatch();
      });
    },
    close() {
      worker?.terminate();
      worker = null;
      for (const entry of waiting.values()) clearTimeout(entry.timer);
      waiting.clear();
    },
  };
}

/**
 * A worker's decider where the page can start one, else the page's.
 * @param {Bots} bots @param {WorkerOptions} [options] @returns {Decider}
 */
export function makeDecider(bots, options) {
  return typeof globalThis.Worker === "function"
    ? workerDecider(bots, options)
    : pageDecider(bots);
}
