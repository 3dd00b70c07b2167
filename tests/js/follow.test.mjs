// Moves you can follow (web/js/follow.js, store.js followMoves): which events are shown
// moving and from where to where, the keyframes of a card's flight, the other side's moves
// kept until the person acts, and when the title and the sound call the person.
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  motionOf,
  flight,
  turnCall,
  personsTurn,
} from "../../src/ginrummy/web/js/follow.js";
import {
  applyMessage,
  afterOwnDecision,
  followMoves,
  initialState,
} from "../../src/ginrummy/web/js/store.js";

const seatArb = fc.constantFrom("one", "two");
const CARDS = ["Ac", "7h", "Td", "Qs"];
const eventArb = fc.record({
  version: fc.nat(),
  kind: fc.constantFrom("action", "deal", "ready", "commit"),
  seat: fc.option(seatArb, { nil: null }),
  action: fc.option(
    fc.constantFrom(
      "draw stock",
      "draw discard",
      "take",
      "pass",
      "discard 7h",
      "knock Td",
      "knock",
      "gin Ac",
      "big gin",
    ),
    { nil: null },
  ),
  top: fc.option(fc.constantFrom(...CARDS), { nil: null }),
});

test("the other side's draws and discards move between its row and the piles", () => {
  const ev = (/** @type {string} */ action, seat = "two") => ({
    version: 3,
    kind: "action",
    seat,
    action,
    top: "Qs",
  });
  assert.deepEqual(motionOf(ev("draw stock"), "one"), {
    from: "stock",
    to: "hand",
    seat: "two",
    card: null,
  });
  assert.deepEqual(motionOf(ev("draw discard"), "one"), {
    from: "discard",
    to: "hand",
    seat: "two",
    card: "Qs",
  });
  assert.deepEqual(motionOf(ev("take"), "one"), {
    from: "discard",
    to: "hand",
    seat: "two",
    card: "Qs",
  });
  assert.deepEqual(motionOf(ev("discard 7h"), "one"), {
    from: "hand",
    to: "discard",
    seat: "two",
    card: "7h",
  });
  assert.equal(motionOf(ev("pass"), "one"), null);
  // A knock or gin lays the melds out, whoever made it.
  for (const action of ["knock Td", "knock", "gin Ac", "big gin"]) {
    assert.equal(motionOf(ev(action, "one"), "one")?.to, "melds", action);
  }
  // A spectator sees both seats' moves.
  assert.equal(motionOf(ev("discard 7h", "one"), null)?.to, "discard");
});

test("nothing moves for the person's own moves, other events or none", () => {
  fc.assert(
    fc.property(eventArb, seatArb, (event, mine) => {
      const motion = motionOf(event, mine);
      if (event.kind !== "action" || !event.action || !event.seat) return motion === null;
      if (event.seat === mine && motion) return motion.to === "melds";
      return true;
    }),
  );
  assert.equal(motionOf(null, "one"), null);
});

test("a flight starts where the card came from and ends at its place", () => {
  const box = fc.record({
    x: fc.integer({ min: -500, max: 2000 }),
    y: fc.integer({ min: -500, max: 2000 }),
    w: fc.integer({ min: 1, max: 200 }),
    h: fc.integer({ min: 1, max: 300 }),
  });
  fc.assert(
    fc.property(box, box, (from, to) => {
      const [first, last] = flight(from, to);
      assert.equal(last.transform, "none");
      const m = /^translate\((-?\d+)px, (-?\d+)px\) scale\(([\d.]+)\)$/.exec(
        String(first.transform),
      );
      assert.ok(m, String(first.transform));
      // The centre of the card, moved by the translation, is the centre of `from`.
      assert.ok(Math.abs(to.x + to.w / 2 + Number(m[1]) - (from.x + from.w / 2)) <= 0.5);
      assert.ok(Math.abs(to.y + to.h / 2 + Number(m[2]) - (from.y + from.h / 2)) <= 0.5);
      const scale = Number(m[3]);
      assert.ok(scale >= 0.5 && scale <= 2);
    }),
  );
  assert.equal(
    flight({ x: 10, y: 10, w: 50, h: 70 }, { x: 10, y: 10, w: 50, h: 70 })[0].transform,
    "translate(0px, 0px) scale(1.00)",
  );
});

