// What the page shows of device games: the notes at the table (not verified, not saved;
// the record's download is in the match's result, results.js), the page of a game that cannot be opened, the start page's entries and
// the local statistics. Pure functions of the client state.
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { averagePoints } from "./tally.js";

/** @typedef {import("../types.js").State} State */

/** In a line below the table of a device game. @param {State} state @returns {HTMLElement[]} */
export function renderDeviceNotes(state) {
  const device = state.device;
  if (!device) return [];
  if (state.deviceNoteHidden && device.saved) return [];
  return [
    h(
      "section",
      { class: "panel device-notes", "aria-label": t("device.label") },
      state.deviceNoteHidden
        ? null
        : h(
            "p",
            { class: "notice device-note" },
            h("span", { class: "note-text" }, t("device.notice")),
            " ",
            h(
              "button",
              {
                type: "button",
                class: "note-close",
                dataset: { cmd: "hide-device-note", key: "hide-device-note" },
              },
              h("span", { "aria-hidden": "true" }, "\u00d7"),
              h("span", { class: "visually-hidden" }, t("device.hide_note")),
            ),
          ),
      device.saved
        ? null
        : h("p", { class: "notice error", role: "status" }, t("device.unsaved")),
    ),
  ];
}

/** A device game's page without a table: loading, damaged or missing. @param {State} state */
export function renderDevicePage(state) {
  const device = state.device;
  const home = h(
    "a",
    { class: "button secondary", href: "/", dataset: { nav: "/", key: "device-home" } },
    t("act.leave"),
  );
  if (device?.damaged) {
    return [
      h(
        "section",
        { class: "panel message", "aria-labelledby": "damaged-h" },
        h("h1", { id: "damaged-h" }, t("device.damaged.title")),
        h("p", { role: "alert" }, t("device.damaged.text", { reason: device.damaged })),
        h(
          "button",
          {
            type: "button",
            class: "button primary",
            dataset: { cmd: "device-discard", arg: device.id, key: "device-discard" },
          },
          t("device.discard"),
        ),
        home,
      ),
    ];
  }
  if (device?.missing || device?.noBots) {
    return [
      h(
        "section",
        { class: "panel message" },
        h(
          "p",
          { role: "alert" },
          t(device.missing ? "device.missing" : "device.no_bots_resume"),
        ),
        home,
      ),
    ];
  }
  return [h("p", { class: "panel", role: "status" }, t("status.connecting"))];
}

/** The start page's entries for device games (running and damaged). @param {State} state */
export function renderDeviceResume(state) {
  return state.home.deviceGames.map((game) =>
    h(
      "li",
      {},
      h(
        "a",
        {
          class: "button secondary",
          href: `/d/${game.id}`,
          dataset: { nav: `/d/${game.id}`, key: `resume-device-${game.id}` },
        },
        game.damaged
          ? t("home.resume.damaged")
          : t("home.resume.device", { opponent: game.opponent ?? "" }),
      ),
    ),
  );
}

/** The device's own statistics, once a device game has finished. @param {State} state */
export function renderTally(state) {
  const tally = state.home.tally;
  if (!tally || !tally.matches) return null;
  const rows = /** @type {[string, string][]} */ ([
    ["matches", String(tally.matches)],
    ["wins", String(tally.wins)],
    ["gins", String(tally.gins)],
    ["undercuts", String(tally.undercuts)],
    ["points", String(averagePoints(tally) ?? "–")],
  ]);
  return h(
    "section",
    { class: "panel device-stats", "aria-labelledby": "device-stats-h" },
    h("h2", { id: "device-stats-h" }, t("device.stats.title")),
    h("p", {}, t("device.stats.text")),
    h(
      "dl",
      { class: "scoring" },
      ...rows.flatMap(([key, value]) => [
        h("dt", {}, t(`device.stats.${key}`)),
        h("dd", {}, value),
      ]),
    ),
  );
}
