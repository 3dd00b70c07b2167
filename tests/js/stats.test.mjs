// The statistics page's pure parts: the tournaments a player played, in words.
import { test } from "node:test";
import assert from "node:assert/strict";
import { setCatalog } from "../../src/ginrummy/web/js/i18n.js";
import { tournamentRows } from "../../src/ginrummy/web/js/stats.js";
import { EN } from "./catalogs.mjs";

setCatalog("en", EN);

test("each tournament played links to its page and says the place, and whether it still runs", () => {
  const rows = tournamentRows([
    {
      id: "t 2",
      name: "Friday Cup",
      format: "swiss",
      placing: 2,
      of: 6,
      finished: false,
    },
    { id: "t1", name: "Spring", format: "knockout", placing: 1, of: 4, finished: true },
  ]);
  assert.deepEqual(rows, [
    {
      href: "/t/t%202",
      name: "Friday Cup",
      format: "Swiss",
      placing: "2 of 6 (running)",
    },
    { href: "/t/t1", name: "Spring", format: "Knockout", placing: "1 of 4" },
  ]);
  assert.deepEqual(tournamentRows([]), []);
});
