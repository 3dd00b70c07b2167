// A device game: plays the server's part for a solo game in the page (docs/device.md).
// It holds the match, answers the intents the client's socket would send (act,
// next_round, new_match, resync, tips, tip, resign) with the frames the server would
// send (welcome, view, event, tips, tip, error; docs/protocol.md), plays the computer's
// turns with the injected decider (in a Web Worker: bots/decider.js) after a short
// delay, and saves the game after every change.
import {
  ActionParseError,
  ForfeitReason,
  GinRummyError,
  MatchPhase,
  Seat,
  applyMatch,
  deal,
  encodeSeatView,
  forfeit,
  loadRecord,
  matchLegalActions,
  matchRecordToDict,
  newMatch,
  parseAction,
  recordOf,
  toJson,
  viewForSeat,
} from "../engine/index.js";
import { pageDecider } from "../bots/decider.js";
import { cryptoFill, dealRound, drawFirstDealer, randomSeed } from "./deck.js";

/** @typedef {import("../engine/match.js").MatchState} MatchState */
/** @typedef {import("../engine/rules.js").Rules} Rules */
/** @typedef {import("../engine/actions.js").Action} Action */
/** @typedef {import("../engine/record.js").FairBlock} FairBlock */
/** @typedef {import("../engine/views.js").SeatView} SeatView */
/** @typedef {import("./saved.js").SavedGame} SavedGame */
/** @typedef {import("./saved.js").GameStore} GameStore */
/** @typedef {import("./deck.js").RandomFill} RandomFill */
/** @typedef {import("../types.js").ServerMessage} ServerMessage */
/** @typedef {import("../bots/decider.js").Decider} Decider */
/** @typedef {import("../bots/decider.js").Answer} Answer */

/**
 * The computer players' module (web/js/bots/index.js), injected so that tests can give
 * their own: `makeBot(level)(view, rng)` picks one of the view's legal actions
 * (an Action or its text), `tip(view)` is the coach's advice, `PortableRandom` a seeded
 * random source whose `state` can be read and set.
 * @typedef {object} BotModule
 * @property {(level: string) => (view: SeatView, rng: any) => Action|string} makeBot
 * @property {(view: SeatView) => ({action: Action|string, key?: string, params?: Record<string, unknown>, text?: Record<string, string>}|null)} [tip]
 * @property {new (seed: number) => {state: any}} PortableRandom
 */

/**
 * @typedef {object} Deps
 * @property {BotModule} bots
 * @property {Decider} [decide]   where the computer thinks (bots/decider.js makeDecider);
 *   by default in the page, with `bots`
 * @property {GameStore} store
 * @property {(msg: ServerMessage) => void} onMessage
 * @property {(connection: {connected: boolean}) => void} onConnection
 * @property {(saved: boolean) => void} [onSaved]   after every save: whether it worked
 * @property {(match: MatchState) => void} [onMatchOver]  once per finished match (local statistics)
 * @property {number} [delayMs]   before each computer move
 * @property {RandomFill} [fill]   random words for decks and dealers (crypto.getRandomValues)
 */

/** A card (or anything with a text) as its text; other values as they are.
 * @param {unknown} value */
function plain(value) {
  return value !== null && typeof value === "object" && "text" in value
    ? String(value.text)
    : value;
}

const PERSON = Seat.ONE;
const COMPUTER = Seat.TWO;
const TIPS_PER_SWITCH = 3; // as the server's tips (docs/protocol.md, Tips)

/**
 * A new device game: its bookkeeping and a match dealt at once, fairly (the first round
 * of match 1 in a room named by the game's id; docs/device.md).
 * @param {{id: string, level: string, name: string, botName: string, rules: Rules, now?: number, fill?: RandomFill}} options
 * @returns {Promise<{game: SavedGame, match: MatchState}>}
 */
export async function newDeviceGame({
  id,
  level,
  name,
  botName,
  rules,
  now = Date.now(),
  fill = cryptoFill,
}) {
  const { deck, fair } = await dealRound({ room: id, match: 1, round: 1 }, fill);
  const match = deal(newMatch(rules, drawFirstDealer(fill)), deck);
  // Version 2: the match was set up (1) and dealt (2), as a server room counts.
  const record = matchRecordToDict(recordOf(match, [fair]));
  const game = {
    id,
    level,
    name,
    botName,
    version: 2,
    created: now,
    counted: false,
    record,
  };
  return { game, match };
}

