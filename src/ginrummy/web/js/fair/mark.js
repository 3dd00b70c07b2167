// The table's fair-deal mark: the round's commitment (shown before the deal) and, once
// the round is over, a link to the verify page fed with that round's record.
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { renderPhraseBox } from "./phrasebox.js";

/** @typedef {import("../types.js").Fair} Fair */

/** @param {Fair} fair  @returns {string} the verify page, loading the round's record */
export function verifyUrl(fair) {
  const record = `/api/rooms/${encodeURIComponent(fair.room)}/record?round=${fair.round}`;
  return `/static/verify.html?record=${encodeURIComponent(record)}`;
}

/**
 * The mark, the verify link once the round is over, and for a seated person the seed
 * phrase disclosure (phrasebox.js).
 * @param {Fair} fair  @param {string|null} [seat]  this page's seat, null for a spectator
 */
export function renderFairMark(fair, seat = null) {
  const mark = h("span", {
    class: "fair-mark", id: "fair-mark", title: t("fair.title", { commitment: fair.commitment }),
  }, t("fair.mark", { short: fair.commitment.slice(0, 8) }));
  const link = fair.state === "revealed"
    ? [" ", h("a", { href: verifyUrl(fair), target: "_blank", rel: "noopener", id: "fair-verify" },
      t("fair.verify", { round: fair.round }))]
    : [];
  return h("span", { class: "fair" }, mark, ...link, seat ? [" ", renderPhraseBox()] : []);
}
