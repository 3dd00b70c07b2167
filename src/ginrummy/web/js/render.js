// The renderer: a pure function of the client state (the last server view plus a little
// presentation state) into DOM. It never touches the network and computes no rule: melds,
// deadwood, legal actions and scores all come from the server.
import { h } from "./dom.js";
import { t, list, has, language } from "./i18n.js";
import { cardName, cardList, cardElement, cardBack } from "./cards.js";
import { handOrder, meldIndex, actionsByCard, preferredCardAction, splitAction, timeLeft, graceLeft } from "./store.js";
import { renderLobby, playerTag, ratingText } from "./lobby.js";
import { renderPlayer, renderLeaderboard } from "./stats.js";
import { renderChat } from "./chat.js";
import { tableStatus, seatName, forfeitText, otherSeat, displaySeats, connectionText, SEATS } from "./status.js";

export { seatName, forfeitText };

/** @typedef {import("./types.js").State} State */
/** @typedef {import("./types.js").TableState} TableState */
/** @typedef {import("./types.js").View} View */
/** @typedef {import("./types.js").Seat} Seat */
/** @typedef {import("./types.js").RoundResult} RoundResult */
/** @typedef {import("./types.js").MatchResult} MatchResult */
/** @typedef {import("./types.js").Announcement} Announcement */
/** @typedef {import("./types.js").Tip} Tip */

const TARGETS = [50, 100, 200];
const PRESETS = ["standard", "oklahoma", "classic", "first-to-knock"];

/** @type {Record<string, (state: State) => (HTMLElement|null)[]>} */
const PAGES = { room: renderRoom, lobby: renderLobby, player: renderPlayer, leaderboard: renderLeaderboard };

/**
 * Render the whole page for `state` into the `topbar` and `main` elements.
 * @param {State} state
 * @param {{topbar: HTMLElement, main: HTMLElement, now?: number}} into
 */
export function render(state, { topbar, main, now = 0 }) {
  topbar.replaceChildren(...renderTopbar(state));
  const route = state.route.name;
  if (route === "room" && state.room.phase === "table" && state.view) {
    // The chat panel stays in place across renders; only the table area is replaced.
    let area = main.querySelector(":scope > .table-area");
    if (!area) {
      area = h("div", { class: "table-area" });
      main.replaceChildren(area);
    }
    area.replaceChildren(...renderTable(state, now));
    const chat = renderChat(state);
    if (chat.parentNode !== main) main.append(chat);
    main.className = "page page-room with-chat";
  } else {
    main.replaceChildren(...(PAGES[route] ?? renderHome)(state).filter((el) => el !== null));
    main.className = `page page-${route}`;
  }
  document.body.classList.toggle("four-colour", state.fourColour);
  document.title = pageTitle(state);
}

/**
 * @param {State} state
 */
function pageTitle(state) {
  const view = state.view;
  if (state.route.name === "room" && view && state.seat && view.legal_actions.length) {
    return `• ${t("app.title")}`;
  }
  return t("app.title");
}

// ---------------------------------------------------------------- top bar

/**
 * @param {State} state
 */
function renderTopbar(state) {
  const lang = language();
  return [
    h("a", { class: "brand", href: "/", dataset: { nav: "/", key: "nav-home" } },
      h("span", { class: "brand-mark", "aria-hidden": "true" }, "♠♥"), t("app.title")),
    h("nav", { class: "top-nav", "aria-label": t("nav.label") },
      h("a", { href: "/lobby", "aria-current": state.route.name === "lobby" ? "page" : null, dataset: { nav: "/lobby", key: "nav-lobby" } }, t("nav.lobby")),
      h("a", { href: "/leaderboard", "aria-current": state.route.name === "leaderboard" ? "page" : null, dataset: { nav: "/leaderboard", key: "nav-leaderboard" } }, t("nav.leaderboard"))),
    h("div", { class: "top-controls" },
      h("button", {
        type: "button", class: "chip", "aria-pressed": String(state.fourColour),
        dataset: { cmd: "four-colour", key: "four-colour" },
      }, t("act.four_colour")),
      h("div", { class: "lang-switch", role: "group", "aria-label": t("lang.label") },
        ...["de", "en"].map((code) => h("button", {
          type: "button", class: "chip", lang: code, "aria-pressed": String(code === lang),
          dataset: { cmd: "lang", arg: code, key: `lang-${code}` },
        }, code === "de" ? "Deutsch" : "English")),
      ),
    ),
  ];
}

// ---------------------------------------------------------------- home

/**
 * @param {Record<string, any>} level
 */
function levelName(level) {
  const lang = language();
  if (!level) return "";
  const names = level.names ?? level.name;
  if (names && typeof names === "object") return names[lang] ?? names.en ?? level.id;
  return level[`name_${lang}`] ?? level.name ?? level.id;
}

/**
 * @param {Record<string, any>} level
 */
export function levelId(level) {
  return level.id ?? level.level ?? level.key;
}

/**
 * @param {string} id
 * @param {string} labelText
 * @param {HTMLElement} control
 */
function field(id, labelText, control) {
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
  const el = h("select", { id, name, dataset: { field: name, key: `field-${id}` }, ...extra },
    ...options.map(([v, label]) => h("option", { value: String(v), selected: String(v) === String(value) }, String(label))));
  return el;
}

/**
 * @param {State} state
 */
