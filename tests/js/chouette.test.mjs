// The chouette table's pure parts (chouette/state.js, chouette/status.js, chouette/play.js):
// frames folded into the two-player shape the table draws, the names each page uses, and
// one decision for the status sentence and the buttons over every role and phase.
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { setCatalog } from "../../src/ginrummy/web/js/i18n.js";
import { initialState, applyMessage } from "../../src/ginrummy/web/js/store.js";
import { resultKey } from "../../src/ginrummy/web/js/results.js";
import { isMine, seatName, sideName } from "../../src/ginrummy/web/js/status.js";
import {
  applyChouetteMessage,
  positionName,
  suggestionText,
} from "../../src/ginrummy/web/js/chouette/state.js";
import { suggested, pointCommand } from "../../src/ginrummy/web/js/chouette/pointing.js";
import { chouetteStatus } from "../../src/ginrummy/web/js/chouette/status.js";
import { chouetteBody } from "../../src/ginrummy/web/js/chouette/play.js";
import { DE, EN } from "./catalogs.mjs";

setCatalog("en", EN);

const NAMES = ["Ann", "Bob", "Cleo", "Dan", "Eve"];

/** A seat view of the match as the server encodes it (docs/protocol.md, "The view"). */
function seatView({
  seat,
  legal = [],
  matchPhase = "round",
  roundPhase = "draw",
  round = 1,
  turn = "two",
  hand = null,
  result = null,
}) {
  return {
    seat,
    hand:
      hand ?? (seat ? ["Kc", "5d", "7d", "3s", "5s", "7s", "8s", "Js", "Qs", "Ks"] : []),
    arrangement: seat
      ? {
          melds: [["Js", "Qs", "Ks"]],
          deadwood_cards: ["3s", "5d", "5s", "7d", "7s", "8s", "Kc"],
          deadwood: 45,
        }
      : null,
    legal_actions: legal,
    taken: null,
    knock_discard: null,
    table: {
      rules: { name: "standard", target_score: 100, knock_limit: 10 },
      match_phase: matchPhase,
      round_phase: roundPhase,
      round,
      dealer: "two",
      turn,
      stock_size: 31,
      discard_pile: ["Qd"],
      knock_limit: 10,
      doubled: false,
      hand_sizes: { one: 10, two: 10 },
      known: { one: [], two: [] },
      scores: { one: 0, two: 30 },
      rounds: [],
      result: null,
      match_result: result,
    },
  };
}

function player(name, extra = {}) {
  return {
    name,
    bot: null,
    connected: true,
    ready: false,
    next_match: false,
    absent: false,
    grace_remaining_ms: null,
    ...extra,
  };
}

/** A `view` frame of a table of `n` where position `box` is box and `captain` captain. */
function frame({
  n = 3,
  position,
  box = 2,
  order = [0, 1],
  captain = 0,
  nextCaptain = null,
  version = 5,
  legal,
  roundPhase = "draw",
  matchPhase = "round",
  players = null,
  phase = "match",
  turnSeat = "two",
  round = 1,
  result = null,
}) {
  const role =
    position === null
      ? null
      : position === box
        ? "box"
        : position === captain
          ? "captain"
          : "partner";
  const seat = position === null ? null : position === box ? "one" : "two";
  const deciding =
    role === "box" ? turnSeat === "one" : role === "captain" ? turnSeat === "two" : false;
  const own = legal ?? ["draw stock", "draw discard"];
  return {
    type: "view",
    version,
    receivedAt: 0,
    view: {
      position,
      role,
      chouette: {
        players: n,
        drawn: ["6h", "Ah", "Td", "2c", "3c"].slice(0, n),
        phase,
        number: 1,
        box,
        order,
        captain,
        next_captain: nextCaptain ?? order[(order.indexOf(captain) + 1) % order.length],
        captains: [captain],
        absent: [],
        ledger: Array(n).fill(0),
        settlements: [],
        turn: turnSeat === "one" ? box : captain,
        seats: { box: "one", team: "two" },
      },
      view: seatView({
        seat,
        legal: deciding ? own : [],
        roundPhase,
        matchPhase,
        round,
        turn: turnSeat,
        result,
      }),
      advice: role === "partner" && turnSeat === "two" ? own : [],
    },
    players: players ?? NAMES.slice(0, n).map((name) => player(name)),
    timer: null,
    watchers: 0,
  };
}

function fold(...msgs) {
  let state = { ...initialState(), route: { name: "chouette", room: "r1" } };
  for (const msg of msgs) state = applyChouetteMessage(state, msg).state;
  return state;
}

