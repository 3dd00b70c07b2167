// The start page: play alone, open a room, resume a game, and the rules in brief.
// A pure function of the client state.
import { h } from "./dom.js";
import { t, has, computerName, levelId, levelName } from "./i18n.js";
import { renderDeviceResume, renderTally } from "./device/page.js";

/** @typedef {import("./types.js").State} State */

const TARGETS = [50, 100, 200];
const PRESETS = ["standard", "oklahoma", "classic", "first-to-knock"];
/** How many seats a chouette table may have (docs/rules.md §8). */
const CHOUETTE_SEATS = [3, 4, 5];

/**
 * @param {string} id
 * @param {string} labelText
 * @param {HTMLElement} control
 */
export function field(id, labelText, control) {
  return h("div", { class: "field" }, h("label", { for: id }, labelText), control);
}

/**
 * @param {string} id
 * @param {string} name
 * @param {(string|number)[][]} options  pairs of value and label
 * @param {string|number|null} value
 * @param {Record<string, unknown>} [extra]
 */
function select(id, name, options, value, extra = {}) {
  const el = h(
    "select",
    { id, name, dataset: { field: name, key: `field-${id}` }, ...extra },
    ...options.map(([v, label]) =>
      h(
        "option",
        { value: String(v), selected: String(v) === String(value) },
        String(label),
      ),
    ),
  );
  return el;
}

/**
 * Where the start page shows its error (pages/home.js decides): next to the name field
 * when the server refused the name, else under the button the person clicked.
 * @typedef {"name"|"solo"|"room"} ErrorPlace
 */

/** The id of the start page's error, which the name field it is about names. */
export const HOME_ERROR_ID = "home-error";

/**
 * The games of GET /api/me still under way: a finished match (status `over`) is no game to
 * resume; the player's page lists it, with its review (stats.js). A chouette table between
 * matches (`settled`) stays: its next match starts at that table.
 * @param {Record<string, any>[]} games
 */
export function runningGames(games) {
  return games.filter((game) => game.status !== "over");
}

/**
 * @param {State} state
 * @param {ErrorPlace} [errorAt]
 */
