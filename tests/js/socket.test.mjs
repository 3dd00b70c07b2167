// The page's socket after a server restart (close code 1012, docs/protocol.md "Restarts"):
// it says it reconnects (not that the connection was lost), waits by the backoff schedule
// (socket.js retryDelay: exponential, half random) and resumes its seat from its version with the
// seat's token on the new socket, to whichever server answers.
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  BACKOFF_BASE_MS,
  BACKOFF_MAX_MS,
  retryDelay,
} from "../../src/ginrummy/web/js/socket.js";
import { GameSocket, SERVICE_RESTART } from "../../src/ginrummy/web/js/socket.js";

test("each wait is between half and all of the doubled cap, never above the maximum", () => {
  fc.assert(
    fc.property(
      fc.nat(60),
      fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
      (attempt, r) => {
        const cap = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** attempt);
        const delay = retryDelay(attempt, () => r);
        assert.ok(
          delay >= Math.floor(cap / 2) && delay <= cap,
          `${attempt}: ${delay} of ${cap}`,
        );
      },
    ),
  );
});

test("the waits grow exponentially up to the maximum, and the jitter spreads them", () => {
  const low = [0, 1, 2, 3, 4, 5, 6].map((a) => retryDelay(a, () => 0));
  assert.deepEqual(low, [250, 500, 1000, 2000, 4000, 7500, 7500]);
  const spread = new Set(Array.from({ length: 50 }, () => retryDelay(0)));
  assert.ok(spread.size > 10, "many sockets of one restart do not come back together");
});

/** A WebSocket stand-in: records what the page sends, lets the test open and close it. */
class FakeWebSocket extends EventTarget {
  static OPEN = 1;
  /** @type {FakeWebSocket[]} */
  static made = [];
  /** @param {string} url */
  constructor(url) {
    super();
    this.url = url;
    this.readyState = 0;
    /** @type {any[]} */
    this.sent = [];
    FakeWebSocket.made.push(this);
  }
  /** @param {string} data */
  send(data) {
    this.sent.push(JSON.parse(data));
  }
  close() {}
  open() {
    this.readyState = 1;
    this.dispatchEvent(new Event("open"));
  }
  /** @param {unknown} msg */
  message(msg) {
    this.dispatchEvent(
      Object.assign(new Event("message"), { data: JSON.stringify(msg) }),
    );
  }
  /** @param {number} code */
  closed(code) {
    this.readyState = 3;
    this.dispatchEvent(Object.assign(new Event("close"), { code }));
  }
}

test("after a 1012 close the page reconnects and resumes its seat from its version", async (t) => {
  t.mock.timers.enable({ apis: ["setTimeout", "setInterval"] });
  globalThis.WebSocket = /** @type {any} */ (FakeWebSocket);
  FakeWebSocket.made = [];
  /** @type {any[]} */
  const states = [];
  /** @type {any[]} */
  const got = [];
  const socket = new GameSocket({
    room: "r1",
    token: () => "seat-token",
    url: "ws://example.test/ws",
    onMessage: (m) => got.push(m),
    onConnection: (c) => states.push(c),
  });
  socket.open();
  const first = FakeWebSocket.made[0];
  first.open();
  assert.deepEqual(first.sent, [{ type: "hello", room: "r1", token: "seat-token" }]);
  first.message({ type: "welcome", seat: "one" });
  first.message({ type: "view", version: 7, view: {} });

  first.closed(SERVICE_RESTART);
  const waiting = states.at(-1);
  assert.equal(waiting.connected, false);
  assert.equal(
    waiting.restart,
    true,
    "the page says the server restarts, not that all is lost",
  );
  assert.ok(waiting.retryIn >= BACKOFF_BASE_MS / 2 && waiting.retryIn <= BACKOFF_BASE_MS);
  assert.equal(FakeWebSocket.made.length, 1, "it waits its backoff first");

  t.mock.timers.tick(waiting.retryIn);
  const second = FakeWebSocket.made[1];
  assert.ok(second, "a new socket after the wait");
  second.open();
  assert.deepEqual(second.sent, [
    { type: "hello", room: "r1", token: "seat-token", version: 7 },
  ]);
  second.message({ type: "welcome", seat: "one" });
  assert.deepEqual(states.at(-1), { connected: true });
  second.message({ type: "view", version: 7, view: {} }); // the same version: a duplicate
  second.message({ type: "view", version: 8, view: {} });
  assert.deepEqual(
    got.filter((m) => m.type === "view").map((m) => m.version),
    [7, 8],
  );
  assert.equal(socket.attempt, 0, "the backoff starts over once welcomed");
  socket.close();
});

test("a drop that is not a restart says the connection was lost and backs off further", async (t) => {
  t.mock.timers.enable({ apis: ["setTimeout", "setInterval"] });
  globalThis.WebSocket = /** @type {any} */ (FakeWebSocket);
  FakeWebSocket.made = [];
  /** @type {any[]} */
  const states = [];
  const socket = new GameSocket({
    room: "r1",
    token: () => null,
    url: "ws://example.test/ws",
    onMessage: () => {},
    onConnection: (c) => states.push(c),
  });
  socket.open();
  FakeWebSocket.made[0].closed(1006);
  assert.equal(states.at(-1).restart, undefined);
  t.mock.timers.tick(states.at(-1).retryIn);
  FakeWebSocket.made[1].closed(1006);
  assert.ok(states.at(-1).retryIn >= BACKOFF_BASE_MS, "the second wait is longer");
  socket.close();
});
