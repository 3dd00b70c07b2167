// The renderer: a pure function of the client state (the last server view plus a little
// presentation state) into DOM. It never touches the network and computes no rule: melds,
// deadwood, legal actions and scores all come from the view frames (the server's, or in a
// device game those of device/game.js, which runs engine/).
import { h, morphChildren } from "./dom.js";
import { t, language, LANGUAGES, LANGUAGE_NAMES } from "./i18n.js";
import { connectionText } from "./status.js";
import { needsConnection } from "./offline.js";
import { atTable } from "./routes.js";

import { nameMax, field } from "./home.js";
import { renderTable } from "./table.js";
import { renderDeviceNotes } from "./device/page.js";
import { messagePanel } from "./links.js";

/** @typedef {import("./types.js").State} State */

/**
 * The texts of a table's form to take a free seat.
 * @typedef {object} JoinText
 * @property {string} title
 * @property {string|null} intro   what the table is, if it needs saying
 * @property {string|undefined} host   who is seated already
 */

/**
 * How a kind of table draws its page with the shared parts (pages.js Page.table); the
 * two-player room's is pages/room.js ROOM_LOOK.
 * @typedef {object} TableLook
 * @property {(state: State, now: number) => (HTMLElement|null)[]} parts   the table
 * @property {(state: State) => HTMLElement} beside   the chat beside it: the same
 *   element each render while the room stays (its panels keep their scroll and drafts)
 * @property {string} page   a class of the page's own for its <main> ("" for none)
 * @property {(state: State) => HTMLElement|null} invite   below the status while the
 *   table connects
 * @property {(state: State) => JoinText} join   the texts of its join form
 * @property {string} full   the catalogue key of "the table is full"
 */

/**
 * Render the whole page for `state` into the `topbar` and `main` elements; `content` is
 * the page module's drawing of the page (pages.js), null while its module loads, and
 * `table` its table's look, when the page is a table's. The page's nodes are kept and
 * updated in place (dom.js morphChildren), not replaced.
 * @param {State} state
 * @param {{topbar: HTMLElement, main: HTMLElement, now?: number,
 *   content?: ((state: State) => (HTMLElement|null)[])|null, table?: TableLook|null}} into
 */
export function render(state, { topbar, main, now = 0, content = null, table = null }) {
  morphChildren(topbar, renderTopbar(state));
  const route = state.route.name;
  // At a table the page is a game screen: the table fills the window (css/app.css, "the
  // table as a game screen"); the notes, the chat and the rest go beside it or below it.
  const tableShown =
    Boolean(state.view) &&
    (state.route.device || (atTable(state.route) && state.room.phase === "table"));
  document.body.classList.toggle("at-table", tableShown);
  if (state.route.device) {
    // A game on this device: its notes in a line below the table, never above the hand;
    // no chat (docs/device.md).
    if (state.view)
      morphChildren(main, [
        h(
          "div",
          { class: "table-area" },
          ...onScreen([...renderTable(state, now), ...renderDeviceNotes(state)]),
        ),
      ]);
    else
      morphChildren(
        main,
        (content ?? renderLoading)(state).filter((el) => el !== null),
      );
    main.className = "page page-room page-device";
  } else if (
    table &&
    atTable(state.route) &&
    state.room.phase === "table" &&
    state.view
  ) {
    // The chat panels stay in place across renders; only the table area is drawn again.
    let area = main.querySelector(":scope > .table-area");
    if (!area) {
      area = h("div", { class: "table-area" });
      main.replaceChildren(area);
    }
    morphChildren(area, onScreen(table.parts(state, now)));
    // A new language builds a new chat panel (web/js/chat.js): the old one goes, or
    // each switch would leave one more panel behind, with the same ids and labels.
    const beside = table.beside(state);
    for (const el of [...main.children]) if (el !== area && el !== beside) el.remove();
    if (beside.parentNode !== main) main.append(beside);
    main.className = `page page-room with-chat${table.page ? ` ${table.page}` : ""}`;
  } else if (needsConnection(state)) {
    morphChildren(main, [renderOffline()]);
    main.className = `page page-${route} page-offline`;
  } else {
    morphChildren(
      main,
      (content ?? renderLoading)(state).filter((el) => el !== null),
    );
    main.className = `page page-${route}`;
  }
  document.body.classList.toggle("four-colour", state.fourColour);
  document.body.classList.toggle("large-cards", state.largeCards);
  document.title = pageTitle(state);
}

const HAND = "[data-drop=hand]";
const HAND_CARD = `${HAND} > button`;

/**
 * The parts of a table in one screen (`table-screen`, as tall as the window below the top
 * bar), and after it what may lie below the fold: the parts marked `table-more` (a
 * table's list of its people, the invite once both seats are taken).
 * @param {(HTMLElement|null)[]} parts
 * @returns {HTMLElement[]}
 */
