// bots/decider.js: where the computer of a device game thinks. In a worker (here a
// stand-in that answers with the worker's own `reply`, as bots/worker.js does) or in the
// page, the decision and the generator's state after it are the ones of the bots called
// in the page as before; a failing worker is replaced and asked again; a stale answer
// changes nothing (tests/browser/test_device_worker.py runs the real worker).
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";

import {
  DECK,
  MatchPhase,
  Rules,
  applyMatch,
  deal,
  matchLegalActions,
  matchRecordToDict,
  newMatch,
  recordOf,
  viewForSeat,
} from "../../src/ginrummy/web/js/engine/index.js";
import { matchTurn } from "../../src/ginrummy/web/js/engine/match.js";
import * as bots from "../../src/ginrummy/web/js/bots/index.js";
import {
  decide,
  makeDecider,
  pageDecider,
  playersOf,
  reply,
  requestOf,
  workerDecider,
} from "../../src/ginrummy/web/js/bots/decider.js";
import { DeviceGame, newDeviceGame } from "../../src/ginrummy/web/js/device/game.js";
import { GameStore } from "../../src/ginrummy/web/js/device/saved.js";

const { LEVELS, PortableRandom, makeBot } = bots;

/** A seeded Fisher-Yates shuffle (the tests' decks only). @param {PortableRandom} rng */
function shuffled(rng) {
  const deck = DECK.slice();
  for (let i = deck.length - 1; i > 0; i--) {
    const j = rng.randrange(i + 1);
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  return deck;
}

/** A match `steps` decisions in (random legal actions), at a decision; null when the
 * match ended before. */
function matchAt(seed, steps) {
  const rng = new PortableRandom(seed);
  let m = newMatch(Rules.preset("standard", { target_score: 100 }), seed % 2);
  for (let i = 0; ;) {
    if (m.phase === MatchPhase.OVER) return null;
    if (m.phase === MatchPhase.DEAL) {
      m = deal(m, shuffled(rng));
      continue;
    }
    if (i === steps) return m;
    m = applyMatch(m, rng.choice(matchLegalActions(m)));
    i += 1;
  }
}

/** A Worker stand-in: each request is structured-cloned (as postMessage does) and handed,
 * in a later task, to `behave(worker, request)`; nothing after `terminate()`. */
class FakeWorker extends EventTarget {
  /** @param {(worker: FakeWorker, request: any) => void} behave */
  constructor(behave) {
    super();
    this.behave = behave;
    this.posted = [];
    this.terminated = false;
  }

  postMessage(request) {
    const copy = structuredClone(request);
    this.posted.push(copy);
    setTimeout(() => {
      if (!this.terminated) this.behave(this, copy);
    });
  }

  terminate() {
    this.terminated = true;
  }

  /** Say something as a worker does. */
  say(data) {
    this.dispatchEvent(new MessageEvent("message", { data: structuredClone(data) }));
  }

  /** Fail as a worker whose script throws. */
  fail(message) {
    this.dispatchEvent(
      Object.assign(new Event("error", { cancelable: true }), { message }),
    );
  }
}

const workerPlayers = playersOf(bots);
/** What bots/worker.js does with a request. */
const answering = (worker, request) => worker.say(reply(bots, workerPlayers, request));

/** The computer's decision as the page made it before the worker: the level's player
 * on the view with the generator, its state read after. */
function inlineDecision(level, match, seed) {
  const rng = new PortableRandom(seed);
  const chosen = makeBot(level)(viewForSeat(match, matchTurn(match)), rng);
  return { action: String(chosen), rng: rng.state, error: null };
}

/** Warnings of the code under test, kept out of the test's output. */
async function quietly(fn) {
  const warn = console.warn;
  const warned = [];
  console.warn = (...args) => warned.push(args.join(" "));
  try {
    return { value: await fn(), warned };
  } finally {
    console.warn = warn;
  }
}

test("in a worker or in the page, the same decision and generator state as before", async () => {
  const spawned = [];
  const inWorker = workerDecider(bots, {
    spawn: () => {
      const w = new FakeWorker(answering);
      spawned.push(w);
      return w;
    },
  });
  const inPage = pageDecider(bots);
  let compared = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 0, max: 2 ** 31 }),
      fc.nat(80),
      fc.constantFrom(...LEVELS),
      fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
      async (seed, steps, level, rngSeed) => {
        const match = matchAt(seed, steps);
        fc.pre(match !== null);
        const before = inlineDecision(level, match, rngSeed);
        const question = {
          level,
          match,
          seat: matchTurn(match),
          rng: new PortableRandom(rngSeed).state,
        };
        assert.deepEqual(await inWorker.decide(question), before);
        assert.deepEqual(await inPage.decide(question), before);
        compared += 1;
      },
    ),
    { numRuns: 60 },
  );
  assert.ok(compared > 40, `only ${compared} decisions compared`);
  // One worker for all of them, and each request is the match's record, not its state.
  assert.equal(spawned.length, 1);
  const [request] = spawned[0].posted;
  assert.deepEqual(Object.keys(request).sort(), ["id", "level", "record", "rng", "seat"]);
  inWorker.close();
  assert.equal(spawned[0].terminated, true);
});

