// The tournament's lobby sockets ask for what their page shows (docs/protocol.md,
// Tournaments): the page its tournament's frames, the table only `matched`; neither the
// lobby's listings.
import { test } from "node:test";
import assert from "node:assert/strict";
import { isNewer, TournamentSocket } from "../../src/ginrummy/web/js/tournamentplay.js";

const options = (token) => ({
  token: () => token,
  onMessage: () => {},
  onConnection: () => {},
  url: "ws://test/ws",
});

test("the tournament's page watches its tournament and not the lobby", () => {
  const hello = new TournamentSocket(options("tok"), "t42").hello();
  assert.deepEqual(hello, {
    type: "hello_lobby",
    token: "tok",
    tournament: "t42",
    lobby: false,
  });
});

test("at a tournament's table the socket waits for matched alone, naming its table", () => {
  const hello = new TournamentSocket(options(null), null, "r7").hello();
  assert.deepEqual(hello, {
    type: "hello_lobby",
    token: null,
    tournament: null,
    lobby: false,
    table: "r7",
  });
});

test("a tournament's state never goes back to an older version", () => {
  const shown = { id: "t1", version: 7 };
  assert.equal(isNewer(shown, { id: "t1", version: 6 }), false); // a late API answer
  assert.equal(isNewer(shown, { id: "t1", version: 7 }), true); // the same state again
  assert.equal(isNewer(shown, { id: "t1", version: 8 }), true);
  assert.equal(isNewer(shown, { id: "t2", version: 1 }), true); // another tournament
  assert.equal(isNewer(null, { id: "t1", version: 1 }), true); // nothing shown yet
});
