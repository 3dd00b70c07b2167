// One frozen rules configuration; presets are named sets of values (docs/rules.md
// §3-§4); the port of engine/rules.py. Fields are camelCase here; `toDict`/`fromDict`
// speak the wire's snake_case, in the reference's field order.
//
//   Rules.preset("oklahoma").oklahoma === true
//   Rules.preset("standard", { target_score: 50 }).targetScore === 50

import { RulesError, pyRepr } from "./errors.js";

export const NextDealer = Object.freeze({ ALTERNATE: "alternate", LOSER: "loser" });
export const AfterVoid = Object.freeze({ NEXT: "next", SAME: "same" });
export const StockRule = Object.freeze({ VOID: "void", LAST_DISCARD: "last_discard" });

/** Wire name -> field name, in the reference's field order. */
const FIELDS = Object.freeze({
  name: "name",
  target_score: "targetScore",
  knock_limit: "knockLimit",
  oklahoma: "oklahoma",
  spade_doubling: "spadeDoubling",
  gin_bonus: "ginBonus",
  undercut_bonus: "undercutBonus",
  big_gin_bonus: "bigGinBonus",
  box_bonus: "boxBonus",
  game_bonus: "gameBonus",
  shutout_bonus: "shutoutBonus",
  eleven_card_deal: "elevenCardDeal",
  next_dealer: "nextDealer",
  after_void: "afterVoid",
  stock_rule: "stockRule",
  move_timer_seconds: "moveTimerSeconds",
});

/** @type {Record<string, Record<string, string>>} */
const ENUMS = { next_dealer: NextDealer, after_void: AfterVoid, stock_rule: StockRule };
const BOOLS = new Set(["oklahoma", "spade_doubling", "eleven_card_deal"]);
const OPTIONAL_INTS = new Set(["target_score", "big_gin_bonus", "move_timer_seconds"]);

/** @type {Record<string, unknown>} */
const DEFAULTS = {
  name: "standard",
  target_score: 100, // null: "first to knock", one scoring round decides
  knock_limit: 10,
  oklahoma: false, // knock limit from the first upcard (ace: gin only)
  spade_doubling: false, // Oklahoma: round points doubled if the first upcard is a spade
  gin_bonus: 25,
  undercut_bonus: 25,
  big_gin_bonus: null, // null: Big Gin off
  box_bonus: 0, // per round won, added at match end
  game_bonus: 0, // for reaching the target, added at match end
  shutout_bonus: 0, // when the opponent scored 0, added at match end
  eleven_card_deal: false, // 11 to the non-dealer, who opens by discarding; no upcard
  next_dealer: "alternate",
  after_void: "next",
  stock_rule: "void",
  move_timer_seconds: null, // per draw and per discard; enforced by the server
};

/** @param {string} key @param {unknown} value @returns {unknown} */
function coerce(key, value) {
  if (key in ENUMS) {
    const allowed = Object.values(ENUMS[key]);
    if (typeof value !== "string" || !allowed.includes(value)) {
      throw new TypeError(
        `${key} must be one of ${allowed.join(", ")}, got ${pyRepr(value)}`,
      );
    }
    return value;
  }
  if (BOOLS.has(key)) {
    if (typeof value !== "boolean")
      throw new TypeError(`${key} must be true or false, got ${pyRepr(value)}`);
    return value;
  }
  if (key === "name") {
    if (typeof value !== "string" || !value)
      throw new TypeError(`name must be a non-empty string, got ${pyRepr(value)}`);
    return value;
  }
  if (value === null && OPTIONAL_INTS.has(key)) return null;
  if (typeof value !== "number" || !Number.isInteger(value)) {
    throw new TypeError(`${key} must be a whole number, got ${pyRepr(value)}`);
  }
  return value;
}

/** @param {Record<string, any>} d @returns {Generator<string>} */
function* problems(d) {
  if (d.target_score !== null && !(d.target_score >= 1 && d.target_score <= 10000)) {
    yield `target_score must be 1..10000 or null (first to knock), got ${d.target_score}`;
  }
  if (!(d.knock_limit >= 0 && d.knock_limit <= 30))
    yield `knock_limit must be 0..30, got ${d.knock_limit}`;
  for (const name of [
    "gin_bonus",
    "undercut_bonus",
    "box_bonus",
    "game_bonus",
    "shutout_bonus",
  ]) {
    if (!(d[name] >= 0 && d[name] <= 1000))
      yield `${name} must be 0..1000, got ${d[name]}`;
  }
  if (d.big_gin_bonus !== null && !(d.big_gin_bonus >= 0 && d.big_gin_bonus <= 1000)) {
    yield `big_gin_bonus must be 0..1000 or null (off), got ${d.big_gin_bonus}`;
  }
  if (d.oklahoma && d.eleven_card_deal) {
    yield "Oklahoma takes the knock limit from the upcard, the 11-card deal has none";
  }
  if (d.spade_doubling && !d.oklahoma)
    yield "spade doubling is an Oklahoma rule and needs oklahoma on";
  if (
    d.move_timer_seconds !== null &&
    !(d.move_timer_seconds >= 5 && d.move_timer_seconds <= 600)
  ) {
    yield `move_timer_seconds must be 5..600 or null (off), got ${d.move_timer_seconds}`;
  }
  if (d.target_score === null && (d.game_bonus || d.shutout_bonus)) {
    yield "first-to-knock (no target score) cannot have a game or shutout bonus";
  }
}