test("without Worker the page decides; a bot that fails is an answer with its error", async () => {
  assert.equal(typeof globalThis.Worker, "undefined");
  assert.equal(makeDecider(bots).where, "page");
  const match = matchAt(3, 5);
  const failing = {
    ...bots,
    makeBot: () => (_view, rng) => {
      rng.next32();
      throw new TypeError("broken");
    },
  };
  const state = new PortableRandom(7).state;
  const answer = decide(
    failing,
    playersOf(failing),
    "casual",
    viewForSeat(match, 0),
    state,
  );
  assert.equal(answer.action, null);
  assert.match(answer.error, /TypeError: broken/);
  // The generator as the failing bot left it, as when it failed in the page.
  const advanced = new PortableRandom(7);
  advanced.next32();
  assert.deepEqual(answer.rng, advanced.state);
  // An unknown level is the bot's failure too, answered, not thrown.
  const unknown = reply(bots, playersOf(bots), {
    ...requestOf(1, { level: "grandmaster", match, seat: matchTurn(match), rng: state }),
  });
  assert.equal(unknown.action, null);
  assert.match(unknown.error, /unknown level 'grandmaster'/);
  assert.deepEqual(unknown.rng, state);
});

test("a worker that fails or falls silent is replaced and asked the same again", async () => {
  const match = matchAt(12, 9);
  const rngSeed = 99n;
  const question = {
    level: "expert",
    match,
    seat: matchTurn(match),
    rng: new PortableRandom(rngSeed).state,
  };
  const expected = inlineDecision("expert", match, rngSeed);
  // The first worker's script fails, the second says nothing, the third answers.
  const behaviours = [(w) => w.fail("SyntaxError: import"), () => {}, answering];
  const spawned = [];
  const decider = workerDecider(bots, {
    spawn: () => {
      const w = new FakeWorker(behaviours[spawned.length]);
      spawned.push(w);
      return w;
    },
    timeoutMs: 30,
  });
  const { value: answer, warned } = await quietly(() => decider.decide(question));
  assert.deepEqual(answer, expected);
  assert.equal(spawned.length, 3);
  assert.deepEqual(
    spawned.map((w) => w.terminated),
    [true, true, false],
  );
  // Each asked the very same question: the record and the generator's state.
  assert.deepEqual(spawned[1].posted, spawned[0].posted);
  assert.deepEqual(spawned[2].posted, spawned[0].posted);
  assert.ok(warned.some((w) => w.includes("SyntaxError: import")));
  assert.ok(warned.some((w) => w.includes("no answer in 30 ms")));
  // The next question goes to the worker that works, and the failures count from 0 again.
  assert.deepEqual(await decider.decide(question), expected);
  assert.equal(spawned.length, 3);
  assert.equal(decider.where, "worker");
  decider.close();
});

test("after workers lost in a row the page decides, the same decision", async () => {
  const match = matchAt(4, 20);
  const question = {
    level: "strong",
    match,
    seat: matchTurn(match),
    rng: new PortableRandom(5).state,
  };
  let spawned = 0;
  const decider = workerDecider(bots, {
    spawn: () => {
      spawned += 1;
      if (spawned === 2) throw new Error("SecurityError: no workers here");
      return new FakeWorker((w) => w.fail("module workers are not supported"));
    },
    attempts: 3,
  });
  const { value: answer, warned } = await quietly(() => decider.decide(question));
  assert.deepEqual(answer, inlineDecision("strong", match, 5));
  assert.equal(spawned, 3);
  assert.equal(decider.where, "page");
  assert.ok(warned.some((w) => w.includes("thinks in the page")));
  assert.deepEqual(await decider.decide(question), answer);
  assert.equal(spawned, 3, "no more workers are started");
});

