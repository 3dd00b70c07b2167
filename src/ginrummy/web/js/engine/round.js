// One round of gin: phases, the legal actions of each, and the one transition `apply`;
// the port of engine/round.py. Section signs (§) are those of docs/rules.md.
//
// A round is fully determined by (rules, deck order, dealer, actions). `legalActions`
// is the single truth about what may happen next; `apply` refuses anything else with an
// IllegalActionError naming the action, the phase and the reason.
//
// Deck order convention: the non-dealer gets deck[0:10] (deck[0:11] with the 11-card
// deal), the dealer the next ten, then the first upcard (10-card deal only); the rest
// is the stock, deck[21] on top.

import {
  ActionKind,
  BIG_GIN,
  DRAW_DISCARD,
  DRAW_STOCK,
  PASS,
  TAKE,
  cardAction,
} from "./actions.js";
import { DECK, Suit, fromMask, toMask } from "./cards.js";
import { IllegalActionError, RecordError } from "./errors.js";
import { hasBit } from "./masks.js";
import { deadwoodOfMask, discardDeadwoods } from "./melds.js";
import { StockRule } from "./rules.js";
import { Pair, otherSeat } from "./seats.js";
import { Side, settle } from "./showdown.js";

/** @typedef {import("./cards.js").Card} Card */
/** @typedef {import("./actions.js").Action} Action */
/** @typedef {import("./rules.js").Rules} Rules */
/** @typedef {import("./seats.js").Seat} Seat */
/** @typedef {import("./showdown.js").Showdown} Showdown */

export const STOCK_FLOOR = 2; // the last two stock cards are never drawn (§3.6)

export const Phase = Object.freeze({
  FIRST_UPCARD: "first_upcard", // take or pass the first upcard (non-dealer, then dealer)
  DRAW: "draw",
  DISCARD: "discard",
  LAST_DISCARD: "last_discard", // alternative stock rule: take the last discard to knock?
  OVER: "over",
});

export const ResultKind = Object.freeze({
  KNOCK: "knock",
  GIN: "gin",
  BIG_GIN: "big_gin",
  UNDERCUT: "undercut",
  VOID: "void",
});

/** One move as anyone may see it: `card` is null where it is hidden (the drawn stock
 * card is not part of a move; the knock discard lies face down).
 * @typedef {Readonly<{seat: Seat, kind: string, card: Card | null, text: string}>} PublicMove */

/** @type {[PublicMove[], PublicMove[]]} */
const SHOWN = [[], []];
/** @type {[Record<string, PublicMove>, Record<string, PublicMove>]} */
const HIDDEN = [{}, {}];
for (const seat of /** @type {Seat[]} */ ([0, 1])) {
  for (const card of DECK)
    SHOWN[seat].push(
      Object.freeze({
        seat,
        kind: ActionKind.DISCARD,
        card,
        text: `discard ${card.text}`,
      }),
    );
  // Every other move shows no card: the knock and gin discards lie face down.
  for (const kind of Object.values(ActionKind))
    HIDDEN[seat][kind] = Object.freeze({ seat, kind, card: null, text: kind });
}

/** `action` by `seat` as anyone may see it (interned). @param {Seat} seat @param {Action} action */
export function publicMove(seat, action) {
  if (action.kind === ActionKind.DISCARD && action.card !== null)
    return SHOWN[seat][action.card.index];
  return HIDDEN[seat][action.kind];
}

/** How a round ended; `showdown` carries the full breakdown unless the round was void.
 * @typedef {Readonly<{kind: string, knocker: Seat | null, winner: Seat | null, points: number,
 *   showdown: Showdown | null, hands: Pair<readonly Card[]>}>} RoundResult
 * hands: both final hands (after the knock discard) */

