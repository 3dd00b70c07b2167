// The rules engine in the browser: plain ES modules, the second implementation of
// docs/rules.md next to the Python reference (src/ginrummy/engine/). How the two are
// kept equal: docs/browser-engine.md.
//
//   import { parseCards, bestArrangement } from "./engine/index.js";
//   bestArrangement(parseCards("7h 8h 9h Tc Td Ts 2c 3d 4s Kh")).deadwood === 19

export * from "./errors.js";
export {
  DECK,
  Suit,
  cardFromIndex,
  cardsText,
  parseCard,
  parseCards,
  toMask,
  fromMask,
  handOrder,
} from "./cards.js";
export { Seat, Pair, otherSeat, seatLabel, parseSeat } from "./seats.js";
export { Rules, PRESETS, NextDealer, AfterVoid, StockRule } from "./rules.js";
export { ActionKind, parseAction, cardAction } from "./actions.js";
export {
  Arrangement,
  Meld,
  MeldKind,
  arrangementOfMask,
  bestArrangement,
  bestDiscards,
  deadwoodOfMask,
  isMeld,
} from "./melds.js";
export { ShowdownKind, Side, settle } from "./showdown.js";
export {
  Phase,
  ResultKind,
  newRound,
  legalActions,
  apply,
  isLegal,
  handOf,
} from "./round.js";
export {
  MatchPhase,
  ForfeitReason,
  newMatch,
  deal,
  forfeit,
  legalActions as matchLegalActions,
  apply as applyMatch,
} from "./match.js";
export { viewForSeat, viewForSpectator } from "./views.js";
export {
  encodeSeatView,
  encodeSpectatorView,
  encodeRoundResult,
  toJson,
} from "./codec.js";
export {
  loadRecord,
  recordOf,
  replayMatch,
  replayRound,
  matchRecordToDict,
} from "./record.js";
