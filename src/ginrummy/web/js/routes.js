/** Which page a path names: the client's routes (the server serves every one of them
 * the same page). Pure. */
import { parseReviewPath } from "./review.js";

/** @typedef {import("./types.js").Route} Route */

/**
 * @param {string} pathname
 * @returns {Route}
 */
export function routeOf(pathname) {
  const review = parseReviewPath(pathname);
  if (review) return { name: "review", room: review.room, seat: review.seat };
  const room = /^\/r\/([^/]+)\/?$/.exec(pathname);
  if (room) return { name: "room", room: decodeURIComponent(room[1]) };
  const chouette = /^\/c\/([^/]+)\/?$/.exec(pathname);
  if (chouette) return { name: "chouette", room: decodeURIComponent(chouette[1]) };
  const own = /^\/d\/([^/]+)\/?$/.exec(pathname);
  if (own) return { name: "room", room: decodeURIComponent(own[1]), device: true };
  const player = /^\/p\/([^/]+)\/?$/.exec(pathname);
  if (player) return { name: "player", room: null, player: decodeURIComponent(player[1]) };
  const tournament = /^\/t\/([^/]+)\/?$/.exec(pathname);
  if (tournament) return { name: "tournament", room: null, tournament: decodeURIComponent(tournament[1]) };
  if (/^\/lobby\/?$/.test(pathname)) return { name: "lobby", room: null };
  if (/^\/leaderboard\/?$/.test(pathname)) return { name: "leaderboard", room: null };
  return { name: "home", room: null };
}

/**
 * Whether a route is a game table reached by a link: a two-player room (on the server or
 * this device) or a chouette table.
 * @param {Route} route
 */
export function atTable(route) {
  return route.name === "room" || route.name === "chouette";
}
