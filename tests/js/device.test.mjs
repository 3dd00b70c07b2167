// The device game (web/js/device/): unbiased decks, the storage codec with its damage
// detection, the local statistics, and the game loop against a stand-in bot.
import { test } from "node:test";
import assert from "node:assert/strict";

import {
  DECK,
  fromMask,
  loadRecord,
  replayMatch,
  Rules,
  parseAction,
} from "../../src/ginrummy/web/js/engine/index.js";
import { randomBelow, shuffledDeck } from "../../src/ginrummy/web/js/device/deck.js";
import {
  DamagedGameError,
  GameStore,
  checksum,
  decodeGame,
  encodeGame,
  PREFIX,
} from "../../src/ginrummy/web/js/device/saved.js";
import {
  addMatch,
  averagePoints,
  emptyTally,
  loadTally,
  saveTally,
} from "../../src/ginrummy/web/js/device/tally.js";
import { DeviceGame, newDeviceGame } from "../../src/ginrummy/web/js/device/game.js";
import { verifyRecord } from "../../src/ginrummy/web/js/fair/verify.js";
import * as bots from "./fixtures/bots/index.js";

/** A Storage stand-in; `full` makes every write throw as a full localStorage does. */
class MemoryStorage {
  constructor() {
    this.map = new Map();
    this.full = false;
  }
  get length() {
    return this.map.size;
  }
  key(i) {
    return [...this.map.keys()][i] ?? null;
  }
  getItem(k) {
    return this.map.has(k) ? this.map.get(k) : null;
  }
  setItem(k, v) {
    if (this.full) throw new Error("QuotaExceededError");
    this.map.set(k, String(v));
  }
  removeItem(k) {
    this.map.delete(k);
  }
}

/** Random words from a list, then zeros. */
function wordsFrom(list) {
  const queue = [...list];
  return (words) => {
    for (let i = 0; i < words.length; i += 1) words[i] = queue.length ? queue.shift() : 0;
  };
}

test("randomBelow throws away the words of the last incomplete run", () => {
  // 2^32 % 3 = 1: the single word 2^32 - 1 would favour 0; it is drawn again.
  assert.equal(randomBelow(3, wordsFrom([2 ** 32 - 1, 5])), 2);
  assert.equal(randomBelow(3, wordsFrom([2 ** 32 - 2])), (2 ** 32 - 2) % 3);
  assert.throws(() => randomBelow(0), RangeError);
});

test("a shuffled deck is the 52 cards, from crypto.getRandomValues by default", () => {
  const deck = shuffledDeck();
  assert.equal(new Set(deck).size, 52);
  assert.deepEqual(
    [...deck].sort((a, b) => a.index - b.index),
    [...DECK],
  );
  // All-zero words: every step swaps with the first card (Fisher–Yates from the end).
  const fixed = shuffledDeck(wordsFrom([]));
  assert.equal(fixed[0], DECK[1]);
  assert.equal(fixed[51], DECK[0]);
});

/** The frames the page gets, in order. `until(test)` resolves once `test()` holds, looked
 * at again as each frame comes: the tests wait on the game's own frames, never on the
 * clock, so a loaded machine only makes them slower. */
class Frames extends Array {
  static get [Symbol.species]() {
    return Array;
  }

  /** @type {{test: () => boolean, resolve: () => void}[]} */
  waiters = [];

  push(...items) {
    const length = super.push(...items);
    const ready = this.waiters.filter((w) => w.test());
    this.waiters = this.waiters.filter((w) => !ready.includes(w));
    for (const w of ready) w.resolve();
    return length;
  }

  until(test) {
    return test()
      ? Promise.resolve()
      : new Promise((resolve) => this.waiters.push({ test, resolve }));
  }
}

/** Person moves allowed for a match: a bound on the loops (each iteration is a move),
 * far above what a match to 50 takes, so that a game that never ends fails. */