/** Every option of docs/rules.md §4. Build with `Rules.preset(name, overrides)`. */
export class Rules {
  /** @param {Record<string, unknown>} [options] wire (snake_case) names; the rest default */
  constructor(options = {}) {
    /** @type {Record<string, any>} */
    const d = {};
    for (const key of Object.keys(FIELDS)) {
      const value = Object.hasOwn(options, key) ? options[key] : DEFAULTS[key];
      try {
        d[key] = coerce(key, value);
      } catch (exc) {
        throw new RulesError(`invalid rules: ${/** @type {Error} */ (exc).message}`);
      }
    }
    const found = [...problems(d)];
    if (found.length) throw new RulesError("invalid rules: " + found.join("; "));
    /** @type {string} */ this.name = d.name;
    /** @type {number | null} */ this.targetScore = d.target_score;
    /** @type {number} */ this.knockLimit = d.knock_limit;
    /** @type {boolean} */ this.oklahoma = d.oklahoma;
    /** @type {boolean} */ this.spadeDoubling = d.spade_doubling;
    /** @type {number} */ this.ginBonus = d.gin_bonus;
    /** @type {number} */ this.undercutBonus = d.undercut_bonus;
    /** @type {number | null} */ this.bigGinBonus = d.big_gin_bonus;
    /** @type {number} */ this.boxBonus = d.box_bonus;
    /** @type {number} */ this.gameBonus = d.game_bonus;
    /** @type {number} */ this.shutoutBonus = d.shutout_bonus;
    /** @type {boolean} */ this.elevenCardDeal = d.eleven_card_deal;
    /** @type {string} */ this.nextDealer = d.next_dealer;
    /** @type {string} */ this.afterVoid = d.after_void;
    /** @type {string} */ this.stockRule = d.stock_rule;
    /** @type {number | null} */ this.moveTimerSeconds = d.move_timer_seconds;
    Object.freeze(this);
  }

  /** A named preset with single fields overridden (wire names); the name stays the preset's.
   * @param {string} [name] @param {Record<string, unknown>} [overrides] @returns {Rules} */
  static preset(name = "standard", overrides = {}) {
    if (!Object.hasOwn(PRESETS, name)) {
      throw new RulesError(
        `unknown preset ${pyRepr(name)}; choose one of ${Object.keys(PRESETS).join(", ")}`,
      );
    }
    const base = PRESETS[name];
    if (Object.keys(overrides).length === 0) return base;
    return Rules.fromDict({ ...base.toDict(), ...overrides });
  }

  /** Plain data with the wire's names, in the reference's order.
   * @returns {Record<string, string | number | boolean | null>} */
  toDict() {
    /** @type {Record<string, any>} */
    const out = {};
    const self = /** @type {Record<string, any>} */ (this);
    for (const [wire, field] of Object.entries(FIELDS)) out[wire] = self[field];
    return out;
  }

  /** @param {Record<string, unknown>} data @returns {Rules} */
  static fromDict(data) {
    if (data === null || typeof data !== "object" || Array.isArray(data)) {
      throw new RulesError("rules must be a JSON object");
    }
    const unknown = Object.keys(data)
      .filter((k) => !Object.hasOwn(FIELDS, k))
      .sort();
    if (unknown.length)
      throw new RulesError(`unknown rules option(s): ${unknown.join(", ")}`);
    for (const [key, value] of Object.entries(data)) {
      // in the data's order, as the reference
      try {
        coerce(key, value);
      } catch (exc) {
        throw new RulesError(`invalid rules: ${/** @type {Error} */ (exc).message}`);
      }
    }
    return new Rules(data);
  }

  /** A copy with some fields changed (wire names). @param {Record<string, unknown>} changes */
  with(changes) {
    return Rules.fromDict({ ...this.toDict(), ...changes });
  }
}

/** @type {Readonly<Record<string, Rules>>} */
export const PRESETS = Object.freeze({
  standard: new Rules(),
  oklahoma: new Rules({ name: "oklahoma", oklahoma: true, spade_doubling: true }),
  // The William Hill money-mode settlement, without money.
  classic: new Rules({
    name: "classic",
    gin_bonus: 25,
    undercut_bonus: 25,
    box_bonus: 25,
    game_bonus: 100,
    shutout_bonus: 100,
  }),
  "first-to-knock": new Rules({ name: "first-to-knock", target_score: null }),
});
