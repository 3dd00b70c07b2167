// The renderer: a pure function of the client state (the last server view plus a little
// presentation state) into DOM. It never touches the network and computes no rule: melds,
// deadwood, legal actions and scores all come from the view frames (the server's, or in a
// device game those of device/game.js, which runs engine/).
import { h } from "./dom.js";
import { t, tn, language } from "./i18n.js";
import { renderLobby } from "./lobby.js";
import { renderTournament, renderTournamentsSection } from "./tournament.js";
import { renderPlayer, renderLeaderboard } from "./stats.js";
import { renderReview } from "./review.js";
import { renderChat, renderTeamChat } from "./chat.js";
import { connectionText } from "./status.js";
import { needsConnection } from "./offline.js";
import { atTable } from "./routes.js";

import { renderHome, nameMax, field } from "./home.js";
import { renderTable, renderInvite } from "./table.js";
import { renderDeviceNotes, renderDevicePage } from "./device/page.js";

/** @typedef {import("./types.js").State} State */

/** A chouette table's renderer (web/js/chouette/table.js), once a chouette page loaded it.
 * @type {((state: State, now?: number) => HTMLElement[])|null} */
let chouetteRenderer = null;

/**
 * Draw chouette tables with `renderer` (main.js loads it on a chouette page only).
 * @param {(state: State, now?: number) => HTMLElement[]} renderer
 */
export function useChouetteRenderer(renderer) {
  chouetteRenderer = renderer;
}

/**
 * @param {State} state
 * @param {number} [now]
 */
function renderChouetteTable(state, now = 0) {
  return chouetteRenderer ? chouetteRenderer(state, now) : [h("p", { class: "panel", role: "status" }, t("status.connecting"))];
}

/** @type {Record<string, (state: State) => (HTMLElement|null)[]>} */
const PAGES = {
  room: renderRoom, chouette: renderRoom, lobby: (state) => [...renderLobby(state), renderTournamentsSection(state)],
  player: renderPlayer, leaderboard: renderLeaderboard, tournament: renderTournament, review: renderReview,
};

/**
 * Render the whole page for `state` into the `topbar` and `main` elements.
 * @param {State} state
 * @param {{topbar: HTMLElement, main: HTMLElement, now?: number}} into
 */
export function render(state, { topbar, main, now = 0 }) {
  topbar.replaceChildren(...renderTopbar(state));
  const route = state.route.name;
  // At a table the page is a game screen: the table fills the window (css/app.css, "the
  // table as a game screen"); the notes, the chat and the rest go beside it or below it.
  const table = Boolean(state.view) && (state.route.device || (atTable(state.route) && state.room.phase === "table"));
  document.body.classList.toggle("at-table", table);
  if (state.route.device) {
    // A game on this device: its notes in a line below the table, never above the hand;
    // no chat (docs/device.md).
    if (state.view) main.replaceChildren(h("div", { class: "table-area" }, ...onScreen([...renderTable(state, now), ...renderDeviceNotes(state)])));
    else main.replaceChildren(...renderDevicePage(state));
    main.className = "page page-room page-device";
  } else if (atTable(state.route) && state.room.phase === "table" && state.view) {
    // The chat panels stay in place across renders; only the table area is replaced.
    let area = main.querySelector(":scope > .table-area");
    if (!area) {
      area = h("div", { class: "table-area" });
      main.replaceChildren(area);
    }
    area.replaceChildren(...onScreen(route === "chouette" ? renderChouetteTable(state, now) : renderTable(state, now)));
    if (route === "chouette") {
      placeChouetteChats(main, state);
    } else {
      // A new language builds a new chat panel (web/js/chat.js): the old one goes, or
      // each switch would leave one more panel behind, with the same ids and labels.
      const chat = renderChat(state);
      for (const el of [...main.children]) if (el !== area && el !== chat) el.remove();
      if (chat.parentNode !== main) main.append(chat);
    }
    main.className = `page page-room with-chat${route === "chouette" ? " page-chouette" : ""}`;
  } else if (needsConnection(state)) {
    main.replaceChildren(renderOffline());
    main.className = `page page-${route} page-offline`;
  } else {
    main.replaceChildren(...(PAGES[route] ?? renderHome)(state).filter((el) => el !== null));
    main.className = `page page-${route}`;
  }
  document.body.classList.toggle("four-colour", state.fourColour);
  document.body.classList.toggle("large-cards", state.largeCards);
  document.title = pageTitle(state);
}

/**
 * The parts of a table in one screen (`table-screen`, as tall as the window below the top
 * bar), and after it what may lie below the fold: the parts marked `table-more` (a
 * chouette's ledger, the invite once both seats are taken).
 * @param {(HTMLElement|null)[]} parts
 * @returns {HTMLElement[]}
 */
function onScreen(parts) {
  const shown = /** @type {HTMLElement[]} */ (parts.filter((el) => el !== null));
  const more = shown.filter((el) => el.classList.contains("table-more"));
  return [h("div", { class: "table-screen" }, ...shown.filter((el) => !more.includes(el))), ...more];
}

/**
 * A chouette table's chats, one column beside the table: the room's, and the team's for
 * team members (the box is never sent it). The panels are kept across renders.
 * @param {HTMLElement} main
 * @param {State} state
 */
function placeChouetteChats(main, state) {
  let side = main.querySelector(":scope > .side-panels");
  if (!side) {
    side = h("div", { class: "side-panels" });
    main.append(side);
  }
  const c = state.chouette;
  const panels = [renderChat(state)];
  if (c?.info && c.position !== null && c.position !== c.info.box) panels.push(renderTeamChat(state));
  for (const el of [...side.children]) if (!panels.includes(/** @type {HTMLElement} */ (el))) el.remove();
  panels.forEach((panel, i) => { if (side.children[i] !== panel) side.insertBefore(panel, side.children[i] ?? null); });
}

