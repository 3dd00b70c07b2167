// Reads a JSON-lines file of chouette `view` frames as the server's encoder writes them
// (tests/js/test_chouette_wire.py) and writes, one JSON line per frame, what the page
// makes of it: the match seat it shows, the names, the hand, what it offers and advises,
// and each position's part (box, captain, next captain, team).
import { readFileSync } from "node:fs";
import { setCatalog } from "../../src/ginrummy/web/js/i18n.js";
import { initialState } from "../../src/ginrummy/web/js/store.js";
import { isMine, seatName } from "../../src/ginrummy/web/js/status.js";
import { applyChouetteMessage } from "../../src/ginrummy/web/js/chouette/state.js";
import { chouetteStatus } from "../../src/ginrummy/web/js/chouette/status.js";
import { partText } from "../../src/ginrummy/web/js/chouette/table.js";

setCatalog(
  "en",
  JSON.parse(
    readFileSync(
      new URL("../../src/ginrummy/web/js/i18n/en.json", import.meta.url),
      "utf8",
    ),
  ),
);
const lines = readFileSync(process.argv[2], "utf-8").split("\n").filter(Boolean);
const out = [];
for (const line of lines) {
  const start = { ...initialState(), route: { name: "chouette", room: "r1" } };
  const state = applyChouetteMessage(start, { ...JSON.parse(line), receivedAt: 0 }).state;
  const status = chouetteStatus(state);
  const info = state.chouette?.info;
  out.push(
    JSON.stringify({
      seat: state.seat,
      role: state.chouette?.role ?? null,
      hand: state.view?.hand ?? null,
      plays: state.seat ? isMine(state, state.seat) : false,
      one: seatName(state, "one"),
      two: seatName(state, "two"),
      offered: status.actions,
      advice: state.chouette?.advice ?? [],
      between: status.between?.cmd ?? null,
      parts: info ? info.drawn.map((_, p) => partText(info, p)) : null,
    }),
  );
}
process.stdout.write(out.join("\n") + "\n");