test("the title calls the person only for a turn that came in the background, until seen or acted on", () => {
  const base = {
    was: false,
    now: true,
    acted: false,
    hidden: true,
    focused: false,
    alerted: false,
    sound: false,
  };
  assert.deepEqual(turnCall(base), { alerted: true, beep: false });
  assert.deepEqual(turnCall({ ...base, sound: true }), { alerted: true, beep: true });
  // Seen: no mark; the sound only when another window has focus.
  assert.deepEqual(turnCall({ ...base, hidden: false, focused: true, sound: true }), {
    alerted: false,
    beep: false,
  });
  assert.deepEqual(turnCall({ ...base, hidden: false, focused: false, sound: true }), {
    alerted: false,
    beep: true,
  });
  // A turn that goes on (a draw, then the discard) keeps the mark and plays nothing again...
  assert.deepEqual(turnCall({ ...base, was: true, alerted: true, sound: true }), {
    alerted: true,
    beep: false,
  });
  // ... until the person acts, or the turn is over.
  assert.deepEqual(turnCall({ ...base, was: true, alerted: true, acted: true }), {
    alerted: false,
    beep: false,
  });
  assert.deepEqual(turnCall({ ...base, was: true, now: false, alerted: true }), {
    alerted: false,
    beep: false,
  });
  // The page hidden during the person's own turn: the turn did not come, no mark.
  assert.deepEqual(turnCall({ ...base, was: true }), { alerted: false, beep: false });
  fc.assert(
    fc.property(
      fc.record({
        was: fc.boolean(),
        now: fc.boolean(),
        acted: fc.boolean(),
        hidden: fc.boolean(),
        focused: fc.boolean(),
        alerted: fc.boolean(),
        sound: fc.boolean(),
      }),
      (s) => {
        const call = turnCall(s);
        return (
          (!call.alerted || (s.now && s.hidden)) &&
          (!call.beep || (s.sound && s.now && !s.was))
        );
      },
    ),
  );
});

test("it is the person's turn at a table when the turn is theirs and they have actions", () => {
  const view = (/** @type {string} */ turn, /** @type {string[]} */ legal) => ({
    table: { turn },
    legal_actions: legal,
  });
  const at = {
    ...initialState(),
    route: { name: "room", room: "r" },
    seat: /** @type {const} */ ("one"),
  };
  assert.equal(
    personsTurn({ ...at, view: /** @type {any} */ (view("one", ["draw stock"])) }),
    true,
  );
  assert.equal(personsTurn({ ...at, view: /** @type {any} */ (view("two", [])) }), false);
  assert.equal(
    personsTurn({
      ...at,
      seat: null,
      view: /** @type {any} */ (view("one", ["draw stock"])),
    }),
    false,
  );
  assert.equal(
    personsTurn({
      ...at,
      route: { name: "home", room: null },
      view: /** @type {any} */ (view("one", ["draw stock"])),
    }),
    false,
  );
});

test("the other side's moves are kept until the person's own move or a deal", () => {
  let state = { ...initialState(), seat: /** @type {const} */ ("one") };
  const event = (
    /** @type {number} */ version,
    /** @type {any} */ seat,
    /** @type {string|null} */ action,
    kind = "action",
  ) =>
    applyMessage(
      state,
      /** @type {any} */ ({ type: "event", version, kind, seat, action }),
    ).state;
  state = event(1, "two", "draw discard");
  state = event(2, "two", "discard 7h");
  assert.deepEqual(
    state.lastMoves.map((m) => m.action),
    ["draw discard", "discard 7h"],
  );
  assert.equal(state.animation?.top, null);
  assert.deepEqual(event(3, "two", null, "ready").lastMoves, state.lastMoves);
  assert.deepEqual(event(3, "one", "draw stock").lastMoves, []);
  assert.deepEqual(event(3, null, null, "deal").lastMoves, []);
  assert.deepEqual(afterOwnDecision(state).lastMoves, []);
  // A spectator keeps both seats' moves.
  assert.equal(
    followMoves({ ...state, seat: null }, "action", "one", "pass", null).length,
    3,
  );
});
