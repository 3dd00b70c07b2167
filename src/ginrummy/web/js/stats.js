// A player's statistics page (with the rating history drawn as inline SVG) and the
// leaderboard. Pure functions of the client state; the numbers all come from the server.
import { h } from "./dom.js";
import { t, tn, language, computerName } from "./i18n.js";
import { playerLabel } from "./lobby.js";
import { playerTag, ratingText } from "./players.js";
import { peerButton } from "./chat.js";
import { messagePanel } from "./links.js";

/** @typedef {import("./types.js").State} State */
/** @typedef {{rating: number, rd?: number, t?: number}} RatingPoint */

const SVG = "http://www.w3.org/2000/svg";

/**
 * An SVG element (the SVG twin of dom.h).
 * @param {string} tag
 * @param {Record<string, unknown>} [attrs]
 * @param {...(Node|string|null|undefined)} children
 */
function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value !== null && value !== undefined) el.setAttribute(key, String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/**
 * Chart coordinates for a rating history: x by match, y by rating (higher is up), with the
 * rating deviation as a band. Pure, so it is tested under node.
 * @param {RatingPoint[]|null|undefined} history
 * @param {{width?: number, height?: number, pad?: {l: number, r: number, t: number, b: number}}} [size]
 */
export function chartGeometry(
  history,
  { width = 600, height = 220, pad = { l: 48, r: 12, t: 12, b: 28 } } = {},
) {
  const points = (history ?? []).filter((p) => typeof p.rating === "number");
  if (!points.length) return null;
  // The band is capped at ±150 so a new player's wide deviation does not flatten the line.
  const spread = (/** @type {RatingPoint} */ p) => Math.min(p.rd ?? 0, 150);
  let lo = Math.floor(Math.min(...points.map((p) => p.rating - spread(p))) / 50) * 50;
  let hi = Math.ceil(Math.max(...points.map((p) => p.rating + spread(p))) / 50) * 50;
  if (hi - lo < 100) {
    lo -= 50;
    hi += 50;
  }
  const innerW = width - pad.l - pad.r;
  const innerH = height - pad.t - pad.b;
  const x = (/** @type {number} */ i) =>
    pad.l + (points.length === 1 ? innerW / 2 : (i * innerW) / (points.length - 1));
  const y = (/** @type {number} */ r) =>
    pad.t + innerH - ((Math.min(hi, Math.max(lo, r)) - lo) * innerH) / (hi - lo);
  const line = points.map((p, i) => [x(i), y(p.rating)]);
  const band = [
    ...points.map((p, i) => [x(i), y(p.rating + (p.rd ?? 0))]),
    ...points.map((p, i) => [x(i), y(p.rating - (p.rd ?? 0))]).reverse(),
  ];
  /** @type {{value: number, y: number}[]} */
  const ticks = [];
  const step = hi - lo > 400 ? 200 : hi - lo > 200 ? 100 : 50;
  for (let v = Math.ceil(lo / step) * step; v <= hi; v += step)
    ticks.push({ value: v, y: y(v) });
  return { width, height, pad, lo, hi, line, band, ticks, points };
}

const fmt = (/** @type {number[][]} */ pts) =>
  pts.map(([a, b]) => `${a.toFixed(1)},${b.toFixed(1)}`).join(" ");

// Every rating starts here (docs/protocol.md, "Ratings"); the history lists the ratings
// after each rated match, so the chart begins with the starting point.
const START = { rating: 1500, rd: 350 };

/**
 * @param {RatingPoint[]|null|undefined} history
 * @returns {RatingPoint[]}
 */
export function withStart(history) {
  const points = history ?? [];
  if (!points.length) return points;
  const first = points[0];
  return first.rating === START.rating && first.rd === START.rd
    ? points
    : [START, ...points];
}

/** @param {RatingPoint[]|null|undefined} history */
export function ratingChart(history) {
  const matches = (history ?? []).length;
  const g = chartGeometry(withStart(history));
  if (!g) return h("p", { class: "hint" }, t("stats.history.none"));
  const first = g.points[0].rating;
  const last = g.points[g.points.length - 1].rating;
  const label = tn("stats.history.label", matches, {
    n: matches,
    a: Math.round(first),
    b: Math.round(last),
  });
  return s(
    "svg",
    {
      class: "rating-chart",
      viewBox: `0 0 ${g.width} ${g.height}`,
      role: "img",
      "aria-label": label,
      preserveAspectRatio: "xMidYMid meet",
    },
    s("title", {}, label),
    ...g.ticks.map((tick) =>
      s(
        "g",
        { class: "tick" },
        s("line", { x1: g.pad.l, x2: g.width - g.pad.r, y1: tick.y, y2: tick.y }),
        s(
          "text",
          { x: g.pad.l - 6, y: tick.y + 4, "text-anchor": "end" },
          String(tick.value),
        ),
      ),
    ),
    s("polygon", { class: "rd-band", points: fmt(g.band) }),
    s("polyline", { class: "rating-line", points: fmt(g.line) }),
    ...g.line.map(([cx, cy]) => s("circle", { class: "rating-dot", cx, cy, r: 3.5 })),
    s(
      "text",
      { class: "axis-label", x: g.pad.l, y: g.height - 6 },
      t("stats.history.first"),
    ),
    s(
      "text",
      {
        class: "axis-label",
        x: g.width - g.pad.r,
        y: g.height - 6,
        "text-anchor": "end",
      },
      t("stats.history.last"),
    ),
  );
}

/** @param {unknown} value */
function pct(value) {
  if (typeof value !== "number") return "–";
  return `${Math.round(value * 100)} %`;
}

/**
 * @param {unknown} value
 * @param {number} [digits]
 */
function num(value, digits = 0) {
  if (typeof value !== "number") return "–";
  return value.toLocaleString(language(), {
    maximumFractionDigits: digits,
    minimumFractionDigits: digits,
  });
}

/** @param {State} state */
export function renderPlayer(state) {
  const page = state.page;
  if (page.status === "loading")
    return [h("p", { class: "panel", role: "status" }, t("status.connecting"))];
  // Nothing to show: why, and the way back (as an unknown room's page, links.js).
  if (page.status === "missing") return [messagePanel(t("stats.unknown"))];
  if (page.status === "error") return [messagePanel(t("error.network"))];
  const { player, stats = {} } = page.data;
  const rows = [
    ["matches", num(stats.matches)],
    ["wins", num(stats.wins)],
    ["win_rate", pct(stats.win_rate)],
    ["rounds", num(stats.rounds)],
    ["gins", num(stats.gins)],
    ["undercuts_scored", num(stats.undercuts_scored)],
    ["undercuts_suffered", num(stats.undercuts_suffered)],
    ["points_per_round", num(stats.points_per_round, 1)],
  ];
  const best = stats.best_match;
  const levels = Object.entries(stats.vs_computer ?? {});
  const mine = state.me?.id === player.id;
  return [
    h("h1", { class: "page-title" }, t("stats.title", { name: playerTag(player) })),
    mine || !player.id
      ? null
      : h(
          "p",
          { class: "peer-row" },
          peerButton({
            player: player.id,
            name: playerTag(player),
            place: "player",
            room: null,
            key: "peer-player",
          }),
        ),
    // Befriend from a player page (docs/accounts.md, "Friends"): the Friends dialog answers.
    mine
      ? null
      : h(
          "p",
          {},
          h(
            "button",
            {
              type: "button",
              class: "button",
              dataset: { cmd: "befriend", arg: player.id, key: `befriend-${player.id}` },
            },
            t("friends.add"),
          ),
        ),
    h(
      "section",
      { class: "panel rating-card", "aria-labelledby": "rating-h" },
      h("h2", { id: "rating-h" }, t("lobby.rating")),
      h(
        "p",
        { class: "big-rating" },
        h("strong", { id: "player-rating" }, ratingText(player)),
        " ",
        h("span", { class: "hint" }, t("stats.rd", { rd: Math.round(player.rd ?? 0) })),
      ),
      h(
        "p",
        {},
        t("stats.rated_matches", { n: player.rated_matches ?? 0 }),
        player.leaver ? h("span", { class: "badge leaver" }, t("lobby.leaver")) : null,
      ),
      mine ? h("p", { class: "hint" }, t("stats.yours")) : null,
    ),
    h(
      "section",
      { class: "panel", "aria-labelledby": "stats-h" },
      h("h2", { id: "stats-h" }, t("stats.heading")),
      h(
        "dl",
        { class: "stat-grid" },
        ...rows.flatMap(([key, value]) => [
          h("div", { class: "stat" }, h("dt", {}, t(`stats.${key}`)), h("dd", {}, value)),
        ]),
        h(
          "div",
          { class: "stat" },
          h("dt", {}, t("stats.best_match")),
          h(
            "dd",
            {},
            best
              ? h(
                  "a",
                  {
                    href: `/r/${encodeURIComponent(best.room)}`,
                    dataset: { nav: `/r/${best.room}` },
                  },
                  best.forfeit
                    ? t(`stats.best_match.${best.forfeit}`)
                    : tn("stats.best_match.value", best.margin, { n: best.margin }),
                )
              : "–",
          ),
        ),
      ),
    ),
    h(
      "section",
      { class: "panel", "aria-labelledby": "history-h" },
      h("h2", { id: "history-h" }, t("stats.history")),
      ratingChart(stats.rating_history),
    ),
    renderMatches(state, page.data.matches ?? []),
    renderTournaments(page.data.tournaments ?? []),
    h(
      "section",
      { class: "panel", "aria-labelledby": "bots-h" },
      h("h2", { id: "bots-h" }, t("stats.vs_computer")),
      levels.length
        ? h(
            "table",
            { class: "data-table" },
            h(
              "thead",
              {},
              h(
                "tr",
                {},
                h("th", { scope: "col" }, t("home.level")),
                h("th", { scope: "col" }, t("stats.matches")),
                h("th", { scope: "col" }, t("stats.wins")),
              ),
            ),
            h(
              "tbody",
              {},
              ...levels.map(([level, v]) =>
                h(
                  "tr",
                  {},
                  h("th", { scope: "row" }, computerName(level)),
                  h("td", {}, num(v.matches)),
                  h("td", {}, num(v.wins)),
                ),
              ),
            ),
          )
        : h("p", { class: "hint" }, t("stats.vs_computer.none")),
    ),
    h(
      "p",
      {},
      h(
        "a",
        {
          class: "button secondary",
          href: "/leaderboard",
          dataset: { nav: "/leaderboard" },
        },
        t("nav.leaderboard"),
      ),
      " ",
      h(
        "a",
        { class: "button secondary", href: "/lobby", dataset: { nav: "/lobby" } },
        t("nav.lobby"),
      ),
    ),
  ];
}

/**
 * The player's recent matches, newest first (GET /api/players/{id}, `matches`), each
 * with a link to its review while the room still keeps that match.
 * @param {State} state
 * @param {{room: string, opponent: {id: string, name: string|null}|null, bot: string|null, won: boolean,
 *   forfeit: string|null, t: number, review: string|null}[]} matches
 */
function renderMatches(state, matches) {
  const date = new Intl.DateTimeFormat(language(), {
    dateStyle: "medium",
    timeStyle: "short",
  });
  const opponent = (/** @type {typeof matches[number]} */ m) =>
    m.opponent
      ? h(
          "a",
          {
            href: `/p/${encodeURIComponent(m.opponent.id)}`,
            dataset: { nav: `/p/${m.opponent.id}` },
          },
          m.opponent.name ?? m.opponent.id,
        )
      : t("stats.list.computer", { level: m.bot ? computerName(m.bot) : "" });
  return h(
    "section",
    { class: "panel", "aria-labelledby": "matches-h" },
    h("h2", { id: "matches-h" }, t("stats.list")),
    matches.length
      ? h(
          "table",
          { class: "data-table match-list" },
          h(
            "thead",
            {},
            h(
              "tr",
              {},
              ...["date", "opponent", "result", "review"].map((key) =>
                h("th", { scope: "col" }, t(`stats.list.${key}`)),
              ),
            ),
          ),
          h(
            "tbody",
            {},
            ...matches.map((m) =>
              h(
                "tr",
                {},
                h("td", {}, date.format(new Date(m.t * 1000))),
                h("td", {}, opponent(m)),
                h(
                  "td",
                  {},
                  t(m.won ? "stats.list.won" : "stats.list.lost"),
                  m.forfeit ? ` (${t(`stats.list.${m.forfeit}`)})` : "",
                ),
                h(
                  "td",
                  {},
                  m.review
                    ? h(
                        "a",
                        { href: m.review, dataset: { nav: m.review } },
                        t("stats.list.review"),
                      )
                    : "–",
                ),
              ),
            ),
          ),
        )
      : h("p", { class: "hint" }, t("stats.list.none")),
  );
}

/**
 * @typedef {object} PlayedTournament  a tournament the player played (GET /api/players/{id})
 * @property {string} id
 * @property {string} name
 * @property {"knockout"|"swiss"} format
 * @property {number} placing  the place so far, 1 the best
 * @property {number} of       players in the tournament
 * @property {boolean} finished
 */

/**
 * The rows of the tournaments table: link, name, format and place in words. Pure, so it
 * is tested under node.
 * @param {PlayedTournament[]} tournaments
 */
export function tournamentRows(tournaments) {
  return tournaments.map((x) => ({
    href: `/t/${encodeURIComponent(x.id)}`,
    name: x.name,
    format: t(`tournament.format.${x.format}`),
    placing: t(
      x.finished ? "stats.tournaments.place" : "stats.tournaments.place.running",
      { n: x.placing, of: x.of },
    ),
  }));
}

/**
 * The tournaments the player played, newest first, with their place.
 * @param {PlayedTournament[]} tournaments
 */
function renderTournaments(tournaments) {
  const rows = tournamentRows(tournaments);
  return h(
    "section",
    { class: "panel", "aria-labelledby": "tournaments-h" },
    h("h2", { id: "tournaments-h" }, t("stats.tournaments")),
    rows.length
      ? h(
          "table",
          { class: "data-table tournament-list" },
          h(
            "thead",
            {},
            h(
              "tr",
              {},
              ...["name", "format", "placing"].map((key) =>
                h("th", { scope: "col" }, t(`stats.tournaments.${key}`)),
              ),
            ),
          ),
          h(
            "tbody",
            {},
            ...rows.map((r) =>
              h(
                "tr",
                {},
                h("td", {}, h("a", { href: r.href, dataset: { nav: r.href } }, r.name)),
                h("td", {}, r.format),
                h("td", {}, r.placing),
              ),
            ),
          ),
        )
      : h("p", { class: "hint" }, t("stats.tournaments.none")),
  );
}

/** @param {State} state */
export function renderLeaderboard(state) {
  const page = state.page;
  if (page.status === "loading")
    return [h("p", { class: "panel", role: "status" }, t("status.connecting"))];
  if (page.status !== "ok")
    return [
      h(
        "section",
        { class: "panel message" },
        h("p", { role: "alert" }, t("error.network")),
      ),
    ];
  /** @type {import("./types.js").PlayerSummary[]} */
  const players = page.data.players ?? [];
  return [
    h("h1", { class: "page-title" }, t("board.title")),
    h(
      "section",
      { class: "panel" },
      players.length
        ? h(
            "table",
            { class: "data-table leaderboard" },
            h("caption", {}, t("board.caption")),
            h(
              "thead",
              {},
              h(
                "tr",
                {},
                h("th", { scope: "col" }, t("board.rank")),
                h("th", { scope: "col" }, t("board.player")),
                h("th", { scope: "col" }, t("lobby.rating")),
                h("th", { scope: "col" }, t("board.matches")),
              ),
            ),
            h(
              "tbody",
              {},
              ...players.map((p, i) =>
                h(
                  "tr",
                  { class: p.id === state.me?.id ? "me" : "" },
                  h("td", {}, String(i + 1)),
                  h("th", { scope: "row" }, playerLabel({ ...p, rating: null })),
                  h("td", {}, ratingText(p)),
                  h("td", {}, String(p.rated_matches ?? 0)),
                ),
              ),
            ),
          )
        : h("p", { class: "hint" }, t("board.none")),
    ),
    h(
      "p",
      {},
      h(
        "a",
        { class: "button secondary", href: "/lobby", dataset: { nav: "/lobby" } },
        t("nav.lobby"),
      ),
    ),
  ];
}
