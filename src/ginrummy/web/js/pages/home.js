// The start page (docs/architecture.md, "The browser client"): the computer levels and this
// browser's games, a game against the computer on this device (or on the server, verified),
// a room or a chouette table opened. Drawn by home.js.
import { api, ApiError, ensureToken, storedToken } from "../api.js";
import { renderHome, normaliseLevels, chosenLevel, HOME_ERROR_ID } from "../home.js";
import { setLevels, t } from "../i18n.js";
import { NAME_KEY, remembered, playerName } from "../prefs.js";
import { afterPaint, knownLevels } from "../offline.js";
import { nicknameProblem } from "../store.js";
import { deviceCommands } from "./device.js";

/** @typedef {import("../pages.js").App} App */
/** @typedef {import("../pages.js").Page} Page */

/**
 * @param {App} app
 * @returns {Page}
 */
export function init(app) {
  const { store, table } = app;
  /** Where the page's error shows (home.js ErrorPlace): the person's eyes are there.
   * @type {import("../home.js").ErrorPlace} */
  let errorAt = "room";

  /**
   * The error of the start form just refused, drawn at `errorAt`, brought to where the
   * person is: a refused name's field takes the focus, and the error comes into view (a
   * page-top notice was off screen: the room form is below the fold).
   */
  function showError() {
    if (!store.get().home.error) return;
    const field = errorAt === "name" ? document.getElementById("room-name") : null;
    // the field with its label, then the error under it
    field?.focus({ preventScroll: true });
    field?.closest(".field")?.scrollIntoView({ block: "nearest" });
    document.getElementById(HOME_ERROR_ID)?.scrollIntoView({ block: "nearest" });
  }

  /** Whether the typed name breaks the served name rule (the server refuses it then). */
  function nameRefused() {
    const { home, config } = store.get();
    const typed = home.form.name;
    return Boolean(config && typed.trim() && nicknameProblem(typed, config.limits));
  }

  /** The start page's entry: done once the page shows and the computer players are loaded. */
  async function enter() {
    await afterPaint();
    const [levels, me] = await Promise.allSettled([
      api.levels(),
      storedToken() ? api.me() : Promise.resolve({ games: [] }),
    ]);
    const levelList = normaliseLevels(
      knownLevels(levels.status === "fulfilled" ? levels.value : null),
    );
    setLevels(levelList);
    const games = me.status === "fulfilled" ? (me.value.games ?? []) : [];
    const local = await table.device;
    store.update(
      (s) => ({
        ...s,
        home: { ...s.home, deviceGames: local.list(), tally: local.tally() },
      }),
      { silent: true },
    );
    store.update((s) => {
      if (s.route.name !== "home") return s;
      const form = { ...s.home.form };
      if (!form.level && levelList.length) form.level = chosenLevel(levelList, null);
      if (!form.name) form.name = remembered(NAME_KEY) ?? "";
      return { ...s, home: { ...s.home, levels: levelList, games, form } };
    });
    // The start page is in: the computer players load now, not on the click (issue 11).
    await local.warm();
  }

  /** @param {"solo"|"verified"|"room"} kind */
  async function createGame(kind) {
    const state = store.get();
    const form = state.home.form;
    const level = chosenLevel(state.home.levels, form.level);
    if (
      kind === "solo" &&
      (await (await table.device).play(level, playerName(form.name)))
    )
      return;
    const body =
      kind !== "room"
        ? {
            kind: "solo",
            preset: "standard",
            target_score: Number(form.soloTarget),
            opponent: `bot:${level}`,
            name: playerName(form.name),
          }
        : {
            kind: "room",
            preset: form.preset,
            opponent: form.seat2,
            name: playerName(form.name),
            spectators: true,
            ...(form.preset === "first-to-knock"
              ? {}
              : { target_score: Number(form.roomTarget) }),
          };
    store.update((s) => ({ ...s, home: { ...s.home, busy: true, error: null } }));
    try {
      await ensureToken();
      await app.me.adopt(body.name);
      const created = await api.createRoom(body);
      app.navigate(`/r/${encodeURIComponent(created.room)}`);
    } catch (err) {
      const message =
        err instanceof ApiError && err.status
          ? `${t("error.generic", { message: err.message || err.code })}`
          : t("error.network");
      const badName = err instanceof ApiError && err.code === "bad_name";
      errorAt = badName ? "name" : kind === "room" ? "room" : "solo";
      store.update((s) => ({ ...s, home: { ...s.home, busy: false, error: message } }));
      showError();
    }
  }

  /** A chouette table (its module is loaded for it), its error shown as a room's. */
  async function createChouette() {
    // chouette/play.js words the error only: a refused name is one against the rule
    errorAt = nameRefused() ? "name" : "room";
    const chouette = await app.page("chouette");
    await chouette.commands?.create?.("", app.main);
    showError();
  }

  return {
    enter,
    render: (state) => renderHome(state, errorAt),
    commands: {
      "play-solo": () => createGame("solo"),
      "play-verified": () => createGame("verified"),
      // More than two players: a chouette table.
      "open-room": () =>
        Number(store.get().home.form.players) > 2 ? createChouette() : createGame("room"),
      // (The account dialog is every page's command: pages/common.js.)
      // Friends (docs/accounts.md, "Friends"): a guest is asked to create an account.
      friends: () => import("../friends.js").then((m) => m.openFriends()),
      ...deviceCommands(app),
    },
    field: (name, value) => {
      const rerender = name === "preset" || name === "players" || name === "level";
      store.update(
        (s) => ({ ...s, home: { ...s.home, form: { ...s.home.form, [name]: value } } }),
        { silent: !rerender },
      );
      return true;
    },
  };
}
