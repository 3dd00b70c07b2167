// The score sheet of a match (issue 19, item 7): round by round who won, how, the points
// each side scored, the running totals and, where the preset pays a box per round won,
// the boxes; a modal dialog opened from the info bar's "Score sheet" button (dialogs.js
// keeps its focus rules). All from the view's rounds: nothing is computed but sums.
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { sideName, displaySeats } from "./status.js";

/** @typedef {import("./types.js").TableState} TableState */
/** @typedef {import("./types.js").Seat} Seat */

/**
 * One line of the sheet.
 * @typedef {object} SheetRow
 * @property {number} round
 * @property {Seat|null} winner
 * @property {string} kind       "knock", "gin", "big_gin", "undercut" or "void"
 * @property {Record<Seat, number>} points
 * @property {Record<Seat, number>} totals  the points so far
 * @property {Record<Seat, number>} boxes   the rounds won so far
 */

/**
 * The sheet's lines from the rounds a view lists (finished rounds only).
 * @param {{result: import("./types.js").RoundResult|null}[]} rounds
 * @returns {SheetRow[]}
 */
export function sheetRows(rounds) {
  /** @type {SheetRow[]} */
  const out = [];
  const totals = { one: 0, two: 0 };
  const boxes = { one: 0, two: 0 };
  rounds.forEach((entry, i) => {
    const result = entry.result;
    if (!result) return;
    const points = { one: 0, two: 0 };
    if (result.winner) {
      points[result.winner] = result.points;
      totals[result.winner] += result.points;
      boxes[result.winner] += 1;
    }
    out.push({
      round: i + 1,
      winner: result.winner,
      kind: result.kind,
      points,
      totals: { ...totals },
      boxes: { ...boxes },
    });
  });
  return out;
}

/**
 * The info bar's button that opens the score sheet, and the sheet's dialog while open.
 * @param {TableState} state
 * @returns {HTMLElement[]}
 */
export function renderSheetParts(state) {
  const button = h(
    "button",
    {
      type: "button",
      class: "chip sheet-toggle",
      "aria-haspopup": "dialog",
      dataset: { cmd: "score-sheet", key: "score-sheet" },
    },
    t("sheet.open"),
  );
  return state.sheetOpen ? [button, sheetDialog(state)] : [button];
}

/**
 * How the sheet's columns are laid out for this table.
 * @typedef {object} Columns
 * @property {Seat} me       the side shown first
 * @property {Seat} them
 * @property {boolean} boxes  the preset pays a box per round won
 * @property {(seat: Seat) => HTMLElement} named  a side's name (cut short on a phone,
 *   with "…"; its text stays whole, so a screen reader reads it whole)
 */

// On a phone (app.css) the sheet has fewer columns: how a round was won goes under its
// winner, and the points of each round and the boxes are left out (the totals show them).
const WIDE_ONLY = { class: "sheet-wide" };
// Where a side's name goes in a column's heading ("Total {name}").
const NAME_MARK = "\u0001";

/**
 * The sheet's dialog: its rounds in a table, or a line saying none is finished yet.
 * @param {TableState} state
 */
function sheetDialog(state) {
  const rows = sheetRows(state.view.table.rounds ?? []);
  const { me, them } = displaySeats(state);
  /** @type {Columns} */
  const columns = {
    me,
    them,
    boxes: Number(state.view.table.rules?.box_bonus ?? 0) > 0,
    named: (seat) => h("span", { class: "sheet-name" }, sideName(state, seat)),
  };
  return h(
    "dialog",
    {
      class: "sheet-dialog",
      "aria-labelledby": "sheet-h",
      dataset: { key: "sheet-dialog", modal: "sheet", returnKey: "score-sheet" },
    },
    h(
      "button",
      {
        type: "button",
        class: "chip dialog-close",
        "aria-label": t("sheet.close"),
        dataset: { cmd: "score-sheet-close", key: "score-sheet-close" },
      },
      h("span", { "aria-hidden": "true" }, "\u2715"),
    ),
    h("h2", { id: "sheet-h" }, t("sheet.title")),
    rows.length
      ? // A long sheet scrolls in its place: a region the keyboard reaches.
        h(
          "div",
          {
            class: "sheet-scroll",
            role: "region",
            tabindex: "0",
            "aria-label": t("sheet.title"),
          },
          h(
            "table",
            { class: "score-sheet" },
            h("caption", { class: "visually-hidden" }, t("sheet.title")),
            h("thead", {}, sheetHead(columns)),
            h("tbody", {}, ...rows.map((row) => sheetRow(row, columns))),
          ),
        )
      : h("p", {}, t("sheet.empty")),
  );
}

/**
 * The sheet's heading row.
 * @param {Columns} c
 */
function sheetHead(c) {
  /**
   * A column's heading, "Total {name}": the words around the side's name (on a phone on
   * a line of its own, cut short); every place the translation names the side.
   * @param {string} key
   * @param {Seat} seat
   * @param {boolean} wideOnly  left out on a phone
   */
  const heading = (key, seat, wideOnly) =>
    h(
      "th",
      { scope: "col", ...(wideOnly ? WIDE_ONLY : {}) },
      ...t(key, { name: NAME_MARK })
        .split(NAME_MARK)
        .flatMap((words, i) => (i === 0 ? [words] : [c.named(seat), words])),
    );
  return h(
    "tr",
    {},
    h("th", { scope: "col" }, t("sheet.round")),
    h("th", { scope: "col" }, t("sheet.winner")),
    h("th", { scope: "col", ...WIDE_ONLY }, t("sheet.how")),
    heading("sheet.points", c.me, true),
    heading("sheet.points", c.them, true),
    heading("sheet.total", c.me, false),
    heading("sheet.total", c.them, false),
    ...(c.boxes
      ? [heading("sheet.boxes", c.me, true), heading("sheet.boxes", c.them, true)]
      : []),
  );
}

/**
 * One round's row.
 * @param {SheetRow} row
 * @param {Columns} c
 */
function sheetRow(row, c) {
  const how = t(`sheet.kind.${row.kind}`);
  const both = (
    /** @type {Record<Seat, number>} */ by,
    /** @type {import("./dom.js").Attrs} */ attrs,
  ) => [h("td", attrs, String(by[c.me])), h("td", attrs, String(by[c.them]))];
  return h(
    "tr",
    {},
    h("th", { scope: "row" }, String(row.round)),
    h(
      "td",
      {},
      row.winner ? c.named(row.winner) : "–",
      " ",
      h("span", { class: "sheet-how" }, how),
    ),
    h("td", WIDE_ONLY, how),
    ...both(row.points, WIDE_ONLY),
    ...both(row.totals, {}),
    ...(c.boxes ? both(row.boxes, WIDE_ONLY) : []),
  );
}
