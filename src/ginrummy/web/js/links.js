// The links from a table to the pages about it: the review of its finished match
// (docs/review.md) and the tournament it belongs to (docs/tournaments.md); and the way
// back to the start page from a page that has nothing to show (an unknown room, player,
// tournament or path). Here, not in those pages' modules, so that a table loads without
// them (web/js/pages.js).
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { reviewPath } from "./routes.js";

/** @typedef {"one"|"two"} Seat */

/**
 * The links to a finished match's review: a player's own seat; both seats for a
 * spectator of a public room (docs/protocol.md, "Reviews").
 * @param {string|null} room
 * @param {Seat|null} own
 * @param {boolean} isPublic
 */
export function reviewLinks(room, own, isPublic) {
  /** @type {Seat[]} */
  const seats = own ? [own] : isPublic ? ["one", "two"] : [];
  if (!room || !seats.length) return null;
  return h(
    "p",
    { class: "review-links" },
    ...seats.map((seat) => {
      const path = reviewPath(room, seat);
      const label = own
        ? t("review.link")
        : t("review.link.seat", { seat: t(`review.seat.${seat}`) });
      return h(
        "a",
        {
          class: "button secondary",
          href: path,
          dataset: { nav: path, key: `review-${seat}` },
        },
        label,
      );
    }),
  );
}

/**
 * At a tournament's table: the tournament's name, a link to its page (room info
 * `tournament`, `tournament_name`); null at other tables. The tournament's round
 * (`tournament_round`) is its title (a tooltip, and its accessible description): the
 * info bar names the match's round right after it, and "Cup · round 1 · Round 1" read
 * as one round said twice.
 * @param {import("./types.js").RoomInfo|null|undefined} info
 */
export function tournamentLink(info) {
  if (!info?.tournament) return null;
  const name = info.tournament_name ?? t("tournament.default_name");
  return h(
    "a",
    {
      class: "tournament-link",
      href: `/t/${encodeURIComponent(info.tournament)}`,
      title: info.tournament_round
        ? t("tournament.at_table", { n: info.tournament_round })
        : null,
      dataset: { nav: `/t/${info.tournament}`, key: "tournament-link" },
    },
    name,
  );
}

/**
 * After a tournament's match: the way back to the tournament (it plays no new match,
 * and a finished tournament leaves the lobby's list); null at other tables.
 * @param {import("./types.js").RoomInfo|null|undefined} info
 */
export function backToTournament(info) {
  if (!info?.tournament) return null;
  return h(
    "a",
    {
      class: "button primary",
      href: `/t/${encodeURIComponent(info.tournament)}`,
      dataset: { nav: `/t/${info.tournament}`, key: "tournament-back" },
    },
    t("tournament.back"),
  );
}

/**
 * A page that has nothing to show says why, with the way back to the start page: an
 * unknown room (/r/, /c/), player (/p/), tournament (/t/) or path (pages/notfound.js).
 * @param {string} text  why, announced (role alert)
 * @param {string|null} [title]  the page's heading, if it has one
 */
export function messagePanel(text, title = null) {
  return h(
    "section",
    { class: "panel message", "aria-labelledby": title ? "message-h" : null },
    title ? h("h1", { id: "message-h" }, title) : null,
    h("p", { role: "alert" }, text),
    h(
      "a",
      { class: "button secondary", href: "/", dataset: { nav: "/", key: "back-home" } },
      t("act.leave"),
    ),
  );
}
