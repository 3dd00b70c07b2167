// Tournaments in the page (docs/protocol.md, Tournaments): the tournament page (players,
// the live bracket of a knockout and its final standings, the standings of a Swiss,
// pairings with links to play or watch, the winner), the lobby's section (open and
// running tournaments, the create form) and, at a tournament's table, the way back to
// its page. Pure functions of the client state; the server decides everything shown.
import { h } from "./dom.js";
import { t, computerName } from "./i18n.js";
import { accountNeeded } from "./lobby.js";
import { messagePanel } from "./links.js";

/** @typedef {import("./types.js").State} State */
/** @typedef {Record<string, any>} Tournament  the body of GET /api/tournaments/<id> */

/**
 * The create form's values, as its fields hold them.
 * @typedef {{name: string, format: string, size: string, preset: string, target: string,
 *   timer: string, rated: boolean, start: string, public: boolean, fill: string,
 *   play: boolean}} TournamentForm
 */

/** @type {Readonly<TournamentForm>} */
export const TOURNAMENT_DEFAULTS = Object.freeze({
  name: "",
  format: "knockout",
  size: "8",
  preset: "standard",
  target: "100",
  timer: "off",
  rated: false,
  start: "full",
  public: true,
  fill: "casual",
  play: true,
});
const SIZES = ["4", "8", "16", "32", "64"];
const PRESETS = ["standard", "oklahoma", "classic", "first-to-knock"];
const TARGETS = ["10", "50", "100", "200"];
const TIMERS = ["off", "30", "60"];
const STARTS = ["full", "5", "15", "60"];
const FILLS = ["none", "beginner", "casual", "strong", "expert"];

/**
 * The create form's values: the defaults under what the person chose.
 * @param {State} state
 * @returns {TournamentForm}
 */
export function tournamentForm(state) {
  return { ...TOURNAMENT_DEFAULTS, .../** @type {any} */ (state).tournamentForm };
}

/**
 * The body of POST /api/tournaments for the form's values.
 * @param {TournamentForm} form
 * @param {number} now  the server's clock, unix seconds
 */
export function createBody(form, now) {
  return {
    name: form.name.trim() || t("tournament.default_name"),
    format: form.format,
    max_players: Number(form.size),
    rules_preset: form.preset,
    target_score: form.preset === "first-to-knock" ? null : Number(form.target),
    move_timer_seconds: form.timer === "off" ? null : Number(form.timer),
    rated: Boolean(form.rated),
    start_at: form.start === "full" ? null : now + 60 * Number(form.start),
    public: Boolean(form.public),
    computer_level: form.fill === "none" ? null : form.fill,
    join: Boolean(form.play), // create and play: the creator takes a place in the same write
  };
}

/**
 * @param {string} id
 * @param {string} label
 * @param {HTMLElement} control
 */
function field(id, label, control) {
  return h("div", { class: "field" }, h("label", { for: id }, label), control);
}

/**
 * @param {string} key  the form's field
 * @param {string[]} values
 * @param {string} value
 * @param {(v: string) => string} label
 */
function choice(key, values, value, label) {
  const id = `t-${key}`;
  return field(
    id,
    t(`tournament.form.${key}`),
    h(
      "select",
      { id, dataset: { field: `tform.${key}`, key: `field-${id}` } },
      ...values.map((v) => h("option", { value: v, selected: v === value }, label(v))),
    ),
  );
}

/**
 * @param {string} key
 * @param {boolean} checked
 * @param {Record<string, unknown>} [extra]  more of the box's attributes
 */
function flag(key, checked, extra = {}) {
  const id = `t-${key}`;
  return h(
    "label",
    { class: "check", for: id },
    h("input", {
      id,
      type: "checkbox",
      checked,
      dataset: { field: `tform.${key}`, key: `field-${id}` },
      ...extra,
    }),
    " ",
    t(`tournament.form.${key}`),
  );
}

/**
 * The lobby's tournaments: the open and running ones and the create form.
 * @param {State} state
 * @returns {HTMLElement}
 */
