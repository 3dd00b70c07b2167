// How a player is written wherever one is shown (the lobby, the statistics, a table):
// the tag the server made and the rating. Pure.

/** @typedef {import("./lobby.js").PlayerLike} PlayerLike */

/**
 * "Ann#abcd" for a player summary (the tag the server made), or the plain name.
 * @param {PlayerLike|null|undefined} player
 */
export function playerTag(player) {
  if (!player) return "";
  return player.tag ?? player.name ?? "";
}

/** @param {PlayerLike|null|undefined} player */
export function ratingText(player) {
  return player && typeof player.rating === "number"
    ? String(Math.round(player.rating))
    : "";
}