/**
 * @typedef {Readonly<{
 *   rules: Rules, dealer: Seat, deck: readonly Card[], hands: Pair<number>,
 *   stock: readonly Card[], discardPile: readonly Card[], phase: string, turn: Seat,
 *   firstUpcard: Card | null, knockLimit: number, doubled: boolean, known: Pair<number>,
 *   upcardPasses: readonly Seat[], taken: Card | null, stockOnly: boolean, mustKnock: boolean,
 *   knockDiscard: Card | null, history: readonly (readonly [Seat, Action])[],
 *   publicMoves: readonly PublicMove[], result: RoundResult | null
 * }>} RoundState
 * hands: card masks, hidden from the other seat; stock[0] is the top (hidden order);
 * discardPile's last card is the top; turn: the seat to decide (meaningless once over);
 * known: cards each seat is known to hold (taken from the pile, not yet discarded);
 * taken: just taken from the discard pile, may not be discarded now; stockOnly: both
 * passed the first upcard, the non-dealer must draw the stock; mustKnock: took the last
 * discard under the alternative stock rule; knockDiscard: face down, never shown.
 */

/** @param {RoundState} state @param {Partial<RoundState>} changes @returns {RoundState} */
function copy(state, changes) {
  return Object.freeze({ ...state, ...changes });
}

/** @param {RoundState} state @param {Seat} seat */
export function handOf(state, seat) {
  return fromMask(state.hands.get(seat));
}

/** The actions of a round so far. @param {RoundState} state */
export function actionsOf(state) {
  return state.history.map(([, action]) => action);
}

/** Oklahoma: the knock limit is the first upcard's value; an ace means gin only.
 * @param {Card} upcard */
function oklahomaLimit(upcard) {
  return upcard.rank === 1 ? 0 : upcard.value;
}

const ALL = 2 ** 52 - 1;

/** Deal a round from a full deck order (see the module comment for the convention).
 * @param {Rules} rules @param {readonly Card[]} deck @param {Seat} dealer @returns {RoundState} */
export function newRound(rules, deck, dealer) {
  const cards = Object.freeze([...deck]);
  if (
    cards.length !== 52 ||
    !cards.every((c) => DECK[c?.index] === c) ||
    toMask(new Set(cards)) !== ALL
  ) {
    throw new RecordError(
      `a deck must hold each of the 52 cards once, got ${cards.length} cards`,
    );
  }
  const nonDealer = otherSeat(dealer);
  const eleven = rules.elevenCardDeal; // 11 to the non-dealer, who opens by discarding (§4)
  const first = eleven ? 11 : 10;
  const hands = Pair.of((s) =>
    toMask(s === nonDealer ? cards.slice(0, first) : cards.slice(first, first + 10)),
  );
  const upcard = eleven ? null : cards[20];
  return Object.freeze({
    rules,
    dealer,
    deck: cards,
    hands,
    stock: Object.freeze(cards.slice(21)),
    discardPile: Object.freeze(upcard === null ? [] : [upcard]),
    // The non-dealer is offered the upcard first (§3.2), or opens by discarding.
    phase: upcard === null ? Phase.DISCARD : Phase.FIRST_UPCARD,
    turn: nonDealer,
    firstUpcard: upcard,
    knockLimit: rules.oklahoma && upcard ? oklahomaLimit(upcard) : rules.knockLimit,
    doubled: upcard !== null && rules.spadeDoubling && upcard.suit === Suit.SPADES,
    known: new Pair(0, 0),
    upcardPasses: Object.freeze([]),
    taken: null,
    stockOnly: false,
    mustKnock: false,
    knockDiscard: null,
    history: Object.freeze([]),
    publicMoves: Object.freeze([]),
    result: null,
  });
}

// --- legal actions ----------------------------------------------------------------------

/** @type {WeakMap<RoundState, readonly Action[]>} */
const LEGAL_MEMO = new WeakMap(); // legalActions is a pure function of the state

/** Every action the seat `state.turn` may take now, in a fixed order.
 * @param {RoundState} state @returns {readonly Action[]} */
export function legalActions(state) {
  let memo = LEGAL_MEMO.get(state);
  if (memo === undefined) {
    memo = Object.freeze(computeLegalActions(state));
    LEGAL_MEMO.set(state, memo);
  }
  return memo;
}