function renderHome(state) {
  const { home } = state;
  const form = home.form;
  const levels = home.levels;
  const level = form.level ?? (levels[0] ? levelId(levels[0]) : "");
  const levelOptions = levels.map((l) => [levelId(l), levelName(l)]);
  const targetOptions = TARGETS.map((n) => [n, t("home.target.value", { n })]);
  const out = [];
  out.push(h("section", { class: "hero" },
    h("h1", {}, t("app.title")),
    h("p", { class: "tagline" }, t("app.tagline")),
    h("p", {}, h("a", { class: "button primary", href: "/lobby", dataset: { nav: "/lobby", key: "hero-lobby" } }, t("home.to_lobby")))));
  if (home.error) out.push(h("p", { class: "notice error", role: "alert" }, home.error));
  if (home.games.length) {
    out.push(h("section", { class: "panel resume", "aria-labelledby": "resume-h" },
      h("h2", { id: "resume-h" }, t("home.resume.title")),
      h("ul", { class: "resume-list" }, ...home.games.map((game) => h("li", {},
        h("a", { class: "button secondary", href: `/r/${encodeURIComponent(game.room)}`, dataset: { nav: `/r/${game.room}`, key: `resume-${game.room}` } },
          game.opponent
            ? t("home.resume.item", { kind: t(`kind.${game.kind}`), opponent: game.opponent })
            : t("home.resume.waiting"))))),
    ));
  }
  const busy = home.busy;
  const firstToKnock = form.preset === "first-to-knock";
  out.push(h("div", { class: "start-grid" },
    h("section", { class: "panel", "aria-labelledby": "solo-h" },
      h("h2", { id: "solo-h" }, t("home.solo.title")),
      h("p", {}, t("home.solo.text")),
      field("solo-level", t("home.level"), select("solo-level", "level", levelOptions, level)),
      field("solo-target", t("home.target"), select("solo-target", "soloTarget", targetOptions, form.soloTarget)),
      h("button", { type: "button", class: "button primary", disabled: busy || !levels.length, dataset: { cmd: "play-solo", key: "play-solo" } },
        t("home.play_solo"))),
    h("section", { class: "panel", "aria-labelledby": "room-h" },
      h("h2", { id: "room-h" }, t("home.room.title")),
      h("p", {}, t("home.room.text")),
      field("room-name", t("home.name"), h("input", {
        id: "room-name", type: "text", maxlength: nameMax(state), autocomplete: "nickname", value: form.name,
        dataset: { field: "name", key: "field-room-name" },
      })),
      field("room-preset", t("home.preset"), select("room-preset", "preset", PRESETS.map((p) => [p, t(`preset.${p}`)]), form.preset)),
      field("room-target", t("home.target"), select("room-target", "roomTarget", targetOptions, form.roomTarget, { disabled: firstToKnock })),
      field("room-seat2", t("home.seat2"), select("room-seat2", "seat2",
        [["friend", t("home.seat2.friend")], ...levels.map((l) => [`bot:${levelId(l)}`, t("home.seat2.bot", { level: levelName(l) })])],
        form.seat2)),
      h("button", { type: "button", class: "button primary", disabled: busy, dataset: { cmd: "open-room", key: "open-room" } },
        t("home.open_room"))),
  ));
  out.push(renderRulesText());
  return out;
}

function renderRulesText() {
  const qa = (/** @type {string} */ key) => h("details", { class: "faq" }, h("summary", {}, t(`rules.faq.${key}.q`)), h("p", {}, t(`rules.faq.${key}.a`)));
  return h("article", { class: "panel rules", "aria-labelledby": "rules-h" },
    h("h2", { id: "rules-h" }, t("rules.how.title")),
    h("p", {}, t("rules.how.p1")),
    h("p", {}, t("rules.how.p2")),
    h("h3", {}, t("rules.example.title")),
    h("p", {}, t("rules.example.p")),
    h("h3", {}, t("rules.steps.title")),
    h("ol", {}, ...[1, 2, 3, 4].map((n) => h("li", {}, t(`rules.steps.${n}`)))),
    h("h3", {}, t("rules.scoring.title")),
    h("dl", { class: "scoring" }, ...["melds", "deadwood", "undercut", "match"].flatMap((k) => [
      h("dt", {}, t(`rules.scoring.${k}`)), h("dd", {}, t(`rules.scoring.${k}.d`))])),
    h("h3", {}, t("rules.special.title")),
    ...["ace", "layoff", "stock", "upcard"].map(qa),
    h("h3", {}, t("rules.mistakes.title")),
    h("ul", {}, ...[1, 2, 3].map((n) => h("li", {}, t(`rules.mistakes.${n}`)))),
    h("h3", {}, t("rules.strategy.title")),
    h("dl", { class: "scoring" }, ...[1, 2].flatMap((n) => [
      h("dt", {}, t(`rules.strategy.${n}.t`)), h("dd", {}, t(`rules.strategy.${n}.d`))])),
    h("h3", {}, t("rules.variant.title")),
    h("p", {}, t("rules.variant.p")),
    h("h3", {}, t("rules.faq.title")),
    ...["tips", "solo", "bot", "shuffle", "ai"].map(qa),
  );
}

// ---------------------------------------------------------------- room pages

/**
 * @param {State} state
 */
function renderRoom(state) {
  const room = state.room;
  if (room.phase === "loading") return [h("p", { class: "panel", role: "status" }, t("status.connecting"))];
  if (room.phase === "unknown") return [messagePanel(t("join.unknown"))];
  if (room.phase === "nospect") return [messagePanel(`${t("join.full")} ${t("join.no_spectators")}`)];
  if (room.phase === "join") return [renderJoin(state)];
  if (!state.view) {
    return [h("div", { class: "panel" },
      h("p", { role: "status", "aria-label": t("status.label") }, connectionText(state) ?? t("status.connecting")),
      renderInvite(state))];
  }
  return renderTable(state);
}

/**
 * @param {string} text
 */
function messagePanel(text) {
  return h("section", { class: "panel message" },
    h("p", { role: "alert" }, text),
    h("a", { class: "button secondary", href: "/", dataset: { nav: "/", key: "back-home" } }, t("act.leave")));
}

/**
 * The longest name the server takes, for a text field's maxlength (none before the config).
 * @param {State} state
 */
function nameMax(state) {
  return state.config ? String(state.config.limits.name.max) : null;
}

/**
 * @param {State} state
 */