export function renderHome(state, errorAt = "room") {
  const { home } = state;
  // The error where the person is (the room's join form does so too, render.js renderJoin):
  // a page-top notice is out of sight when "Open a room" is below the fold.
  const error = home.error
    ? h("p", { id: HOME_ERROR_ID, class: "notice error", role: "alert" }, home.error)
    : null;
  const nameInvalid = Boolean(error) && errorAt === "name";
  const errorAfter = (/** @type {ErrorPlace} */ place) =>
    errorAt === place ? error : null;
  const games = runningGames(home.games);
  const form = home.form;
  const levels = home.levels;
  const level = chosenLevel(levels, form.level);
  const levelOptions = levels.map((l) => [levelId(l), levelName(l)]);
  const targetOptions = TARGETS.map((n) => [n, t("home.target.value", { n })]);
  const out = [];
  out.push(
    h(
      "section",
      { class: "hero" },
      h("h1", {}, t("app.title")),
      h("p", { class: "tagline" }, t("app.tagline")),
      h(
        "p",
        {},
        h(
          "a",
          {
            class: "button primary",
            href: "/lobby",
            dataset: { nav: "/lobby", key: "hero-lobby" },
          },
          t("home.to_lobby"),
        ),
        " ",
        h(
          "button",
          {
            type: "button",
            class: "button",
            dataset: { cmd: "account", key: "hero-account" },
          },
          t("account.open"),
        ),
        " ",
        h(
          "button",
          {
            type: "button",
            class: "button",
            dataset: { cmd: "friends", key: "hero-friends" },
          },
          t("friends.open"),
        ),
      ),
    ),
  );
  const onDevice = renderDeviceResume(state);
  if (games.length || onDevice.length) {
    out.push(
      h(
        "section",
        { class: "panel resume", "aria-labelledby": "resume-h" },
        h("h2", { id: "resume-h" }, t("home.resume.title")),
        h(
          "ul",
          { class: "resume-list" },
          ...onDevice,
          ...games.map((game) =>
            h(
              "li",
              {},
              h(
                "a",
                {
                  class: "button secondary",
                  href: resumePath(game),
                  dataset: { nav: resumePath(game), key: `resume-${game.room}` },
                },
                resumeText(game),
              ),
            ),
          ),
        ),
      ),
    );
  }
  const busy = home.busy;
  const firstToKnock = form.preset === "first-to-knock";
  out.push(
    h(
      "div",
      { class: "start-grid" },
      h(
        "section",
        { class: "panel", "aria-labelledby": "solo-h" },
        h("h2", { id: "solo-h" }, t("home.solo.title")),
        h("p", {}, t("home.solo.text")),
        state.online
          ? null
          : h("p", { class: "notice", role: "status" }, t("offline.solo")),
        field(
          "solo-level",
          t("home.level"),
          select("solo-level", "level", levelOptions, level, {
            "aria-describedby": "solo-level-about",
          }),
        ),
        // How the chosen level plays (docs/computer-players.md, "The levels").
        h(
          "p",
          { class: "hint", id: "solo-level-about" },
          has(`level.about.${level}`) ? t(`level.about.${level}`) : "",
        ),
        field(
          "solo-target",
          t("home.target"),
          select("solo-target", "soloTarget", targetOptions, form.soloTarget),
        ),
        // On this device (docs/device.md): no server needed; the verified game is the server's.
        h(
          "button",
          {
            type: "button",
            class: "button primary",
            disabled: busy || !levels.length,
            dataset: { cmd: "play-solo", key: "play-solo" },
          },
          t("home.play_solo"),
        ),
        h("p", { class: "hint" }, t("home.solo.verified")),
        h(
          "button",
          {
            type: "button",
            class: "button secondary",
            disabled: busy || !levels.length || !state.online,
            dataset: { cmd: "play-verified", key: "play-verified" },
          },
          t("home.play_verified"),
        ),
        errorAfter("solo"),
      ),
      h(
        "section",
        { class: "panel", "aria-labelledby": "room-h" },
        h("h2", { id: "room-h" }, t("home.room.title")),
        h("p", {}, t("home.room.text")),
        state.online
          ? null
          : h("p", { class: "notice", role: "status" }, t("offline.room")),
        field(
          "room-name",
          t("home.name"),
          h("input", {
            id: "room-name",
            type: "text",
            maxlength: nameMax(state),
            autocomplete: "nickname",
            value: form.name,
            "aria-invalid": nameInvalid ? "true" : null,
            "aria-describedby": nameInvalid ? HOME_ERROR_ID : null,
            dataset: { field: "name", key: "field-room-name" },
          }),
        ),
        errorAfter("name"),
        field(
          "room-preset",
          t("home.preset"),
          select(
            "room-preset",
            "preset",
            PRESETS.map((p) => [p, t(`preset.${p}`)]),
            form.preset,
          ),
        ),
        field(
          "room-target",
          t("home.target"),
          select("room-target", "roomTarget", targetOptions, form.roomTarget, {
            disabled: firstToKnock,
          }),
        ),
        field(
          "room-players",
          t("home.players"),
          select(
            "room-players",
            "players",
            [
              [2, t("home.players.two")],
              ...CHOUETTE_SEATS.map((n) => [n, t("home.players.chouette", { n })]),
            ],
            form.players ?? 2,
          ),
        ),
        Number(form.players) > 2
          ? h("p", { class: "hint" }, t("home.chouette.text"))
          : null,
        ...renderSeatFields(form, levels),
        h(
          "button",
          {
            type: "button",
            class: "button primary",
            disabled: busy || !state.online,
            dataset: { cmd: "open-room", key: "open-room" },
          },
          t("home.open_room"),
        ),
        errorAfter("room"),
      ),
    ),
  );
  const tally = renderTally(state);
  if (tally) out.push(tally);
  out.push(renderRulesText());
  return out;
}

/**
 * The page of a running game of GET /api/me: a two-player room's or a chouette table's.
 * @param {Record<string, any>} game
 */
function resumePath(game) {
  return `/${game.kind === "chouette" ? "c" : "r"}/${encodeURIComponent(game.room)}`;
}

/** @param {Record<string, any>} game */
function resumeText(game) {
  if (game.kind === "chouette") {
    return game.status === "waiting"
      ? t("home.resume.chouette_waiting")
      : t("home.resume.chouette", {
          others: game.others
            .map((/** @type {string|null} */ name, /** @type {number} */ i) => {
              const level = game.others_bots?.[i];
              return level ? computerName(level) : name;
            })
            .join(", "),
        });
  }
  const opponent = game.opponent_bot ? computerName(game.opponent_bot) : game.opponent;
  return opponent
    ? t("home.resume.item", { kind: t(`kind.${game.kind}`), opponent })
    : t("home.resume.waiting");
}

