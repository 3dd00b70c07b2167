// Computer players are called by their level as the level menu names it, in the page's
// language and capitalised alike everywhere: a table, a chouette's numbered seats, a
// tournament's entrants (the server's "casual 1" is its id, not a name to show).
import { test } from "node:test";
import assert from "node:assert/strict";
import { setCatalog } from "../../src/ginrummy/web/js/i18n.js";
import { computerName, setLevels } from "../../src/ginrummy/web/js/i18n.js";
import { shownName } from "../../src/ginrummy/web/js/chouette/state.js";
import { entrantName } from "../../src/ginrummy/web/js/tournament.js";
import { seatName } from "../../src/ginrummy/web/js/status.js";
import { initialState } from "../../src/ginrummy/web/js/store.js";

const LEVELS = [
  { key: "beginner", names: { de: "Anfänger", en: "Beginner" } },
  { key: "casual", names: { de: "Gelegenheitsspieler", en: "Casual" } },
];

test("a computer is named by its level in the page's language", () => {
  setLevels(LEVELS);
  for (const [lang, casual] of [
    ["en", "Casual"],
    ["de", "Gelegenheitsspieler"],
  ]) {
    setCatalog(lang, { "name.you": "You" });
    assert.equal(computerName("casual"), casual);
    const players = [
      { name: "Ann", bot: null },
      { name: "Casual", bot: "casual" },
      { name: "Casual", bot: "casual" },
    ];
    assert.deepEqual(
      [0, 1, 2].map((p) => shownName(players, p)),
      ["Ann", `${casual} 2`, `${casual} 3`],
    );
    assert.equal(
      entrantName({ id: "computer:casual:1", name: "casual 1", computer: "casual" }),
      `${casual} 1`,
    );
    assert.equal(entrantName({ id: "p_ann", name: "Ann", computer: null }), "Ann");
    const state = {
      ...initialState(),
      seat: "one",
      players: {
        one: { name: "Ann", bot: null },
        two: { name: "Casual", bot: "casual" },
      },
    };
    assert.equal(seatName(state, "two"), casual);
  }
  // A level the server does not offer (a measuring stick) is capitalised like the others.
  assert.equal(computerName("random"), "Random");
});

test("the level menu keeps the server's ladder order and offers its default", async () => {
  const { normaliseLevels, chosenLevel } =
    await import("../../src/ginrummy/web/js/home.js");
  const levels = normaliseLevels({
    levels: [...LEVELS, { key: "expert" }, 7, null],
    default: "casual",
  });
  assert.deepEqual(
    levels.map((l) => [l.key, l.default]),
    [
      ["beginner", false],
      ["casual", true],
      ["expert", false],
    ],
  );
  assert.equal(chosenLevel(levels, null), "casual"); // nothing chosen: the default
  assert.equal(chosenLevel(levels, "expert"), "expert"); // the person's choice stands
  const plain = normaliseLevels(LEVELS); // a remembered list without a default: the first
  assert.equal(chosenLevel(plain, undefined), "beginner");
  assert.equal(chosenLevel([], null), "");
});
