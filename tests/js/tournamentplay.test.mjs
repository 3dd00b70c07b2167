// The tournament's lobby sockets ask for what their page shows (docs/protocol.md,
// Tournaments): the page its tournament's frames, the table only `matched`; neither the
// lobby's listings.
import { test } from "node:test";
import assert from "node:assert/strict";
import { TournamentSocket } from "../../src/ginrummy/web/js/tournamentplay.js";

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
