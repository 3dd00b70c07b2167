// The table's fair-deal mark: the round's commitment (shown before the deal) and, once
// the round is over, a link to the verify page fed with that round's record.
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
 * The mark, the verify link once the round is over, and for a seated person the seed
 * phrase disclosure (phrasebox.js; a two-player room's only: chouette rooms take no seeds).
 * @param {Fair} fair  @param {string|null} [seat]  this page's seat, null for a spectator
 * @param {RoomKind} [kind]
 */
export function renderFairMark(fair, seat = null, kind = "room") {
  const mark = h("span", {
    class: "fair-mark", id: "fair-mark", title: t(KINDS[kind].title, { commitment: fair.commitment }),
  }, t("fair.mark", { short: fair.commitment.slice(0, 8) }));
  const link = fair.state === "revealed"
    ? [" ", h("a", { href: verifyUrl(fair, kind), target: "_blank", rel: "noopener", id: "fair-verify" },
      t("fair.verify", { round: fair.round }))]
    : [];
  return h("span", { class: "fair" }, mark, ...link, seat && kind === "room" ? [" ", renderPhraseBox()] : []);
}
