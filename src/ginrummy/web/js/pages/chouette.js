// A chouette table (docs/protocol.md, "Chouette rooms"), by its link /c/<id>: made of the
// table's parts (pages/tableparts.js) with its own part of the state and fold of the
// frames (chouette/state.js), its own drawing of the table from the shared parts
// (chouette/table.js), its chats (chouette/chat.js) and its own commands (chouette/play.js:
// advice, the team chat, the next round and match). Loaded the first time one is shown
// or opened.
import { api } from "../api.js";
import { t, tn } from "../i18n.js";
import { chouettePlay } from "../chouette/play.js";
import { applyChouetteMessage } from "../chouette/state.js";
import { renderChouetteTable } from "../chouette/table.js";
import { chouetteChats } from "../chouette/chat.js";
import { renderRoom } from "../render.js";

/** @typedef {import("../pages.js").App} App */
/** @typedef {import("../pages.js").Page} Page */

/**
 * A chouette table, drawn by the shared parts (render.js TableLook).
 * @type {import("../render.js").TableLook}
 */
export const CHOUETTE_LOOK = {
  parts: renderChouetteTable,
  beside: chouetteChats,
  page: "page-chouette",
  // Its invite shows at the table while a seat is free (chouette/table.js).
  invite: () => null,
  join: (state) => {
    const table = state.chouette?.room;
    const free = table ? table.seats.filter((s) => !s).length : 0;
    return {
      title: t("chouette.join.title"),
      intro: table ? tn("chouette.join.text", free, { n: table.players, free }) : null,
      host: table?.seats.find(Boolean)?.name,
    };
  },
  full: "chouette.join.full",
};

/**
 * @param {App} app
 * @returns {Page}
 */
export function init(app) {
  const { store, table } = app;
  const play = chouettePlay({
    store,
    say: app.say,
    navigate: (path) => app.navigate(path),
    send: table.send,
    connect: table.connect,
    adoptNickname: app.me.adopt,
    limits: app.limits,
  });
  return {
    enter: (route) => route.room && play.enter(route.room),
    leave: table.close,
    fold: applyChouetteMessage,
    render: (state) => renderRoom(state, CHOUETTE_LOOK),
    table: CHOUETTE_LOOK,
    commands: {
      ...table.commands,
      ...play.commands,
      join: () => table.join(api.joinChouette),
      // From the start page's form (pages/home.js): open a table and go to it.
      create: () => play.create(),
    },
    field: (name, value) => {
      if (name !== "teamDraft") return table.field(name, value);
      play.teamDraft(value);
      return true;
    },
    tick: table.tick,
  };
}