/** The fair blocks of a saved record's rounds (null for a round dealt before fair deals).
 * @param {Record<string, unknown>} record @returns {(FairBlock|null)[]} */
function fairsOf(record) {
  const loaded = loadRecord(record);
  return loaded.kind === "match" ? loaded.match.rounds.map((r) => r.fair) : [];
}

export class DeviceGame {
  /** @param {SavedGame} game @param {MatchState} match @param {Deps} deps */
  constructor(game, match, deps) {
    this.game = game;
    this.match = match;
    this.deps = deps;
    this.version = game.version;
    this.fill = deps.fill ?? cryptoFill;
    this.decider = deps.decide ?? pageDecider(deps.bots);
    this.rng = new deps.bots.PortableRandom(randomSeed(this.fill));
    /** The computer's turn being thought about: an answer for another one is stale.
     * @type {object|null} */
    this.thinking = null;
    this.tips = { on: false, left: 0 };
    /** The fair blocks of the match's rounds, which the match state does not hold. */
    this.fairs = fairsOf(game.record);
    /** The match's number in this game (the fair deal's context), from 1. */
    this.matchNumber = this.fairs.find((f) => f !== null)?.match ?? 1;
    /** Messages are handled one after another: a deal waits for WebCrypto. */
    this.queue = Promise.resolve();
    this.closed = true;
    /** @type {ReturnType<typeof setTimeout>|undefined} */
    this.timer = undefined;
  }

  /** Say welcome and show the table, as a server socket does after `hello`. */
  open() {
    this.closed = false;
    this.deps.onConnection({ connected: true });
    this.emit({ type: "welcome", room: this.info(), seat: "one" });
    this.emit(this.viewFrame());
    this.emit({ type: "chat_history", messages: [] });
    this.emit(this.tipsFrame());
    this.changed();
  }

  close() {
    this.closed = true;
    this.thinking = null;
    clearTimeout(this.timer);
  }

  /**
   * One client message. Answered after the caller's own code has run (as a socket's
   * answer would be), so the caller may note what it sent first, and after the messages
   * before it (a deal is asynchronous). Always true: the page holds the game, there is no
   * connection to lose.
   * @param {Record<string, any>} msg
   */
  send(msg) {
    this.queue = this.queue
      .then(async () => {
        if (!this.closed) await this.handle(msg);
      })
      .catch((exc) => {
        console.error(
          `device game ${this.game.id}: the ${String(msg.type)} message failed`,
          exc,
        );
      });
    return true;
  }

  /** @param {Record<string, any>} msg @returns {unknown} a promise while a deal is made */
  handle(msg) {
    switch (msg.type) {
      case "act":
        return this.act(msg.version, msg.action);
      case "next_round":
        return this.nextRound();
      case "new_match":
        return this.newMatch();
      case "resync":
        return this.emit(this.viewFrame());
      case "tips":
        return this.switchTips(Boolean(msg.on));
      case "tip":
        return this.tip();
      case "resign":
        return this.resign();
      case "ping":
        return this.emit({ type: "pong", t: msg.t ?? null });
      case "chat":
        return this.error("chat_closed", "a game on this device has no chat");
      case "claim":
        return this.error("nothing_to_claim", "the computer never leaves");
      default:
        return this.error("unknown_type", `unknown message type ${String(msg.type)}`);
    }
  }

  /** @param {unknown} version @param {unknown} text */
  act(version, text) {
    if (version !== this.version) {
      this.error(
        "stale_version",
        `the game is at version ${this.version}, not ${String(version)}`,
      );
      this.emit(this.viewFrame());
      return;
    }
    if (this.match.phase !== MatchPhase.ROUND || this.match.round?.turn !== PERSON) {
      this.error("not_your_turn", "it is not your turn");
      this.emit(this.viewFrame());
      return;
    }
    let action;
    try {
      action = parseAction(String(text));
    } catch (exc) {
      if (exc instanceof ActionParseError) return this.error("bad_action", exc.message);
      throw exc;
    }
    if (!this.play(PERSON, action)) return;
    if (this.tips.on) this.setTips(this.tips.left > 1, this.tips.left - 1);
  }