const MOVES_PER_MATCH = 20_000;

async function startGame(storage = new MemoryStorage(), extra = {}) {
  const store = new GameStore(storage);
  const rules = Rules.preset("standard", { target_score: 50 });
  const { game, match } = await newDeviceGame({
    id: "g1",
    level: "random",
    name: "Ann",
    botName: "Random",
    rules,
  });
  const frames = new Frames();
  const saves = [];
  const over = [];
  const device = new DeviceGame(game, match, {
    bots,
    store,
    delayMs: 0,
    onMessage: (m) => frames.push(m),
    onConnection: () => {},
    onSaved: (ok) => saves.push(ok),
    onMatchOver: (m) => over.push(m),
    ...extra,
  });
  return { device, store, storage, frames, saves, over };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 2));
/** The last view frame (looked for from the end: it is asked after every frame). */
const lastView = (frames) => frames.findLast((f) => f.type === "view");

/** Until the person decides again (or the round or match is over): the messages sent so
 * far are handled (a deal waits for WebCrypto), then the computer's moves, which run on
 * timers, are awaited frame by frame. */
async function nextDecision(device, frames) {
  await device.queue;
  await frames.until(() => {
    const { view } = lastView(frames);
    return view.legal_actions.length > 0 || view.table.match_phase !== "round";
  });
}

/** Until the person decides: the computer may end a round first (as non-dealer it can
 * take the first upcard and knock at once), and the person then goes on to the next round,
 * as the page's "Next round" does, and waits again. */
async function myTurn(device, frames) {
  await nextDecision(device, frames);
  while (!lastView(frames).view.legal_actions.length) {
    const { version, view } = lastView(frames);
    assert.notEqual(view.table.match_phase, "over", "the match ended first");
    device.send({ type: "next_round", version });
    await nextDecision(device, frames);
  }
}

test("the codec round-trips a game and replays its match", async () => {
  const { device, store } = await startGame();
  device.open();
  const loaded = store.load("g1");
  assert.equal(loaded.game.version, device.version);
  assert.deepEqual(loaded.game.record, device.game.record);
  device.close();
});

test("damaged or foreign data is recognised, never played on", async () => {
  const { device, storage } = await startGame();
  device.open();
  device.close();
  const key = `${PREFIX}game.g1`;
  const good = storage.getItem(key);
  const cases = {
    "not JSON": good.slice(0, -3),
    "the checksum does not match": good.replace('\\"version\\":2', '\\"version\\":3'),
    "not a saved game": JSON.stringify({ hello: 1 }),
  };
  for (const [reason, text] of Object.entries(cases)) {
    assert.throws(
      () => decodeGame("g1", text),
      (e) => e instanceof DamagedGameError && e.reason === reason,
    );
  }
  // Another version's format, with a correct checksum.
  const inner = JSON.parse(JSON.parse(good).body);
  const body = JSON.stringify({ ...inner, format: 99 });
  assert.throws(
    () => decodeGame("g1", JSON.stringify({ sum: checksum(body), body })),
    /format 99 is not 1/,
  );
  // A record that does not replay (a card the deck does not hold twice), checksum fixed up.
  const record = inner.game.record;
  const broken = {
    ...inner.game,
    record: { ...record, rounds: [{ ...record.rounds[0], deck: "Ac Ac" }] },
  };
  assert.throws(() => decodeGame("g1", encodeGame(broken)), DamagedGameError);
  // The list keeps the damaged game, to be discarded.
  storage.setItem(key, cases["not JSON"]);
  const listed = new GameStore(storage).list();
  assert.equal(listed.length, 1);
  assert.ok("damaged" in listed[0]);
  new GameStore(storage).discard("g1");
  assert.equal(storage.getItem(key), null);
});