export function renderTournamentsSection(state) {
  const list = /** @type {Tournament[]} */ (state.lobby.data?.tournaments ?? []);
  const form = tournamentForm(state);
  const error = /** @type {any} */ (state).tournamentError;
  const account = Boolean(state.me?.account);
  return h(
    "section",
    { class: "panel tournaments", "aria-labelledby": "tournaments-h" },
    h("h2", { id: "tournaments-h" }, t("tournament.list", { n: list.length })),
    list.length
      ? h(
          "ul",
          { class: "tournament-list" },
          ...list.map((x) =>
            h(
              "li",
              {},
              h(
                "a",
                {
                  href: `/t/${encodeURIComponent(x.id)}`,
                  dataset: { nav: `/t/${x.id}` },
                },
                x.name,
              ),
              " ",
              h(
                "span",
                { class: "hint" },
                t("tournament.summary", {
                  format: t(`tournament.format.${x.format}`),
                  n: x.players,
                  max: x.max_players,
                  phase: t(`tournament.phase.${x.phase}`),
                }),
              ),
            ),
          ),
        )
      : h("p", { class: "hint" }, t("tournament.none")),
    h("h3", {}, t("tournament.create")),
    error ? h("p", { class: "notice error", role: "alert" }, error) : null,
    field(
      "t-name",
      t("tournament.form.name"),
      h("input", {
        id: "t-name",
        type: "text",
        maxlength: 60,
        value: form.name,
        dataset: { field: "tform.name", key: "field-t-name" },
      }),
    ),
    choice("format", ["knockout", "swiss"], form.format, (v) =>
      t(`tournament.format.${v}`),
    ),
    choice("size", SIZES, form.size, (v) => t("tournament.form.size.value", { n: v })),
    choice("preset", PRESETS, form.preset, (v) => t(`preset.${v}`)),
    form.preset === "first-to-knock"
      ? null
      : choice("target", TARGETS, form.target, (v) => t("home.target.value", { n: v })),
    choice("timer", TIMERS, form.timer, (v) =>
      v === "off" ? t("lobby.timer.off") : t("lobby.timer.value", { s: v }),
    ),
    choice("start", STARTS, form.start, (v) =>
      v === "full"
        ? t("tournament.form.start.full")
        : t("tournament.form.start.in", { n: v }),
    ),
    choice("fill", FILLS, form.fill, (v) =>
      v === "none"
        ? t("tournament.form.fill.none")
        : t("tournament.form.fill.level", { level: computerName(v) }),
    ),
    // rated play counts accounts only (issue 22): a guest's tournament is unrated
    flag("rated", account && Boolean(form.rated), {
      disabled: !account,
      "aria-describedby": account ? null : "t-account-text",
    }),
    account ? null : accountNeeded("t-account"),
    flag("public", Boolean(form.public)),
    flag("play", Boolean(form.play)),
    h(
      "button",
      {
        type: "button",
        class: "button primary",
        dataset: { cmd: "t-create", key: "t-create" },
      },
      t(form.play ? "tournament.create_play" : "tournament.create"),
    ),
  );
}

/**
 * @param {Tournament} tour
 * @param {string|null} id
 */
function nameOf(tour, id) {
  if (!id) return t("tournament.bye");
  const entrant = (tour.entrants ?? []).find((/** @type {any} */ e) => e.id === id);
  return entrant ? entrantName(entrant) : id;
}

/**
 * An entrant's name: a computer's is its level's name in the page's language and its
 * number in the tournament (its id `computer:<level>:<n>`, docs/tournaments.md).
 * @param {Record<string, any>} entrant
 */
export function entrantName(entrant) {
  if (!entrant.computer) return entrant.name;
  const number = String(entrant.id).split(":").at(-1);
  return `${computerName(entrant.computer)} ${number}`;
}

/**
 * The tournament page.
 * @param {State} state
 * @returns {(HTMLElement|null)[]}
 */
export function renderTournament(state) {
  const page = state.page;
  if (page.status === "loading")
    return [h("p", { class: "panel", role: "status" }, t("status.connecting"))];
  // Nothing to show: why, and the way back (as an unknown room's page, links.js).
  if (page.status !== "ok" || !page.data?.tournament)
    return [
      messagePanel(t(page.status === "missing" ? "tournament.unknown" : "error.network")),
    ];
  /** @type {Tournament} */
  const tour = page.data.tournament;
  const me = state.me?.id ?? null;
  const error = /** @type {any} */ (state).tournamentError;
  return [
    h("h1", { class: "page-title" }, tour.name),
    h("p", { role: "status", "aria-label": t("tournament.status") }, statusLine(tour)),
    error ? h("p", { class: "notice error", role: "alert" }, error) : null,
    notPlaying(tour, me),
    actions(tour, me),
    tour.winner
      ? h(
          "p",
          { class: "notice winner" },
          t("tournament.winner", { name: nameOf(tour, tour.winner) }),
        )
      : null,
    tour.format === "knockout" && tour.phase === "finished" && tour.rounds.length
      ? renderPlacings(tour, me)
      : null,
    renderPlayers(tour, me),
    tour.format === "knockout" ? renderBracket(tour, me) : renderSwiss(tour, me),
  ];
}

