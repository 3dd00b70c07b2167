// web/js/bots: the levels' interface, the coach's tip, and whole matches between them
// (decision-for-decision agreement with Python is tests/conformance/test_bots.py).
import { test } from "node:test";
import assert from "node:assert/strict";
import { parseAction } from "../../src/ginrummy/web/js/engine/actions.js";
import { parseCard, parseCards } from "../../src/ginrummy/web/js/engine/cards.js";
import {
  MatchPhase,
  apply,
  deal,
  matchTurn,
  newMatch,
} from "../../src/ginrummy/web/js/engine/match.js";
import { Rules } from "../../src/ginrummy/web/js/engine/rules.js";
import { viewForSeat } from "../../src/ginrummy/web/js/engine/views.js";
import { DECK } from "../../src/ginrummy/web/js/engine/cards.js";
import {
  LEVELS,
  PortableRandom,
  advise,
  makeBot,
  tip,
} from "../../src/ginrummy/web/js/bots/index.js";

/** A seeded Fisher-Yates shuffle on PortableRandom (the tests' decks only). */
function shuffled(rng) {
  const deck = DECK.slice();
  for (let i = deck.length - 1; i > 0; i--) {
    const j = rng.randrange(i + 1);
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  return deck;
}

function playMatch(levelOne, levelTwo, seed) {
  const rng = new PortableRandom(seed);
  const bots = [makeBot(levelOne), makeBot(levelTwo)];
  let m = newMatch(Rules.preset("standard", { target_score: 50 }), 0);
  let steps = 0;
  while (m.phase !== MatchPhase.OVER && steps < 5000) {
    if (m.phase === MatchPhase.DEAL) {
      m = deal(m, shuffled(rng));
      continue;
    }
    const seat = matchTurn(m);
    const view = viewForSeat(m, seat);
    const action = bots[seat](view, rng);
    assert.ok(view.legalActions.includes(action), `${action} is not legal`);
    const t = tip(view);
    assert.ok(view.legalActions.includes(t.action));
    m = apply(m, action);
    steps++;
  }
  return m;
}

test("every level plays whole matches with legal actions only", () => {
  for (const [i, level] of LEVELS.entries()) {
    const m = playMatch(level, LEVELS[(i + 3) % LEVELS.length], i + 1);
    assert.equal(m.phase, MatchPhase.OVER);
  }
});

test("the same seed gives the same match", () => {
  const a = playMatch("expert", "strong", 9),
    b = playMatch("expert", "strong", 9);
  assert.deepEqual(a.scores, b.scores);
  assert.equal(a.rounds.length, b.rounds.length);
});

test("an unknown level is refused with the levels named", () => {
  assert.throws(
    () => makeBot("grandmaster"),
    (e) => e instanceof RangeError && /beginner, casual/.test(e.message),
  );
});

test("the coach's example of coach.py: take 7h for 5h 6h 7h", () => {
  const t = advise(
    parseCards("5h 6h 2c 9d Kc Qs 3s 4d 8c Jh"),
    [parseAction("draw stock"), parseAction("draw discard")],
    parseCard("7h"),
  );
  assert.equal(t.action.text, "draw discard");
  assert.equal(t.key, "take_completes_meld");
  assert.deepEqual(t.params, { card: "7h", meld: "5h 6h 7h", before: 67, after: 46 });
  assert.throws(() => advise([], [], null), RangeError);
});

test("the coach advises the only pass on the last discard, as coach.py does", () => {
  const t = advise(
    parseCards("2c 5d 9h Js Kc 3s 7d 8c Qh 4h"),
    [parseAction("pass")],
    parseCard("6s"),
  );
  assert.equal(t.action.text, "pass");
  assert.equal(t.key, "pass_only");
});