function renderJoin(state) {
  const info = state.room.info;
  const host = info?.seats?.one?.name ?? info?.seats?.two?.name;
  return h("section", { class: "panel join", "aria-labelledby": "join-h" },
    h("h1", { id: "join-h" }, t("join.title")),
    host ? h("p", {}, t("join.text", { name: host })) : null,
    state.room.error ? h("p", { class: "notice error", role: "alert" }, state.room.error) : null,
    field("join-name", t("join.name"), h("input", {
      id: "join-name", type: "text", maxlength: nameMax(state), autocomplete: "nickname", value: state.room.joinName,
      dataset: { field: "joinName", key: "field-join-name" },
    })),
    h("button", { type: "button", class: "button primary", dataset: { cmd: "join", key: "join" } }, t("join.take_seat")));
}

/**
 * @param {State} state
 */
function inviteUrl(state) {
  return `${globalThis.location.origin}/r/${state.route.room}`;
}

/**
 * @param {State} state
 */
function renderInvite(state) {
  const info = state.info ?? state.room.info;
  if (!info || info.kind !== "room" || !state.seat) return null;
  const waiting = !state.players?.one || !state.players?.two;
  // A public table is found in the lobby: the link is offered only while a seat is free.
  const listed = info.visibility === "public";
  if (listed && !waiting) return null;
  return h("section", { class: `panel invite${waiting ? " waiting" : " compact"}`, "aria-labelledby": "invite-h" },
    h("h2", { id: "invite-h" }, t("room.invite.title")),
    waiting ? h("p", {}, t(listed ? "room.invite.text_public" : "room.invite.text")) : null,
    h("div", { class: "invite-row" },
      h("label", { for: "invite-link", class: "visually-hidden" }, t("room.invite.link")),
      h("input", { id: "invite-link", type: "text", readonly: true, value: inviteUrl(state), dataset: { key: "invite-link" } }),
      h("button", { type: "button", class: "button primary", dataset: { cmd: "copy-invite", key: "copy-invite" } }, t("act.copy_invite"))),
    state.copied ? h("p", { class: "hint" }, t("ann.copied")) : null,
    waiting ? h("p", { class: "hint" }, t("room.waiting")) : null);
}

// ---------------------------------------------------------------- names and texts

/**
 * The spoken/visible sentence for the move timer ("Time left: 25 s."), "" without one.
 * @param {State} state
 * @param {number} now
 */
export function timerSentence(state, now) {
  const timer = state.timer;
  if (!timer || !state.view || state.view.table.match_phase === "over") return "";
  const left = Math.ceil((timeLeft(timer, now) ?? 0) / 1000);
  // Said in steps of five seconds, then every second: often enough, not chattering.
  const said = left > 10 ? Math.ceil(left / 5) * 5 : left;
  return timer.seat === state.seat
    ? t("status.time_left.you", { s: said })
    : t("status.time_left", { name: seatName(state, timer.seat), s: said });
}

/**
 * The words for one announcement item (see store.applyMessage).
 * @param {State} state
 * @param {Announcement} item
 */
export function announcementText(state, item) {
  if (item.kind === "move" && item.action) {
    const name = seatName(state, item.seat);
    const [verb, card] = splitAction(item.action);
    const key = `ann.${verb.replace(" ", "_")}`;
    const shown = card ?? (verb === "take" || verb === "draw discard" ? item.top : null);
    return has(key) ? t(key, { name, card: shown ? cardName(shown) : "" }) : `${name}: ${item.action}`;
  }
  if (item.kind === "presence") return t(`ann.presence.${item.what}`, { name: seatName(state, item.seat) });
  if (item.kind === "round_end") {
    const result = lastResult(state.view);
    return result ? t("ann.round_end", { text: resultSummary(state, result) }) : "";
  }
  if (item.kind === "deal" && state.view) {
    const table = state.view.table;
    return t("ann.deal", { n: table.round, dealer: seatName(state, table.dealer) });
  }
  if (item.kind === "text") return item.text ?? "";
  if (item.kind === "tips") return item.on ? t("tips.on", { n: item.left }) : t(item.message ?? "tips.off");
  if (item.kind === "forfeit") {
    const reason = /** @type {MatchResult["forfeit"]} */ (item.reason);
    return forfeitText(state, { forfeit: reason, forfeited_by: item.seat });
  }
  return "";
}

/**
 * @param {View|null} view
 */
function lastResult(view) {
  if (!view) return null;
  return view.table.result ?? view.table.rounds.at(-1)?.result ?? null;
}

/**
 * @param {State} state
 * @param {RoundResult} result
 */
function resultSummary(state, result) {
  const knocker = seatName(state, result.knocker);
  const winner = result.winner;
  const lines = [];
  const mine = (/** @type {Seat|null} */ seat) => Boolean(state.seat && seat === state.seat);
  switch (result.kind) {
    case "void":
      return t("result.void");
    case "gin":
      lines.push(mine(result.knocker) ? t("result.gin.you") : t("result.gin", { name: knocker }));
      break;
    case "big_gin":
      lines.push(mine(result.knocker) ? t("result.big_gin.you") : t("result.big_gin", { name: knocker }));
      break;
    case "undercut": {
      if (!result.knocker) break;
      const defender = otherSeat(result.knocker);
      if (mine(defender)) lines.push(t("result.undercut.you", { knocker }));
      else if (mine(result.knocker)) lines.push(t("result.undercut.them", { defender: seatName(state, defender) }));
      else lines.push(t("result.undercut", { defender: seatName(state, defender), knocker }));
      break;
    }
    default:
      lines.push(mine(result.knocker)
        ? t("result.knock.you", { k: result.showdown?.knocker_deadwood ?? "" })
        : t("result.knock", { name: knocker, k: result.showdown?.knocker_deadwood ?? "" }));
  }
  if (winner && result.points) {
    lines.push(mine(winner) ? t("line.points.you", { n: result.points }) : t("line.points", { name: seatName(state, winner), n: result.points }));
  }
  return lines.join(" ");
}

// ---------------------------------------------------------------- the table

/**
 * @param {State} rawState
 * @param {number} [now]
 */
