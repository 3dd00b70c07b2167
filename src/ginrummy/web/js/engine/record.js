// Records and replay: a round is (rules, deck order, dealer, actions); a match is its
// rules, first dealer and rounds; the port of engine/record.py. Both convert to plain
// data (`toDict`) and replay to identical states. A round may carry a `fair` block, the
// data that proves its deck was dealt fairly (docs/fairness.md); the engine only carries
// it (web/js/fair/verify.js checks it). Records without it load as before.

import { parseAction } from "./actions.js";
import { parseCard } from "./cards.js";
import { GinRummyError, RecordError, pyRepr } from "./errors.js";
import {
  ForfeitReason,
  MatchPhase,
  apply as applyMatch,
  deal,
  forfeit,
  newMatch,
} from "./match.js";
import { apply as applyRound, newRound } from "./round.js";
import { Rules } from "./rules.js";
import { parseSeat, seatLabel } from "./seats.js";

/** @typedef {import("./actions.js").Action} Action */
/** @typedef {import("./cards.js").Card} Card */
/** @typedef {import("./seats.js").Seat} Seat */
/** @typedef {import("./round.js").RoundState} RoundState */
/** @typedef {import("./match.js").MatchState} MatchState */

export const FORMAT = 1;

/** The fairness data of one deal, as engine/record.py's FairBlock: hex texts for the seeds
 * and the commitment (checked by the verifier), serverSeed null until revealed.
 * @typedef {Readonly<{version: string, commitment: string, serverSeed: string|null,
 *   seeds: Readonly<{one: string, two: string}>, room: string, match: number, round: number}>} FairBlock */
/** @typedef {Readonly<{deck: readonly Card[], dealer: Seat, actions: readonly Action[],
 *   fair: FairBlock | null}>} RoundRecord */
/** @typedef {Readonly<{rules: Rules, firstDealer: Seat, rounds: readonly RoundRecord[],
 *   forfeit: readonly [Seat, string] | null}>} MatchRecord */

/** @param {FairBlock} fair */
export function fairBlockToDict(fair) {
  return {
    version: fair.version,
    commitment: fair.commitment,
    server_seed: fair.serverSeed,
    seeds: { one: fair.seeds.one, two: fair.seeds.two },
    room: fair.room,
    match: fair.match,
    round: fair.round,
  };
}

/** A record field that is missing or mistyped, named as the Python engine names it.
 * @param {string} field @param {string} problem */
const fieldError = (field, problem) => new RecordError(`${field}: ${problem}`);

/** @param {unknown} value @param {string} name @returns {Record<string, unknown>} */
function object(value, name) {
  if (value === null || typeof value !== "object" || Array.isArray(value))
    throw fieldError(name, "missing or not an object");
  return /** @type {Record<string, unknown>} */ (value);
}

/** @param {Record<string, unknown>} data @param {string} key @param {string} where */
function text(data, key, where) {
  const value = data[key];
  if (typeof value !== "string")
    throw fieldError(`${where}.${key}`, "missing or not a text");
  return value;
}

/** @param {Record<string, unknown>} data @param {string} key */
function whole(data, key) {
  const value = data[key];
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0) {
    throw fieldError(`fair.${key}`, "missing or not a whole number >= 0");
  }
  return value;
}

/** Read a fair block; a missing or mistyped field raises RecordError naming it
 * (`fair.seeds.two`). @param {unknown} data @returns {FairBlock} */
export function fairBlockFromDict(data) {
  const block = object(data, "fair");
  const seeds = object(block.seeds, "fair.seeds");
  const seed = block.server_seed ?? null;
  return Object.freeze({
    version: text(block, "version", "fair"),
    commitment: text(block, "commitment", "fair"),
    serverSeed: seed === null ? null : text(block, "server_seed", "fair"),
    seeds: Object.freeze({
      one: text(seeds, "one", "fair.seeds"),
      two: text(seeds, "two", "fair.seeds"),
    }),
    room: text(block, "room", "fair"),
    match: whole(block, "match"),
    round: whole(block, "round"),
  });
}

