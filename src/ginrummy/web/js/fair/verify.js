// The browser's verifier of fair deals (docs/fairness.md, construction gin-fair-v1).
// Pure: WebCrypto only (`crypto.subtle`, also globalThis.crypto in Node 20), no DOM.
// It does what `ginrummy verify` does up to the replay: reading the record, then per
// round the commitment, the context and the deck. It does not replay the actions (that
// would need web/js/engine/, which the verify page does not load); the page points to the
// command for that.

export const VERSION = "gin-fair-v1";
const DEFAULT_SEED_LABEL = `${VERSION}/default-seat-seed`;
const PHRASE_SEED_LABEL = `${VERSION}/phrase-seat-seed`;
const SEED_BYTES = 32;
const HEX_SEED = /^[0-9a-f]{64}$/;
const CARD = /^[A2-9TJQK][cdhs]$/;
const encoder = new TextEncoder();

/** The 52 card texts in canonical order: clubs, diamonds, hearts, spades, each A..K. */
export const CANONICAL = Object.freeze(
  [..."cdhs"].flatMap((suit) => [..."A23456789TJQK"].map((rank) => rank + suit)),
);

/** A record field that is missing or malformed; `field` is its path (`rounds[1].fair.seeds.two`). */
export class FieldError extends Error {
  /** @param {string} field  @param {string} problem */
  constructor(field, problem) {
    super(`${field}: ${problem}`);
    this.name = "FieldError";
    this.field = field;
    this.problem = problem;
  }
}

/**
 * Bytes backed by a plain ArrayBuffer, as WebCrypto takes them.
 * @typedef {Uint8Array<ArrayBuffer>} Bytes
 *
 * @typedef {object} DealContext
 * @property {Bytes} seatOne  seat one's seed, 32 bytes
 * @property {Bytes} seatTwo  seat two's seed, 32 bytes
 * @property {string} room
 * @property {number} match
 * @property {number} round
 *
 * @typedef {"ok"|"unrevealed"|"commitment"|"context"|"deck"} Check
 * @typedef {{round: number, check: Check, reason: string}} RoundVerdict
 * @typedef {{ok: boolean, error: {field: string, message: string}|null, rounds: RoundVerdict[]}} Report
 */

/** @param {Uint8Array} bytes  @returns {string} lowercase hex */
export function toHex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** @param {string} hex  64 lowercase hex digits (checked by the caller)  @returns {Bytes} */
export function fromHex(hex) {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** @param {...Uint8Array} parts  @returns {Bytes} */
function concat(...parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** One field: its length as 4 bytes big-endian, then its bytes. @param {Uint8Array} bytes  @returns {Bytes} */
export function field(bytes) {
  const head = new Uint8Array(4);
  new DataView(head.buffer).setUint32(0, bytes.length);
  return concat(head, bytes);
}

/** A whole number as 8 bytes big-endian. @param {number} value  @returns {Bytes} */
export function number(value) {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, BigInt(value));
  return out;
}

/** The HMAC message of a deal (before the block counter). @param {DealContext} c */
export function dealMessage(c) {
  return concat(
    field(encoder.encode(VERSION)),
    field(c.seatOne),
    field(c.seatTwo),
    field(encoder.encode(c.room)),
    field(number(c.match)),
    field(number(c.round)),
  );
}

/** SHA-256 of the server seed, as lowercase hex. @param {Bytes} seed */
export async function commitment(seed) {
  return toHex(new Uint8Array(await crypto.subtle.digest("SHA-256", seed)));
}

/** @param {Bytes} key  @returns {Promise<CryptoKey>} */
function hmacKey(key) {
  return crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
  ]);
}

/** The byte stream HMAC-SHA256(key, message || u64be(i)) for i = 0, 1, 2, ... */
class Stream {
  /** @param {CryptoKey} key  @param {Bytes} message */
  constructor(key, message) {
    this.key = key;
    this.message = message;
    this.counter = 0;
    this.block = new Uint8Array(0);
    this.at = 0;
  }

  /** @returns {Promise<number>} */
  async nextByte() {
    if (this.at === this.block.length) {
      const data = concat(this.message, number(this.counter++));
      this.block = new Uint8Array(await crypto.subtle.sign("HMAC", this.key, data));
      this.at = 0;
    }
    return this.block[this.at++];
  }

  /**
   * An unbiased integer in [0, n), 2 <= n <= 256: mask each byte, skip values >= n.
   * @param {number} n
   */
  async below(n) {
    const mask = (1 << (n - 1).toString(2).length) - 1;
    for (;;) {
      const value = (await this.nextByte()) & mask;
      if (value < n) return value;
    }
  }
}

