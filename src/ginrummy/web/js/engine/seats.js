// The two seats and a frozen pair of per-seat values (never parallel 0/1 lists); the
// port of engine/seats.py. A seat is the number 0 (one) or 1 (two).

/** @typedef {0 | 1} Seat */
export const Seat = Object.freeze({
  ONE: /** @type {Seat} */ (0),
  TWO: /** @type {Seat} */ (1),
});
export const SEATS = Object.freeze(/** @type {Seat[]} */ ([0, 1]));

/** @param {Seat} seat @returns {Seat} */
export function otherSeat(seat) {
  return seat === 0 ? 1 : 0;
}

/** @param {Seat} seat @returns {"one" | "two"} */
export function seatLabel(seat) {
  return seat === 0 ? "one" : "two";
}

/** @param {string} text "one", "two", "1" or "2" @returns {Seat} */
export function parseSeat(text) {
  const seat = { one: 0, two: 1, 1: 0, 2: 1 }[String(text).toLowerCase()];
  if (seat === undefined) throw new TypeError(`not a seat: ${text}`);
  return /** @type {Seat} */ (seat);
}

/** One value per seat. @template T */
export class Pair {
  /** @param {T} one @param {T} two */
  constructor(one, two) {
    /** @readonly */ this.one = one;
    /** @readonly */ this.two = two;
    Object.freeze(this);
  }

  /** @param {Seat} seat @returns {T} */
  get(seat) {
    return seat ? this.two : this.one;
  }

  /** @param {Seat} seat @param {T} value @returns {Pair<T>} */
  replace(seat, value) {
    return seat === 0 ? new Pair(value, this.two) : new Pair(this.one, value);
  }

  /** @template U @param {(value: T) => U} fn @returns {Pair<U>} */
  map(fn) {
    return new Pair(fn(this.one), fn(this.two));
  }

  /** @template U @param {(seat: Seat) => U} fn @returns {Pair<U>} */
  static of(fn) {
    return new Pair(fn(0), fn(1));
  }
}