test("storage full or missing: the game plays on and says it is not saved", async () => {
  const storage = new MemoryStorage();
  storage.full = true;
  const { device, frames, saves } = await startGame(storage);
  device.open();
  assert.deepEqual(saves, [false]);
  assert.ok(lastView(frames));
  device.close();
  assert.equal(new GameStore(null).save(device.game), false);
  assert.deepEqual(new GameStore(null).list(), []);
});

/** The person's move: gin or knock when it may (so that rounds score and matches end),
 * else a legal action of the last view picked with `pick`. */
function personMove(device, frames, pick) {
  const view = lastView(frames);
  const legal = view.view.legal_actions;
  const ending = legal.find((a) => /^(big gin|gin|knock)/.test(a));
  if (ending) return device.send({ type: "act", version: view.version, action: ending });
  if (legal.length)
    return device.send({
      type: "act",
      version: view.version,
      action: legal[pick(legal.length)],
    });
  if (view.view.table.match_phase === "deal")
    return device.send({ type: "next_round", version: view.version });
  return false;
}

/** Moves between two full reads of the saved game in the whole-match test. */
const REPLAY_EVERY = 40;

/** The saved game, read back as the page reads it (checksum, format, replay), is the live one. */
function assertSavedIsLive(storage, device) {
  const saved = new GameStore(storage).load("g1");
  assert.equal(saved.game.version, device.version);
  assert.deepEqual(saved.match.result, device.match.result);
  assert.equal(saved.match.phase, device.match.phase);
}

test("a whole match against the stand-in bot: frames like the server's, saved after every move", async () => {
  let seed = 11;
  const pick = (n) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  const { device, storage, frames, over } = await startGame();
  device.open();
  assert.deepEqual(
    frames.slice(0, 4).map((f) => f.type),
    ["welcome", "view", "chat_history", "tips"],
  );
  assert.equal(frames[0].room.rated, false);
  assert.equal(frames[0].seat, "one");
  // One person move a turn: each waits for the deal and the computer's answer.
  for (let moves = 0; device.match.phase !== "over"; moves += 1) {
    assert.ok(moves < MOVES_PER_MATCH, "the match never ends");
    personMove(device, frames, pick);
    await nextDecision(device, frames);
    // Saved after every change: the stored text is the live game's own encoding. Reading
    // it back replays the whole match, a cost that grows with every move, so the replay
    // (checksum, format, the record's moves) is checked every REPLAY_EVERY moves and at
    // the end rather than on each of a match's hundreds of moves.
    assert.equal(storage.getItem(`${PREFIX}game.g1`), encodeGame(device.game));
    if (moves % REPLAY_EVERY === 0) assertSavedIsLive(storage, device);
    // The computer's hidden cards are nowhere in what the page gets while a round runs.
    const rnd = device.match.round;
    if (rnd.result === null) {
      const { view } = lastView(frames);
      const known = new Set(view.table.known.two);
      const hidden = fromMask(rnd.hands.two)
        .map((c) => c.text)
        .filter((c) => !known.has(c));
      // Earlier rounds' results show their final hands, rightly: only this round counts.
      const shown = JSON.stringify({ ...view, table: { ...view.table, rounds: [] } });
      for (const card of hidden)
        assert.ok(!shown.includes(`"${card}"`), `${card} of the computer is shown`);
    }
  }
  assert.equal(device.match.phase, "over");
  assertSavedIsLive(storage, device);
  assert.equal(over.length, 1);
  const versions = frames.filter((f) => f.type === "event").map((f) => f.version);
  assert.deepEqual(
    versions,
    versions.map((_, i) => versions[0] + i),
    "one version per event, no gaps",
  );
  // No view shows the computer's hand while a round runs.
  for (const f of frames.filter(
    (x) => x.type === "view" && x.view.table.round_phase !== "over",
  )) {
    assert.equal(f.view.seat, "one");
    assert.equal(f.view.table.result, null);
  }
  // The record downloads only now, and replays to the same scores.
  const record = device.finishedRecord();
  const replayed = replayMatch(loadRecord(record).match);
  assert.deepEqual(replayed.result.totals, device.match.result.totals);
  // A rematch starts a new match, dealt at once; the statistics count the next one again.
  device.send({ type: "new_match", version: device.version });
  await device.queue; // the deal waits for WebCrypto
  assert.notEqual(device.match.phase, "over");
  assert.equal(device.game.counted, false);
  device.close();
});

