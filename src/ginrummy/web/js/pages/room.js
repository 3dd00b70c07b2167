// A two-player room on the server (docs/protocol.md), by its link /r/<id>: seated, joining
// a free seat, watching, or told it is full or unknown; at a tournament's table it follows
// the tournament to the next pairing (pages/tournament.js).
import { api, ApiError, storedToken } from "../api.js";
import { applyMessage } from "../store.js";
import { renderRoom } from "../render.js";
import { renderTable, renderInvite } from "../table.js";
import { renderChat } from "../chat.js";
import { t } from "../i18n.js";
import { NAME_KEY, remembered, friendlyName } from "../prefs.js";

/** @typedef {import("../pages.js").App} App */
/** @typedef {import("../pages.js").Page} Page */

/**
 * A two-player table, drawn by the shared parts: the table (table.js), the room's chat
 * beside it, the invite while it connects.
 * @type {import("../render.js").TableLook}
 */
export const ROOM_LOOK = {
  parts: renderTable,
  beside: (state) => renderChat(state),
  page: "",
  invite: renderInvite,
  join: (state) => ({
    title: t("join.title"),
    intro: null,
    host: state.room.info?.seats?.one?.name ?? state.room.info?.seats?.two?.name,
  }),
  full: "join.full",
};

/**
 * @param {App} app
 * @returns {Page}
 */
export function init(app) {
  const { store, table } = app;
  /** The tournament page's following of this table, when it is a tournament's. @type {Page|null} */
  let tournament = null;

  /** @param {import("../types.js").Route} route */
  async function enter(route) {
    const roomId = route.room;
    if (!roomId) return;
    let info;
    try {
      info = await api.room(roomId);
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) {
        store.update((s) => ({ ...s, room: { ...s.room, phase: "unknown" } }));
      } else {
        store.update((s) => ({
          ...s,
          room: { ...s.room, phase: "unknown", error: t("error.network") },
        }));
      }
      return;
    }
    if (store.get().route.room !== roomId) return;
    if (info.your_seat) {
      store.update((s) => ({ ...s, info, room: { ...s.room, info, phase: "table" } }));
      table.connect(roomId);
      if (info.tournament) {
        const page = await app.page("tournament");
        if (store.get().route.room !== roomId) return;
        tournament = page;
        page.commands?.follow?.(roomId, app.main);
      }
      return;
    }
    const free = info.status !== "over" && (!info.seats?.one || !info.seats?.two);
    if (free) {
      // The player's nickname (the same in chat, lobby and at the table) when known.
      let known = null;
      if (storedToken()) {
        try {
          known = (await api.me()).player?.name ?? null;
        } catch {
          known = null;
        }
      }
      const joinName = known ?? remembered(NAME_KEY) ?? friendlyName();
      store.update((s) => ({
        ...s,
        info,
        room: { ...s.room, info, phase: "join", joinName },
      }));
      return;
    }
    if (info.spectators) {
      store.update((s) => ({ ...s, info, room: { ...s.room, info, phase: "table" } }));
      table.connect(roomId);
      app.say(`${t("join.full")} ${t("join.watch")}`);
      return;
    }
    store.update((s) => ({ ...s, info, room: { ...s.room, info, phase: "nospect" } }));
  }

  function leave() {
    table.close();
    tournament?.leave?.();
    tournament = null;
  }

  return {
    enter,
    leave,
    fold: applyMessage,
    render: (state) => renderRoom(state, ROOM_LOOK),
    table: ROOM_LOOK,
    commands: { ...table.commands, join: () => table.join(api.join) },
    field: table.field,
    tick: table.tick,
  };
}