/** @param {RoundState} state @returns {Action[]} */
function computeLegalActions(state) {
  switch (state.phase) {
    case Phase.FIRST_UPCARD:
      return [TAKE, PASS];
    case Phase.DRAW:
      return state.stockOnly || state.discardPile.length === 0
        ? [DRAW_STOCK]
        : [DRAW_STOCK, DRAW_DISCARD];
    case Phase.DISCARD:
      return discardActions(state);
    case Phase.LAST_DISCARD:
      return canKnockWith(state, state.discardPile[state.discardPile.length - 1])
        ? [DRAW_DISCARD, PASS]
        : [PASS];
    default:
      return [];
  }
}

/** @param {RoundState} state @returns {Action[]} */
function discardActions(state) {
  const hand = state.hands.get(state.turn);
  const taken = state.taken !== null ? state.taken.index : -1;
  const limit = state.knockLimit;
  const discards = [];
  const knocks = [];
  for (const [index, deadwood] of discardDeadwoods(hand)) {
    // counted after the discard (§3.3)
    if (index === taken) continue; // a card just taken from the discard pile may not go back (§3.3)
    discards.push(cardAction(ActionKind.DISCARD, DECK[index]));
    if (deadwood === 0) knocks.push(cardAction(ActionKind.GIN, DECK[index]));
    else if (deadwood <= limit) knocks.push(cardAction(ActionKind.KNOCK, DECK[index]));
  }
  if (state.rules.bigGinBonus !== null && deadwoodOfMask(hand) === 0)
    knocks.push(BIG_GIN);
  if (state.mustKnock) return knocks; // took the last discard to knock (§3.6)
  return [...discards, ...knocks];
}

/** @param {RoundState} state @param {Card} card */
function canKnockWith(state, card) {
  const hand = state.hands.get(state.turn) + card.bit;
  if (state.rules.bigGinBonus !== null && deadwoodOfMask(hand) === 0) return true;
  return fromMask(hand).some(
    (c) => c !== card && deadwoodOfMask(hand - c.bit) <= state.knockLimit,
  );
}

/** `legalActions(state).includes(action)`, without listing every action (the hot path).
 * @param {RoundState} state @param {Action} action */
export function isLegal(state, action) {
  const kind = action.kind;
  switch (state.phase) {
    case Phase.FIRST_UPCARD:
      return kind === ActionKind.TAKE || kind === ActionKind.PASS;
    case Phase.DRAW:
      if (kind === ActionKind.DRAW_STOCK) return true;
      return (
        kind === ActionKind.DRAW_DISCARD &&
        !state.stockOnly &&
        state.discardPile.length > 0
      );
    case Phase.DISCARD:
      return isLegalDiscard(state, action);
    case Phase.LAST_DISCARD:
      if (kind === ActionKind.PASS) return true;
      return (
        kind === ActionKind.DRAW_DISCARD &&
        canKnockWith(state, state.discardPile[state.discardPile.length - 1])
      );
    default:
      return false;
  }
}

/** @param {RoundState} state @param {Action} action */
function isLegalDiscard(state, action) {
  const hand = state.hands.get(state.turn);
  const { kind, card } = action;
  if (card === null) {
    return (
      kind === ActionKind.BIG_GIN &&
      state.rules.bigGinBonus !== null &&
      deadwoodOfMask(hand) === 0
    );
  }
  if (!hasBit(hand, card.index) || card === state.taken) return false;
  if (kind === ActionKind.DISCARD) return !state.mustKnock;
  const deadwood = deadwoodOfMask(hand - card.bit);
  if (kind === ActionKind.GIN) return deadwood === 0;
  return deadwood > 0 && deadwood <= state.knockLimit;
}

// --- apply ------------------------------------------------------------------------------

/** The state after `action` by `state.turn`; refuses anything not legal.
 * @param {RoundState} state @param {Action} action @returns {RoundState} */