test("a resumed game continues from the saved state", async () => {
  const { device, store, frames: before } = await startGame();
  device.open();
  await nextDecision(device, before); // the computer's opening move, if it has one
  device.close();
  const loaded = store.load("g1");
  const frames = new Frames();
  const again = new DeviceGame(loaded.game, loaded.match, {
    bots,
    store,
    delayMs: 0,
    onMessage: (m) => frames.push(m),
    onConnection: () => {},
  });
  again.open();
  assert.equal(lastView(frames).version, device.version);
  assert.deepEqual(
    lastView(frames).view.hand,
    JSON.parse(JSON.stringify(lastView(frames).view.hand)),
  );
  assert.deepEqual(recordText(again), recordText(device));
  again.close();
});

const recordText = (d) => JSON.stringify(d.game.record);

/** Play the person's part until the match is over. */
async function playToEnd(device, frames, seed) {
  const pick = (n) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  for (let moves = 0; device.match.phase !== "over"; moves += 1) {
    assert.ok(moves < MOVES_PER_MATCH, "the match never ends");
    personMove(device, frames, pick);
    await nextDecision(device, frames);
  }
}

test("a device match deals fairly: its downloaded record verifies, round by round, match by match", async () => {
  const { device, frames, store } = await startGame();
  device.open();
  await playToEnd(device, frames, 5);
  const first = device.finishedRecord();
  assert.ok(first.rounds.length >= 1);
  const report = await verifyRecord(first);
  assert.equal(report.error, null);
  assert.deepEqual(
    report.rounds.map((r) => r.check),
    first.rounds.map(() => "ok"),
  );
  first.rounds.forEach((rnd, i) => {
    assert.deepEqual([rnd.fair.room, rnd.fair.match, rnd.fair.round], ["g1", 1, i + 1]);
    assert.equal(
      rnd.fair.server_seed.length,
      64,
      "revealed at once: there is no other party",
    );
  });
  // The fair blocks are what the deck came from: another deck does not verify.
  const swapped = structuredClone(first);
  const cards = swapped.rounds[0].deck.split(" ");
  [cards[0], cards[1]] = [cards[1], cards[0]];
  swapped.rounds[0].deck = cards.join(" ");
  assert.equal((await verifyRecord(swapped)).rounds[0].check, "deck");
  // The rematch is match 2 of the game, its rounds counted from 1 again; a resumed game
  // keeps the blocks and deals on with them.
  device.send({ type: "new_match", version: device.version });
  await device.queue;
  device.close();
  const loaded = store.load("g1");
  const again = new DeviceGame(loaded.game, loaded.match, {
    bots,
    store,
    delayMs: 0,
    onMessage: (m) => frames.push(m),
    onConnection: () => {},
  });
  again.open();
  assert.deepEqual(again.fairs, device.fairs);
  await playToEnd(again, frames, 9);
  const second = again.finishedRecord();
  assert.ok((await verifyRecord(second)).ok);
  assert.deepEqual(
    second.rounds.map((r) => [r.fair.match, r.fair.round]),
    second.rounds.map((_, i) => [2, i + 1]),
  );
  again.close();
});

