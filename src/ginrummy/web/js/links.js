// The links from a table to the pages about it: the review of its finished match
// (docs/review.md) and the tournament it belongs to (docs/tournaments.md). Here, not in
// those pages' modules, so that a table loads without them (web/js/pages.js).
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
 * At a tournament's table: "<tournament> · round n", a link to the tournament's page
 * (room info `tournament`, `tournament_name`, `tournament_round`); null at other tables.
 * @param {import("./types.js").RoomInfo|null|undefined} info
 */
export function tournamentLink(info) {
  if (!info?.tournament) return null;
  const name = info.tournament_name ?? t("tournament.default_name");
  const text = info.tournament_round
    ? t("tournament.at_table", { name, n: info.tournament_round })
    : name;
  return h(
    "a",
    {
      class: "tournament-link",
      href: `/t/${encodeURIComponent(info.tournament)}`,
      dataset: { nav: `/t/${info.tournament}`, key: "tournament-link" },
    },
    text,
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