/**
 * @param {Tournament} tour
 * @param {string|null} me
 */
function joined(tour, me) {
  return (tour.entrants ?? []).some((/** @type {any} */ e) => e.id === me);
}

/**
 * Said plainly to a creator who did not take a place: a tournament created without
 * playing (the form's "I will play in it" unchecked) is played out by the others.
 * @param {Tournament} tour
 * @param {string|null} me
 */
function notPlaying(tour, me) {
  if (me === null || me !== tour.creator || joined(tour, me)) return null;
  return h("p", { class: "notice not-playing" }, t("tournament.not_playing"));
}

/** @param {Tournament} tour */
function statusLine(tour) {
  const phase = t(`tournament.phase.${tour.phase}`);
  const what = t("tournament.summary", {
    format: t(`tournament.format.${tour.format}`),
    n: tour.entrants.length,
    max: tour.max_players,
    phase,
  });
  return tour.phase === "running"
    ? `${what} · ${t("tournament.round", { n: tour.round, of: tour.planned_rounds })}`
    : what;
}

/**
 * @param {Tournament} tour
 * @param {string|null} me
 */
function actions(tour, me) {
  const playing = joined(tour, me);
  /** @type {HTMLElement[]} */
  const buttons = [];
  /** @param {string} cmd */
  const button = (cmd) =>
    h(
      "button",
      { type: "button", class: "button", dataset: { cmd: `t-${cmd}`, key: `t-${cmd}` } },
      t(`tournament.act.${cmd}`),
    );
  if (tour.phase === "open") {
    buttons.push(button(playing ? "leave" : "join"));
    if (me === tour.creator) buttons.push(button("start"));
  } else if (tour.phase === "running" && playing) {
    const out = (tour.entrants ?? []).some(
      (/** @type {any} */ e) => e.id === me && e.withdrawn,
    );
    if (!out) buttons.push(button("withdraw"));
  }
  return buttons.length ? h("div", { class: "actions" }, ...buttons) : null;
}

/**
 * @param {Tournament} tour
 * @param {string|null} me
 */
function renderPlayers(tour, me) {
  return h(
    "section",
    { class: "panel", "aria-labelledby": "t-players-h" },
    h(
      "h2",
      { id: "t-players-h" },
      t("tournament.players", { n: tour.entrants.length, max: tour.max_players }),
    ),
    h(
      "ol",
      {},
      ...tour.entrants.map((/** @type {any} */ e) =>
        h(
          "li",
          {},
          e.id === me ? h("strong", {}, entrantName(e)) : entrantName(e),
          e.computer ? ` (${t("name.computer")})` : ` (${Math.round(e.rating)})`,
          e.withdrawn ? ` – ${t("tournament.withdrawn")}` : null,
        ),
      ),
    ),
  );
}

/**
 * One pairing: the two names, the result, a link to play or watch.
 * @param {Tournament} tour
 * @param {any} p
 * @param {string|null} me
 */
function pairingItem(tour, p, me) {
  const first = nameOf(tour, p.first);
  if (!p.second)
    return h("li", { class: "pairing bye" }, t("tournament.has_bye", { name: first }));
  const second = nameOf(tour, p.second);
  const r = p.result;
  const mine = me === p.first || me === p.second;
  const score = r ? resultText(tour, r) : null;
  const link =
    !r && p.room
      ? h(
          "a",
          {
            class: "button secondary",
            href: `/r/${encodeURIComponent(p.room)}`,
            dataset: { nav: `/r/${p.room}` },
          },
          t(mine ? "tournament.play" : "tournament.watch"),
        )
      : null;
  return h(
    "li",
    { class: mine ? "pairing mine" : "pairing" },
    h("span", {}, t("tournament.versus", { a: first, b: second })),
    p.third_place ? ` (${t("tournament.third_place")})` : null,
    score ? h("span", { class: "result" }, ` – ${score}`) : null,
    " ",
    link,
  );
}

