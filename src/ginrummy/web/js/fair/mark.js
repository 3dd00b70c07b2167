// The table's fair-deal mark: the round's commitment (shown before the deal); and once a
// round is over, a link per finished round of the match to the verify page fed with that
// round's record.
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { renderPhraseBox } from "./phrasebox.js";

/** @typedef {import("../types.js").Fair} Fair */

/**
 * Where each kind of room serves a finished round's record (docs/protocol.md: `GET
 * /api/rooms/{id}/record?round=n`, and "Chouette rooms") and what its mark's title says:
 * a chouette round is dealt from default seeds, without a seed exchange (docs/fairness.md,
 * "In chouette rooms").
 * @typedef {"room"|"chouette"} RoomKind
 */
const KINDS = {
  room: { api: "/api/rooms", title: "fair.title" },
  chouette: { api: "/api/chouette", title: "chouette.fair.title" },
};

/**
 * @param {Fair} fair  @param {RoomKind} [kind]
 * @returns {string} the verify page, loading the round's record
 */
export function verifyUrl(fair, kind = "room") {
  const record = `${KINDS[kind].api}/${encodeURIComponent(fair.room)}/record?round=${fair.round}`;
  return `/static/verify.html?record=${encodeURIComponent(record)}`;
}

/**
 * The mark and, for a seated person, the seed phrase disclosure (phrasebox.js; a
 * two-player room's only: chouette rooms take no seeds).
 * @param {Fair} fair  @param {string|null} [seat]  this page's seat, null for a spectator
 * @param {RoomKind} [kind]
 */
export function renderFairMark(fair, seat = null, kind = "room") {
  const mark = h(
    "span",
    {
      class: "fair-mark",
      id: "fair-mark",
      title: t(KINDS[kind].title, { commitment: fair.commitment }),
    },
    t("fair.mark", { short: fair.commitment.slice(0, 8) }),
  );
  return h(
    "span",
    { class: "fair" },
    mark,
    seat && kind === "room" ? [" ", renderPhraseBox()] : [],
  );
}

/**
 * Once a round is over: a link per finished round of the match, each loading that round's
 * record (the server serves every finished round of the current match), so that any round
 * can be checked, not only the last one.
 * @param {Fair|null} fair  @param {RoomKind} [kind]
 */
export function renderVerifyLinks(fair, kind = "room") {
  if (!fair || fair.state !== "revealed") return null;
  const rounds = Array.from({ length: fair.round }, (_, i) => i + 1);
  return h(
    "p",
    { class: "fair-verify" },
    t("fair.verify.lead"),
    " ",
    ...rounds.flatMap((round) => [
      round > 1 ? " · " : "",
      h(
        "a",
        {
          href: verifyUrl({ ...fair, round }, kind),
          target: "_blank",
          rel: "noopener",
        },
        t("fair.verify", { round }),
      ),
    ]),
  );
}
