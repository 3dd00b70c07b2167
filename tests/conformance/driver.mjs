// The browser engine's side of the differential conformance harness
// (tests/conformance/harness.py, docs/browser-engine.md). Reads JSON lines on stdin,
// writes one JSON line per input line on stdout, in order:
//
//   {"op": "match", "id": n, "record": <match record>}
//       -> {"id": n, "steps": [digest, ...], "error": null | {"step", "code", "message"}}
//   {"op": "detail", "id": n, "record": <match record>, "step": k}
//       -> {"id": n, "parts": {"legal", "state", "one", "two", "spectator"}} at step k
//   {"op": "analyze", "id": n, "hand": "..."}           -> {"id": n, "out": ...}
//   {"op": "settle", "id": n, "knocker", "defender", "preset", "knock_limit"} -> same
//   {"op": "rules", "id": n, "rules": {...}}             -> {"id": n, "out": rules as data}
//   {"op": "parse", "id": n, "actions": ["..."]}         -> {"id": n, "out": [action text or error]}
// An error is answered as {"error_code": code, "message": text} (errors.js names the codes).
//
// Steps: the new match, then each deal, each action and the forfeit, in record order.
// A step's digest is the SHA-256 (first 16 hex digits) of the compact JSON of
// [legal actions, canonical state, seat one's view, seat two's view, spectator's view];
// the views are encoded as ginrummy.protocol encodes them.

import { createHash } from "node:crypto";
import { createInterface } from "node:readline";

import { parseAction } from "../../src/ginrummy/web/js/engine/actions.js";
import {
  encodeSeatView,
  encodeSpectatorView,
} from "../../src/ginrummy/web/js/engine/codec.js";
import { GinRummyError } from "../../src/ginrummy/web/js/engine/errors.js";
import {
  apply,
  deal,
  forfeit,
  legalActions,
  newMatch,
} from "../../src/ginrummy/web/js/engine/match.js";
import { matchRecordFromDict } from "../../src/ginrummy/web/js/engine/record.js";
import { handOf } from "../../src/ginrummy/web/js/engine/round.js";
import { Rules } from "../../src/ginrummy/web/js/engine/rules.js";
import { seatLabel } from "../../src/ginrummy/web/js/engine/seats.js";
import { analyzeHand, settleHands } from "../../src/ginrummy/web/js/engine/tools.js";
import { viewForSeat, viewForSpectator } from "../../src/ginrummy/web/js/engine/views.js";

/** @typedef {import("../../src/ginrummy/web/js/engine/match.js").MatchState} MatchState */

/** @param {Iterable<{text: string}>} cards */
const texts = (cards) => Array.from(cards, (c) => c.text);

/** The canonical state (tests/conformance/canonical.py writes the same). @param {MatchState} m */
function canonicalState(m) {
  const r = m.round;
  return {
    phase: m.phase,
    first_dealer: seatLabel(m.firstDealer),
    next_dealer: seatLabel(m.nextDealer),
    scores: { one: m.scores.one, two: m.scores.two },
    rounds_won: { one: m.roundsWon.one, two: m.roundsWon.two },
    rounds: m.rounds.length,
    played: m.played.length,
    round:
      r === null
        ? null
        : {
            dealer: seatLabel(r.dealer),
            phase: r.phase,
            turn: seatLabel(r.turn),
            deck: texts(r.deck).join(" "),
            hands: { one: texts(handOf(r, 0)), two: texts(handOf(r, 1)) },
            stock: texts(r.stock),
            discard_pile: texts(r.discardPile),
            first_upcard: r.firstUpcard?.text ?? null,
            knock_limit: r.knockLimit,
            doubled: r.doubled,
            upcard_passes: r.upcardPasses.map(seatLabel),
            taken: r.taken?.text ?? null,
            stock_only: r.stockOnly,
            must_knock: r.mustKnock,
            knock_discard: r.knockDiscard?.text ?? null,
            history: r.history.map(([seat, action]) => [seatLabel(seat), action.text]),
          },
  };
}

/** @param {MatchState} m */
function parts(m) {
  return {
    legal: legalActions(m).map(String),
    state: canonicalState(m),
    one: encodeSeatView(viewForSeat(m, 0)),
    two: encodeSeatView(viewForSeat(m, 1)),
    spectator: encodeSpectatorView(viewForSpectator(m)),
  };
}

/** @param {MatchState} m */
function digest(m) {
  const p = parts(m);
  const text = JSON.stringify([p.legal, p.state, p.one, p.two, p.spectator]);
  return createHash("sha256").update(text).digest("hex").slice(0, 16);
}

/** Every step of a match record: calls `visit` with each state; stops at the first error.
 * @param {unknown} data @param {(m: MatchState) => boolean} visit false: stop
 * @returns {{step: number, code: string, message: string} | null} */
function walk(data, visit) {
  let step = 0;
  try {
    const record = matchRecordFromDict(data);
    let m = newMatch(record.rules, record.firstDealer);
    if (!visit(m)) return null;
    for (const rnd of record.rounds) {
      step++;
      m = deal(m, rnd.deck);
      if (!visit(m)) return null;
      for (const action of rnd.actions) {
        step++;
        m = apply(m, action);
        if (!visit(m)) return null;
      }
    }
    if (record.forfeit !== null) {
      step++;
      m = forfeit(m, record.forfeit[0], record.forfeit[1]);
      visit(m);
    }
    return null;
  } catch (exc) {
    if (!(exc instanceof GinRummyError)) throw exc;
    return { step, code: exc.code, message: exc.message };
  }
}

/** @param {any} req */
function handle(req) {
  switch (req.op) {
    case "match": {
      /** @type {string[]} */
      const steps = [];
      const error = walk(req.record, (m) => {
        steps.push(digest(m));
        return true;
      });
      return { id: req.id, steps, error };
    }
    case "detail": {
      let seen = 0;
      let found = null;
      walk(req.record, (m) => {
        if (seen++ === req.step) {
          found = parts(m);
          return false;
        }
        return true;
      });
      return { id: req.id, parts: found };
    }
    case "analyze":
      return { id: req.id, out: guarded(() => analyzeHand(req.hand)) };
    case "settle":
      return {
        id: req.id,
        out: guarded(() =>
          settleHands(req.knocker, req.defender, req.preset, req.knock_limit ?? null),
        ),
      };
    case "rules":
      return { id: req.id, out: guarded(() => Rules.fromDict(req.rules).toDict()) };
    case "parse":
      return {
        id: req.id,
        out: req.actions.map((/** @type {string} */ t) =>
          guarded(() => parseAction(t).text),
        ),
      };
    default:
      throw new Error(`unknown op ${req.op}`);
  }
}

/** The tool's output, or the class of its error. @param {() => unknown} fn */
function guarded(fn) {
  try {
    return fn();
  } catch (exc) {
    if (exc instanceof GinRummyError)
      return { error_code: exc.code, message: exc.message };
    throw exc;
  }
}

for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  if (line.trim()) process.stdout.write(JSON.stringify(handle(JSON.parse(line))) + "\n");
}