function renderTable(rawState, now = 0) {
  // The status sentence and every button come from one decision (status.js): the parts
  // below see exactly the actions it offers.
  const status = tableStatus(rawState);
  if (!rawState.view) return [h("p", { role: "status" }, status.text)];
  /** @type {TableState} */
  const state = { ...rawState, view: { ...rawState.view, legal_actions: status.actions } };
  const view = state.view;
  const table = view.table;
  /** @type {HTMLElement[]} */
  const out = [];
  const inRound = table.match_phase === "round" && table.round_phase !== "over";
  out.push(renderInfoBar(state));
  out.push(h("p", { class: "status", role: "status", "aria-label": t("status.label"), id: "game-status" }, status.text,
    " ", h("span", { id: "status-timer" }, timerSentence(state, now))));
  const timer = renderTimer(state, now);
  if (timer) out.push(timer);
  out.push(...renderAbsence(state, now));
  if (state.confirmResign) out.push(renderResignConfirm());
  if (state.notice) out.push(h("p", { class: "notice", role: "alert" }, noticeText(state.notice)));
  if (!state.seat) out.push(h("p", { class: "hint spectating" }, t("table.spectating")));
  const invite = renderInvite(state);
  const waitingForPlayer = !state.players?.one || !state.players?.two;
  if (invite && waitingForPlayer) out.push(invite);
  if (inRound && table.round > 0) out.push(renderFelt(state));
  else if (!inRound && (table.round > 0 || status.between)) out.push(renderRoundEnd(state, status.between));
  if (invite && !waitingForPlayer) out.push(invite);
  return out;
}

/**
 * @param {TableState} state
 * @param {number} now
 */
function renderTimer(state, now) {
  const timer = state.timer;
  if (!timer || state.view.table.match_phase === "over") return null;
  const total = Math.max(1, Math.round(timer.total_ms / 1000));
  const leftMs = timeLeft(timer, now) ?? 0;
  const left = Math.ceil(leftMs / 1000);
  const whose = timer.seat === state.seat ? t("timer.yours") : t("timer.theirs", { name: seatName(state, timer.seat) });
  return h("div", { class: `timer${timer.seat === state.seat ? " mine" : ""}${left <= 10 ? " low" : ""}` },
    h("span", { class: "timer-label", id: "timer-text" }, t("timer.text", { who: whose, s: left })),
    h("div", {
      class: "timer-track", id: "timer-bar", role: "progressbar", "aria-label": t("timer.label"),
      "aria-valuemin": "0", "aria-valuemax": String(total), "aria-valuenow": String(left),
      "aria-valuetext": t("timer.valuetext", { s: left }),
    }, h("div", { class: "timer-fill", style: `width: ${(100 * leftMs) / Math.max(1, timer.total_ms)}%` })));
}

/**
 * Grace periods of absent players, and the claim offer once one has run out.
 * @param {TableState} state
 * @param {number} now
 */
function renderAbsence(state, now) {
  /** @type {HTMLElement[]} */
  const out = [];
  const over = state.view.table.match_phase === "over";
  if (over) return out;
  for (const seat of SEATS) {
    const left = graceLeft(state, seat, now);
    if (left === null || state.players?.[seat]?.connected) continue;
    const name = seatName(state, seat);
    if (left > 0) {
      out.push(h("p", { class: "notice grace", dataset: { grace: seat } },
        t("grace.running", { name }), " ",
        h("span", { id: `grace-${seat}` }, t("grace.left", { s: Math.ceil(left / 1000) }))));
      continue;
    }
    const claimer = state.seat && state.seat !== seat;
    if (claimer && !state.claimDismissed) {
      out.push(h("section", { class: "panel claim", role: "alertdialog", "aria-modal": "false", "aria-labelledby": "claim-h", "aria-describedby": "claim-text" },
        h("h2", { id: "claim-h" }, t("claim.title")),
        h("p", { id: "claim-text" }, t("claim.text", { name })),
        h("div", { class: "button-row" },
          h("button", { type: "button", class: "button primary", dataset: { cmd: "claim", key: "claim" } }, t("claim.claim")),
          h("button", { type: "button", class: "button secondary", dataset: { cmd: "claim-wait", key: "claim-wait" } }, t("claim.wait")))));
    } else if (claimer) {
      out.push(h("p", { class: "notice grace" }, t("claim.waiting", { name }), " ",
        h("button", { type: "button", class: "button secondary", dataset: { cmd: "claim", key: "claim" } }, t("claim.claim"))));
    } else {
      out.push(h("p", { class: "notice grace" }, t("grace.over", { name, other: seatName(state, otherSeat(seat)) })));
    }
  }
  return out;
}

function renderResignConfirm() {
  return h("section", { class: "panel claim", role: "alertdialog", "aria-modal": "false", "aria-labelledby": "resign-h" },
    h("h2", { id: "resign-h" }, t("resign.title")),
    h("div", { class: "button-row" },
      h("button", { type: "button", class: "button primary", dataset: { cmd: "resign-yes", key: "resign-yes" } }, t("resign.yes")),
      h("button", { type: "button", class: "button secondary", dataset: { cmd: "resign-no", key: "resign-no" } }, t("act.cancel"))));
}

/**
 * Keep the clocks moving between server messages: the timer bar, the seconds in the
 * status, grace and quick-match counters. Returns true when a full render is due (a
 * grace period ran out, the move timer reached zero).
 * @param {State} state
 * @param {number} now
 */