test("the fold tells the shared parts how the sides are called and who plays the seat", () => {
  const box = fold(frame({ position: 2 }));
  assert.deepEqual(box.seating, {
    plays: true,
    sides: { one: { key: "name.you" }, two: { key: "chouette.side.team" } },
    match: 1,
  });
  assert.deepEqual([sideName(box, "one"), sideName(box, "two")], ["You", "Team"]);
  const captain = fold(frame({ position: 0 }));
  assert.equal(captain.seating.plays, true);
  assert.deepEqual(
    [sideName(captain, "one"), sideName(captain, "two")],
    ["Box Cleo", "Your team"],
  );
  const partner = fold(frame({ position: 1 }));
  assert.equal(partner.seating.plays, false);
  assert.deepEqual(
    [sideName(partner, "one"), sideName(partner, "two")],
    ["Box Cleo", "Your team"],
  );
  const watcher = fold(frame({ position: null }));
  assert.equal(watcher.seating.plays, true);
  assert.deepEqual(
    [sideName(watcher, "one"), sideName(watcher, "two")],
    ["Box Cleo", "Team"],
  );
  // Frames that are not views keep it: a presence, a chat line.
  const later = applyChouetteMessage(partner, {
    type: "presence",
    players: NAMES.slice(0, 3).map((name) => player(name)),
  }).state;
  assert.deepEqual(later.seating, partner.seating);
  assert.equal(later.players.two.named, true);
  // A two-player room has none: its seats are its two players.
  const room = applyMessage(
    { ...initialState(), seat: "one", route: { name: "room", room: "r2" } },
    { type: "view", version: 1, view: seatView({ seat: "one" }), players: null },
  ).state;
  assert.equal(room.seating, null);
  assert.equal(sideName(room, "one"), "You");
});

test("a result closed in one match does not close the next match's (resultKey by match)", () => {
  const over = (number) => {
    const msg = frame({
      position: 2,
      matchPhase: "over",
      roundPhase: "over",
      round: 3,
      result: { winner: "one" },
    });
    msg.view.chouette.number = number;
    return fold(msg);
  };
  const first = over(1);
  const second = over(2);
  assert.equal(second.seating.match, 2);
  assert.notEqual(resultKey(first), resultKey(second));
});

test("each role's frame becomes the two-player shape: the box seat one, team members seat two", () => {
  const box = fold(frame({ position: 2 }));
  assert.equal(box.seat, "one");
  assert.equal(box.chouette.role, "box");
  assert.deepEqual(box.players.one.name, "Cleo");
  assert.deepEqual(box.players.two.name, "Ann");
  assert.equal(seatName(box, "one"), "You");
  assert.equal(seatName(box, "two"), "Ann");
  const captain = fold(frame({ position: 0 }));
  assert.equal(captain.seat, "two");
  assert.ok(isMine(captain, "two"));
  assert.equal(seatName(captain, "one"), "Cleo");
  assert.deepEqual(captain.view.legal_actions, ["draw stock", "draw discard"]);
  const partner = fold(frame({ position: 1 }));
  assert.equal(partner.seat, "two");
  assert.equal(
    isMine(partner, "two"),
    false,
    "a partner watches the captain's seat, it does not play it",
  );
  assert.equal(seatName(partner, "two"), "Ann");
  assert.equal(sideName(partner, "two"), "Your team");
  assert.equal(sideName(box, "two"), "Team");
  assert.deepEqual(partner.view.legal_actions, []);
  assert.deepEqual(partner.chouette.advice, ["draw stock", "draw discard"]);
  const watcher = fold(frame({ position: null }));
  assert.equal(watcher.seat, null);
  assert.equal(positionName(watcher, 2), "Cleo");
});

test("a captain's timer is the team seat's; a partner's own name is never 'You' for the captain", () => {
  const msg = {
    ...frame({ position: 1 }),
    timer: { position: 0, remaining_ms: 20000, total_ms: 30000 },
  };
  const partner = fold(msg);
  assert.equal(partner.timer.seat, "two");
  assert.equal(positionName(partner, 1), "You");
  assert.equal(positionName(partner, 0), "Ann");
});

