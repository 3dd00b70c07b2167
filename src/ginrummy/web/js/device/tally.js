// The device's own statistics of finished device games (matches, wins, gins, undercuts,
// average points): kept in the browser, never sent to the server, which neither verifies
// nor counts device games.

/** @typedef {import("../engine/match.js").MatchState} MatchState */
/** @typedef {import("./saved.js").KeyValue} KeyValue */
/** @typedef {{matches: number, wins: number, gins: number, undercuts: number, points: number}} Tally */

export const TALLY_KEY = "ginrummy.device.stats";
const PLAYER = 0; // the person always plays seat one on the device
// The engine's ResultKind values, written out: the start page shows the tally without
// loading the engine (this module is in the page's first load, the engine is not).
const GINS = ["gin", "big_gin"];
const UNDERCUT = "undercut";

/** @returns {Tally} */
export function emptyTally() {
  return { matches: 0, wins: 0, gins: 0, undercuts: 0, points: 0 };
}

/**
 * The tally with one more finished match.
 * @param {Tally} tally @param {MatchState} match @returns {Tally}
 */
export function addMatch(tally, match) {
  const result = match.result;
  if (result === null) throw new Error("only a finished match is counted");
  const own = match.rounds.filter((r) => r.result.winner === PLAYER);
  return {
    matches: tally.matches + 1,
    wins: tally.wins + (result.winner === PLAYER ? 1 : 0),
    gins: tally.gins + own.filter((r) => GINS.includes(r.result.kind)).length,
    undercuts: tally.undercuts + own.filter((r) => r.result.kind === UNDERCUT).length,
    points: tally.points + result.totals.get(PLAYER),
  };
}

/** Average points per match, or null before the first. @param {Tally} tally */
export function averagePoints(tally) {
  return tally.matches ? Math.round((tally.points / tally.matches) * 10) / 10 : null;
}

/** The saved tally (an empty one when there is none or it is unreadable).
 * @param {KeyValue|null} storage @returns {Tally} */
export function loadTally(storage) {
  try {
    const data = JSON.parse(storage?.getItem(TALLY_KEY) ?? "null");
    const tally = emptyTally();
    if (!data || typeof data !== "object") return tally;
    for (const key of /** @type {(keyof Tally)[]} */ (Object.keys(tally))) {
      if (!Number.isFinite(data[key]) || data[key] < 0) return emptyTally();
      tally[key] = data[key];
    }
    return tally;
  } catch {
    return emptyTally();
  }
}

/** @param {KeyValue|null} storage @param {Tally} tally @returns {boolean} whether it is saved */
export function saveTally(storage, tally) {
  try {
    storage?.setItem(TALLY_KEY, JSON.stringify(tally));
    return Boolean(storage);
  } catch (err) {
    console.warn("the device's statistics could not be saved", err);
    return false;
  }
}