export function apply(state, action) {
  if (!isLegal(state, action))
    throw new IllegalActionError(action, state.phase, whyIllegal(state, action));
  const seat = state.turn;
  const history = Object.freeze([
    ...state.history,
    Object.freeze(/** @type {const} */ ([seat, action])),
  ]);
  const publicMoves = Object.freeze([...state.publicMoves, publicMove(seat, action)]);
  const kind = action.kind;
  if (kind === ActionKind.DRAW_STOCK) {
    const card = state.stock[0];
    return copy(state, {
      hands: state.hands.replace(seat, state.hands.get(seat) + card.bit),
      stock: Object.freeze(state.stock.slice(1)),
      phase: Phase.DISCARD,
      taken: null,
      history,
      publicMoves,
    });
  }
  if (kind === ActionKind.DISCARD && action.card !== null)
    return discard(state, seat, action.card, history, publicMoves);
  if (kind === ActionKind.DRAW_DISCARD || kind === ActionKind.TAKE) {
    // Under the alternative stock rule the last discard may only be taken to knock.
    const mustKnock = state.phase === Phase.LAST_DISCARD;
    return take(
      state,
      seat,
      state.discardPile[state.discardPile.length - 1],
      mustKnock,
      history,
      publicMoves,
    );
  }
  const moved = copy(state, { history, publicMoves });
  if (kind === ActionKind.PASS) return pass(moved, seat);
  return knock(moved, seat, action);
}

/** @typedef {RoundState["history"]} Log */

/** @param {RoundState} state @param {Seat} seat @param {Card} card @param {boolean} mustKnock
 * @param {Log} history @param {readonly PublicMove[]} publicMoves */
function take(state, seat, card, mustKnock, history, publicMoves) {
  return copy(state, {
    hands: state.hands.replace(seat, state.hands.get(seat) + card.bit),
    discardPile: Object.freeze(state.discardPile.slice(0, -1)),
    known: state.known.replace(seat, state.known.get(seat) + card.bit), // public (§5)
    phase: Phase.DISCARD,
    taken: card,
    mustKnock,
    history,
    publicMoves,
  });
}

/** @param {RoundState} state @param {Seat} seat */
function pass(state, seat) {
  if (state.phase === Phase.LAST_DISCARD) return endVoid(state);
  const passes = Object.freeze([...state.upcardPasses, seat]);
  if (passes.length === 1)
    return copy(state, { upcardPasses: passes, turn: otherSeat(seat) });
  // Both passed: the non-dealer must draw from the stock (§3.2).
  return copy(state, {
    upcardPasses: passes,
    turn: otherSeat(state.dealer),
    phase: Phase.DRAW,
    stockOnly: true,
  });
}

/** @param {RoundState} state @param {Seat} seat @param {Card} card @param {Log} history
 * @param {readonly PublicMove[]} publicMoves */
function discard(state, seat, card, history, publicMoves) {
  let known = state.known;
  if (hasBit(known.get(seat), card.index))
    known = known.replace(seat, known.get(seat) - card.bit); // no longer known held
  // Stock exhaustion (§3.6): void, unless the alternative rule lets the next player
  // take this discard to knock.
  const exhausted = state.stock.length <= STOCK_FLOOR;
  const lastDiscard = exhausted && state.rules.stockRule === StockRule.LAST_DISCARD;
  const discarded = copy(state, {
    hands: state.hands.replace(seat, state.hands.get(seat) - card.bit),
    discardPile: Object.freeze([...state.discardPile, card]),
    known,
    taken: null,
    stockOnly: false,
    turn: otherSeat(seat),
    phase: lastDiscard ? Phase.LAST_DISCARD : Phase.DRAW,
    history,
    publicMoves,
  });
  return exhausted && !lastDiscard ? endVoid(discarded) : discarded;
}