test("advice: kept for its decision, one per adviser, gone with the next view; the box is never told", () => {
  const captain = fold(frame({ position: 0, version: 5 }));
  const from = { position: 1, name: "Bob", computer: false };
  const one = applyChouetteMessage(captain, {
    type: "advice",
    version: 5,
    from,
    action: "draw stock",
    card: null,
  });
  assert.match(one.announce[0].text, /Bob suggests: draw from the stock/);
  assert.ok(suggested(one.state).actions.has("draw stock"));
  const two = applyChouetteMessage(one.state, {
    type: "advice",
    version: 5,
    from,
    action: null,
    card: "Qs",
  });
  assert.equal(
    two.state.chouette.suggestions.length,
    1,
    "a newer suggestion of the same adviser replaces the older",
  );
  assert.ok(suggested(two.state).cards.has("Qs"));
  const old = applyChouetteMessage(two.state, {
    type: "advice",
    version: 3,
    from: { ...from, position: 2 },
    action: "pass",
    card: null,
  });
  assert.equal(old.state, two.state, "advice on an older decision is dropped");
  const moved = applyChouetteMessage(two.state, frame({ position: 0, version: 6 })).state;
  assert.equal(moved.chouette.suggestions.length, 0);
  assert.equal(suggested(moved).actions.size + suggested(moved).cards.size, 0);
  // The own advice comes back to the partner without being said aloud, in its own words.
  const partner = fold(frame({ position: 1, version: 5 }));
  assert.deepEqual(
    applyChouetteMessage(partner, {
      type: "advice",
      version: 5,
      from,
      action: "pass",
      card: null,
    }).announce,
    [],
  );
  assert.equal(
    suggestionText(partner, { from, action: "pass", card: null }),
    "You suggest: pass.",
  );
  assert.match(
    suggestionText(captain, { from, action: "pass", card: null }),
    /^Bob suggests: /,
  );
});

test("team chat: the history, then new lines once each", () => {
  const state = fold(frame({ position: 1 }));
  const line = {
    id: 7,
    from: { seat: "0", tag: "Ann#aaaa" },
    text: "Keep the spades",
    phrase: null,
  };
  const history = applyChouetteMessage(state, {
    type: "team_chat_history",
    messages: [line],
  }).state;
  assert.equal(history.chouette.team.messages.length, 1);
  const again = applyChouetteMessage(history, { type: "team_chat", message: line }).state;
  assert.equal(again.chouette.team.messages.length, 1);
  const more = applyChouetteMessage(again, {
    type: "team_chat",
    message: { ...line, id: 8 },
  }).state;
  assert.equal(more.chouette.team.messages.length, 2);
});

test("a move by someone else is said aloud with the mover's name; one's own is not", () => {
  const partner = fold(frame({ position: 1 }));
  const { announce } = applyChouetteMessage(partner, {
    type: "event",
    version: 6,
    kind: "action",
    position: 2,
    action: "discard Qd",
  });
  assert.deepEqual(
    announce.map((a) => a.seat),
    ["one"],
  );
  const box = fold(frame({ position: 2 }));
  assert.deepEqual(
    applyChouetteMessage(box, {
      type: "event",
      version: 6,
      kind: "action",
      position: 2,
      action: "discard Qd",
    }).announce,
    [],
  );
});

test("the start page's form makes the documented body: 'me', then each further seat", () => {
  const form = {
    ...initialState().home.form,
    players: "4",
    seat2: "bot:casual",
    seat3: "friend",
    seat4: "bot:strong",
    seat5: "bot:casual",
    preset: "standard",
    roomTarget: "50",
    name: "Ann",
  };
  assert.deepEqual(chouetteBody(form), {
    seats: ["me", "bot:casual", "friend", "bot:strong"],
    preset: "standard",
    name: "Ann",
    spectators: true,
    target_score: 50,
  });
  const ftk = chouetteBody({ ...form, players: 3, preset: "first-to-knock" });
  assert.deepEqual(ftk.seats, ["me", "bot:casual", "friend"]);
  assert.equal("target_score" in ftk, false);
});

test("every chouette key is in both catalogues", () => {
  const keys = (cat) =>
    Object.keys(cat).filter(
      (k) =>
        k.startsWith("chouette.") || k.startsWith("home.players") || k === "home.seat_n",
    );
  assert.deepEqual(keys(DE).sort(), keys(EN).sort());
  assert.ok(keys(EN).length > 40);
});

const PHASES = ["first_upcard", "draw", "discard", "last_discard", "over"];
const LEGAL = {
  first_upcard: ["take", "pass"],
  draw: ["draw stock", "draw discard"],
  discard: ["discard Qs", "knock Kc", "discard 3s"],
  last_discard: ["draw discard", "pass"],
  over: [],
};

