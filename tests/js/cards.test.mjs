// The hand's sort buttons (cards.js): by suit with black and red alternating, each suit
// by rank with the ace low; by rank, equal ranks in that suit order. Both keep every card.
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { sortedByRank, sortedBySuit } from "../../src/ginrummy/web/js/cards.js";

const DECK = [..."cdhs"].flatMap((s) => [..."A23456789TJQK"].map((r) => `${r}${s}`));

test("by suit and by rank, ace low", () => {
  const hand = ["Kh", "As", "Tc", "2d", "Ah", "7s", "Td"];
  assert.deepEqual(sortedBySuit(hand), ["Tc", "2d", "Td", "As", "7s", "Ah", "Kh"]);
  assert.deepEqual(sortedByRank(hand), ["As", "Ah", "2d", "7s", "Tc", "Td", "Kh"]);
});

test("sorting keeps the cards and is idempotent", () => {
  fc.assert(
    fc.property(fc.shuffledSubarray(DECK, { minLength: 1, maxLength: 11 }), (hand) => {
      for (const sort of [sortedBySuit, sortedByRank]) {
        const once = sort(hand);
        assert.deepEqual([...once].sort(), [...hand].sort());
        assert.deepEqual(sort(once), once);
      }
    }),
  );
});
