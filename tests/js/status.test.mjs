// The status line and the buttons come from one function (status.js): over every phase
// of a round and a match, what the line tells the user to press is on the page, and
// what is on the page is what the line talks about.
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { setCatalog } from "../../src/ginrummy/web/js/i18n.js";
import { tableStatus } from "../../src/ginrummy/web/js/status.js";
import { announcementText } from "../../src/ginrummy/web/js/words.js";
import { initialState } from "../../src/ginrummy/web/js/store.js";
import { DE, EN } from "./catalogs.mjs";

setCatalog("en", EN);

const SEATS = ["one", "two"];
const CARDS = ["Ac", "7h", "Td", "Qs", "2c", "9d", "Kh"];
const seatArb = fc.constantFrom(...SEATS);

const playerArb = fc.option(
  fc.record({
    name: fc.constantFrom("Ann", "Bob"),
    bot: fc.constantFrom(null, "casual"),
    connected: fc.boolean(),
    ready: fc.boolean(),
    rematch: fc.boolean(),
  }),
  { freq: 6 },
);

/** Legal actions as the engine gives them to the seat that decides, by round phase. */
function ownActions(phase) {
  const cards = fc.subarray(CARDS, { minLength: 1 });
  switch (phase) {
    case "first_upcard":
      return fc.constant(["take", "pass"]);
    case "draw":
      return fc.constantFrom(["draw stock"], ["draw stock", "draw discard"]);
    case "last_discard":
      return fc.constantFrom(["pass"], ["draw discard", "pass"]);
    case "discard":
      return fc
        .tuple(cards, fc.subarray(CARDS), fc.subarray(CARDS), fc.boolean())
        .map(([d, k, g, big]) => [
          ...d.map((c) => `discard ${c}`),
          ...k.map((c) => `knock ${c}`),
          ...g.map((c) => `gin ${c}`),
          ...(big ? ["big gin"] : []),
        ]);
    default:
      return fc.constant([]);
  }
}

const stateArb = fc
  .record({
    seat: fc.option(seatArb, { freq: 4 }),
    players: fc.record({ one: playerArb, two: playerArb }),
    match_phase: fc.constantFrom("deal", "round", "over"),
    round_phase: fc.constantFrom(
      "first_upcard",
      "draw",
      "discard",
      "last_discard",
      "over",
    ),
    round: fc.integer({ min: 0, max: 6 }),
    turn: fc.option(seatArb, { freq: 5 }),
    pending: fc.option(fc.integer({ min: 1, max: 99 }), { freq: 4 }),
    forfeit: fc.constantFrom(null, "timeout", "abandoned", "resigned"),
    winner: seatArb,
    pile: fc.subarray(CARDS, { maxLength: 3 }),
    connected: fc.boolean(),
  })
  .chain((s) => {
    // Actions come only to the seat whose turn it is in a running round.
    const decides = s.seat !== null && s.turn === s.seat && s.match_phase === "round";
    return (decides ? ownActions(s.round_phase) : fc.constant([])).map((legal) => ({
      ...s,
      legal,
    }));
  })
  .map((s) => ({
    ...initialState(),
    seat: s.seat,
    players: s.players,
    pending: s.pending,
    version: 7,
    connection: { connected: s.connected, retryIn: 1000, everConnected: true },
    view: {
      seat: s.seat,
      hand: [],
      arrangement: s.seat ? { melds: [], deadwood_cards: [], deadwood: 12 } : null,
      legal_actions: s.legal,
      taken: null,
      table: {
        rules: { name: "standard", target_score: 100 },
        match_phase: s.match_phase,
        round_phase: s.round_phase,
        round: s.round,
        turn: s.turn,
        dealer: "one",
        stock_size: 20,
        discard_pile: s.pile,
        knock_limit: 10,
        hand_sizes: { one: 10, two: 10 },
        known: { one: [], two: [] },
        scores: { one: 12, two: 30 },
        rounds: [],
        result: null,
        match_result:
          s.match_phase === "over"
            ? {
                winner: s.winner,
                forfeit: s.forfeit,
                forfeited_by: s.forfeit ? (s.winner === "one" ? "two" : "one") : null,
              }
            : null,
      },
    },
  }));

const has = (list, prefix) =>
  list.some((a) => a === prefix || a.startsWith(`${prefix} `));

/** Each pair: what the line says, and what must then be offered (and the other way round). */
const CLAIMS = [
  ["Press “Next round”", (s) => s.between?.cmd === "next-round" && !s.between.disabled],
  ["to be ready", (s) => s.between?.cmd === "next-round" && s.between.disabled],
  ["Press “New match”", (s) => s.between?.cmd === "new-match" && !s.between.disabled],
  ["to want a rematch", (s) => s.between?.cmd === "new-match" && s.between.disabled],
  ["Your turn", (s) => s.actions.length > 0],
  ["take the upcard", (s) => has(s.actions, "take") && has(s.actions, "pass")],
  ["draw from the stock", (s) => has(s.actions, "draw stock")],
  [
    "take the discard",
    (s) => has(s.actions, "draw discard") && has(s.actions, "draw stock"),
  ],
  [
    "take the last discard",
    (s) => has(s.actions, "draw discard") && !has(s.actions, "draw stock"),
  ],
  ["discard a card", (s) => has(s.actions, "discard")],
  ["You can go gin", (s) => has(s.actions, "gin")],
  ["call big gin", (s) => has(s.actions, "big gin") && !has(s.actions, "gin")],
  [
    "You may knock",
    (s) =>
      has(s.actions, "knock") && !has(s.actions, "gin") && !has(s.actions, "big gin"),
  ],
];