export function patchClocks(state, now) {
  let rerender = false;
  const bar = document.getElementById("timer-bar");
  if (bar && state.timer) {
    const leftMs = timeLeft(state.timer, now) ?? 0;
    const left = Math.ceil(leftMs / 1000);
    if (bar.getAttribute("aria-valuenow") !== String(left)) {
      bar.setAttribute("aria-valuenow", String(left));
      bar.setAttribute("aria-valuetext", t("timer.valuetext", { s: left }));
      const whose = state.timer.seat === state.seat ? t("timer.yours") : t("timer.theirs", { name: seatName(state, state.timer.seat) });
      const text = document.getElementById("timer-text");
      if (text) text.textContent = t("timer.text", { who: whose, s: left });
      bar.parentElement?.classList.toggle("low", left <= 10);
    }
    const fill = bar.firstElementChild;
    if (fill instanceof HTMLElement) fill.style.width = `${(100 * leftMs) / Math.max(1, state.timer.total_ms)}%`;
    const said = document.getElementById("status-timer");
    const sentence = timerSentence(state, now);
    if (said && said.textContent !== sentence) said.textContent = sentence;
  }
  for (const seat of SEATS) {
    const left = graceLeft(state, seat, now);
    if (left === null) continue;
    const el = document.getElementById(`grace-${seat}`);
    if (el) {
      if (left === 0) rerender = true;
      else el.textContent = t("grace.left", { s: Math.ceil(left / 1000) });
    }
  }
  return rerender;
}

/**
 * @param {{code: string, message: string}} notice
 */
function noticeText(notice) {
  const key = `error.${notice.code}`;
  return has(key) ? t(key) : t("error.generic", { message: notice.message || notice.code });
}

/**
 * @param {TableState} state
 */
function renderInfoBar(state) {
  const table = state.view.table;
  const rules = table.rules ?? {};
  const { me, them } = displaySeats(state);
  const target = rules.target_score ? t("table.target", { n: rules.target_score }) : t("table.first_to_knock");
  const presetKey = `preset.short.${rules.name}`;
  const score = (/** @type {Seat} */ seat) => h("span", { class: `score${table.turn === seat ? " on-turn" : ""}` },
    h("span", { class: "score-name" }, seatName(state, seat)), " ",
    h("strong", {}, String(table.scores[seat])));
  const controls = [];
  // Whether tips may be used here is the server's call (the `tips` message).
  if (state.seat && state.tips.allowed) {
    controls.push(h("button", {
      type: "button", class: `chip tips-toggle${state.tips.on ? " on" : ""}`, "aria-pressed": String(state.tips.on),
      dataset: { cmd: "tips", key: "tips" },
    }, t("act.tips")));
  }
  const both = state.players?.one && state.players?.two;
  if (state.seat && both && table.match_phase !== "over" && table.round > 0) {
    controls.push(h("button", {
      type: "button", class: "chip resign", "aria-expanded": String(Boolean(state.confirmResign)),
      dataset: { cmd: "resign", key: "resign" },
    }, t("act.resign")));
  }
  const info = state.info;
  const extra = [];
  if (info?.rated) extra.push(h("span", { class: "badge rated" }, t("lobby.rated")));
  if (info?.spectators === false) extra.push(h("span", { class: "watchers" }, t("table.no_watchers")));
  else if (typeof state.watchers === "number" && state.watchers > 0) {
    extra.push(h("span", { class: "watchers", id: "watchers" }, t(state.watchers === 1 ? "table.watchers.one" : "table.watchers", { n: state.watchers })));
  }
  return h("div", { class: "infobar" },
    h("div", { class: "match-info" },
      h("span", {}, t("table.round", { n: Math.max(1, table.round) })), " · ",
      h("span", {}, has(presetKey) ? t(presetKey) : rules.name ?? ""), " · ",
      h("span", {}, target), ...extra.flatMap((el) => [" · ", el])),
    h("div", { class: "scores" }, score(me), h("span", { "aria-hidden": "true" }, " : "), score(them)),
    h("div", { class: "info-controls" }, ...controls));
}

/**
 * @param {TableState} state
 */
function renderFelt(state) {
  const view = state.view;
  const table = view.table;
  const { me, them } = displaySeats(state);
  return h("section", { class: "felt", "aria-label": t("app.title") },
    renderOpponent(state, them),
    renderPiles(state),
    renderActions(state),
    renderTip(state),
    state.seat ? renderOwnHand(state) : renderOpponent(state, me, true),
    table.doubled ? h("p", { class: "hint" }, t("table.doubled")) : null);
}

/**
 * @param {TableState} state
 * @param {Seat} seat
 */
function playerBadges(state, seat) {
  const table = state.view.table;
  const p = state.players?.[seat];
  const badges = [];
  if (table.dealer === seat) badges.push(h("span", { class: "badge" }, t("table.dealer")));
  if (p?.bot) badges.push(h("span", { class: "badge" }, t("table.bot")));
  const player = p?.player ?? state.info?.seats?.[seat]?.player;
  if (player && ratingText(player)) {
    badges.push(h("span", { class: "badge rating-badge", title: t("lobby.rating") }, t("lobby.rating.short", { r: ratingText(player) })));
  }
  const suffix = player?.tag?.includes("#") ? player.tag.slice(player.tag.lastIndexOf("#")) : null;
  if (suffix && seat !== state.seat) badges.push(h("span", { class: "badge tag", title: playerTag(player) }, suffix));
  if (p && !p.bot && !p.connected) badges.push(h("span", { class: "badge warn" }, t("table.disconnected")));
  return badges;
}

/**
 * @param {TableState} state
 * @param {Seat} seat
 * @param {boolean} [bottom]  shown at the bottom (for a spectator)
 */
function renderOpponent(state, seat, bottom = false) {
  const view = state.view;
  const table = view.table;
  const size = table.hand_sizes[seat];
  const known = table.known[seat] ?? [];
  const name = seatName(state, seat);
  const label = known.length
    ? t("table.opponent_hand.known", { name, n: size, cards: cardList(known) })
    : t("table.opponent_hand", { name, n: size });
  const anim = state.animation;
  const justDrew = anim && anim.seat === seat && typeof anim.action === "string" && anim.action.startsWith("draw");
  const cards = [];
  for (let i = known.length; i < size; i += 1) {
    const back = cardBack({ small: true });
    if (justDrew && i === size - 1) back.classList.add("anim-draw");
    cards.push(back);
  }
  // Known cards last, so no back covers them.
  for (const card of known) {
    const el = cardElement(card, { small: true });
    el.classList.add("known");
    el.title = t("table.known");
    cards.push(el);
  }
  return h("section", { class: `opponent${bottom ? " bottom" : ""}${table.turn === seat ? " on-turn" : ""}` },
    h("div", { class: "player-line" }, h("span", { class: "player-name" }, name), ...playerBadges(state, seat)),
    h("div", { class: "fan small-fan", role: "img", "aria-label": label }, ...cards));
}