/**
 * @param {State} state
 */
function pageTitle(state) {
  const view = state.view;
  if (atTable(state.route) && view && state.seat && view.legal_actions.length) {
    return `• ${t("app.title")}`;
  }
  return t("app.title");
}

// ---------------------------------------------------------------- top bar

/**
 * @param {State} state
 */
function renderTopbar(state) {
  const lang = language();
  return [
    h("a", { class: "brand", href: "/", dataset: { nav: "/", key: "nav-home" } },
      h("span", { class: "brand-mark", "aria-hidden": "true" }, "♠♥"), t("app.title")),
    h("nav", { class: "top-nav", "aria-label": t("nav.label") },
      h("a", { href: "/lobby", "aria-current": state.route.name === "lobby" ? "page" : null, dataset: { nav: "/lobby", key: "nav-lobby" } }, t("nav.lobby")),
      h("a", { href: "/leaderboard", "aria-current": state.route.name === "leaderboard" ? "page" : null, dataset: { nav: "/leaderboard", key: "nav-leaderboard" } }, t("nav.leaderboard"))),
    h("div", { class: `top-controls${state.settingsOpen ? " open" : ""}` },
      // On a narrow window the switches are in a menu this button opens (css/app.css,
      // "the table as a game screen"); on a wide one they are in the bar, the button hidden.
      h("button", {
        type: "button", class: "chip settings-toggle", "aria-expanded": String(state.settingsOpen),
        "aria-controls": "settings-menu", dataset: { cmd: "settings", key: "settings" },
      }, h("span", { class: "settings-icon", "aria-hidden": "true" }, "\u2699"), h("span", { class: "settings-label" }, t("act.settings"))),
      h("div", { class: "settings-menu", id: "settings-menu", role: "group", "aria-label": t("act.settings") },
        h("button", {
          type: "button", class: "chip", "aria-pressed": String(state.fourColour),
          dataset: { cmd: "four-colour", key: "four-colour" },
        }, t("act.four_colour")),
        h("button", {
          type: "button", class: "chip", "aria-pressed": String(state.largeCards),
          dataset: { cmd: "large-cards", key: "large-cards" },
        }, t("act.large_cards")),
        state.view ? h("button", {
          type: "button", class: "chip", "aria-pressed": String(state.turnSound),
          dataset: { cmd: "turn-sound", key: "turn-sound" },
        }, t("act.turn_sound")) : null,
        h("div", { class: "lang-switch", role: "group", "aria-label": t("lang.label") },
          ...["de", "en"].map((code) => h("button", {
            type: "button", class: "chip", lang: code, "aria-pressed": String(code === lang),
            dataset: { cmd: "lang", arg: code, key: `lang-${code}` },
          }, code === "de" ? "Deutsch" : "English")),
        ),
      ),
    ),
  ];
}

// ---------------------------------------------------------------- room pages

/**
 * @param {State} state
 */
function renderRoom(state) {
  const room = state.room;
  if (room.phase === "loading") return [h("p", { class: "panel", role: "status" }, t("status.connecting"))];
  if (room.phase === "unknown") return [messagePanel(t("join.unknown"))];
  const full = state.route.name === "chouette" ? "chouette.join.full" : "join.full";
  if (room.phase === "nospect") return [messagePanel(`${t(full)} ${t("join.no_spectators")}`)];
  if (room.phase === "join") return [renderJoin(state)];
  const chouette = state.route.name === "chouette";
  if (!state.view) {
    return [h("div", { class: "panel" },
      h("p", { role: "status", "aria-label": t("status.label") }, connectionText(state) ?? t("status.connecting")),
      chouette ? null : renderInvite(state))];
  }
  return chouette ? renderChouetteTable(state) : renderTable(state);
}

/** A page that needs the server, while the browser has no network. */
function renderOffline() {
  return h("section", { class: "panel message", "aria-labelledby": "offline-h" },
    h("h1", { id: "offline-h" }, t("offline.title")),
    h("p", { role: "alert" }, t("offline.page")),
    h("a", { class: "button secondary", href: "/", dataset: { nav: "/", key: "offline-home" } }, t("act.leave")));
}

/**
 * @param {string} text
 */
function messagePanel(text) {
  return h("section", { class: "panel message" },
    h("p", { role: "alert" }, text),
    h("a", { class: "button secondary", href: "/", dataset: { nav: "/", key: "back-home" } }, t("act.leave")));
}

/**
 * @param {State} state
 */
function renderJoin(state) {
  const info = state.room.info;
  const table = state.room.chouette;
  const host = table ? table.seats?.find(Boolean)?.name : info?.seats?.one?.name ?? info?.seats?.two?.name;
  return h("section", { class: "panel join", "aria-labelledby": "join-h" },
    h("h1", { id: "join-h" }, t(table ? "chouette.join.title" : "join.title")),
    table ? h("p", {}, tn("chouette.join.text", table.seats.filter((s) => !s).length, { n: table.players, free: table.seats.filter((s) => !s).length })) : null,
    host ? h("p", {}, t("join.text", { name: host })) : null,
    state.room.error ? h("p", { class: "notice error", role: "alert" }, state.room.error) : null,
    field("join-name", t("join.name"), h("input", {
      id: "join-name", type: "text", maxlength: nameMax(state), autocomplete: "nickname", value: state.room.joinName,
      dataset: { field: "joinName", key: "field-join-name" },
    })),
    h("button", { type: "button", class: "button primary", dataset: { cmd: "join", key: "join" } }, t("join.take_seat")));
}