const tableArb = fc
  .record({
    n: fc.integer({ min: 3, max: 5 }),
    position: fc.option(fc.integer({ min: 0, max: 4 }), { freq: 5 }),
    box: fc.integer({ min: 0, max: 4 }),
    matchPhase: fc.constantFrom("deal", "round", "over"),
    roundPhase: fc.constantFrom(...PHASES),
    turnSeat: fc.constantFrom("one", "two"),
    round: fc.integer({ min: 0, max: 4 }),
    free: fc.integer({ min: 0, max: 2 }),
    flags: fc.array(
      fc.record({ ready: fc.boolean(), next_match: fc.boolean(), bot: fc.boolean() }),
      { minLength: 5, maxLength: 5 },
    ),
    pending: fc.boolean(),
  })
  .map((r) => {
    const box = r.box % r.n;
    const order = [...Array(r.n).keys()].filter((p) => p !== box);
    const position = r.position === null ? null : r.position % r.n;
    const players = [...Array(r.n).keys()].map((p) =>
      p > 0 && p >= r.n - r.free
        ? null
        : player(NAMES[p], {
            ...r.flags[p],
            bot: r.flags[p].bot && p > 0 ? "casual" : null,
          }),
    );
    const over = r.matchPhase === "over";
    const msg = frame({
      n: r.n,
      position,
      box,
      order,
      captain: order[0],
      players,
      legal: LEGAL[r.roundPhase],
      roundPhase: r.roundPhase,
      matchPhase: r.matchPhase,
      turnSeat: r.turnSeat,
      round: r.round,
      phase: over ? "settled" : "match",
      result: over ? { winner: "two", forfeit: null, totals: { one: 0, two: 30 } } : null,
    });
    return { ...r, position, box, captain: order[0], msg };
  });

test("property: the sentence and the buttons are one decision, over every role and phase", () => {
  fc.assert(
    fc.property(tableArb, (r) => {
      const folded = fold(r.msg);
      const state = r.pending ? { ...folded, pending: folded.version } : folded;
      const { text, actions, between } = chouetteStatus(state);
      const role = state.chouette.role;
      const full = state.chouette.players.every(Boolean);
      // Only the box and the captain play; only on the felt of a running round of a full table.
      if (actions.length) {
        assert.ok(role === "box" || role === "captain");
        assert.ok(
          full && !r.pending && r.matchPhase === "round" && r.roundPhase !== "over",
        );
        assert.deepEqual(actions, state.view.legal_actions);
        assert.match(text, /Your turn/);
      } else {
        assert.doesNotMatch(text, /Your turn/);
      }
      // The next round waits for the box and the captain only; the next match for everyone.
      if (between?.cmd === "next-round")
        assert.ok(r.position === r.box || r.position === r.captain);
      if (between) assert.ok(full && r.position !== null);
      assert.equal(
        /Press “Next round”/.test(text),
        between?.cmd === "next-round" && !between.disabled,
      );
      assert.equal(
        /Press “Next match”/.test(text),
        between?.cmd === "next-match" && !between.disabled,
      );
      if (!full) assert.match(text, /Waiting for players/);
      // Everyone is told their part.
      const part = {
        box: /You are the box/,
        captain: /You are captain/,
        partner: /You are in the team/,
      };
      if (role) assert.match(text, part[role]);
      else assert.match(text, /You are watching/);
      // A partner may advise a person captain who decides; a computer captain takes no advice.
      const captainDecides =
        full &&
        r.matchPhase === "round" &&
        r.roundPhase !== "over" &&
        r.turnSeat === "two";
      const personCaptain = !state.chouette.players[r.captain]?.bot;
      assert.equal(
        /You may advise/.test(text),
        role === "partner" && captainDecides && personCaptain,
      );
    }),
    { numRuns: 400 },
  );
});