/**
 * @param {TableState} state
 */
function renderPiles(state) {
  const view = state.view;
  const table = view.table;
  const legal = view.legal_actions;
  const top = table.discard_pile.at(-1);
  const anim = state.animation;
  const stockLegal = legal.includes("draw stock");
  const stockLabel = t("table.stock", { n: table.stock_size });
  const stockArt = h("span", { class: "pile-stack" }, table.stock_size > 0 ? cardBack() : h("span", { class: "card empty" }));
  const stock = stockLegal
    ? h("button", {
      type: "button", class: `pile stock lit${recommended(state, "draw stock")}`, "aria-label": t("act.draw_stock"),
      "aria-description": stockLabel, dataset: { act: "draw stock", key: "act-draw-stock", drag: "pile" },
    }, stockArt, h("span", { class: "pile-caption" }, t("act.draw_stock")))
    : h("div", { class: "pile stock", role: "img", "aria-label": stockLabel }, stockArt,
      h("span", { class: "pile-caption" }, stockLabel));
  const topEl = top ? cardElement(top) : h("span", { class: "card empty" });
  if (top && anim && anim.seat && anim.seat !== state.seat && typeof anim.action === "string" && anim.action.startsWith("discard")) {
    topEl.classList.add("anim-discard");
  }
  const takeAction = legal.includes("take") ? "take" : legal.includes("draw discard") ? "draw discard" : null;
  const pileLabel = `${t("table.discard_pile")}: ${top ? t("table.discard_top", { card: cardName(top) }) : t("table.discard_empty")}`;
  const discardLegal = legal.some((a) => a.startsWith("discard "));
  let discard;
  if (takeAction) {
    const name = takeAction === "take" ? t("act.take") : t("act.draw_discard");
    discard = h("button", {
      type: "button", class: `pile discard lit${recommended(state, takeAction)}`, "aria-label": name,
      "aria-description": pileLabel, dataset: { act: takeAction, key: `act-${takeAction.replace(" ", "-")}`, drag: "pile" },
    }, h("span", { class: "pile-stack" }, topEl), h("span", { class: "pile-caption" }, name));
  } else {
    discard = h("div", {
      class: `pile discard${discardLegal ? " drop-target" : ""}`, role: "img", "aria-label": pileLabel,
      dataset: discardLegal ? { drop: "discard" } : {},
    }, h("span", { class: "pile-stack" }, topEl),
    h("span", { class: "pile-caption" }, top ? cardName(top) : t("table.discard_empty")));
  }
  return h("div", { class: "piles" }, stock, discard);
}

/**
 * @param {TableState} state
 * @param {string} action
 */
function recommended(state, action) {
  const tip = state.tips.tip;
  return tip && tip.version === state.version && tip.action === action ? " recommended" : "";
}

/**
 * @param {TableState} state
 */
function renderActions(state) {
  const view = state.view;
  const legal = view.legal_actions;
  const buttons = [];
  if (legal.includes("pass")) {
    buttons.push(h("button", { type: "button", class: `button${recommended(state, "pass")}`, dataset: { act: "pass", key: "act-pass" } }, t("act.pass")));
  }
  for (const kind of ["gin", "knock"]) {
    const best = preferredCardAction(view, kind);
    if (!best) continue;
    const [, card] = splitAction(best);
    const tipAction = state.tips.tip?.version === state.version ? state.tips.tip.action : null;
    const rec = tipAction && tipAction.startsWith(`${kind} `) ? " recommended" : "";
    buttons.push(h("button", {
      type: "button", class: `button lit ${kind}${rec}`, "aria-description": t(`act.${kind}.desc`, { card: card ? cardName(card) : "" }),
      dataset: { act: best, key: `act-${kind}` },
    }, t(`act.${kind}`)));
  }
  const finishing = actionsByCard(view, "knock").size + actionsByCard(view, "gin").size;
  if (finishing > 1 || state.choose) {
    buttons.push(h("button", {
      type: "button", class: "button secondary", "aria-pressed": String(Boolean(state.choose)),
      dataset: { cmd: "choose", arg: state.choose ? "" : "finish", key: "choose-card" },
    }, t("act.choose_card")));
  }
  if (legal.includes("big gin")) {
    buttons.push(h("button", { type: "button", class: `button lit gin${recommended(state, "big gin")}`, dataset: { act: "big gin", key: "act-big-gin" } }, t("act.big_gin")));
  }
  if (!buttons.length) return h("div", { class: "actions empty" });
  const out = h("div", { class: "actions" }, ...buttons);
  if (state.choose) {
    out.append(h("p", { class: "hint choose-hint" }, t("choose.card")));
  }
  return out;
}

/**
 * @param {TableState} state
 */
function renderTip(state) {
  const tips = state.tips;
  if (!state.seat) return null;
  if (tips.on && tips.tip && tips.tip.version === state.version) {
    return h("aside", { class: "tip-box", "aria-label": t("tips.title") },
      h("strong", {}, t("tips.title"), ": "), tipText(tips.tip), " ",
      h("span", { class: "hint" }, t("tips.on", { n: tips.left })));
  }
  if (tips.on) {
    const waiting = state.view.legal_actions.length > 0;
    return h("aside", { class: "tip-box quiet", "aria-label": t("tips.title") },
      waiting ? t("tips.waiting") : t("tips.on", { n: tips.left }), tips.message ? ` ${t(tips.message)}` : "");
  }
  if (tips.message) return h("aside", { class: "tip-box quiet", "aria-label": t("tips.title") }, t(tips.message));
  return null;
}

/**
 * @param {string|number} value
 */
