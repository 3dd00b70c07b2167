/** Which page a path names: the client's routes, from the site's one list (site.json),
 * which the server serves (server/app.py) and the service worker keeps as the one page
 * (sw.js, filled in by server/static.py); any other path is the page "not found" (the
 * server answers it with the page and 404). Pure. */
import SITE from "./site.json" with { type: "json" };

/** @typedef {import("./types.js").Route} Route */
/** @typedef {"one"|"two"} Seat */
/** A page of the registration table (web/js/pages.js): a route's name, or "device" for a
 * game on this device (a room route with `device`).
 * @typedef {"home"|"lobby"|"leaderboard"|"room"|"review"|"chouette"|"device"|"player"|"tournament"|"admin"|"privacy"|"signin"|"notfound"} PageName */

/**
 * A route's path as a regular expression: each `{name}` one path segment (or one of the
 * route's `values` for it), captured by name; a slash at the end is allowed.
 * @param {{path: string, values?: Record<string, string[]>}} route
 */
export function pathPattern(route) {
  const source = route.path
    .replace(/\/$/, "")
    .split(/(\{\w+\})/)
    .map((part) => {
      const param = /^\{(\w+)\}$/.exec(part);
      if (!param) return part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      const values = route.values?.[param[1]];
      return `(?<${param[1]}>${values ? values.join("|") : "[^/]+"})`;
    })
    .join("");
  return new RegExp(`^${source}/?$`);
}

const ROUTES = SITE.routes.map((route) => ({
  page: /** @type {PageName} */ (route.page),
  pattern: pathPattern(route),
}));

/**
 * @param {string} pathname
 * @returns {Route}
 */
export function routeOf(pathname) {
  for (const { page, pattern } of ROUTES) {
    const found = pattern.exec(pathname);
    if (!found) continue;
    /** @type {Record<string, string>} */
    const at = Object.fromEntries(
      Object.entries(found.groups ?? {}).map(([k, v]) => [k, decodeURIComponent(v)]),
    );
    if (page === "device") return { name: "room", room: at.room, device: true };
    if (page === "review")
      return { name: "review", room: at.room, seat: /** @type {Seat} */ (at.seat) };
    if (page === "room" || page === "chouette") return { name: page, room: at.room };
    if (page === "player") return { name: "player", room: null, player: at.player };
    if (page === "tournament")
      return { name: "tournament", room: null, tournament: at.tournament };
    return { name: page, room: null };
  }
  return { name: "notfound", room: null };
}

/**
 * The page of the registration table that shows a route.
 * @param {Route} route
 * @returns {PageName}
 */
export function pageOf(route) {
  return route.device ? "device" : route.name;
}

/**
 * Whether a route is a game table reached by a link: a two-player room (on the server or
 * this device) or a chouette table.
 * @param {Route} route
 */
export function atTable(route) {
  return route.name === "room" || route.name === "chouette";
}

/**
 * The review page's path for a room and seat (the match history links to it).
 * @param {string} room
 * @param {Seat} seat
 */
export function reviewPath(room, seat) {
  return `/r/${encodeURIComponent(room)}/review/${seat}`;
}

/**
 * The room and seat of a review page's path, or null.
 * @param {string} pathname
 * @returns {{room: string, seat: Seat}|null}
 */
export function parseReviewPath(pathname) {
  const route = routeOf(pathname);
  return route.name === "review" && route.room && route.seat
    ? { room: route.room, seat: route.seat }
    : null;
}
