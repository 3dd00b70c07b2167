// A game on this device (docs/device.md): opened from its link /d/<id>, played against the
// computer by device/game.js through the table's parts, kept and downloaded by device/play.js.
import { renderDevicePage } from "../device/page.js";
import { applyMessage } from "../store.js";
import { NOTE_KEY, remember } from "../prefs.js";

/** @typedef {import("../pages.js").App} App */
/** @typedef {import("../pages.js").Page} Page */
/** @typedef {import("../pages.js").Command} Command */

/**
 * The commands of this device's games, on the start page (a damaged game listed) too.
 * @param {App} app
 * @returns {Record<string, Command>}
 */
export function deviceCommands({ table, navigate }) {
  return {
    "device-discard": async (id) => {
      (await table.device).discard(id);
      navigate("/", { replace: true });
    },
  };
}

/**
 * @param {App} app
 * @returns {Page}
 */
export function init(app) {
  const { store, table } = app;

  /** @param {import("../types.js").Route} route */
  async function enter(route) {
    const id = route.room;
    if (!id) return;
    const game = await (await table.device).open(id);
    const now = store.get().route;
    if (!game || !now.device || now.room !== id) return;
    table.use(game);
    store.update((s) => ({ ...s, room: { ...s.room, phase: "table" } }), {
      silent: true,
    });
    // Welcome, view, chat history and tips come at once: one render of the table, not four.
    app.drawingOnce(() => game.open());
  }

  return {
    enter,
    leave: table.close,
    fold: applyMessage,
    render: renderDevicePage,
    commands: {
      ...table.commands,
      ...deviceCommands(app),
      "device-record": async () => {
        const game = table.transport();
        if (game && "finishedRecord" in game) (await table.device).download(game);
      },
      "hide-device-note": () => {
        store.update((s) => ({ ...s, deviceNoteHidden: true }));
        remember(NOTE_KEY, "1");
        app.main.focus({ preventScroll: true }); // the note's button is gone: the focus stays on the page
      },
    },
    field: table.field,
    tick: table.tick,
  };
}