function looksLikeCard(value) {
  return typeof value === "string" && /^[2-9TJQKA][cdhs]$/i.test(value);
}

/**
 * @param {Record<string, unknown>|undefined} params
 */
function wordParams(params) {
  /** @type {Record<string, unknown>} */
  const out = {};
  for (const [key, value] of Object.entries(params ?? {})) {
    if (typeof value === "string" && looksLikeCard(value)) out[key] = cardName(value);
    else if (Array.isArray(value) && value.every(looksLikeCard)) out[key] = cardList(value);
    else if (typeof value === "string" && value.split(/[\s,-]+/).every(looksLikeCard)) out[key] = cardList(value.split(/[\s,-]+/));
    else out[key] = value;
  }
  return out;
}

/**
 * One tip as text: the recommended choice and one sentence why.
 * @param {Tip} tip
 */
export function tipText(tip) {
  const [verb, card] = splitAction(tip.action ?? "");
  const choiceKey = `tip.choice.${verb.replace(" ", "_")}`;
  const choice = has(choiceKey) ? t(choiceKey, { card: card ? cardName(card) : "" }) : tip.action;
  const params = wordParams(tip.params);
  const reasonKey = `tip.${tip.key}`;
  if (has(reasonKey)) return t(reasonKey, params);
  const serverText = tip.text?.[language()];
  return `${t("tips.recommend", { choice })} ${serverText ?? t("tip.generic")}`;
}

/**
 * @param {TableState} state
 */
function renderOwnHand(state) {
  const view = state.view;
  const order = handOrder(view, state.manualOrder);
  const melds = meldIndex(view);
  const discards = actionsByCard(view, "discard");
  // Choosing the card to lay down face down: gin with it if that is legal, else knock.
  const chooseMap = state.choose ? new Map([...actionsByCard(view, "knock"), ...actionsByCard(view, "gin")]) : null;
  const tip = state.tips.tip?.version === state.version ? state.tips.tip.action : null;
  const fresh = new Set(state.fresh);
  /** @type {HTMLElement[]} */
  const cards = [];
  /** @type {string|null} */
  let previousGroup = null;
  order.forEach((card, position) => {
    const group = melds.has(card) ? `m${melds.get(card)}` : "dead";
    const name = cardName(card);
    let action = null;
    let description;
    if (chooseMap) {
      action = chooseMap.get(card) ?? null;
      description = action ? t(action.startsWith("gin") ? "hand.gin_with" : "hand.knock_with", { card: name }) : null;
    } else {
      action = discards.get(card) ?? null;
      if (action) description = t("hand.discard", { card: name });
      else if (view.taken === card && view.legal_actions.length) description = t("hand.taken", { card: name });
    }
    const inMeld = melds.has(card);
    const classes = ["hand-card", inMeld ? `meld meld-${(melds.get(card) ?? 0) % 4}` : "deadwood"];
    if (group !== previousGroup && position > 0) classes.push("group-start");
    if (action) classes.push("playable");
    if (fresh.has(card)) classes.push("fresh");
    if (view.taken === card) classes.push("taken");
    if (tip && action && tip === action) classes.push("recommended");
    previousGroup = group;
    const button = h("button", {
      type: "button", class: classes.join(" "), "aria-label": name,
      "aria-description": [description, inMeld ? t("hand.meld") : t("hand.deadwood")].filter(Boolean).join(". "),
      "aria-disabled": action ? null : "true",
      dataset: { card, act: action ?? undefined, key: `card-${card}`, drag: "card" },
    }, cardElement(card));
    cards.push(button);
  });
  const arrangement = view.arrangement;
  return h("section", { class: `own${view.legal_actions.length ? " on-turn" : ""}` },
    h("div", { class: "player-line" },
      h("span", { class: "player-name" }, t("table.you")), ...(state.seat ? playerBadges(state, state.seat) : []),
      arrangement ? h("span", { class: `deadwood-counter${arrangement.deadwood <= view.table.knock_limit ? " low" : ""}` },
        t("table.deadwood", { n: arrangement.deadwood }), " ",
        h("span", { class: "hint" }, `(${t("table.deadwood.knock_limit", { n: view.table.knock_limit })})`)) : null,
      state.manualOrder ? h("button", { type: "button", class: "chip", dataset: { cmd: "sort", key: "sort" } }, t("act.sort")) : null),
    h("div", { class: "fan hand", role: "group", "aria-label": t("table.your_hand"), dataset: { drop: "hand" } }, ...cards),
    h("p", { class: "hint hand-help" }, t("table.hand_help")));
}

// ---------------------------------------------------------------- round and match end

/**
 * @param {TableState} state
 * @param {import("./status.js").Between|null} between  the button status.js decided on
 */
function renderRoundEnd(state, between) {
  const view = state.view;
  const table = view.table;
  const result = lastResult(view);
  const out = h("section", { class: "panel round-end", "aria-labelledby": "result-h" });
  const over = table.match_phase === "over";
  if (over && table.match_result) out.append(renderMatchEnd(state, table.match_result));
  if (result) {
    out.append(h("h2", { id: over ? "round-result-h" : "result-h" }, t("result.title", { n: table.round })));
    out.append(h("p", { class: "result-summary" }, resultSummary(state, result)));
    out.append(renderShowdown(state, result));
    out.append(renderCalculation(state, result));
  }
  const { me, them } = displaySeats(state);
  out.append(h("p", { class: "match-score" }, h("strong", {}, t("result.match_score"), ": "),
    t("result.match_score.line", { a: seatName(state, me), sa: table.scores[me], b: seatName(state, them), sb: table.scores[them] })));
  if (between) {
    out.append(h("button", {
      type: "button", class: "button primary", disabled: between.disabled, dataset: { cmd: between.cmd, key: between.cmd },
    }, t(between.label)));
  }
  return out;
}

/**
 * @param {TableState} state
 * @param {MatchResult} m
 */
