// Pure client modules under `node --test tests/js/` (no browser, no DOM).
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  initialState,
  applyMessage,
  afterOwnDecision,
  tipsSwitch,
  wantsTip,
  handOrder,
  moveCard,
  placeCard,
  preferredCardAction,
  splitAction,
  nicknameProblem,
  chatText,
} from "../../src/ginrummy/web/js/store.js";
import { setCatalog } from "../../src/ginrummy/web/js/i18n.js";
import { announcementText } from "../../src/ginrummy/web/js/words.js";
import { EN } from "./catalogs.mjs";

function view(overrides = {}) {
  return {
    seat: "one",
    hand: ["7h", "8h", "9h", "Kc", "2d"],
    arrangement: {
      melds: [["7h", "8h", "9h"]],
      deadwood_cards: ["2d", "Kc"],
      deadwood: 12,
    },
    legal_actions: [],
    taken: null,
    table: {
      round: 1,
      match_phase: "round",
      round_phase: "draw",
      discard_pile: ["4d"],
      known: { one: [], two: [] },
    },
    ...overrides,
  };
}

test("a view replaces the state and a duplicate-free event is announced", () => {
  let state = { ...initialState(), seat: "one" };
  ({ state } = applyMessage(state, {
    type: "view",
    version: 3,
    view: view(),
    players: null,
  }));
  assert.equal(state.version, 3);
  const { announce } = applyMessage(state, {
    type: "event",
    version: 4,
    seat: "two",
    action: "draw discard",
    kind: "action",
  });
  assert.deepEqual(announce, [
    { kind: "move", seat: "two", action: "draw discard", top: "4d" },
  ]);
});

test("own moves are not announced", () => {
  const state = { ...initialState(), seat: "one", view: view() };
  const { announce } = applyMessage(state, {
    type: "event",
    version: 4,
    seat: "one",
    action: "discard Kc",
    kind: "action",
  });
  assert.deepEqual(announce, []);
});

test("presence changes are announced for the opponent", () => {
  const players = (connected) => ({
    one: { name: "A", connected: true },
    two: { name: "B", connected },
  });
  const state = { ...initialState(), seat: "one", players: players(true) };
  const { announce } = applyMessage(state, { type: "presence", players: players(false) });
  assert.deepEqual(announce, [{ kind: "presence", seat: "two", what: "away" }]);
});

test("tips: the server decides allowed, on and left; the client only asks", () => {
  let state = {
    ...initialState(),
    seat: "one",
    version: 5,
    view: view({ legal_actions: ["draw stock"] }),
  };
  assert.deepEqual(tipsSwitch(state), { type: "tips", on: true });
  // Switching asks; nothing changes until the server answers.
  assert.equal(wantsTip(state), false);
  let announce;
  ({ state, announce } = applyMessage(state, {
    type: "tips",
    allowed: true,
    on: true,
    left: 3,
  }));
  assert.deepEqual([state.tips.on, state.tips.left], [true, 3]);
  assert.deepEqual(announce, [{ kind: "tips", on: true, left: 3, message: null }]);
  assert.ok(wantsTip(state));
  assert.deepEqual(tipsSwitch(state), { type: "tips", on: false });
  // The client counts nothing: decisions leave `left` to the server.
  for (let i = 0; i < 5; i += 1) state = afterOwnDecision(state);
  assert.deepEqual([state.tips.on, state.tips.left], [true, 3]);
  ({ state } = applyMessage(state, { type: "tips", allowed: true, on: true, left: 1 }));
  assert.equal(state.tips.left, 1);
  ({ state, announce } = applyMessage(state, {
    type: "tips",
    allowed: true,
    on: false,
    left: 0,
  }));
  assert.equal(state.tips.message, "tips.done");
  assert.equal(wantsTip(state), false);
  assert.equal(announce[0].on, false);
});

test("tips: not allowed means no switch and no asking; the errors are told", () => {
  let state = {
    ...initialState(),
    seat: "one",
    version: 5,
    view: view({ legal_actions: ["draw stock"] }),
  };
  ({ state } = applyMessage(state, { type: "tips", allowed: false, on: true, left: 3 }));
  assert.deepEqual([state.tips.allowed, state.tips.on], [false, false]);
  assert.equal(wantsTip(state), false);
  for (const [code, key] of [
    ["tips_not_allowed", "tips.not_allowed"],
    ["tips_off", "tips.off"],
    ["tips_unavailable", "tips.unavailable"],
  ]) {
    const { state: next } = applyMessage(state, { type: "error", code, message: "x" });
    assert.equal(next.tips.message, key);
    assert.equal(next.notice, null);
    assert.ok(EN[key], `${key} is in the catalogue`);
  }
});