/** @param {RoundRecord} record */
export function roundRecordToDict(record) {
  /** @type {Record<string, unknown>} */
  const out = {
    deck: record.deck.map((c) => c.text).join(" "),
    dealer: seatLabel(record.dealer),
    actions: record.actions.map(String),
  };
  if (record.fair) out.fair = fairBlockToDict(record.fair);
  return out;
}

/** @param {any} data @returns {RoundRecord} */
export function roundRecordFromDict(data) {
  if (data === null || typeof data !== "object")
    throw new RecordError("malformed round record: not an object");
  for (const key of ["deck", "dealer", "actions"]) {
    if (!(key in data))
      throw new RecordError(`malformed round record: missing or bad '${key}'`);
  }
  if (!Array.isArray(data.actions))
    throw new RecordError("malformed round record: missing or bad 'actions'");
  try {
    const fair = data.fair ?? null;
    return Object.freeze({
      deck: Object.freeze(
        String(data.deck)
          .split(/\s+/)
          .filter((t) => t)
          .map(parseCard),
      ),
      dealer: parseSeat(String(data.dealer)),
      actions: Object.freeze(data.actions.map(parseAction)),
      fair: fair === null ? null : fairBlockFromDict(fair),
    });
  } catch (exc) {
    if (exc instanceof GinRummyError || exc instanceof TypeError) {
      throw new RecordError(`malformed round record: ${exc.message}`);
    }
    throw exc;
  }
}

/** @param {MatchRecord} record */
export function matchRecordToDict(record) {
  /** @type {Record<string, unknown>} */
  const out = {
    format: FORMAT,
    kind: "match",
    rules: record.rules.toDict(),
    first_dealer: seatLabel(record.firstDealer),
    rounds: record.rounds.map(roundRecordToDict),
  };
  if (record.forfeit !== null)
    out.forfeit = { seat: seatLabel(record.forfeit[0]), reason: record.forfeit[1] };
  return out;
}

/** @param {any} data @returns {MatchRecord} */
export function matchRecordFromDict(data) {
  if (
    data?.rules === undefined ||
    data?.first_dealer === undefined ||
    !Array.isArray(data?.rounds)
  ) {
    throw new RecordError(
      "malformed match record: missing or bad 'rules', 'first_dealer' or 'rounds'",
    );
  }
  try {
    const rules = Rules.fromDict(data.rules);
    const firstDealer = parseSeat(String(data.first_dealer));
    const rounds = Object.freeze(data.rounds.map(roundRecordFromDict));
    const lost = data.forfeit ?? null;
    if (lost !== null && !Object.values(ForfeitReason).includes(lost.reason)) {
      throw new RecordError(`${pyRepr(lost.reason)} is not a valid ForfeitReason`);
    }
    /** @type {readonly [Seat, string] | null} */
    const forfeited =
      lost === null ? null : Object.freeze([parseSeat(String(lost.seat)), lost.reason]);
    return Object.freeze({ rules, firstDealer, rounds, forfeit: forfeited });
  } catch (exc) {
    if (exc instanceof GinRummyError || exc instanceof TypeError) {
      throw new RecordError(`malformed match record: ${exc.message}`);
    }
    throw exc;
  }
}

/** Every state of a recorded round, from the deal to the last action.
 * @param {Rules} rules @param {RoundRecord} record @returns {Generator<RoundState>} */
export function* replayRoundSteps(rules, record) {
  let state = newRound(rules, record.deck, record.dealer);
  yield state;
  for (const [i, action] of record.actions.entries()) {
    try {
      state = applyRound(state, action);
    } catch (exc) {
      if (exc instanceof GinRummyError)
        throw new RecordError(
          `action ${i + 1} (${action}) does not replay: ${exc.message}`,
        );
      throw exc;
    }
    yield state;
  }
}

