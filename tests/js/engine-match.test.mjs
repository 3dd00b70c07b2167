// match.js, views.js, codec.js, record.js: scores and dealers, what each side sees,
// and replay.
import { test } from "node:test";
import assert from "node:assert/strict";
import { parseAction } from "../../src/ginrummy/web/js/engine/actions.js";
import {
  encodeSeatView,
  encodeSpectatorView,
} from "../../src/ginrummy/web/js/engine/codec.js";
import {
  IllegalActionError,
  RecordError,
} from "../../src/ginrummy/web/js/engine/errors.js";
import {
  MatchPhase,
  apply,
  deal,
  forfeit,
  legalActions,
  margin,
  newMatch,
} from "../../src/ginrummy/web/js/engine/match.js";
import {
  loadRecord,
  matchRecordFromDict,
  matchRecordToDict,
  recordOf,
  replayMatch,
} from "../../src/ginrummy/web/js/engine/record.js";
import { Rules } from "../../src/ginrummy/web/js/engine/rules.js";
import { viewForSeat, viewForSpectator } from "../../src/ginrummy/web/js/engine/views.js";
import { deckOf } from "./engine-helpers.mjs";

const ONE = 0,
  TWO = 1;
// non-dealer 2c 3c 4c | 5d 6d 7d | 9h Th Jh | Qs draws Qh: gin with Qs; dealer 5h = 5
const GIN = deckOf(
  "2c 3c 4c 5d 6d 7d 9h Th Jh Qs",
  "Kc Kd Ks Tc Td Ts Js Jd Jc 5h",
  "8s",
  "Qh",
);
const GIN_ACTIONS = ["pass", "pass", "draw stock", "gin Qs"];

function playMatch(m, ...actions) {
  for (const text of actions) m = apply(m, parseAction(text));
  return m;
}

test("scores accumulate, the dealer alternates, the target ends the match", () => {
  let m = newMatch(Rules.preset("standard", { target_score: 50 }), ONE);
  m = playMatch(deal(m, GIN), ...GIN_ACTIONS);
  assert.deepEqual([m.phase, m.scores.two, m.nextDealer], [MatchPhase.DEAL, 30, TWO]);
  m = playMatch(deal(m, GIN), ...GIN_ACTIONS); // dealer two: seat one wins
  m = playMatch(deal(m, GIN), ...GIN_ACTIONS);
  assert.equal(m.phase, MatchPhase.OVER);
  assert.deepEqual(
    [m.result.winner, m.result.totals.two, m.result.totals.one, margin(m.result)],
    [TWO, 60, 30, 30],
  );
  assert.throws(
    () => apply(m, parseAction("pass")),
    (e) => e instanceof IllegalActionError && /the match is over/.test(e.message),
  );
  assert.throws(() => deal(m, GIN), /a round is under way or the match is over/);
});

test("classic adds box, game and shutout bonuses; the loser deals next", () => {
  const m = playMatch(
    deal(newMatch(Rules.preset("classic", { target_score: 30 }), ONE), GIN),
    ...GIN_ACTIONS,
  );
  const r = m.result;
  assert.deepEqual(
    [r.boxBonus.two, r.gameBonus.two, r.shutoutBonus.two, r.totals.two],
    [25, 100, 100, 255],
  );
  const loser = playMatch(
    deal(newMatch(Rules.preset("standard", { next_dealer: "loser" }), ONE), GIN),
    ...GIN_ACTIONS,
  );
  assert.equal(loser.nextDealer, ONE);
});

test("a forfeit ends the match with the scores as they stand", () => {
  const m = forfeit(deal(newMatch(Rules.preset(), ONE), GIN), TWO, "resigned");
  assert.deepEqual(
    [m.phase, m.result.winner, m.result.forfeit, m.result.forfeitedBy],
    [MatchPhase.OVER, ONE, "resigned", TWO],
  );
  assert.deepEqual(legalActions(m), []);
  assert.throws(() => forfeit(m, ONE, "timeout"), /the match is over/);
});

test("views hide the other hand and the knock discard; spectators see no hand", () => {
  let m = deal(newMatch(Rules.preset(), ONE), GIN);
  const mine = encodeSeatView(viewForSeat(m, TWO));
  assert.deepEqual(
    [mine.seat, mine.hand.length, mine.legal_actions],
    ["two", 10, ["take", "pass"]],
  );
  const theirs = encodeSeatView(viewForSeat(m, ONE));
  assert.deepEqual(theirs.legal_actions, []);
  assert.ok(!JSON.stringify(theirs).includes('"2c"'));
  const spectator = encodeSpectatorView(viewForSpectator(m));
  assert.deepEqual(
    [spectator.seat, spectator.hand, spectator.arrangement],
    [null, [], null],
  );
  assert.ok(!JSON.stringify(spectator).includes('"Qs"'));
  m = playMatch(m, ...GIN_ACTIONS);
  assert.equal(encodeSeatView(viewForSeat(m, TWO)).knock_discard, "Qs");
  assert.equal(encodeSeatView(viewForSeat(m, ONE)).knock_discard, null);
  const table = encodeSpectatorView(viewForSpectator(m)).table;
  assert.deepEqual(
    [table.rounds.length, table.rounds[0].result.kind, table.scores],
    [1, "gin", { one: 0, two: 30 }],
  );
  assert.deepEqual(Object.keys(mine), [
    "seat",
    "hand",
    "arrangement",
    "legal_actions",
    "taken",
    "knock_discard",
    "table",
    "moves",
  ]);
});

test("a match record round-trips and replays to the same views", () => {
  let m = newMatch(Rules.preset("standard", { target_score: 50 }), ONE);
  m = playMatch(deal(m, GIN), ...GIN_ACTIONS);
  m = playMatch(deal(m, GIN), "pass", "take");
  const data = JSON.parse(JSON.stringify(matchRecordToDict(recordOf(m))));
  assert.deepEqual(
    data.rounds.map((r) => r.actions.length),
    [4, 2],
  );
  const again = replayMatch(matchRecordFromDict(data));
  assert.deepEqual(
    encodeSeatView(viewForSeat(again, ONE)),
    encodeSeatView(viewForSeat(m, ONE)),
  );
  assert.equal(loadRecord(data).kind, "match");
  data.rounds[0].actions[0] = "knock Ac";
  assert.throws(
    () => replayMatch(matchRecordFromDict(data)),
    (e) => e instanceof RecordError && /round 1, action 1/.test(e.message),
  );
  assert.throws(() => loadRecord({ kind: "chess" }), /unknown record kind 'chess'/);
});
