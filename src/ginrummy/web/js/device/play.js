// The page's side of device games (docs/device.md): start one, open one by id (resume),
// list them for the start page, discard a damaged one, keep the local statistics, and
// hand out a finished match's record. the table's parts (pages/tableparts.js) use it as a transport like the socket.
import { makeDecider } from "../bots/decider.js";
import { Rules } from "../engine/index.js";
import { t, computerName, levelId } from "../i18n.js";
import { DeviceGame, newDeviceGame } from "./game.js";
import { DamagedGameError, GameStore, browserStorage } from "./saved.js";
import { addMatch, loadTally, saveTally } from "./tally.js";

/** @typedef {import("./game.js").BotModule} BotModule */
/** @typedef {import("../bots/decider.js").Decider} Decider */
/** @typedef {import("./saved.js").SavedGame} SavedGame */
/** @typedef {import("./saved.js").KeyValue} KeyValue */
/** @typedef {import("../engine/match.js").MatchState} MatchState */
/** @typedef {import("../types.js").State} State */
/** @typedef {import("../types.js").ServerMessage} ServerMessage */
/** @typedef {import("../store.js").Store} Store */

// A path in a variable: the module is the computer players' (web/js/bots/), loaded on the
// first device game only, and a page without it still works (verified games on the server).
const BOTS_URL = new URL("../bots/index.js", import.meta.url).href;
const ID_LETTERS = "abcdefghijkmnpqrstuvwxyz23456789";
// Finished games kept (their records stay downloadable at /d/<id>); older ones are removed
// when a new game starts, so the storage does not fill up with them.
export const KEEP_FINISHED = 10;

/** @returns {Promise<BotModule>} */
export function loadBots() {
  return import(BOTS_URL);
}

/** A new game id: 10 random letters and digits. */
export function newGameId() {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(10));
  return Array.from(bytes, (b) => ID_LETTERS[b % ID_LETTERS.length]).join("");
}

/**
 * @typedef {object} DevicePlayOptions
 * @property {Store} store
 * @property {(msg: ServerMessage) => void} receive   the client's message handler
 * @property {(path: string) => void} navigate
 * @property {(text: string) => void} say   an announcement for screen readers
 * @property {() => Promise<BotModule>} [bots]
 * @property {KeyValue|null} [storage]
 * @property {number} [delayMs]   before each computer move
 * @property {(bots: BotModule) => Decider} [decider]   where the computer thinks: in a
 *   Web Worker where there are workers, else in the page (bots/decider.js makeDecider)
 */