/**
 * A knockout round's heading: its number, and the final, semi-finals and
 * quarter-finals by name.
 * @param {number} number
 * @param {number} total  the rounds of the bracket
 */
function roundTitle(number, total) {
  const stage = stageName(number, total);
  return stage
    ? t("tournament.round_stage", { n: number, stage })
    : t("tournament.round_n", { n: number });
}

/**
 * The final, semi-finals or quarter-finals by name; null for earlier rounds.
 * @param {number} number
 * @param {number} total  the rounds of the bracket
 */
function stageName(number, total) {
  const stage = ["final", "semi", "quarter"][total - number];
  return stage ? t(`tournament.stage.${stage}`) : null;
}

/**
 * One match of the bracket as a box: the two players (the winner marked), then the
 * result or the link to play or watch. Its text reads "A versus B – result" (the
 * joining words are there for screen readers, the box shows the players one above
 * the other).
 * @param {Tournament} tour
 * @param {any} p  a pairing; null: not paired yet
 * @param {string|null} me
 */
function matchBox(tour, p, me) {
  if (!p) return h("div", { class: "match tbd" }, t("tournament.tbd"));
  if (!p.second)
    return h(
      "div",
      { class: "match bye" },
      t("tournament.has_bye", { name: nameOf(tour, p.first) }),
    );
  const r = p.result;
  const mine = me === p.first || me === p.second;
  /** @param {string} id */
  const slot = (id) =>
    h(
      "span",
      { class: `slot${r && r.winner === id ? " won" : ""}${id === me ? " me" : ""}` },
      nameOf(tour, id),
    );
  return h(
    "div",
    { class: `match${mine ? " mine" : ""}` },
    slot(p.first),
    h("span", { class: "visually-hidden" }, ` ${t("tournament.vs")} `),
    slot(p.second),
    r ? h("span", { class: "visually-hidden" }, " – ") : null,
    r ? h("span", { class: "outcome" }, resultText(tour, r)) : null,
    r || !p.room ? null : " ",
    r || !p.room
      ? null
      : h(
          "a",
          {
            class: "button secondary",
            href: `/r/${encodeURIComponent(p.room)}`,
            dataset: { nav: `/r/${p.room}` },
          },
          t(mine ? "tournament.play" : "tournament.watch"),
        ),
  );
}

/**
 * How a decided match ended, in words.
 * @param {Tournament} tour
 * @param {any} r  a pairing's result
 */
function resultText(tour, r) {
  return r.reason === "played"
    ? t("tournament.result", {
        winner: nameOf(tour, r.winner),
        a: r.first_points,
        b: r.second_points,
      })
    : t(`tournament.result.${r.reason}`, {
        winner: r.winner ? nameOf(tour, r.winner) : "–",
      });
}

/**
 * One column of the bracket: a list named by its heading, with a box for every match
 * of the round (those of rounds not yet paired to be decided), in board order, so
 * that each box sits between the two it comes from (the CSS draws the lines).
 * @param {string} id  the heading's id
 * @param {string} title
 * @param {any[]} slots  pairings, null where not paired yet
 * @param {Tournament} tour
 * @param {string|null} me
 */
function bracketColumn(id, title, slots, tour, me) {
  return h(
    "div",
    { class: "bracket-round" },
    h("h3", { id }, title),
    h(
      "ol",
      { class: "bracket-matches", "aria-labelledby": id },
      ...slots.map((p) => h("li", { class: "bracket-slot" }, matchBox(tour, p, me))),
    ),
  );
}

/**
 * The knockout's bracket: a column per round of the whole bracket (the server's
 * `planned_rounds`: round r has 2^(rounds - r) boards, docs/tournaments.md), scrolling
 * sideways on its own where the page is narrower; the third-place match under it.
 * @param {Tournament} tour
 * @param {string|null} me
 */
