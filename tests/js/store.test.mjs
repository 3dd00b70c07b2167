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
