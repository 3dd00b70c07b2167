// The lobby page: who you are (nickname, rating), quick match, creating a table, and the
// live lists of open tables and running matches. A pure function of the client state.
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { playerTag, ratingText } from "./players.js";

/** @typedef {import("./types.js").State} State */
/** @typedef {import("./types.js").PlayerSummary} PlayerSummary */
/** @typedef {Partial<PlayerSummary> & {bot?: string|null}} PlayerLike  a summary, or a computer */

const PRESETS = ["standard", "oklahoma", "classic", "first-to-knock"];
const TARGETS = [50, 100, 200];
export const TIMERS = ["off", "30", "60"];
export const QUICK_OFFER_S = 20;

/**
 * A player's name as a link to their statistics, with rating and a leaver mark.
 * @param {PlayerLike|null|undefined} player
 * @param {{link?: boolean}} [options]
 */
export function playerLabel(player, { link = true } = {}) {
  if (!player) return h("span", {}, "");
  if (player.bot) return h("span", { class: "player-label" }, t("name.computer"));
  const name =
    link && player.id
      ? h(
          "a",
          {
            href: `/p/${encodeURIComponent(player.id)}`,
            dataset: { nav: `/p/${player.id}` },
          },
          playerTag(player),
        )
      : h("span", {}, playerTag(player));
  return h(
    "span",
    { class: "player-label" },
    name,
    ratingText(player)
      ? h(
          "span",
          { class: "rating", title: t("lobby.rating") },
          ` ${t("lobby.rating.short", { r: ratingText(player) })}`,
        )
      : null,
    player.leaver
      ? h(
          "span",
          { class: "badge leaver", title: t("lobby.leaver.title") },
          t("lobby.leaver"),
        )
      : null,
  );
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
 * @param {string} id
 * @param {string} name
 * @param {[string|number, string][]} options  value and label
 * @param {string|number} value
 * @param {Record<string, unknown>} [extra]
 */
function select(id, name, options, value, extra = {}) {
  return h(
    "select",
    { id, name, dataset: { field: name, key: `field-${id}` }, ...extra },
    ...options.map(([v, label]) =>
      h("option", { value: String(v), selected: String(v) === String(value) }, label),
    ),
  );
}

/**
 * @param {string} id
 * @param {string} name
 * @param {string} label
 * @param {boolean|undefined} checked
 * @param {Record<string, unknown>} [extra]
 */
function check(id, name, label, checked, extra = {}) {
  return h(
    "label",
    { class: "check", for: id },
    h("input", {
      id,
      type: "checkbox",
      checked,
      dataset: { field: name, key: `field-${id}` },
      ...extra,
    }),
    " ",
    label,
  );
}

/**
 * Why a guest cannot use a control of rated play, and the way to an account: the hint
 * under the table form's "Rated", the quick match and the tournament form's "Rated
 * matches" (rated play counts accounts only, issue 22). The control, disabled for a
 * guest, takes the reason (`${id}-text`) as its description (`aria-describedby`); the
 * button opens the account dialog (account.js, the pages' common `account` command).
 * @param {string} id  the hint's id
 */
export function accountNeeded(id) {
  return h(
    "p",
    { id, class: "hint account-needed" },
    h("span", { id: `${id}-text` }, t("lobby.rated.account_needed")),
    " ",
    h(
      "button",
      {
        type: "button",
        class: "button secondary",
        dataset: { cmd: "account", key: `${id}-account` },
      },
      t("lobby.rated.account_open"),
    ),
  );
}

/** @param {number|null|undefined} timer  seconds, or none */
export function timerText(timer) {
  return timer ? t("lobby.timer.value", { s: timer }) : t("lobby.timer.off");
}

/**
 * @param {{name?: string, preset?: string, target_score?: number|null, move_timer_seconds?: number|null}|null|undefined} rules
 * @param {number|null|undefined} timer
 * @param {boolean} [rated]
 */
function rulesText(rules, timer, rated) {
  const preset = rules?.name ?? rules?.preset ?? "standard";
  const parts = [t(`preset.short.${preset}`)];
  parts.push(
    rules?.target_score
      ? t("table.target", { n: rules.target_score })
      : t("table.first_to_knock"),
  );
  parts.push(timerText(timer ?? rules?.move_timer_seconds ?? null));
  if (rated) parts.push(t("lobby.rated"));
  return parts.join(" · ");
}

/**
 * @param {string} prefix
 * @param {import("./types.js").TableForm} form
 * @param {string} formName
 */
function settingsFields(prefix, form, formName) {
  const ftk = form.preset === "first-to-knock";
  return [
    field(
      `${prefix}-preset`,
      t("home.preset"),
      select(
        `${prefix}-preset`,
        `${formName}.preset`,
        PRESETS.map((p) => [p, t(`preset.short.${p}`)]),
        form.preset,
      ),
    ),
    field(
      `${prefix}-target`,
      t("home.target"),
      select(
        `${prefix}-target`,
        `${formName}.target`,
        TARGETS.map((n) => [n, t("home.target.value", { n })]),
        form.target,
        { disabled: ftk },
      ),
    ),
    field(
      `${prefix}-timer`,
      t("lobby.timer"),
      select(
        `${prefix}-timer`,
        `${formName}.timer`,
        TIMERS.map((v) => [
          v,
          v === "off" ? t("lobby.timer.none") : t("lobby.timer.option", { s: v }),
        ]),
        form.timer,
      ),
    ),
  ];
}

/**
 * The punctuation a name may use, in words ("space - _ .").
 * @param {import("./types.js").Limits} limits
 */
function punctuationWords(limits) {
  return [...limits.name.punctuation]
    .map((ch) => (ch === " " ? t("nick.space") : ch))
    .join(" ");
}

/**
 * The rule for names in a sentence, from the served limits.
 * @param {import("./types.js").Limits} limits
 */
function nameHelp(limits) {
  return t("lobby.nickname.help", {
    min: limits.name.min,
    max: limits.name.max,
    chars: punctuationWords(limits),
  });
}

/**
 * Why a name is refused, in words.
 * @param {{key: string, params: Record<string, string|number>}} problem  from store.nicknameProblem
 * @param {import("./types.js").Limits} limits
 */
export function nameProblemText(problem, limits) {
  return t(problem.key, { ...problem.params, chars: punctuationWords(limits) });
}

/** @param {State} state */
function renderIdentity(state) {
  const me = state.me;
  const lobby = state.lobby;
  const value = lobby.nickname ?? me?.name ?? "";
  return h(
    "section",
    { class: "panel identity", "aria-labelledby": "me-h" },
    h("h2", { id: "me-h" }, t("lobby.you")),
    me
      ? h(
          "p",
          { class: "me-line" },
          playerLabel({ ...me, rating: null }, { link: false }),
          " · ",
          h(
            "span",
            {},
            t("lobby.rating.full", { r: ratingText(me), rd: Math.round(me.rd ?? 0) }),
          ),
          " · ",
          h(
            "a",
            {
              href: `/p/${encodeURIComponent(me.id)}`,
              dataset: { nav: `/p/${me.id}`, key: "my-stats" },
            },
            t("lobby.my_stats"),
          ),
        )
      : h("p", { class: "hint" }, t("status.connecting")),
    h(
      "div",
      { class: "nick-row" },
      field(
        "nickname",
        t("lobby.nickname"),
        h("input", {
          id: "nickname",
          type: "text",
          maxlength: String(state.config?.limits.name.max ?? ""),
          autocomplete: "nickname",
          value,
          "aria-describedby": "nickname-help",
          "aria-invalid": lobby.nicknameError ? "true" : null,
          dataset: { field: "nickname", key: "field-nickname" },
        }),
      ),
      h(
        "button",
        {
          type: "button",
          class: "button secondary",
          dataset: { cmd: "rename", key: "rename" },
        },
        t("lobby.change_nickname"),
      ),
    ),
    state.config
      ? h("p", { id: "nickname-help", class: "hint" }, nameHelp(state.config.limits))
      : null,
    lobby.nicknameError
      ? h("p", { class: "notice error", role: "alert" }, lobby.nicknameError)
      : null,
    lobby.nicknameSaved
      ? h("p", { class: "hint", role: "status" }, t("lobby.nickname.saved"))
      : null,
  );
}

/** @param {State} state */
function renderQuick(state) {
  const lobby = state.lobby;
  const quick = lobby.quick;
  const queue = lobby.data?.queue ?? 0;
  /** @type {HTMLElement[]} */
  const body = [h("h2", { id: "quick-h" }, t("lobby.quick"))];
  // A play ban or a warning (GET /api/me/conduct), in words, before anything else.
  const conduct = lobby.conduct;
  if (conduct)
    body.push(
      h(
        "p",
        {
          class: `notice conduct${conduct.banned ? " error" : ""}`,
          role: conduct.banned ? "alert" : "status",
        },
        conduct.text,
      ),
    );
  if (quick) {
    body.push(
      h(
        "p",
        { role: "status", class: "quick-wait" },
        t("lobby.quick.waiting"),
        " ",
        h(
          "span",
          { id: "quick-elapsed" },
          t("lobby.quick.seconds", { s: quick.elapsed ?? 0 }),
        ),
      ),
    );
    const buttons = [
      h(
        "button",
        {
          type: "button",
          class: "button secondary",
          dataset: { cmd: "quick-cancel", key: "quick-cancel" },
        },
        t("lobby.quick.cancel"),
      ),
    ];
    if (quick.offered) {
      buttons.unshift(
        h(
          "button",
          {
            type: "button",
            class: "button primary",
            dataset: { cmd: "quick-computer", key: "quick-computer" },
          },
          t("lobby.quick.computer"),
        ),
      );
    }
    body.push(h("div", { class: "button-row" }, ...buttons));
    if (quick.offered)
      body.push(h("p", { class: "hint" }, t("lobby.quick.computer.hint")));
  } else {
    body.push(h("p", {}, t("lobby.quick.text")));
    body.push(
      h(
        "div",
        { class: "form-row" },
        ...settingsFields("quick", lobby.quickForm, "quickForm"),
      ),
    );
    // the quick match is rated: a guest is shown why not, and the way to an account
    const account = Boolean(state.me?.account);
    body.push(
      h(
        "button",
        {
          type: "button",
          class: "button primary",
          disabled: !account,
          "aria-describedby": account ? null : "quick-account-text",
          dataset: { cmd: "quick", key: "quick" },
        },
        t("lobby.quick"),
      ),
    );
    if (!account) body.push(accountNeeded("quick-account"));
    body.push(h("p", { class: "hint" }, t("lobby.queue", { n: queue })));
  }
  return h("section", { class: "panel quick", "aria-labelledby": "quick-h" }, ...body);
}

/** @param {State} state */
function renderCreate(state) {
  const form = state.lobby.form;
  const isPublic = form.visibility === "public";
  const account = Boolean(state.me?.account);
  return h(
    "section",
    { class: "panel create", "aria-labelledby": "create-h" },
    h("h2", { id: "create-h" }, t("lobby.create")),
    h("div", { class: "form-row" }, ...settingsFields("create", form, "form")),
    h(
      "fieldset",
      { class: "visibility" },
      h("legend", {}, t("lobby.visibility")),
      ...["public", "private"].map((v) =>
        h(
          "label",
          { class: "check", for: `vis-${v}` },
          h("input", {
            id: `vis-${v}`,
            type: "radio",
            name: "visibility",
            value: v,
            checked: form.visibility === v,
            dataset: { field: "form.visibility", key: `vis-${v}` },
          }),
          " ",
          t(`lobby.visibility.${v}`),
        ),
      ),
    ),
    h(
      "div",
      { class: "checks" },
      // rated play counts accounts only (issue 22): a guest's table is casual
      check(
        "create-rated",
        "form.rated",
        t("lobby.rated.label"),
        isPublic && form.rated && account,
        {
          disabled: !isPublic || !account,
          "aria-describedby": isPublic && !account ? "create-account-text" : null,
        },
      ),
      check(
        "create-spectators",
        "form.spectators",
        t("lobby.spectators.label"),
        form.spectators,
      ),
      check(
        "create-spectator-chat",
        "form.spectatorChat",
        t("lobby.spectator_chat.label"),
        form.spectators && form.spectatorChat,
        { disabled: !form.spectators },
      ),
    ),
    isPublic && !account ? accountNeeded("create-account") : null,
    h(
      "button",
      {
        type: "button",
        class: "button primary",
        disabled: state.lobby.busy,
        dataset: { cmd: "create-table", key: "create-table" },
      },
      t("lobby.create"),
    ),
  );
}

/** @param {State} state */
function renderTables(state) {
  /** @type {Record<string, any>[]} tables of GET /api/lobby */
  const tables = state.lobby.data?.tables ?? [];
  const mine = state.me?.id;
  return h(
    "section",
    { class: "panel tables", "aria-labelledby": "tables-h" },
    h("h2", { id: "tables-h" }, t("lobby.tables", { n: tables.length })),
    tables.length
      ? h(
          "ul",
          { class: "lobby-list" },
          ...tables.map((table) =>
            h(
              "li",
              { class: "lobby-item" },
              h(
                "div",
                { class: "item-main" },
                h("div", {}, playerLabel(table.host)),
                h(
                  "div",
                  { class: "hint" },
                  rulesText(table.rules, table.timer, table.rated),
                ),
              ),
              table.host?.id === mine
                ? h(
                    "a",
                    {
                      class: "button secondary",
                      href: `/r/${encodeURIComponent(table.room)}`,
                      dataset: { nav: `/r/${table.room}` },
                    },
                    t("lobby.your_table"),
                  )
                : h(
                    "button",
                    {
                      type: "button",
                      class: "button primary",
                      "aria-description": t("lobby.join.desc", {
                        name: playerTag(table.host),
                      }),
                      dataset: {
                        cmd: "join-table",
                        arg: table.room,
                        key: `join-${table.room}`,
                      },
                    },
                    t("lobby.join"),
                  ),
            ),
          ),
        )
      : h("p", { class: "hint" }, t("lobby.tables.none")),
  );
}

/** @param {State} state */
function renderMatches(state) {
  /** @type {Record<string, any>[]} running matches of GET /api/lobby */
  const matches = state.lobby.data?.matches ?? [];
  return h(
    "section",
    { class: "panel matches", "aria-labelledby": "matches-h" },
    h("h2", { id: "matches-h" }, t("lobby.matches", { n: matches.length })),
    matches.length
      ? h(
          "ul",
          { class: "lobby-list" },
          ...matches.map((m) =>
            h(
              "li",
              { class: "lobby-item" },
              h(
                "div",
                { class: "item-main" },
                h(
                  "div",
                  {},
                  playerLabel(m.players?.one),
                  h("span", { class: "vs" }, ` ${t("lobby.vs")} `),
                  playerLabel(m.players?.two),
                ),
                h(
                  "div",
                  { class: "hint" },
                  t("lobby.match.line", {
                    a: m.scores?.one ?? 0,
                    b: m.scores?.two ?? 0,
                    n: m.round ?? 1,
                    w: m.watchers ?? 0,
                  }),
                ),
              ),
              h(
                "a",
                {
                  class: "button secondary",
                  href: `/r/${encodeURIComponent(m.room)}`,
                  "aria-description": t("lobby.watch.desc", {
                    a: playerTag(m.players?.one) || t("name.computer"),
                    b: playerTag(m.players?.two) || t("name.computer"),
                  }),
                  dataset: { nav: `/r/${m.room}`, key: `watch-${m.room}` },
                },
                t("lobby.watch"),
              ),
            ),
          ),
        )
      : h("p", { class: "hint" }, t("lobby.matches.none")),
  );
}

/** @param {State} state */
export function renderLobby(state) {
  const lobby = state.lobby;
  return [
    h("h1", { class: "page-title" }, t("lobby.title")),
    lobby.error ? h("p", { class: "notice error", role: "alert" }, lobby.error) : null,
    !lobby.connected && lobby.data ? h("p", { class: "hint" }, t("lobby.offline")) : null,
    h(
      "div",
      { class: "lobby-grid" },
      h(
        "div",
        { class: "lobby-col" },
        renderIdentity(state),
        renderQuick(state),
        renderCreate(state),
      ),
      h(
        "div",
        { class: "lobby-col" },
        renderTables(state),
        renderMatches(state),
        h(
          "p",
          {},
          h(
            "a",
            {
              class: "button secondary",
              href: "/leaderboard",
              dataset: { nav: "/leaderboard", key: "to-leaderboard" },
            },
            t("nav.leaderboard"),
          ),
        ),
      ),
    ),
  ].filter(Boolean);
}