function renderMatchEnd(state, m) {
  const { me, them } = displaySeats(state);
  const headline = state.seat && m.winner === state.seat ? t("match.you_win") : t("match.winner", { name: seatName(state, m.winner) });
  /** @type {("round_points"|"rounds_won"|"box_bonus"|"game_bonus"|"shutout_bonus"|"totals")[]} */
  const keys = ["round_points", "rounds_won", "box_bonus", "game_bonus", "shutout_bonus", "totals"];
  const always = ["round_points", "rounds_won", "totals"];
  const rows = keys.flatMap((key) => {
    const row = m[key];
    return row && (always.includes(key) || row.one || row.two) ? [{ key, row }] : [];
  });
  return h("div", { class: "match-end" },
    h("h2", { id: "result-h" }, t("match.title")),
    h("p", { class: "winner" }, headline),
    m.forfeit ? h("p", { class: "forfeit" }, forfeitText(state, m)) : null,
    h("table", { class: "totals" },
      h("caption", {}, t("match.table.caption")),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, ""), h("th", { scope: "col" }, seatName(state, me)), h("th", { scope: "col" }, seatName(state, them)))),
      h("tbody", {}, ...rows.map(({ key, row }) => h("tr", { class: key === "totals" ? "total-row" : "" },
        h("th", { scope: "row" }, t(`match.row.${key}`)), h("td", {}, String(row[me])), h("td", {}, String(row[them])))))));
}

/**
 * @param {string[]} cards
 * @param {string} label
 * @param {string} [extraClass]
 */
function cardRow(cards, label, extraClass = "") {
  return h("div", { class: `card-row ${extraClass}`, role: "img", "aria-label": `${label}: ${cards.length ? cardList(cards) : t("result.none")}` },
    ...cards.map((card) => cardElement(card, { small: true })));
}

/**
 * @param {TableState} state
 * @param {RoundResult} result
 */
function renderShowdown(state, result) {
  const hands = h("div", { class: "showdown" });
  const seats = [displaySeats(state).me, displaySeats(state).them];
  const sd = result.showdown;
  for (const seat of seats) {
    const title = seat === state.seat ? t("result.your_cards") : t("result.hand_of", { name: seatName(state, seat) });
    const box = h("div", { class: "showdown-hand" }, h("h3", {}, title));
    if (sd) {
      const isKnocker = seat === result.knocker;
      const melds = isKnocker ? sd.knocker_melds : sd.defender_melds;
      const dead = isKnocker ? sd.knocker_deadwood_cards : sd.defender_deadwood_cards;
      const meldBox = h("div", { class: "melds" }, h("span", { class: "row-label" }, t("result.melds")));
      if (!melds.length) meldBox.append(h("span", { class: "hint" }, t("result.none")));
      melds.forEach((meld, i) => meldBox.append(cardRow(meld, t("result.melds"), `meld meld-${i % 4}`)));
      box.append(meldBox);
      if (!isKnocker && sd.layoffs.length) {
        const lo = h("div", { class: "layoffs" }, h("span", { class: "row-label" }, t("result.laid_off")));
        for (const layoff of sd.layoffs) {
          lo.append(h("div", { class: "layoff" }, cardRow([layoff.card], t("result.laid_off")),
            h("span", { class: "hint" }, t("result.layoff", { card: cardName(layoff.card), meld: cardList(layoff.onto) }))));
        }
        box.append(lo);
      }
      box.append(h("div", { class: "deadwood-row" }, h("span", { class: "row-label" }, t("result.deadwood_cards")),
        dead.length ? cardRow(dead, t("result.deadwood_cards")) : h("span", { class: "hint" }, t("result.none"))));
    } else {
      const cards = result.hands?.[seat] ?? [];
      box.append(cardRow(cards, title));
    }
    hands.append(box);
  }
  return hands;
}

/**
 * @param {TableState} state
 * @param {RoundResult} result
 */
function renderCalculation(state, result) {
  const sd = result.showdown;
  const lines = [];
  if (!sd || !result.knocker) {
    lines.push(t("line.no_points"));
  } else {
    const knocker = seatName(state, result.knocker);
    const defender = seatName(state, otherSeat(result.knocker));
    const K = sd.knocker_deadwood;
    const D = sd.defender_deadwood;
    const mineK = result.knocker === state.seat;
    const mineD = otherSeat(result.knocker) === state.seat;
    const you = (/** @type {string} */ key, /** @type {boolean} */ mine) => (mine ? `${key}.you` : key);
    lines.push(t(you("line.knocker_deadwood", mineK), { name: knocker, n: K }));
    if (result.kind === "gin" || result.kind === "big_gin") {
      lines.push(t(you("line.defender_deadwood_gin", mineD), { name: defender, n: D }));
      lines.push(t("line.difference", { a: D, b: K, n: sd.base_points }));
      lines.push(t(result.kind === "gin" ? "line.gin_bonus" : "line.big_gin_bonus", { n: sd.bonus }));
    } else {
      lines.push(t(you("line.defender_deadwood", mineD), { name: defender, n: D }));
      if (result.kind === "undercut") {
        lines.push(t("line.difference", { a: K, b: D, n: sd.base_points }));
        lines.push(t("line.undercut_bonus", { n: sd.bonus }));
      } else {
        lines.push(t("line.difference", { a: D, b: K, n: sd.base_points }));
        if (sd.bonus) lines.push(t("line.gin_bonus", { n: sd.bonus }));
      }
    }
    if (sd.multiplier && sd.multiplier !== 1) lines.push(t("line.doubling", { n: sd.multiplier }));
    if (result.winner) {
      lines.push(result.winner === state.seat
        ? t("line.points.you", { n: result.points })
        : t("line.points", { name: seatName(state, result.winner), n: result.points }));
    } else {
      lines.push(t("line.no_points"));
    }
  }
  return h("div", { class: "calc" }, h("h3", {}, t("result.calc")), h("ol", { class: "calc-lines" }, ...lines.map((line) => h("li", {}, line))));
}

export const _test = { TARGETS, PRESETS, list };