/** The deck of a deal, as card texts. @param {Bytes} serverSeed  @param {DealContext} context */
export async function dealDeck(serverSeed, context) {
  const stream = new Stream(await hmacKey(serverSeed), dealMessage(context));
  const deck = [...CANONICAL];
  for (let i = deck.length - 1; i > 0; i--) {
    const j = await stream.below(i + 1);
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  return deck;
}

/**
 * The fields a seat's derived seed is computed over (docs/fairness.md §5, §5a).
 * @param {string} label  @param {string} room  @param {number} match
 * @param {number} round  @param {"one"|"two"} seat
 */
function seatMessage(label, room, match, round, seat) {
  return concat(
    field(encoder.encode(label)),
    field(encoder.encode(room)),
    field(number(match)),
    field(number(round)),
    field(encoder.encode(seat)),
  );
}

/**
 * The seed of a seat that sent none: HMAC-SHA256 keyed by the SHA-256 of its identity token.
 * @param {Bytes} identityHash  @param {string} room  @param {number} match
 * @param {number} round  @param {"one"|"two"} seat
 */
export async function defaultSeatSeed(identityHash, room, match, round, seat) {
  const message = seatMessage(DEFAULT_SEED_LABEL, room, match, round, seat);
  return new Uint8Array(
    await crypto.subtle.sign("HMAC", await hmacKey(identityHash), message),
  );
}

/**
 * The seed sent for a person with a seed phrase (docs/fairness.md §5a): HMAC-SHA256 keyed by the phrase's
 * UTF-8 bytes, as stored (no normalisation). Throws a RangeError for an empty phrase.
 * @param {string} phrase  @param {string} room  @param {number} match
 * @param {number} round  @param {"one"|"two"} seat
 */
export async function phraseSeatSeed(phrase, room, match, round, seat) {
  if (!phrase) throw new RangeError("a seed phrase must not be empty");
  const message = seatMessage(PHRASE_SEED_LABEL, room, match, round, seat);
  return new Uint8Array(
    await crypto.subtle.sign("HMAC", await hmacKey(encoder.encode(phrase)), message),
  );
}

// --- reading a record (docs/fairness.md, section 6, step 1) ------------------------------

/** @param {unknown} v  @returns {v is Record<string, any>} */
const isObject = (v) => typeof v === "object" && v !== null && !Array.isArray(v);

/** @param {Record<string, unknown>} obj  @param {string} key  @param {string} at  @returns {string} */
function text(obj, key, at) {
  const v = obj[key];
  if (typeof v !== "string") throw new FieldError(at + key, "missing or not a text");
  return v;
}

/** @param {Record<string, unknown>} obj  @param {string} key  @param {string} at  @returns {number} */
function whole(obj, key, at) {
  const v = obj[key];
  if (typeof v !== "number" || !Number.isInteger(v) || v < 0)
    throw new FieldError(at + key, "missing or not a whole number >= 0");
  return v;
}

/** @param {string} value  @param {string} name */
function hexSeed(value, name) {
  if (!HEX_SEED.test(value)) {
    const shown =
      value.length !== 2 * SEED_BYTES
        ? `${value.length} characters`
        : JSON.stringify(value);
    throw new FieldError(
      name,
      `expected 64 lowercase hex digits (32 bytes), got ${shown}`,
    );
  }
  return fromHex(value);
}

/** @param {unknown} value  @param {string} name */
function readDeck(value, name) {
  if (typeof value !== "string") throw new FieldError(name, "missing or not a text");
  const cards = value.split(/\s+/).filter(Boolean);
  const bad = cards.find((c) => !CARD.test(c));
  if (bad !== undefined)
    throw new FieldError(name, `'${bad}' is not a card in canonical notation (e.g. Td)`);
  if (cards.length !== 52 || new Set(cards).size !== 52) {
    throw new FieldError(
      name,
      `expected the 52 cards once each, got ${cards.length} cards`,
    );
  }
  return cards;
}

/** The fields in the order the Python verifier reads them, so both name the same one first. */
/** @param {unknown} data  @param {string} at */
function readFair(data, at) {
  const f = `${at}fair.`;
  if (!isObject(data)) throw new FieldError(`${at}fair`, "missing or not an object");
  if (!isObject(data.seeds))
    throw new FieldError(`${f}seeds`, "missing or not an object");
  const fair = {
    version: text(data, "version", f),
    commitment: text(data, "commitment", f),
    serverSeed:
      data.server_seed === null || data.server_seed === undefined
        ? null
        : text(data, "server_seed", f),
    one: text(data.seeds, "one", `${f}seeds.`),
    two: text(data.seeds, "two", `${f}seeds.`),
    room: text(data, "room", f),
    match: whole(data, "match", f),
    round: whole(data, "round", f),
  };
  if (fair.version !== VERSION)
    throw new FieldError(`${f}version`, `unknown construction '${fair.version}'`);
  hexSeed(fair.commitment, `${f}commitment`);
  const context = {
    seatOne: hexSeed(fair.one, `${f}seeds.one`),
    seatTwo: hexSeed(fair.two, `${f}seeds.two`),
    room: fair.room,
    match: fair.match,
    round: fair.round,
  };
  for (const name of /** @type {const} */ (["match", "round"])) {
    if (fair[name] > Number.MAX_SAFE_INTEGER)
      throw new FieldError(f + name, "above 2**53 - 1");
  }
  const server =
    fair.serverSeed === null ? null : hexSeed(fair.serverSeed, `${f}server_seed`);
  return { fair, server, context };
}

/**
 * @typedef {ReturnType<typeof readRound>} RecordRound
 * @param {unknown} data  @param {string} at
 */
function readRound(data, at) {
  if (!isObject(data))
    throw new FieldError(at.replace(/\.$/, "") || "record", "not an object");
  const deck = readDeck(data.deck, `${at}deck`);
  return { deck, ...readFair(data.fair, at) };
}

/** @param {unknown} data  @returns {{rounds: RecordRound[], isMatch: boolean}} */
function readRounds(data) {
  if (!isObject(data)) throw new FieldError("record", "a record is a JSON object");
  if (data.kind === "round") return { rounds: [readRound(data, "")], isMatch: false };
  if (data.kind !== "match")
    throw new FieldError(
      "kind",
      `expected 'match' or 'round', got ${JSON.stringify(data.kind ?? null)}`,
    );
  if (!Array.isArray(data.rounds) || data.rounds.length === 0)
    throw new FieldError("rounds", "missing, not a list or empty");
  return {
    rounds: data.rounds.map((/** @type {unknown} */ r, /** @type {number} */ i) =>
      readRound(r, `rounds[${i}].`),
    ),
    isMatch: true,
  };
}

// --- checking (section 6, step 2) ---------------------------------------------------------

/**
 * @param {RecordRound} rnd  @param {number|null} number  the round's place in a match record
 * @param {RecordRound["fair"]} first  the first round's fair block
 * @returns {Promise<RoundVerdict>}
 */
async function checkRound(rnd, number, first) {
  const { fair, server, context } = rnd;
  const position = number ?? fair.round;
  const verdict = (/** @type {Check} */ check, reason = "") => ({
    round: position,
    check,
    reason,
  });
  if (server === null) return verdict("unrevealed", "the server seed is not revealed");
  const digest = await commitment(server);
  if (digest !== fair.commitment) {
    return verdict(
      "commitment",
      `SHA-256 of the revealed server seed is ${digest}, the commitment ${fair.commitment}`,
    );
  }
  if (fair.round !== position || fair.room !== first.room || fair.match !== first.match) {
    return verdict(
      "context",
      `made for room '${fair.room}', match ${fair.match}, round ${fair.round}; ` +
        `expected room '${first.room}', match ${first.match}, round ${position}`,
    );
  }
  const dealt = await dealDeck(server, context);
  const i = dealt.findIndex((card, k) => card !== rnd.deck[k]);
  if (i >= 0)
    return verdict(
      "deck",
      `card ${i + 1} of the deck is ${rnd.deck[i]}, the seeds give ${dealt[i]}`,
    );
  return verdict("ok");
}

/**
 * Check every deal of a record (parsed JSON). Never throws for bad input: a malformed
 * record gives `error` naming the field, a failed round its check and reason.
 * @param {unknown} data
 * @returns {Promise<Report>}
 */
export async function verifyRecord(data) {
  let read;
  try {
    read = readRounds(data);
  } catch (error) {
    if (!(error instanceof FieldError)) throw error;
    return {
      ok: false,
      error: { field: error.field, message: error.message },
      rounds: [],
    };
  }
  const first = read.rounds[0].fair;
  const rounds = [];
  for (const [k, rnd] of read.rounds.entries()) {
    rounds.push(await checkRound(rnd, read.isMatch ? k + 1 : null, first));
  }
  return { ok: rounds.every((r) => r.check === "ok"), error: null, rounds };
}
