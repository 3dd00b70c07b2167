// Pure client modules under `node --test tests/js/` (no browser, no DOM).
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  initialState, applyMessage, afterOwnDecision, toggleTips, wantsTip, handOrder, moveCard,
  placeCard, preferredCardAction, splitAction,
} from "../../src/ginrummy/web/js/store.js";

function view(overrides = {}) {
  return {
    seat: "one",
    hand: ["7h", "8h", "9h", "Kc", "2d"],
    arrangement: { melds: [["7h", "8h", "9h"]], deadwood_cards: ["2d", "Kc"], deadwood: 12 },
    legal_actions: [],
    taken: null,
    table: { round: 1, match_phase: "round", round_phase: "draw", discard_pile: ["4d"], known: { one: [], two: [] } },
    ...overrides,
  };
}

test("a view replaces the state and a duplicate-free event is announced", () => {
  let state = { ...initialState(), seat: "one" };
  ({ state } = applyMessage(state, { type: "view", version: 3, view: view(), players: null }));
  assert.equal(state.version, 3);
  const { announce } = applyMessage(state, { type: "event", version: 4, seat: "two", action: "draw discard", kind: "action" });
  assert.deepEqual(announce, [{ kind: "move", seat: "two", action: "draw discard", top: "4d" }]);
});

test("own moves are not announced", () => {
  const state = { ...initialState(), seat: "one", view: view() };
  const { announce } = applyMessage(state, { type: "event", version: 4, seat: "one", action: "discard Kc", kind: "action" });
  assert.deepEqual(announce, []);
});

test("presence changes are announced for the opponent", () => {
  const players = (connected) => ({ one: { name: "A", connected: true }, two: { name: "B", connected } });
  const state = { ...initialState(), seat: "one", players: players(true) };
  const { announce } = applyMessage(state, { type: "presence", players: players(false) });
  assert.deepEqual(announce, [{ kind: "presence", seat: "two", what: "away" }]);
});

test("tips: three decisions, then off; the round end switches them off", () => {
  let state = toggleTips({ ...initialState(), seat: "one", version: 5, view: view({ legal_actions: ["draw stock"] }) });
  assert.ok(wantsTip(state));
  for (let i = 0; i < 3; i += 1) state = afterOwnDecision(state);
  assert.equal(state.tips.on, false);
  state = toggleTips({ ...state, view: view() });
  ({ state } = applyMessage(state, { type: "view", version: 9, view: view({ table: { ...view().table, match_phase: "deal", round_phase: "over" } }) }));
  assert.equal(state.tips.on, false);
  assert.equal(state.tips.message, "tips.ended_round");
});

test("the hand is grouped by melds, and manual order keeps new cards at the end", () => {
  const v = view();
  assert.deepEqual(handOrder(v, null), ["7h", "8h", "9h", "2d", "Kc"]);
  const manual = moveCard(handOrder(v, null), "Kc", -4);
  assert.deepEqual(manual, ["Kc", "7h", "8h", "9h", "2d"]);
  const drawn = view({ hand: [...v.hand, "5s"] });
  assert.deepEqual(handOrder(drawn, manual), ["Kc", "7h", "8h", "9h", "2d", "5s"]);
  assert.deepEqual(placeCard(manual, "2d", "Kc", false), ["2d", "Kc", "7h", "8h", "9h"]);
});

test("the knock button picks among the legal knocks only", () => {
  const v = view({ legal_actions: ["discard 2d", "knock 2d", "knock Kc"] });
  assert.equal(preferredCardAction(v, "knock"), "knock Kc");
  assert.equal(preferredCardAction(v, "gin"), null);
  assert.deepEqual(splitAction("draw stock"), ["draw stock", null]);
  assert.deepEqual(splitAction("gin Qs"), ["gin", "Qs"]);
});

test("nicknames: 2 to 20 letters, digits, spaces, - _ .", async () => {
  const { nicknameProblem } = await import("../../src/ginrummy/web/js/store.js");
  assert.equal(nicknameProblem("Ann"), null);
  assert.equal(nicknameProblem("  Jörg_2.0-x "), null);
  assert.equal(nicknameProblem("x"), "nick.too_short");
  assert.equal(nicknameProblem("a".repeat(21)), "nick.too_long");
  assert.equal(nicknameProblem("<b>ab"), "nick.bad_chars");
});

test("chat messages keep arriving in order, without duplicates; muted authors are hidden", async () => {
  const { visibleChat } = await import("../../src/ginrummy/web/js/store.js");
  let state = { ...initialState(), seat: "one" };
  const msg = (id, seat, player, text) => ({ id, t: 0, from: { seat, tag: `${player}#x`, player }, text, phrase: null });
  ({ state } = applyMessage(state, { type: "chat_history", messages: [msg(1, "two", "p_b", "hi")] }));
  ({ state } = applyMessage(state, { type: "chat", message: msg(2, "one", "p_a", "<img src=x>") }));
  ({ state } = applyMessage(state, { type: "chat", message: msg(2, "one", "p_a", "<img src=x>") }));
  assert.deepEqual(state.chat.messages.map((m) => m.id), [1, 2]);
  assert.deepEqual(visibleChat({ ...state, muted: ["p_b"] }).map((m) => m.id), [2]);
});

test("the move timer and a grace period count down from when the message arrived", async () => {
  const { timeLeft, graceLeft } = await import("../../src/ginrummy/web/js/store.js");
  let state = { ...initialState(), seat: "one" };
  const players = { one: { name: "A", connected: true }, two: { name: "B", connected: false, grace_remaining_ms: 60000 } };
  ({ state } = applyMessage(state, {
    type: "view", version: 5, view: view(), players, timer: { seat: "one", remaining_ms: 30000, total_ms: 30000 }, receivedAt: 1000,
  }));
  assert.equal(timeLeft(state.timer, 11000), 20000);
  assert.equal(timeLeft(state.timer, 99000), 0);
  assert.equal(graceLeft(state, "two", 31000), 30000);
  assert.equal(graceLeft(state, "one", 31000), null);
});

test("the rating chart starts at 1500 and puts higher ratings higher", async () => {
  const { chartGeometry, withStart } = await import("../../src/ginrummy/web/js/stats.js");
  const history = withStart([{ t: 1, rating: 1662, rd: 290 }]);
  assert.equal(history[0].rating, 1500);
  const g = chartGeometry(history);
  assert.equal(g.line.length, 2);
  assert.ok(g.line[1][1] < g.line[0][1]);
  assert.ok(g.ticks.every((tick) => tick.value % 50 === 0));
  assert.equal(chartGeometry([]), null);
});