test("an answer to no question, or from a worker ended meanwhile, is ignored", async () => {
  const match = matchAt(8, 2);
  const question = {
    level: "casual",
    match,
    seat: matchTurn(match),
    rng: new PortableRandom(1).state,
  };
  const expected = inlineDecision("casual", match, 1);
  const spawned = [];
  const decider = workerDecider(bots, {
    spawn: () => {
      // The first says a wrong answer to another id, then fails; the second answers.
      const w = new FakeWorker(
        spawned.length === 0
          ? (me, request) => {
              me.say({
                id: request.id + 1,
                action: "pass",
                rng: [1, 2, 3, 4],
                error: null,
              });
              me.fail("lost");
              me.say({ ...reply(bots, workerPlayers, request), action: "pass" });
            }
          : answering,
      );
      spawned.push(w);
      return w;
    },
  });
  const { value: answer } = await quietly(() => decider.decide(question));
  assert.deepEqual(answer, expected);
  assert.equal(spawned.length, 2);
  decider.close();
});

/** Random words for the device game's deal and dealer: zeros, so that seat one deals and
 * the computer (seat two, the non-dealer) decides first. */
const zeros = (words) => words.fill(0);

/** A decider whose answers the test gives: `asked` holds each question and its resolve. */
function heldDecider() {
  const asked = [];
  return {
    asked,
    where: "worker",
    decide: (question) => new Promise((resolve) => asked.push({ question, resolve })),
    close: () => {},
  };
}

async function heldGame() {
  const { game, match } = await newDeviceGame({
    id: "g1",
    level: "expert",
    name: "Ann",
    botName: "Expert",
    rules: Rules.preset("standard"),
    fill: zeros,
  });
  assert.equal(match.round.turn, 1, "the computer decides first");
  const decider = heldDecider();
  const frames = [];
  const device = new DeviceGame(game, match, {
    bots,
    decide: decider,
    store: new GameStore(null),
    delayMs: 0,
    onMessage: (m) => frames.push(m),
    onConnection: () => {},
  });
  return { device, decider, frames };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

test("the device game plays the decider's answer and takes its generator state", async () => {
  const { device, decider, frames } = await heldGame();
  device.open();
  assert.equal(decider.asked.length, 1);
  const { question, resolve } = decider.asked[0];
  assert.deepEqual(question.rng, device.rng.state);
  assert.equal(question.seat, 1);
  const answer = await pageDecider(bots).decide(question);
  resolve(answer);
  await tick();
  assert.deepEqual(device.rng.state, answer.rng);
  const event = frames.findLast((f) => f.type === "event");
  assert.deepEqual([event.seat, event.action], ["two", answer.action]);
  device.close();
});

test("a stale answer (the person resigned, the game closed) changes nothing", async () => {
  const { device, decider, frames } = await heldGame();
  device.open();
  const rng = device.rng.state;
  // The person resigns while the computer thinks: the answer comes too late.
  device.send({ type: "resign" });
  await device.queue;
  const version = device.version;
  const match = device.match;
  assert.equal(match.phase, MatchPhase.OVER);
  const { question, resolve } = decider.asked[0];
  resolve({ ...(await pageDecider(bots).decide(question)), rng: [9, 9, 9, 9] });
  await tick();
  assert.equal(device.version, version);
  assert.equal(device.match, match);
  assert.deepEqual(device.rng.state, rng);
  const count = frames.length;
  device.close();

  // Closed (the page left the game, or a reload) while the computer thinks.
  const again = await heldGame();
  again.device.open();
  const before = again.device.match;
  const beforeRng = again.device.rng.state;
  again.device.close();
  const asked = again.decider.asked[0];
  asked.resolve(await pageDecider(bots).decide(asked.question));
  await tick();
  assert.equal(again.device.match, before);
  assert.deepEqual(again.device.rng.state, beforeRng);
  assert.equal(frames.length, count);
});

test("the worker's request is the saved game's record", async () => {
  const { device } = await heldGame();
  device.open();
  const request = requestOf(1, device.decider.asked[0].question);
  const saved = device.game.record;
  // The saved record has the rounds' fair blocks too, which the request leaves out.
  const strip = (record) => ({
    ...record,
    rounds: record.rounds.map(({ fair, ...round }) => round),
  });
  assert.deepEqual(strip(request.record), strip(saved));
  assert.deepEqual(request.record, matchRecordToDict(recordOf(device.match)));
  device.close();
});