test("the players' table: parts, the captain order from the captain on, signed amounts", async () => {
  const { captainsFromNow, partText, seatingOrder, signed } =
    await import("../../src/ginrummy/web/js/chouette/table.js");
  const info = { box: 3, order: [1, 0, 2, 4], captain: 2, next_captain: 4 };
  assert.deepEqual(captainsFromNow(info), [2, 4, 1, 0]);
  assert.deepEqual(seatingOrder(info), [3, 1, 0, 2, 4]);
  assert.deepEqual(
    [3, 2, 4, 1, 0].map((p) => partText(info, p)),
    ["Box", "Captain", "Team (next captain)", "Team", "Team"],
  );
  // 4 is absent: the server names 1 next, and so does the page (it computes no rule).
  const away = { ...info, absent: [4], next_captain: 1 };
  assert.deepEqual(
    [3, 2, 4, 1, 0].map((p) => partText(away, p)),
    ["Box", "Captain", "Team", "Team (next captain)", "Team"],
  );
  // Nobody else is here: the captain plays on, and no one is marked next.
  assert.ok(
    ![4, 1, 0].some(
      (p) => partText({ ...info, next_captain: 2 }, p) === "Team (next captain)",
    ),
  );
  assert.deepEqual([30, -60, 0].map(signed), ["+30", "\u221260", "0"]);
  fc.assert(
    fc.property(fc.integer({ min: 3, max: 5 }), fc.nat(), fc.nat(), (n, b, c) => {
      const box = b % n;
      const order = [...Array(n).keys()].filter((p) => p !== box);
      const from = captainsFromNow({ box, order, captain: order[c % order.length] });
      // A rotation of the order that starts with the captain.
      assert.equal(from[0], order[c % order.length]);
      assert.deepEqual([...from].sort(), [...order].sort());
    }),
  );
});

test("a partner's press on a card: that discard when the captain may discard it, else a pointer", () => {
  const discarding = fold(
    frame({
      position: 1,
      roundPhase: "discard",
      legal: ["discard Kc", "knock 8s", "discard 8s"],
    }),
  );
  assert.deepEqual(pointCommand(discarding, "Kc"), { cmd: "advise", arg: "discard Kc" });
  assert.deepEqual(pointCommand(discarding, "Js"), { cmd: "advise-card", arg: "Js" });
  const drawing = fold(frame({ position: 1 }));
  assert.deepEqual(pointCommand(drawing, "Kc"), { cmd: "advise-card", arg: "Kc" });
  // A suggested knock lights its face-down card as well as the action.
  const captain = fold(
    frame({
      position: 0,
      roundPhase: "discard",
      legal: ["discard Kc", "knock 8s", "discard 8s"],
    }),
  );
  const from = { position: 1, name: "Bob", computer: false };
  const lit = suggested(
    applyChouetteMessage(captain, {
      type: "advice",
      version: 5,
      from,
      action: "knock 8s",
      card: null,
    }).state,
  );
  assert.ok(lit.actions.has("knock 8s") && lit.cards.has("8s"));
});

test("seats of the same name (computers of one level) are told apart by their number", () => {
  const players = [
    player("Ann"),
    player("Casual", { bot: "casual" }),
    player("Casual", { bot: "casual" }),
  ];
  const state = fold(frame({ position: 0, box: 1, order: [0, 2], captain: 0, players }));
  assert.equal(positionName(state, 1), "Casual 2");
  assert.equal(positionName(state, 2), "Casual 3");
  assert.equal(seatName(state, "one"), "Casual 2");
  assert.equal(positionName(state, 0), "You");
  assert.equal(
    positionName(fold(frame({ position: 1 })), 0),
    "Ann",
    "a name of its own stays as it is",
  );
});

test("a view's fair entry reaches the table as in two-player rooms; the verify link loads the chouette record", async () => {
  const { verifyUrl } = await import("../../src/ginrummy/web/js/fair/mark.js");
  const dealt = {
    state: "dealt",
    room: "r/1",
    match: 2,
    round: 3,
    commitment: "ab".repeat(32),
    your_seed: "cd".repeat(32),
  };
  const running = fold({ ...frame({ position: 2 }), fair: dealt });
  assert.deepEqual(running.fair, dealt);
  assert.equal(fold(frame({ position: 2 })).fair, null); // none before the first deal
  const revealed = {
    ...dealt,
    state: "revealed",
    server_seed: "ef".repeat(32),
    seeds: { one: "cd".repeat(32), two: "01".repeat(32) },
  };
  const over = fold(
    { ...frame({ position: 0, matchPhase: "deal", round: 3 }), fair: dealt },
    {
      ...frame({ position: 0, matchPhase: "deal", round: 3, version: 6 }),
      fair: revealed,
    },
  );
  assert.equal(over.fair.state, "revealed");
  const url = new URL(verifyUrl(over.fair, "chouette"), "https://example.test");
  assert.equal(url.pathname, "/static/verify.html");
  assert.equal(url.searchParams.get("record"), "/api/chouette/r%2F1/record?round=3");
  // Two-player rooms keep theirs.
  assert.equal(
    new URL(verifyUrl(over.fair), "https://example.test").searchParams.get("record"),
    "/api/rooms/r%2F1/record?round=3",
  );
  // The mark's title says what a chouette deal proves, in both languages.
  for (const cat of [EN, DE]) assert.match(cat["chouette.fair.title"], /\{commitment\}/);
});