/** @param {RoundState} state */
function endVoid(state) {
  /** @type {RoundResult} */
  const result = Object.freeze({
    kind: ResultKind.VOID,
    knocker: null,
    winner: null,
    points: 0,
    showdown: null,
    hands: Pair.of((s) => Object.freeze(handOf(state, s))),
  });
  return copy(state, { phase: Phase.OVER, result });
}

/** @param {RoundState} state @param {Seat} seat @param {Action} action */
function knock(state, seat, action) {
  let hands = state.hands;
  if (action.card !== null)
    hands = hands.replace(seat, hands.get(seat) - action.card.bit);
  const showdown = settle(
    fromMask(hands.get(seat)),
    fromMask(hands.get(otherSeat(seat))),
    state.rules,
    {
      knockLimit: state.knockLimit,
      doubled: state.doubled,
    },
  );
  const winner = showdown.winner === Side.KNOCKER ? seat : otherSeat(seat);
  const known = state.known.get(seat);
  const ended = copy(state, {
    hands,
    knockDiscard: action.card,
    // Known cards still held: the knock discard may have been one of them.
    known: state.known.replace(
      seat,
      action.card !== null && hasBit(known, action.card.index)
        ? known - action.card.bit
        : known,
    ),
    taken: null,
    phase: Phase.OVER,
  });
  /** @type {RoundResult} */
  const result = Object.freeze({
    kind: showdown.kind,
    knocker: seat,
    winner,
    points: showdown.points,
    showdown,
    hands: Pair.of((s) => Object.freeze(handOf(ended, s))),
  });
  return copy(ended, { result });
}

// --- why an action is not legal ---------------------------------------------------------

/** A human reason for refusing `action`; diagnostic only (`legalActions` decides).
 * @param {RoundState} state @param {Action} action */
export function whyIllegal(state, action) {
  const { kind, card } = action;
  const choices = legalActions(state).slice(0, 6).map(String).join(", ");
  switch (state.phase) {
    case Phase.OVER:
      return "the round is over";
    case Phase.FIRST_UPCARD:
      return `the first upcard may only be taken or passed (take, pass), not ${kind}`;
    case Phase.LAST_DISCARD:
      if (kind === ActionKind.DRAW_DISCARD)
        return "the last discard may only be taken to knock, and no knock is possible with it";
      return "with two stock cards left you may only take the last discard to knock, or pass";
    case Phase.DRAW:
      if (kind === ActionKind.DRAW_DISCARD && state.stockOnly) {
        return "after both passed on the first upcard the non-dealer must draw from the stock";
      }
      if (kind === ActionKind.DRAW_DISCARD) return "the discard pile is empty";
      return `draw first: ${choices}`;
    default:
      return whyIllegalDiscard(state, kind, card);
  }
}

/** @param {RoundState} state @param {string} kind @param {Card | null} card */
function whyIllegalDiscard(state, kind, card) {
  const hand = state.hands.get(state.turn);
  if (card === null) {
    if (kind === ActionKind.BIG_GIN) {
      if (state.rules.bigGinBonus === null)
        return "Big Gin is not played with these rules";
      return `Big Gin needs all 11 cards melded; deadwood is ${deadwoodOfMask(hand)}`;
    }
    return "you have drawn already; now discard, knock or gin";
  }
  if (!hasBit(hand, card.index)) return `${card.text} is not in your hand`;
  if (card === state.taken)
    return `${card.text} was just taken from the discard pile and may not be discarded now`;
  const deadwood = deadwoodOfMask(hand - card.bit);
  if (kind === ActionKind.DISCARD)
    return "the last discard was taken to knock: you must knock or go gin";
  if (kind === ActionKind.GIN)
    return `deadwood after discarding ${card.text} would be ${deadwood}; gin needs 0`;
  if (deadwood === 0)
    return `deadwood after discarding ${card.text} would be 0: that is gin, not a knock`;
  if (state.knockLimit === 0)
    return "the first upcard was an ace: this round may only end with gin";
  return `deadwood after discarding ${card.text} would be ${deadwood}, above the knock limit ${state.knockLimit}`;
}