function renderBracket(tour, me) {
  const total = Math.max(tour.planned_rounds ?? 0, tour.rounds.length);
  /** @type {any[]} */
  const paired = tour.rounds;
  const columns = Array.from({ length: total }, (_, i) => {
    const pairings =
      paired[i]?.pairings.filter((/** @type {any} */ p) => !p.third_place) ?? [];
    const slots = Array.from(
      { length: 2 ** (total - i - 1) },
      (_, b) => pairings.find((/** @type {any} */ p) => p.board === b + 1) ?? null,
    );
    return bracketColumn(`t-round-${i + 1}-h`, roundTitle(i + 1, total), slots, tour, me);
  });
  const last = paired.length === total ? paired[total - 1] : null;
  const third = last?.pairings.find((/** @type {any} */ p) => p.third_place) ?? null;
  const thirdShown = third || (total > 1 && tour.settings?.third_place && !last);
  return h(
    "section",
    { class: "panel bracket", "aria-labelledby": "t-bracket-h" },
    h("h2", { id: "t-bracket-h" }, t("tournament.bracket")),
    total ? null : h("p", { class: "hint" }, t("tournament.not_started")),
    total
      ? h(
          "div",
          {
            class: "bracket-scroll",
            role: "group",
            tabindex: "0",
            "aria-labelledby": "t-bracket-h",
          },
          h("div", { class: "bracket-rounds" }, ...columns),
        )
      : null,
    thirdShown
      ? h(
          "div",
          { class: "bracket-third" },
          bracketColumn(
            "t-third-h",
            t("tournament.third_place_match"),
            [third],
            tour,
            me,
          ),
        )
      : null,
  );
}

/**
 * How far a knockout player got: the tournament won, else the round they went out in.
 * @param {any} placing
 * @param {number} total  the rounds of the bracket
 */
function reachedText(placing, total) {
  if (placing.reached > total) return t("tournament.reached.won");
  return (
    stageName(placing.reached, total) ?? t("tournament.round_n", { n: placing.reached })
  );
}

/**
 * A finished knockout's standings: every entrant's place (shared by the players out in
 * the same round; the server's `placings`, docs/tournaments.md), how far they got.
 * @param {Tournament} tour
 * @param {string|null} me
 */
function renderPlacings(tour, me) {
  const total = Math.max(tour.planned_rounds ?? 0, tour.rounds.length);
  const rows = tour.placings ?? [];
  return h(
    "section",
    { class: "panel standings", "aria-labelledby": "t-final-h" },
    h("h2", { id: "t-final-h" }, t("tournament.final_standings")),
    h(
      "table",
      { class: "data-table placings", "aria-labelledby": "t-final-h" },
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          ...["place", "player", "reached", "points_scored"].map((c) =>
            h("th", { scope: "col" }, t(`tournament.col.${c}`)),
          ),
        ),
      ),
      h(
        "tbody",
        {},
        ...rows.map((/** @type {any} */ p) =>
          h(
            "tr",
            { class: p.player === me ? "me" : null },
            h("td", {}, p.place),
            h("th", { scope: "row" }, nameOf(tour, p.player)),
            h("td", {}, reachedText(p, total)),
            h("td", {}, p.points_scored),
          ),
        ),
      ),
    ),
  );
}

/**
 * The Swiss: standings with their tie-breaks, then each round's pairings.
 * @param {Tournament} tour
 * @param {string|null} me
 */
function renderSwiss(tour, me) {
  const rows = tour.standings ?? [];
  return h(
    "section",
    { class: "panel swiss", "aria-labelledby": "t-standings-h" },
    h("h2", { id: "t-standings-h" }, t("tournament.standings")),
    rows.length
      ? h(
          "table",
          { class: "data-table", "aria-labelledby": "t-standings-h" },
          h(
            "thead",
            {},
            h(
              "tr",
              {},
              ...[
                "rank",
                "player",
                "match_points",
                "buchholz",
                "sonneborn_berger",
                "head_to_head",
                "points_scored",
              ].map((c) => h("th", { scope: "col" }, t(`tournament.col.${c}`))),
            ),
          ),
          h(
            "tbody",
            {},
            ...rows.map((/** @type {any} */ s) =>
              h(
                "tr",
                {},
                h("td", {}, s.rank),
                h("th", { scope: "row" }, nameOf(tour, s.player)),
                h("td", {}, s.match_points),
                h("td", {}, s.buchholz),
                h("td", {}, s.sonneborn_berger),
                h("td", {}, s.head_to_head),
                h("td", {}, s.points_scored),
              ),
            ),
          ),
        )
      : h("p", { class: "hint" }, t("tournament.not_started")),
    ...tour.rounds.map((/** @type {any} */ r) =>
      h(
        "section",
        { "aria-label": t("tournament.round_n", { n: r.round }) },
        h("h3", {}, t("tournament.round_n", { n: r.round })),
        h(
          "ul",
          {},
          ...r.pairings.map((/** @type {any} */ p) => pairingItem(tour, p, me)),
        ),
      ),
    ),
  );
}