test("intents are checked as the server checks them", async () => {
  const { device, frames } = await startGame();
  device.open();
  await myTurn(device, frames);
  const view = lastView(frames);
  device.send({ type: "act", version: view.version - 1, action: "pass" });
  await device.queue;
  assert.equal(frames.filter((f) => f.type === "error").at(-1).code, "stale_version");
  device.send({ type: "next_round" });
  await device.queue;
  assert.equal(
    frames.filter((f) => f.type === "error").at(-1).code,
    "not_between_rounds",
  );
  device.send({ type: "tip" });
  await device.queue;
  assert.equal(frames.filter((f) => f.type === "error").at(-1).code, "tips_off");
  device.send({ type: "tips", on: true });
  await device.queue;
  assert.deepEqual(frames.filter((f) => f.type === "tips").at(-1), {
    type: "tips",
    allowed: true,
    on: true,
    left: 3,
  });
  const now = lastView(frames);
  device.send({ type: "tip" });
  await device.queue;
  const tip = frames.filter((f) => f.type === "tip").at(-1);
  assert.ok(now.view.legal_actions.includes(tip.action));
  // As the server sends it: the card among the params as its text.
  assert.equal(tip.params.top, now.view.table.discard_pile.at(-1));
  device.send({ type: "act", version: now.version, action: "discard Zz" });
  await device.queue;
  assert.equal(frames.filter((f) => f.type === "error").at(-1).code, "bad_action");
  device.send({ type: "resign" });
  await device.queue;
  assert.equal(lastView(frames).view.table.match_result.forfeit, "resigned");
  device.close();
});

test("a computer that picks an illegal action is logged and the game goes on", async () => {
  const broken = { ...bots, makeBot: () => () => parseAction("big gin") };
  const errors = [];
  const original = console.error;
  console.error = (...args) => errors.push(args.join(" "));
  try {
    const { device, frames } = await startGame(new MemoryStorage(), { bots: broken });
    device.open();
    // Until the computer has had a turn (its moves run on timers, whatever the load).
    for (let i = 0; i < 50 && !errors.some((e) => e.includes("not legal now")); i += 1) {
      personMove(device, frames, () => 0);
      await nextDecision(device, frames);
    }
    device.close();
  } finally {
    console.error = original;
  }
  assert.ok(errors.some((e) => e.includes("not legal now")));
});

test("local statistics count wins, gins, undercuts and points", async () => {
  let seed = 5;
  const pick = (n) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  const { device, frames, over } = await startGame();
  device.open();
  for (let moves = 0; device.match.phase !== "over"; moves += 1) {
    assert.ok(moves < MOVES_PER_MATCH, "the match never ends");
    personMove(device, frames, pick);
    await nextDecision(device, frames);
  }
  device.close();
  const match = over[0];
  const tally = addMatch(emptyTally(), match);
  assert.equal(tally.matches, 1);
  assert.equal(tally.wins, match.result.winner === 0 ? 1 : 0);
  assert.equal(tally.points, match.result.totals.one);
  assert.equal(averagePoints(tally), match.result.totals.one);
  const storage = new MemoryStorage();
  assert.equal(saveTally(storage, tally), true);
  assert.deepEqual(loadTally(storage), tally);
  storage.setItem("ginrummy.device.stats", '{"matches": -1}');
  assert.deepEqual(loadTally(storage), emptyTally());
  assert.equal(averagePoints(emptyTally()), null);
});