function onScreen(parts) {
  const shown = /** @type {HTMLElement[]} */ (parts.filter((el) => el !== null));
  const more = shown.filter((el) => el.classList.contains("table-more"));
  return [
    h(
      "div",
      // A control of the table pressed and gone leaves the focus in the hand: on the
      // card just drawn, else on its first card (dom.js keepingFocus).
      {
        class: "table-screen",
        dataset: { focusHome: HAND_CARD, focusFresh: `${HAND} > .fresh` },
      },
      ...shown.filter((el) => !more.includes(el)),
    ),
    ...more,
  ];
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
    h(
      "a",
      { class: "brand", href: "/", dataset: { nav: "/", key: "nav-home" } },
      h("span", { class: "brand-mark", "aria-hidden": "true" }, "♠♥"),
      h("span", { class: "brand-name" }, t("app.title")),
    ),
    h(
      "nav",
      { class: "top-nav", "aria-label": t("nav.label") },
      h(
        "a",
        {
          href: "/lobby",
          "aria-current": state.route.name === "lobby" ? "page" : null,
          dataset: { nav: "/lobby", key: "nav-lobby" },
        },
        t("nav.lobby"),
      ),
      h(
        "a",
        {
          href: "/leaderboard",
          "aria-current": state.route.name === "leaderboard" ? "page" : null,
          dataset: { nav: "/leaderboard", key: "nav-leaderboard" },
        },
        t("nav.leaderboard"),
      ),
    ),
    h(
      "div",
      { class: `top-controls${state.settingsOpen ? " open" : ""}` },
      // On a narrow window the switches are in a menu this button opens (css/app.css,
      // "the table as a game screen"); on a wide one they are in the bar, the button hidden.
      h(
        "button",
        {
          type: "button",
          class: "chip settings-toggle",
          "aria-expanded": String(state.settingsOpen),
          "aria-controls": "settings-menu",
          dataset: { cmd: "settings", key: "settings" },
        },
        h("span", { class: "settings-icon", "aria-hidden": "true" }, "\u2699"),
        h("span", { class: "settings-label" }, t("act.settings")),
      ),
      h(
        "div",
        {
          class: "settings-menu",
          id: "settings-menu",
          role: "group",
          "aria-label": t("act.settings"),
        },
        h(
          "button",
          {
            type: "button",
            class: "chip",
            "aria-pressed": String(state.fourColour),
            dataset: { cmd: "four-colour", key: "four-colour" },
          },
          t("act.four_colour"),
        ),
        h(
          "button",
          {
            type: "button",
            class: "chip",
            "aria-pressed": String(state.largeCards),
            dataset: { cmd: "large-cards", key: "large-cards" },
          },
          t("act.large_cards"),
        ),
        state.view
          ? h(
              "button",
              {
                type: "button",
                class: "chip",
                "aria-pressed": String(state.turnSound),
                dataset: { cmd: "turn-sound", key: "turn-sound" },
              },
              t("act.turn_sound"),
            )
          : null,
        h(
          "div",
          { class: "lang-switch", role: "group", "aria-label": t("lang.label") },
          ...LANGUAGES.map((code) =>
            h(
              "button",
              {
                type: "button",
                class: "chip",
                lang: code,
                "aria-pressed": String(code === lang),
                dataset: { cmd: "lang", arg: code, key: `lang-${code}` },
              },
              LANGUAGE_NAMES[code],
            ),
          ),
        ),
      ),
    ),
  ];
}

// ---------------------------------------------------------------- room pages

/** A page whose module is still loading (pages.js). @returns {HTMLElement[]} */
function renderLoading() {
  return [h("p", { class: "panel", role: "status" }, t("status.connecting"))];
}

/**
 * A room's page (pages/room.js and every page of a table on the server) until its table
 * shows: joining, connecting, or why it cannot be entered; `look` is its kind of table's.
 * @param {State} state
 * @param {TableLook} look
 * @returns {(HTMLElement|null)[]}
 */
export function renderRoom(state, look) {
  const room = state.room;
  if (room.phase === "loading")
    return [h("p", { class: "panel", role: "status" }, t("status.connecting"))];
  if (room.phase === "unknown") return [messagePanel(t("join.unknown"))];
  if (room.phase === "nospect")
    return [messagePanel(`${t(look.full)} ${t("join.no_spectators")}`)];
  if (room.phase === "join") return [renderJoin(state, look.join(state))];
  if (!state.view) {
    return [
      h(
        "div",
        { class: "panel" },
        h(
          "p",
          { role: "status", "aria-label": t("status.label") },
          connectionText(state) ?? t("status.connecting"),
        ),
        look.invite(state),
      ),
    ];
  }
  return look.parts(state, 0);
}

/** A page that needs the server, while the browser has no network. */
function renderOffline() {
  return h(
    "section",
    { class: "panel message", "aria-labelledby": "offline-h" },
    h("h1", { id: "offline-h" }, t("offline.title")),
    h("p", { role: "alert" }, t("offline.page")),
    h(
      "a",
      {
        class: "button secondary",
        href: "/",
        dataset: { nav: "/", key: "offline-home" },
      },
      t("act.leave"),
    ),
  );
}

/**
 * The form to take a free seat.
 * @param {State} state
 * @param {JoinText} text
 */
function renderJoin(state, { title, intro, host }) {
  return h(
    "section",
    { class: "panel join", "aria-labelledby": "join-h" },
    h("h1", { id: "join-h" }, title),
    intro ? h("p", {}, intro) : null,
    host ? h("p", {}, t("join.text", { name: host })) : null,
    state.room.error
      ? h("p", { class: "notice error", role: "alert" }, state.room.error)
      : null,
    field(
      "join-name",
      t("join.name"),
      h("input", {
        id: "join-name",
        type: "text",
        maxlength: nameMax(state),
        autocomplete: "nickname",
        value: state.room.joinName,
        dataset: { field: "joinName", key: "field-join-name" },
      }),
    ),
    h(
      "button",
      { type: "button", class: "button primary", dataset: { cmd: "join", key: "join" } },
      t("join.take_seat"),
    ),
  );
}