  /**
   * Apply `seat`'s action, then tell and save; false (and an error to the page) when the
   * engine refuses it.
   * @param {import("../engine/seats.js").Seat} seat @param {Action} action
   */
  play(seat, action) {
    try {
      this.match = applyMatch(this.match, action);
    } catch (exc) {
      if (exc instanceof GinRummyError) {
        this.error("illegal_action", exc.message);
        return false;
      }
      throw exc;
    }
    const moves = this.match.round?.publicMoves ?? [];
    this.step({
      kind: "action",
      seat: seat === PERSON ? "one" : "two",
      action: moves.at(-1)?.text ?? null,
    });
    if (this.match.phase !== MatchPhase.ROUND && this.tips.on) this.setTips(false, 0); // tips end with the round
    return true;
  }

  async nextRound() {
    if (this.match.phase !== MatchPhase.DEAL) {
      return this.error("not_between_rounds", "no finished round waits for the next one");
    }
    this.step({ kind: "ready", seat: "one", action: null });
    await this.dealFairly();
  }

  async newMatch() {
    if (this.match.phase !== MatchPhase.OVER)
      return this.error("match_running", "the match is not over");
    this.step({ kind: "rematch", seat: "one", action: null });
    this.match = newMatch(this.match.rules, drawFirstDealer(this.fill));
    this.fairs = [];
    this.matchNumber += 1;
    this.game = { ...this.game, counted: false };
    this.step({ kind: "match", seat: null, action: null });
    await this.dealFairly();
  }

  /** Deal the next round (fairly where WebCrypto is there: dealRound) and keep its fair block. */
  async dealFairly() {
    const round = this.match.played.length + 1;
    const { deck, fair } = await dealRound(
      { room: this.game.id, match: this.matchNumber, round },
      this.fill,
    );
    this.match = deal(this.match, deck);
    this.fairs = [...this.fairs.slice(0, round - 1), fair];
    this.step({ kind: "deal", seat: null, action: null });
  }

  resign() {
    if (this.match.phase === MatchPhase.OVER)
      return this.error("match_over", "the match is over");
    this.match = forfeit(this.match, PERSON, ForfeitReason.RESIGNED);
    this.step({ kind: "forfeit", seat: "one", action: null });
  }

  /** @param {boolean} on */
  switchTips(on) {
    if (on && this.tips.on) return this.emit(this.tipsFrame());
    this.setTips(on, on ? TIPS_PER_SWITCH : 0);
  }

  /** @param {boolean} on @param {number} left */
  setTips(on, left) {
    this.tips = { on: on && left > 0, left: on ? left : 0 };
    this.emit(this.tipsFrame());
  }

  tip() {
    if (!this.tips.on) return this.error("tips_off", "tips are off");
    const view = viewForSeat(this.match, PERSON);
    const advice =
      view.legalActions.length && this.deps.bots.tip ? this.deps.bots.tip(view) : null;
    if (!advice)
      return this.error("tips_unavailable", "there is no decision to advise on");
    // As the server sends it: cards among the params as their text (`7h`).
    const params = Object.fromEntries(
      Object.entries(advice.params ?? {}).map(([k, v]) => [k, plain(v)]),
    );
    this.emit({
      type: "tip",
      version: this.version,
      action: String(advice.action),
      key: advice.key ?? "",
      params,
      text: advice.text ?? {},
    });
  }

  /** One more event: count it, tell it with the view, save, and let the computer move.
   * @param {{kind: string, seat: string|null, action: string|null}} event */
  step(event) {
    this.version += 1;
    this.emit({ type: "event", version: this.version, ...event });
    this.emit(this.viewFrame());
    this.changed();
  }

  changed() {
    if (this.match.phase === MatchPhase.OVER && !this.game.counted) {
      this.deps.onMatchOver?.(this.match);
      this.game = { ...this.game, counted: true };
    }
    this.save();
    this.scheduleComputer();
  }

  save() {
    this.game = {
      ...this.game,
      version: this.version,
      record: matchRecordToDict(recordOf(this.match, this.fairs)),
    };
    const saved = this.deps.store.save(this.game);
    this.deps.onSaved?.(saved);
  }

