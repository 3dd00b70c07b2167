// Device games in the browser's storage (docs/device.md): one key per game, written after
// every move. A saved game is its record (rules, first dealer, every round's deck and
// actions: the format of `ginrummy replay`) plus a little bookkeeping, wrapped in a format
// number and a checksum, so that a game edited by hand, cut short or written by another
// version is recognised and never played on from a wrong state.
import { GinRummyError, loadRecord, replayMatch } from "../engine/index.js";

/** @typedef {import("../engine/match.js").MatchState} MatchState */

export const FORMAT = 1;
export const PREFIX = "ginrummy.device.";
const GAME_PREFIX = `${PREFIX}game.`;

/**
 * What a device game keeps besides its match record.
 * @typedef {object} SavedGame
 * @property {string} id
 * @property {string} level        the computer's level key
 * @property {string} name         the player's name at the table
 * @property {string} botName      the computer's name at the table
 * @property {number} version      the game's event count (never goes back)
 * @property {number} created      Unix milliseconds
 * @property {boolean} counted     whether the finished match is in the local statistics
 * @property {Record<string, unknown>} record  matchRecordToDict of the match so far
 */

/** A saved game that cannot be trusted: why, in words for the log and the page. */
export class DamagedGameError extends Error {
  /** @param {string} id @param {string} reason */
  constructor(id, reason) {
    super(`device game ${id} is damaged: ${reason}`);
    this.name = "DamagedGameError";
    this.id = id;
    this.reason = reason;
  }
}

/**
 * FNV-1a over the text's UTF-16 code units, as 8 hex digits. Not a defence against a
 * forger (the player owns the storage anyway), only against accidents: hand edits, a
 * write cut short, another version's data. Synchronous (crypto.subtle is async and absent
 * outside secure contexts), so a save is done before the next move.
 * @param {string} text
 */
export function checksum(text) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, "0");
}

/** @param {SavedGame} game @returns {string} */
export function encodeGame(game) {
  const body = JSON.stringify({ format: FORMAT, game });
  return JSON.stringify({ sum: checksum(body), body });
}

/**
 * The saved game and its match, replayed; DamagedGameError for anything else.
 * @param {string} id @param {string} text
 * @returns {{game: SavedGame, match: MatchState}}
 */
export function decodeGame(id, text) {
  let outer;
  try {
    outer = JSON.parse(text);
  } catch {
    throw new DamagedGameError(id, "not JSON");
  }
  if (!outer || typeof outer.body !== "string" || typeof outer.sum !== "string") {
    throw new DamagedGameError(id, "not a saved game");
  }
  if (checksum(outer.body) !== outer.sum)
    throw new DamagedGameError(id, "the checksum does not match");
  let inner;
  try {
    inner = JSON.parse(outer.body);
  } catch {
    throw new DamagedGameError(id, "its body is not JSON");
  }
  if (inner?.format !== FORMAT)
    throw new DamagedGameError(id, `format ${inner?.format} is not ${FORMAT}`);
  const game = inner.game;
  const fields = {
    id: "string",
    level: "string",
    name: "string",
    botName: "string",
    version: "number",
    created: "number",
    counted: "boolean",
  };
  for (const [key, type] of Object.entries(fields)) {
    if (typeof game?.[key] !== type)
      throw new DamagedGameError(id, `'${key}' is missing or not a ${type}`);
  }
  if (game.id !== id) throw new DamagedGameError(id, `it says it is game ${game.id}`);
  try {
    const loaded = loadRecord(game.record);
    if (loaded.kind !== "match")
      throw new DamagedGameError(id, "its record is not a match record");
    return { game, match: replayMatch(loaded.match) };
  } catch (exc) {
    if (exc instanceof GinRummyError) throw new DamagedGameError(id, exc.message);
    throw exc;
  }
}

/** The part of Storage this module uses. @typedef {Pick<Storage, "getItem"|"setItem"|"removeItem"|"key"|"length">} KeyValue */

/** The browser's localStorage, or null where it is unavailable (blocked, private mode).
 * @returns {KeyValue|null} */
export function browserStorage() {
  try {
    const storage = globalThis.localStorage;
    return storage ?? null;
  } catch {
    return null;
  }
}

/** An entry of the list of saved games: a game, or a damaged one to discard.
 * @typedef {{id: string, game: SavedGame, match: MatchState} | {id: string, damaged: DamagedGameError}} Listed */

/** Saved device games in a key-value storage (localStorage); every method survives a
 * storage that throws (full, blocked): saving then answers false. */
export class GameStore {
  /** @param {KeyValue|null} storage */
  constructor(storage) {
    this.storage = storage;
  }

  /** @param {SavedGame} game @returns {boolean} whether it is saved */
  save(game) {
    if (!this.storage) return false;
    try {
      this.storage.setItem(GAME_PREFIX + game.id, encodeGame(game));
      return true;
    } catch (err) {
      console.warn(`device game ${game.id} could not be saved`, err);
      return false;
    }
  }

  /** The game `id`: null when there is none; DamagedGameError when it cannot be trusted.
   * @param {string} id */
  load(id) {
    const text = this.read(GAME_PREFIX + id);
    return text === null ? null : decodeGame(id, text);
  }

  /** @param {string} id */
  discard(id) {
    try {
      this.storage?.removeItem(GAME_PREFIX + id);
    } catch (err) {
      console.warn(`device game ${id} could not be removed`, err);
    }
  }

  /** Every saved game, newest first; damaged ones too (the page offers to discard them).
   * @returns {Listed[]} */
  list() {
    /** @type {Listed[]} */
    const out = [];
    for (const key of this.keys()) {
      if (!key.startsWith(GAME_PREFIX)) continue;
      const id = key.slice(GAME_PREFIX.length);
      try {
        const loaded = this.load(id);
        if (loaded) out.push({ id, ...loaded });
      } catch (exc) {
        if (!(exc instanceof DamagedGameError)) throw exc;
        out.push({ id, damaged: exc });
      }
    }
    const created = (/** @type {Listed} */ item) =>
      "game" in item ? item.game.created : 0;
    return out.sort((a, b) => created(b) - created(a));
  }

  /** @returns {string[]} */
  keys() {
    const storage = this.storage;
    if (!storage) return [];
    try {
      return Array.from({ length: storage.length }, (_, i) => storage.key(i) ?? "");
    } catch {
      return [];
    }
  }

  /** @param {string} key */
  read(key) {
    try {
      return this.storage?.getItem(key) ?? null;
    } catch {
      return null;
    }
  }
}
