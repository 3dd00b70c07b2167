// Typed errors of the engine, one class per Python class of engine/errors.py. Every
// one says what and why; `code` names the class for the wire and for the conformance
// harness, which compares error classes across the two engines.

export class GinRummyError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = new.target.name;
    /** @type {string} */
    this.code = "gin_rummy";
  }
}

/** A text that does not name a card ("1x"), or a malformed list of cards. */
export class CardParseError extends GinRummyError {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.code = "card_parse";
  }
}

/** The same card appears twice where each card may appear once. */
export class DuplicateCardError extends GinRummyError {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.code = "duplicate_card";
  }
}

/** A hand has the wrong number of cards for the operation asked for. */
export class HandSizeError extends GinRummyError {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.code = "hand_size";
  }
}

/** A rules configuration that cannot work (unknown preset, impossible combination). */
export class RulesError extends GinRummyError {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.code = "rules";
  }
}

/** A text that does not name an action ("discard" without a card, "fold"). */
export class ActionParseError extends GinRummyError {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.code = "action_parse";
  }
}

/** An action that `legalActions` does not list for this state: names the action,
 * the phase and the reason. */
export class IllegalActionError extends GinRummyError {
  /** @param {unknown} action @param {string} phase @param {string} reason */
  constructor(action, phase, reason) {
    super(`${String(action)} is not legal in phase ${phase}: ${reason}`);
    this.code = "illegal_action";
    this.action = action;
    this.phase = phase;
    this.reason = reason;
  }
}

/** A showdown was asked for a hand whose deadwood is above the knock limit. */
export class NotAKnockError extends GinRummyError {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.code = "not_a_knock";
  }
}

/** A round or match record that is malformed or does not replay. */
export class RecordError extends GinRummyError {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.code = "record";
  }
}

/** Python's repr of a JSON value, so that messages read as the reference's do.
 * @param {unknown} value @returns {string} */
export function pyRepr(value) {
  if (value === null || value === undefined) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "string")
    return value.includes("'") && !value.includes('"') ? `"${value}"` : `'${value}'`;
  if (typeof value === "number") return String(value);
  return JSON.stringify(value);
}