test("a forfeit is announced with the reason the view carries", () => {
  setCatalog("en", EN);
  const players = {
    one: { name: "Ann", connected: true },
    two: { name: "Bob", connected: true },
  };
  let state = { ...initialState(), seat: "one", players };
  ({ state } = applyMessage(state, { type: "view", version: 8, view: view(), players }));
  let announce;
  ({ state, announce } = applyMessage(state, {
    type: "event",
    version: 9,
    kind: "forfeit",
    seat: "two",
    action: null,
  }));
  assert.deepEqual(announce, []);
  const over = view({
    table: {
      ...view().table,
      match_phase: "over",
      round_phase: "discard",
      match_result: { winner: "one", forfeit: "timeout", forfeited_by: "two" },
    },
  });
  ({ state, announce } = applyMessage(state, {
    type: "view",
    version: 9,
    view: over,
    players,
  }));
  assert.deepEqual(announce, [{ kind: "forfeit", seat: "two", reason: "timeout" }]);
  assert.equal(announcementText(state, announce[0]), "Bob ran out of time.");
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

// Today's GET /api/config, and one that differs in every value: the client uses what is served.
const TODAY = {
  name: { min: 2, max: 20, pattern: "^[\\p{L}\\p{N} \\-_.]+$", punctuation: " -_." },
  chat: { max: 200 },
};
const OTHER = {
  name: { min: 4, max: 8, pattern: "^[a-z!]+$", punctuation: "!" },
  chat: { max: 5 },
};

test("names: the served rule decides (length in code points, after collapsing spaces)", () => {
  assert.equal(nicknameProblem("Ann", TODAY), null);
  assert.equal(nicknameProblem("  Jörg_2.0-x ", TODAY), null);
  assert.equal(nicknameProblem("Jo\u0308rg", TODAY), null);
  assert.deepEqual(nicknameProblem("x", TODAY), {
    key: "nick.too_short",
    params: { n: 2 },
  });
  assert.deepEqual(nicknameProblem("a".repeat(21), TODAY), {
    key: "nick.too_long",
    params: { n: 20 },
  });
  assert.deepEqual(nicknameProblem("<b>ab", TODAY), {
    key: "nick.bad_chars",
    params: {},
  });
  assert.equal(
    nicknameProblem("𝔄𝔫𝔫", TODAY),
    null,
    "three letters outside the BMP are three characters",
  );
  // Another served config: other limits, other characters.
  assert.deepEqual(nicknameProblem("Ann", OTHER), {
    key: "nick.too_short",
    params: { n: 4 },
  });
  assert.equal(nicknameProblem("anna!", OTHER), null);
  assert.deepEqual(nicknameProblem("annabella", OTHER), {
    key: "nick.too_long",
    params: { n: 8 },
  });
  assert.deepEqual(nicknameProblem("Anna", OTHER), { key: "nick.bad_chars", params: {} });
});

test("chat: the served limit decides what is sent", () => {
  assert.equal(chatText("  hi \n there ", TODAY), "hi there");
  assert.equal(chatText("x".repeat(200), TODAY), "x".repeat(200));
  assert.equal(chatText("x".repeat(201), TODAY), null);
  assert.equal(
    chatText("🙂".repeat(200), TODAY),
    "🙂".repeat(200),
    "emoji count once, as on the server",
  );
  assert.equal(chatText("   ", TODAY), null);
  assert.equal(chatText("hello", OTHER), "hello");
  assert.equal(chatText("hello!", OTHER), null);
});

test("chat messages keep arriving in order, without duplicates; muted authors are hidden", async () => {
  const { visibleChat } = await import("../../src/ginrummy/web/js/store.js");
  let state = { ...initialState(), seat: "one" };
  const msg = (id, seat, player, text) => ({
    id,
    t: 0,
    from: { seat, tag: `${player}#x`, player },
    text,
    phrase: null,
  });
  ({ state } = applyMessage(state, {
    type: "chat_history",
    messages: [msg(1, "two", "p_b", "hi")],
  }));
  ({ state } = applyMessage(state, {
    type: "chat",
    message: msg(2, "one", "p_a", "<img src=x>"),
  }));
  ({ state } = applyMessage(state, {
    type: "chat",
    message: msg(2, "one", "p_a", "<img src=x>"),
  }));
  assert.deepEqual(
    state.chat.messages.map((m) => m.id),
    [1, 2],
  );
  assert.deepEqual(
    visibleChat({ ...state, muted: ["p_b"] }).map((m) => m.id),
    [2],
  );
});

test("the move timer and a grace period count down from when the message arrived", async () => {
  const { timeLeft, graceLeft } = await import("../../src/ginrummy/web/js/store.js");
  let state = { ...initialState(), seat: "one" };
  const players = {
    one: { name: "A", connected: true },
    two: { name: "B", connected: false, grace_remaining_ms: 60000 },
  };
  ({ state } = applyMessage(state, {
    type: "view",
    version: 5,
    view: view(),
    players,
    timer: { seat: "one", remaining_ms: 30000, total_ms: 30000 },
    receivedAt: 1000,
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
