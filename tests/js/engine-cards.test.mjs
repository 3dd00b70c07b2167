// cards.js, seats.js, masks.js, actions.js: notation, masks, pairs.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  DECK,
  cardOf,
  fromMask,
  parseCard,
  parseCards,
  toMask,
} from "../../src/ginrummy/web/js/engine/cards.js";
import {
  CardParseError,
  DuplicateCardError,
  ActionParseError,
} from "../../src/ginrummy/web/js/engine/errors.js";
import {
  and52,
  andNot52,
  bitCount52,
  highIndex,
  lowIndex,
  or52,
  xor52,
} from "../../src/ginrummy/web/js/engine/masks.js";
import {
  Pair,
  otherSeat,
  parseSeat,
  seatLabel,
} from "../../src/ginrummy/web/js/engine/seats.js";
import {
  ActionKind,
  cardAction,
  parseAction,
} from "../../src/ginrummy/web/js/engine/actions.js";

test("cards are read in every notation and written canonically", () => {
  assert.equal(parseCard("10♥").text, "Th");
  assert.equal(parseCard(" qS ").text, "Qs");
  assert.equal(parseCard("a♧"), cardOf(1, 0));
  assert.deepEqual(parseCards("as, 2c Kd").map(String), ["As", "2c", "Kd"]);
  assert.equal(parseCard("Kd").value, 10);
  assert.equal(parseCard("7h").index, 2 * 13 + 6);
  assert.throws(
    () => parseCard("1x"),
    (e) => e instanceof CardParseError && /not a card: '1x'/.test(e.message),
  );
  assert.throws(() => parseCard("11h"), CardParseError);
  assert.throws(
    () => parseCards("7h 7h"),
    (e) => e instanceof DuplicateCardError && /7h appears more than once/.test(e.message),
  );
});

test("the deck is the 52 cards in canonical order, frozen", () => {
  assert.equal(DECK.length, 52);
  assert.deepEqual(DECK.slice(0, 3).map(String), ["Ac", "2c", "3c"]);
  assert.equal(DECK[51].text, "Ks");
  assert.ok(Object.isFrozen(DECK[0]));
  assert.deepEqual(fromMask(toMask(parseCards("Ks Ac 7h"))).map(String), [
    "Ac",
    "7h",
    "Ks",
  ]);
});

test("52-bit mask operations agree with BigInt", () => {
  let seed = 7;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
  for (let i = 0; i < 2000; i++) {
    const a = (rnd() % 2 ** 26) + (rnd() % 2 ** 26) * 2 ** 26;
    const b = (rnd() % 2 ** 26) + (rnd() % 2 ** 26) * 2 ** 26;
    const A = BigInt(a),
      B = BigInt(b);
    assert.equal(BigInt(and52(a, b)), A & B);
    assert.equal(BigInt(or52(a, b)), A | B);
    assert.equal(BigInt(xor52(a, b)), A ^ B);
    assert.equal(BigInt(andNot52(a, b)), A & ~B);
    assert.equal(
      bitCount52(a),
      A.toString(2)
        .split("")
        .filter((c) => c === "1").length,
    );
    if (a) assert.equal(highIndex(a), A.toString(2).length - 1);
    if (a) assert.equal(lowIndex(a), (A & -A).toString(2).length - 1);
  }
});

test("a pair holds one value per seat and is frozen", () => {
  const p = new Pair(1, 2);
  assert.equal(p.get(0), 1);
  assert.equal(p.replace(1, 5).two, 5);
  assert.equal(p.two, 2);
  assert.deepEqual(
    Pair.of((s) => seatLabel(s)),
    new Pair("one", "two"),
  );
  assert.equal(otherSeat(parseSeat("one")), 1);
  assert.ok(Object.isFrozen(p));
});

test("actions round-trip through their text and are interned", () => {
  assert.equal(parseAction("Discard qs").text, "discard Qs");
  assert.equal(parseAction("  draw   stock "), parseAction("draw stock"));
  assert.equal(parseAction("gin 10h"), cardAction(ActionKind.GIN, parseCard("Th")));
  for (const text of [
    "take",
    "pass",
    "draw stock",
    "draw discard",
    "discard 7h",
    "knock Ac",
    "gin Ks",
    "big gin",
  ]) {
    assert.equal(String(parseAction(text)), text);
  }
  assert.throws(() => parseAction("discard"), ActionParseError);
  assert.throws(
    () => parseAction("fold"),
    (e) => e instanceof ActionParseError && /not an action: 'fold'/.test(e.message),
  );
  assert.throws(
    () => parseAction("discard 1x"),
    (e) => e instanceof ActionParseError && /'discard 1x': not a card/.test(e.message),
  );
  assert.throws(() => parseAction(3), ActionParseError);
});