/**
 * One select per seat beyond the creator's: a friend (by the invite link) or a computer.
 * @param {import("./types.js").HomeForm} form
 * @param {Record<string, any>[]} levels
 */
function renderSeatFields(form, levels) {
  const players = Math.max(2, Number(form.players ?? 2));
  const options = [
    ["friend", t("home.seat2.friend")],
    ...levels.map((l) => [
      `bot:${levelId(l)}`,
      t("home.seat2.bot", { level: levelName(l) }),
    ]),
  ];
  const names = /** @type {const} */ (["seat2", "seat3", "seat4", "seat5"]);
  return names
    .slice(0, players - 1)
    .map((name, i) =>
      field(
        `room-${name}`,
        players > 2 ? t("home.seat_n", { n: i + 2 }) : t("home.seat2"),
        select(`room-${name}`, name, options, form[name] ?? "friend"),
      ),
    );
}

function renderRulesText() {
  const qa = (/** @type {string} */ key) =>
    h(
      "details",
      { class: "faq" },
      h("summary", {}, t(`rules.faq.${key}.q`)),
      h("p", {}, t(`rules.faq.${key}.a`)),
    );
  return h(
    "article",
    { class: "panel rules", "aria-labelledby": "rules-h" },
    h("h2", { id: "rules-h" }, t("rules.how.title")),
    h("p", {}, t("rules.how.p1")),
    h("p", {}, t("rules.how.p2")),
    h("h3", {}, t("rules.example.title")),
    h("p", {}, t("rules.example.p")),
    h("h3", {}, t("rules.steps.title")),
    h("ol", {}, ...[1, 2, 3, 4].map((n) => h("li", {}, t(`rules.steps.${n}`)))),
    h("h3", {}, t("rules.scoring.title")),
    h(
      "dl",
      { class: "scoring" },
      ...["melds", "deadwood", "undercut", "match"].flatMap((k) => [
        h("dt", {}, t(`rules.scoring.${k}`)),
        h("dd", {}, t(`rules.scoring.${k}.d`)),
      ]),
    ),
    h("h3", {}, t("rules.special.title")),
    ...["ace", "layoff", "stock", "upcard"].map(qa),
    h("h3", {}, t("rules.mistakes.title")),
    h("ul", {}, ...[1, 2, 3].map((n) => h("li", {}, t(`rules.mistakes.${n}`)))),
    h("h3", {}, t("rules.strategy.title")),
    h(
      "dl",
      { class: "scoring" },
      ...[1, 2].flatMap((n) => [
        h("dt", {}, t(`rules.strategy.${n}.t`)),
        h("dd", {}, t(`rules.strategy.${n}.d`)),
      ]),
    ),
    h("h3", {}, t("rules.variant.title")),
    h("p", {}, t("rules.variant.p")),
    h("h3", {}, t("rules.faq.title")),
    ...["tips", "solo", "bot", "shuffle", "ai"].map(qa),
  );
}

/**
 * The longest name the server takes, for a text field's maxlength (none before the config).
 * @param {State} state
 */
export function nameMax(state) {
  return state.config ? String(state.config.limits.name.max) : null;
}

/**
 * The levels as GET /api/levels lists them (or the remembered list), in the server's
 * order (the ladder, weakest first), the server's default marked `default: true`.
 * @param {any} data
 * @returns {Record<string, any>[]}
 */
export function normaliseLevels(data) {
  /** @type {unknown[]} */
  const all = Array.isArray(data) ? data : (data?.levels ?? []);
  const items = /** @type {Record<string, any>[]} */ (
    all.filter((item) => item && typeof item === "object")
  );
  const preferred = data?.default;
  return items.map((item) => ({ ...item, default: levelId(item) === preferred }));
}

/**
 * The level a start form offers when the person has not chosen one: the server's
 * default, else the first ("" with none).
 * @param {Record<string, any>[]} levels  as from {@link normaliseLevels}
 * @param {string|null|undefined} chosen  the form's level, if the person chose one
 * @returns {string}
 */
export function chosenLevel(levels, chosen) {
  if (chosen) return chosen;
  const level = levels.find((l) => l.default) ?? levels[0];
  return level ? levelId(level) : "";
}