/** @param {DevicePlayOptions} options */
export function devicePlay({
  store,
  receive,
  navigate,
  say,
  bots = loadBots,
  storage = browserStorage(),
  delayMs = 600,
  decider = makeDecider,
}) {
  const games = new GameStore(storage);
  /** The computer players' module once asked for: the same load for the warm-up, the
   * start and the open; a load that failed is tried again by the next one.
   * @type {Promise<BotModule>|null} */
  let loading = null;
  const loadOnce = () => {
    loading ??= bots().catch((err) => {
      loading = null;
      throw err;
    });
    return loading;
  };
  /** Where the computer thinks, for every game of this page: one worker, started with
   * the first game opened. @type {Decider|null} */
  let thinker = null;
  /** Games started in this page: they play even where nothing can be saved.
   * @type {Map<string, {game: SavedGame, match: MatchState}>} */
  const started = new Map();

  /** @param {Partial<NonNullable<State["device"]>>} change */
  const setDevice = (change) =>
    store.update((s) => ({
      ...s,
      device: {
        id: "",
        saved: true,
        damaged: null,
        missing: false,
        noBots: false,
        ...s.device,
        ...change,
      },
    }));

  /** @param {MatchState} match */
  const countMatch = (match) => {
    if (!saveTally(storage, addMatch(loadTally(storage), match)))
      console.warn("the finished match is not in the device's statistics");
  };

  const api = {
    /**
     * A new game against the computer at `level`; its id. Throws when the computer
     * players cannot be loaded (the caller offers the server's game instead).
     * @param {{level: string, botName: string, name: string, targetScore: number|null}} form
     */
    async start({ level, botName, name, targetScore }) {
      await loadOnce();
      api.prune();
      const id = newGameId();
      const rules = Rules.preset(
        "standard",
        targetScore === null ? {} : { target_score: targetScore },
      );
      const made = await newDeviceGame({ id, level, name, botName, rules });
      started.set(id, made);
      games.save(made.game);
      return id;
    },

    /**
     * Game `id`, ready to `open()` (then its frames go to `receive`). Null when there is
     * no such game or it is damaged (the state says which).
     * @param {string} id
     */
    async open(id) {
      setDevice({ id, saved: true, damaged: null, missing: false, noBots: false });
      let loaded;
      try {
        loaded = games.load(id) ?? started.get(id) ?? null;
      } catch (exc) {
        if (!(exc instanceof DamagedGameError)) throw exc;
        console.warn(exc.message);
        setDevice({ damaged: exc.reason });
        return null;
      }
      if (!loaded) {
        setDevice({ missing: true });
        return null;
      }
      let module;
      try {
        module = await loadOnce();
      } catch (err) {
        console.warn(
          `device game ${id} waits: the computer players could not be loaded`,
          err,
        );
        setDevice({ noBots: true });
        return null;
      }
      if (store.get().route.room !== id) return null;
      const game = new DeviceGame(loaded.game, loaded.match, {
        bots: module,
        decide: (thinker ??= decider(module)),
        store: games,
        delayMs,
        onMessage: receive,
        onConnection: (c) =>
          store.update((s) => ({
            ...s,
            connection: { ...s.connection, ...c, everConnected: true },
          })),
        onSaved: (saved) => {
          if (store.get().device?.saved !== saved) setDevice({ saved });
        },
        onMatchOver: countMatch,
      });
      return game;
    },

    /**
     * Load the computer players ahead of the first game (the start page does once it
     * shows), so that "Play against the computer" does not wait for their modules.
     * Resolves when they are in; a failure is only noted (the start tries again and says
     * what it means).
     * @returns {Promise<void>}
     */
    warm() {
      return loadOnce().then(
        () => undefined,
        (err) =>
          console.warn("the computer players could not be loaded ahead of a game", err),
      );
    },

    /** Remove all but the newest KEEP_FINISHED finished games. */
    prune() {
      const finished = games
        .list()
        .filter((item) => "match" in item && item.match.phase === "over");
      for (const item of finished.slice(KEEP_FINISHED)) games.discard(item.id);
    },

    /** @param {string} id */
    discard(id) {
      games.discard(id);
      started.delete(id);
    },

    /** Running and damaged games for the start page, newest first.
     * @returns {State["home"]["deviceGames"]} */
    list() {
      /** @type {State["home"]["deviceGames"]} */
      const out = [];
      for (const item of games.list()) {
        if ("damaged" in item)
          out.push({ id: item.id, opponent: null, damaged: item.damaged.reason });
        else if (item.match.phase !== "over")
          out.push({
            id: item.id,
            opponent: computerName(item.game.level),
            damaged: null,
          });
      }
      return out;
    },

    tally: () => loadTally(storage),

    /**
     * The start page's "Play against the computer": a game on this device at `level`.
     * False when the computer players cannot be loaded and the server can play instead
     * (the page says so); offline that is an error on the start page.
     * @param {string} level @param {string} name
     */
    async play(level, name) {
      const { home, online } = store.get();
      const known = home.levels.find((l) => levelId(l) === level);
      try {
        const id = await api.start({
          level,
          botName: known?.names?.en ?? level,
          name,
          targetScore: Number(home.form.soloTarget),
        });
        navigate(`/d/${encodeURIComponent(id)}`);
        return true;
      } catch (err) {
        console.warn("no game on this device; the server plays instead", err);
        if (online) say(t("device.no_bots"));
        else
          store.update((s) => ({ ...s, home: { ...s.home, error: t("error.network") } }));
        return !online;
      }
    },

    /** Offer the finished match of `game` as a file. @param {DeviceGame} game */
    download(game) {
      const record = game.finishedRecord();
      if (record) downloadRecord(record, game.game.id);
    },
  };
  return api;
}

/**
 * Offer a finished match's record as a file (`ginrummy replay` reads it).
 * @param {Record<string, unknown>} record @param {string} id
 */
export function downloadRecord(record, id) {
  const blob = new Blob([JSON.stringify(record, null, 2)], { type: "application/json" });
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = `ginrummy-device-${id}.json`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}