  /**
   * On the computer's turn: ask the decider at once (a worker thinks while the delay
   * runs) and play its answer once the delay is over too. An answer that comes when the
   * game has moved on (the person resigned, the game was closed, another turn was asked
   * for) is stale and changes nothing, the generator's state included.
   */
  scheduleComputer() {
    clearTimeout(this.timer);
    this.thinking = null;
    if (
      this.closed ||
      this.match.phase !== MatchPhase.ROUND ||
      this.match.round?.turn !== COMPUTER
    )
      return;
    const turn = {};
    this.thinking = turn;
    const answer = this.decider
      .decide({
        level: this.game.level,
        match: this.match,
        seat: COMPUTER,
        rng: this.rng.state,
      })
      .catch(
        (exc) =>
          /** @type {Answer} */ ({
            action: null,
            rng: this.rng.state,
            error: String(exc),
          }),
      );
    const delay = new Promise((resolve) => {
      this.timer = setTimeout(resolve, this.deps.delayMs ?? 600);
    });
    Promise.all([answer, delay])
      .then(([answered]) => {
        if (this.thinking !== turn || this.closed) return;
        this.thinking = null;
        this.rng.state = answered.rng;
        this.play(COMPUTER, this.computerAction(answered));
      })
      .catch((exc) =>
        console.error(`device game ${this.game.id}: the computer's move failed`, exc),
      );
  }

  /** The legal action the answer names; a bot that fails or picks an illegal action is a
   * bug, logged, and the first legal action keeps the game going rather than stalling it
   * for good. @param {Answer} answer */
  computerAction({ action: chosen, error }) {
    const legal = matchLegalActions(this.match);
    if (error !== null) {
      console.error(
        `the ${this.game.level} computer failed; it plays ${legal[0]}`,
        error,
      );
      return legal[0];
    }
    const action = legal.find((a) => a.text === chosen);
    if (action) return action;
    console.error(
      `the ${this.game.level} computer chose ${chosen}, which is not legal now; it plays ${legal[0]}`,
    );
    return legal[0];
  }

  viewFrame() {
    return {
      type: "view",
      version: this.version,
      view: JSON.parse(toJson(encodeSeatView(viewForSeat(this.match, PERSON)))),
      players: this.players(),
      timer: null,
      watchers: 0,
    };
  }

  tipsFrame() {
    return { type: "tips", allowed: true, on: this.tips.on, left: this.tips.left };
  }

  /** Room info as `welcome` carries it: a solo game that is neither rated nor public. */
  info() {
    const seat = (/** @type {string} */ name, /** @type {string|null} */ bot) => ({
      name,
      bot,
      connected: true,
      player: null,
    });
    return {
      room: this.game.id,
      kind: "solo",
      device: true,
      rules: this.match.rules.toDict(),
      status: this.match.phase === MatchPhase.OVER ? "over" : "playing",
      seats: {
        one: seat(this.game.name, null),
        two: seat(this.game.botName, this.game.level),
      },
      spectators: false,
      visibility: "private",
      rated: false,
      timer: null,
      watchers: 0,
      chat: false,
      spectator_chat: false,
      version: this.version,
      your_seat: "one",
    };
  }

  players() {
    const between = this.match.phase !== MatchPhase.ROUND;
    const seat = (
      /** @type {string} */ name,
      /** @type {string|null} */ bot,
      /** @type {boolean} */ ready,
    ) => ({
      name,
      bot,
      connected: true,
      ready,
      rematch: Boolean(bot),
      player: null,
      grace_remaining_ms: null,
    });
    return {
      one: seat(this.game.name, null, !between),
      two: seat(this.game.botName, this.game.level, true),
    };
  }

  /** The match's record for download (`ginrummy replay` reads it); null while it runs:
   * the decks would show the computer's cards. */
  finishedRecord() {
    return this.match.phase === MatchPhase.OVER
      ? matchRecordToDict(recordOf(this.match, this.fairs))
      : null;
  }

  /** @param {string} code @param {string} message */
  error(code, message) {
    this.emit({ type: "error", code, message, version: this.version });
  }

  /** @param {Record<string, any>} frame */
  emit(frame) {
    if (!this.closed) this.deps.onMessage(/** @type {ServerMessage} */ (frame));
  }
}