/** @param {Rules} rules @param {RoundRecord} record @returns {RoundState} */
export function replayRound(rules, record) {
  let last = null;
  for (const state of replayRoundSteps(rules, record)) last = state;
  return /** @type {RoundState} */ (last);
}

/** Rebuild a match from its record; the dealers must be the ones the rules give.
 * @param {MatchRecord} record @returns {MatchState} */
export function replayMatch(record) {
  let match = newMatch(record.rules, record.firstDealer);
  for (const [n0, rnd] of record.rounds.entries()) {
    const n = n0 + 1;
    if (match.phase !== MatchPhase.DEAL)
      throw new RecordError(`round ${n} is recorded but the match cannot deal it`);
    if (rnd.dealer !== match.nextDealer) {
      throw new RecordError(
        `round ${n}: recorded dealer ${seatLabel(rnd.dealer)}, the rules give ${seatLabel(match.nextDealer)}`,
      );
    }
    try {
      match = deal(match, rnd.deck);
    } catch (exc) {
      if (exc instanceof GinRummyError)
        throw new RecordError(`round ${n} does not deal: ${exc.message}`);
      throw exc;
    }
    for (const [i, action] of rnd.actions.entries()) {
      try {
        match = applyMatch(match, action);
      } catch (exc) {
        if (exc instanceof GinRummyError)
          throw new RecordError(
            `round ${n}, action ${i + 1} (${action}): ${exc.message}`,
          );
        throw exc;
      }
    }
  }
  if (record.forfeit !== null) {
    try {
      match = forfeit(match, record.forfeit[0], record.forfeit[1]);
    } catch (exc) {
      if (exc instanceof GinRummyError)
        throw new RecordError(`the recorded forfeit does not apply: ${exc.message}`);
      throw exc;
    }
  }
  return match;
}

/** The record of a match so far: finished rounds and the one under way; `fairs[i]` is
 * round i's fair block (the match state does not hold them), none where it is missing.
 * @param {MatchState} match @param {readonly (FairBlock|null)[]} [fairs] @returns {MatchRecord} */
export function recordOf(match, fairs = []) {
  /** @param {RoundState} r @param {number} i @returns {RoundRecord} */
  const recordOfRound = (r, i) =>
    Object.freeze({
      deck: r.deck,
      dealer: r.dealer,
      actions: r.history.map(([, a]) => a),
      fair: fairs[i] ?? null,
    });
  const rounds = match.played.map(recordOfRound);
  // The round under way (or left unfinished by a forfeit).
  if (match.round !== null && match.round.result === null)
    rounds.push(recordOfRound(match.round, rounds.length));
  const result = match.result;
  const lost =
    result !== null && result.forfeitedBy !== null && result.forfeit !== null
      ? Object.freeze(/** @type {const} */ ([result.forfeitedBy, result.forfeit]))
      : null;
  return Object.freeze({
    rules: match.rules,
    firstDealer: match.firstDealer,
    rounds: Object.freeze(rounds),
    forfeit: lost,
  });
}

/** Read a stand-alone round record or a match record.
 * @param {any} data @returns {{kind: "round", rules: Rules, round: RoundRecord} | {kind: "match", match: MatchRecord}} */
export function loadRecord(data) {
  if (data === null || typeof data !== "object" || Array.isArray(data))
    throw new RecordError("a record is a JSON object");
  if (data.kind === "match") return { kind: "match", match: matchRecordFromDict(data) };
  if (data.kind === "round") {
    let rules;
    try {
      rules = Rules.fromDict(data.rules);
    } catch (exc) {
      if (exc instanceof GinRummyError)
        throw new RecordError(`malformed round record: ${exc.message}`);
      throw exc;
    }
    return { kind: "round", rules, round: roundRecordFromDict(data) };
  }
  throw new RecordError(
    `unknown record kind ${pyRepr(data.kind ?? null)}; expected 'round' or 'match'`,
  );
}