test("every 'press X' in the status comes with button X, and every button with its words", () => {
  fc.assert(
    fc.property(stateArb, (state) => {
      const status = tableStatus(state);
      for (const [words, offered] of CLAIMS) {
        assert.equal(
          status.text.includes(words),
          offered(status),
          `${words} in ${JSON.stringify(status)}`,
        );
      }
      if (has(status.actions, "pass")) assert.match(status.text, /\bpass\b/);
    }),
    { numRuns: 3000 },
  );
});

test("buttons belong to the part of the page that is shown", () => {
  fc.assert(
    fc.property(stateArb, (state) => {
      const { between, actions } = tableStatus(state);
      const table = state.view.table;
      const inRound = table.match_phase === "round" && table.round_phase !== "over";
      // The round-end panel (where the button is) shows only outside a running round.
      if (between) assert.ok(!inRound && state.seat);
      // Actions are offered on the felt only, to a seat, not while a move is on its way.
      if (actions.length) assert.ok(inRound && state.seat && state.pending == null);
      if (actions.length) assert.deepEqual(actions, state.view.legal_actions);
    }),
    { numRuns: 2000 },
  );
});

function between(phase, me) {
  const base = fc.sample(stateArb, { numRuns: 1, seed: 1 })[0];
  return {
    ...base,
    seat: "one",
    pending: null,
    players: {
      one: {
        name: "Ann",
        bot: null,
        connected: true,
        ready: false,
        rematch: false,
        ...me,
      },
      two: { name: "Bob", bot: null, connected: true, ready: false, rematch: false },
    },
    view: {
      ...base.view,
      seat: "one",
      legal_actions: [],
      table: {
        ...base.view.table,
        round: 2,
        round_phase: "over",
        match_phase: phase,
        match_result: phase === "over" ? { winner: "two", forfeit: null } : null,
      },
    },
  };
}

test("after the match the rematch wish (not readiness) disables New match and says so", () => {
  const asked = tableStatus(between("over", { rematch: true, ready: false }));
  assert.deepEqual(asked.between, {
    cmd: "new-match",
    label: "act.new_match",
    disabled: true,
  });
  assert.match(asked.text, /Waiting for Bob to want a rematch/);
  const fresh = tableStatus(between("over", { rematch: false, ready: true }));
  assert.equal(fresh.between?.disabled, false);
  assert.match(fresh.text, /Press “New match”/);
});

test("a tournament's room offers no New match after its match, nor asks to press it", () => {
  const base = between("over", { rematch: false });
  const status = tableStatus({ ...base, info: { ...base.info, tournament: "t_cup" } });
  assert.equal(status.between, null);
  assert.doesNotMatch(status.text, /New match|rematch/);
  assert.match(status.text, /The match is over: Bob wins\./);
  const between2 = tableStatus(between("deal", {}));
  assert.equal(between2.between?.cmd, "next-round");
});

test("a finished round that is not yet between rounds offers no Next round, and says none", () => {
  const status = tableStatus(between("round", {}));
  assert.equal(status.between, null);
  assert.match(status.text, /Round 2 is over\./);
  assert.doesNotMatch(status.text, /Next round/);
});

test("a server restart reads as one, not as a lost connection", async () => {
  const { connectionText } = await import("../../src/ginrummy/web/js/status.js");
  const state = (/** @type {Record<string, unknown>} */ c) => ({
    ...initialState(),
    connection: { connected: false, everConnected: true, retryIn: 400, ...c },
  });
  assert.equal(
    connectionText(/** @type {any} */ (state({ restart: true }))),
    EN["conn.restarting"],
  );
  assert.match(connectionText(/** @type {any} */ (state({}))) ?? "", /Connection lost/);
});

// "You" needs its own sentence wherever a name is the subject of a verb ("You wins",
// "Du gibt"): with the own name marked, no status line nor announcement may put the
// marker before a word (a number after it, as in the scores, is fine).
const YOU = "‹you›";

for (const [lang, catalog] of [
  ["en", EN],
  ["de", DE],
]) {
  test(`no ${lang} status or announcement takes the own name as a third person`, () => {
    setCatalog(lang, { ...catalog, "name.you": YOU });
    try {
      fc.assert(
        fc.property(stateArb, fc.constantFrom("one", "two"), (state, dealer) => {
          const withDealer = {
            ...state,
            view: { ...state.view, table: { ...state.view.table, dealer } },
          };
          const texts = [
            tableStatus(withDealer).text,
            announcementText(withDealer, { kind: "deal" }),
          ];
          for (const text of texts) assert.doesNotMatch(text, /‹you› \p{L}/u, text);
        }),
        { numRuns: 2000 },
      );
    } finally {
      setCatalog("en", EN);
    }
  });
}