test("the page's side: start, open, list, damaged and missing games, pruning", async () => {
  const { devicePlay, KEEP_FINISHED } =
    await import("../../src/ginrummy/web/js/device/play.js");
  const { createStore, initialState } =
    await import("../../src/ginrummy/web/js/store.js");
  const storage = new MemoryStorage();
  const store = createStore(initialState());
  const frames = [];
  const local = devicePlay({
    store,
    storage,
    receive: (m) => frames.push(m),
    navigate: () => {},
    say: () => {},
    bots: async () => bots,
    delayMs: 0,
  });
  const enter = async (id) => {
    store.update((s) => ({ ...s, route: { name: "room", room: id, device: true } }));
    return local.open(id);
  };
  const ids = [];
  for (let i = 0; i < KEEP_FINISHED + 2; i += 1) {
    const id = await local.start({
      level: "random",
      botName: "Random",
      name: "Ann",
      targetScore: 100,
    });
    ids.push(id);
    const game = await enter(id);
    game.open();
    game.handle({ type: "resign" });
    game.close();
    // One creation time (Unix ms) per game: the newest are kept. Waits until the clock
    // has moved on, not for a fixed time (a timer may fire early by the loop's clock).
    const created = Date.now();
    while (Date.now() <= created) await settle();
  }
  const running = await local.start({
    level: "random",
    botName: "Random",
    name: "Ann",
    targetScore: 100,
  });
  // The oldest finished games are gone, the newest KEEP_FINISHED stay; finished games are
  // not listed as running.
  const kept = new GameStore(storage).list().map((item) => item.id);
  assert.deepEqual(kept.sort(), [...ids.slice(2), running].sort());
  assert.deepEqual(local.list(), [{ id: running, opponent: "Random", damaged: null }]);
  assert.equal(local.tally().matches, KEEP_FINISHED + 2);
  // Damaged: listed to be discarded, and its page says why instead of playing.
  storage.setItem(`${PREFIX}game.${running}`, "{}");
  assert.equal(await enter(running), null);
  assert.equal(store.get().device.damaged, "not a saved game");
  assert.equal(local.list()[0].damaged, "not a saved game");
  assert.equal(await enter("nosuchgame"), null);
  assert.equal(store.get().device.missing, true);
  // The computer players cannot be loaded: the game waits, saved, and the page says why.
  const saved = await local.start({
    level: "random",
    botName: "Random",
    name: "Ann",
    targetScore: 100,
  });
  const without = devicePlay({
    store,
    storage,
    receive: () => {},
    navigate: () => {},
    say: () => {},
    delayMs: 0,
    bots: async () => {
      throw new Error("offline");
    },
  });
  const warnings = [];
  const warn = console.warn;
  console.warn = (...args) => warnings.push(args.join(" "));
  try {
    store.update((s) => ({ ...s, route: { name: "room", room: saved, device: true } }));
    assert.equal(await without.open(saved), null);
  } finally {
    console.warn = warn;
  }
  assert.equal(store.get().device.noBots, true);
  assert.ok(warnings.some((w) => w.includes("could not be loaded")));
  assert.notEqual(new GameStore(storage).load(saved), null);
});

test("the computer players load once, ahead of the first game; a load that failed is tried again", async () => {
  const { devicePlay } = await import("../../src/ginrummy/web/js/device/play.js");
  const { createStore, initialState } =
    await import("../../src/ginrummy/web/js/store.js");
  const store = createStore(initialState());
  let loads = 0;
  let failNext = true;
  const loadBots = async () => {
    loads += 1;
    if (failNext) {
      failNext = false;
      throw new Error("offline");
    }
    return bots;
  };
  const local = devicePlay({
    store,
    storage: new MemoryStorage(),
    receive: () => {},
    navigate: () => {},
    say: () => {},
    bots: loadBots,
    delayMs: 0,
  });
  const warnings = [];
  const warn = console.warn;
  console.warn = (...args) => warnings.push(args.join(" "));
  try {
    local.warm(); // fails: noted, not thrown
    await settle();
  } finally {
    console.warn = warn;
  }
  assert.equal(loads, 1);
  assert.ok(
    warnings.some((w) => w.includes("ahead of a game")),
    warnings,
  );
  local.warm(); // tried again, and kept
  await settle();
  assert.equal(loads, 2);
  // The start and the open use the module already loaded: no third load.
  const id = await local.start({
    level: "random",
    botName: "Random",
    name: "Ann",
    targetScore: 100,
  });
  store.update((s) => ({ ...s, route: { name: "room", room: id, device: true } }));
  const game = await local.open(id);
  assert.ok(game);
  assert.equal(loads, 2);
});
