// The table of a room: info bar, status line, timer, absence and claim, the felt (the
// opponent, the piles, the buttons, the tip, the own hand). A pure function of the
// state; the buttons are exactly what status.js offers.
import { h } from "./dom.js";
import { t, tn, has } from "./i18n.js";
import {
  cardName,
  cardLabel,
  cardControlName,
  cardList,
  cardElement,
  cardBack,
} from "./cards.js";
import {
  handOrder,
  meldIndex,
  actionsByCard,
  preferredCardAction,
  splitAction,
  timeLeft,
  graceLeft,
} from "./store.js";
import { playerTag, ratingText } from "./players.js";
import { timerSentence, tipText, announcementText } from "./words.js";
import { renderFairMark } from "./fair/mark.js";
import { renderRoundEnd, resultPlace, resultKey } from "./results.js";
import {
  tableStatus,
  seatName,
  sideName,
  otherSeat,
  displaySeats,
  isMine,
  SEATS,
} from "./status.js";
import { backToTournament, tournamentLink } from "./links.js";

/** @typedef {import("./types.js").State} State */
/** @typedef {import("./types.js").TableState} TableState */
/** @typedef {import("./types.js").Seat} Seat */
/** @typedef {import("./fair/mark.js").RoomKind} RoomKind */

/**
 * What the felt lights up as suggested to the player (by another person of its side):
 * legal actions and cards of the hand.
 * @typedef {{actions: Set<string>, cards: Set<string>}} Lit
 */

/**
 * A hand this page sees without playing it (State.seating: its side's seat, played by
 * someone else): how it is named, and what a press on one of its cards does.
 * @typedef {object} SeenHand
 * @property {string} owner   who plays it, as the hand's line names them
 * @property {string} label   the hand's accessible name
 * @property {string} help    the line of help below it
 * @property {((card: string) => {cmd: string, arg: string, text: string})|null} press
 *   a press on a card: the command it sends and what it does in words (null: nothing)
 */

/**
 * What a kind of table changes on the felt (the two-player table's: nothing).
 * @typedef {object} FeltLook
 * @property {Lit} [lit]   what is suggested to the player now
 * @property {SeenHand|null} [seen]   the hand, when this page does not play it
 */

/** Nothing suggested. @type {Lit} */
const NOTHING_LIT = { actions: new Set(), cards: new Set() };

/** The score sheet's button and dialog (web/js/sheet.js renderSheetParts), once loaded: main.js
 * loads it with the first table, not on a first visit.
 * @type {((state: TableState) => HTMLElement[])|null} */
let sheetParts = null;

/** @param {(state: TableState) => HTMLElement[]} parts */
export function useSheet(parts) {
  sheetParts = parts;
}

/** @param {State} state */
function inviteUrl(state) {
  return `${globalThis.location.origin}/r/${state.route.room}`;
}

/**
 * @param {State} state
 */
export function renderInvite(state) {
  const info = state.info ?? state.room.info;
  if (!info || info.kind !== "room" || !state.seat) return null;
  const waiting = !state.players?.one || !state.players?.two;
  // A public table is found in the lobby: the link is offered only while a seat is free.
  const listed = info.visibility === "public";
  if (listed && !waiting) return null;
  return h(
    "section",
    {
      class: `panel invite${waiting ? " waiting" : " compact"}`,
      "aria-labelledby": "invite-h",
    },
    h("h2", { id: "invite-h" }, t("room.invite.title")),
    waiting
      ? h("p", {}, t(listed ? "room.invite.text_public" : "room.invite.text"))
      : null,
    h(
      "div",
      { class: "invite-row" },
      h("label", { for: "invite-link", class: "visually-hidden" }, t("room.invite.link")),
      h("input", {
        id: "invite-link",
        type: "text",
        readonly: true,
        value: inviteUrl(state),
        dataset: { key: "invite-link" },
      }),
      h(
        "button",
        {
          type: "button",
          class: "button primary",
          dataset: { cmd: "copy-invite", key: "copy-invite" },
        },
        t("act.copy_invite"),
      ),
    ),
    state.copied ? h("p", { class: "hint" }, t("ann.copied")) : null,
    waiting ? h("p", { class: "hint" }, t("room.waiting")) : null,
  );
}

// ---------------------------------------------------------------- the table

/**
 * @param {State} rawState
 * @param {number} [now]
 */
export function renderTable(rawState, now = 0) {
  // The status sentence and every button come from one decision (status.js): the parts
  // below see exactly the actions it offers.
  const status = tableStatus(rawState);
  if (!rawState.view) return [h("p", { role: "status" }, status.text)];
  /** @type {TableState} */
  const state = {
    ...rawState,
    view: { ...rawState.view, legal_actions: status.actions },
  };
  const view = state.view;
  const table = view.table;
  /** @type {HTMLElement[]} */
  const out = [];
  const inRound = table.match_phase === "round" && table.round_phase !== "over";
  const result = !inRound && (table.round > 0 || Boolean(status.between));
  out.push(
    renderInfoBar(state, {
      resultShown: result && state.resultClosed !== resultKey(state),
    }),
  );
  out.push(renderStatus(state, status, now));
  const timer = renderTimer(state, now);
  if (timer) out.push(timer);
  out.push(...renderAbsence(state, now));
  if (state.confirmResign) out.push(renderResignConfirm());
  if (state.notice)
    out.push(h("p", { class: "notice", role: "alert" }, noticeText(state.notice)));
  if (!state.seat) out.push(h("p", { class: "hint spectating" }, t("table.spectating")));
  const invite = renderInvite(state);
  const waitingForPlayer = !state.players?.one || !state.players?.two;
  if (invite && waitingForPlayer) out.push(invite);
  if (inRound && table.round > 0) out.push(renderFelt(state));
  else if (result)
    out.push(resultPlace(state, renderRoundEnd(state, status.between), status.between));
  if (invite && !waitingForPlayer) {
    invite.classList.add("table-more"); // below the fold: the seats are taken
    out.push(invite);
  }
  return out;
}

/**
 * The "Game status" region: the whole sentence, its part the table shows anyway (the
 * top discard, the scores, the deadwood) in a span a small window hides from sight
 * (css/app.css, .status-seen), the move timer's words.
 * @param {TableState} state
 * @param {import("./status.js").TableStatus} status
 * @param {number} now
 */
export function renderStatus(state, status, now) {
  const { text, seen } = status;
  const at = seen ? text.indexOf(seen) : -1;
  const words =
    at < 0 || !seen
      ? [text]
      : [
          text.slice(0, at),
          h("span", { class: "status-seen" }, seen),
          text.slice(at + seen.length),
        ];
  // The other side's moves since the person's last one, named until the person acts.
  const last = state.lastMoves.map((move) => announcementText(state, move)).join(" ");
  return h(
    "p",
    {
      class: "status",
      role: "status",
      "aria-label": t("status.label"),
      id: "game-status",
    },
    ...(last ? [h("span", { class: "status-last" }, last), " "] : []),
    ...words,
    " ",
    h("span", { id: "status-timer" }, timerSentence(state, now)),
  );
}

/**
 * @param {TableState} state
 * @param {number} now
 */
export function renderTimer(state, now) {
  const timer = state.timer;
  if (!timer || state.view.table.match_phase === "over") return null;
  const total = Math.max(1, Math.round(timer.total_ms / 1000));
  const leftMs = timeLeft(timer, now) ?? 0;
  const left = Math.ceil(leftMs / 1000);
  const whose = isMine(state, timer.seat)
    ? t("timer.yours")
    : t("timer.theirs", { name: seatName(state, timer.seat) });
  return h(
    "div",
    {
      class: `timer${isMine(state, timer.seat) ? " mine" : ""}${left <= 10 ? " low" : ""}`,
    },
    h(
      "span",
      { class: "timer-label", id: "timer-text" },
      t("timer.text", { who: whose, s: left }),
    ),
    h(
      "div",
      {
        class: "timer-track",
        id: "timer-bar",
        role: "progressbar",
        "aria-label": t("timer.label"),
        "aria-valuemin": "0",
        "aria-valuemax": String(total),
        "aria-valuenow": String(left),
        "aria-valuetext": tn("timer.valuetext", left, { s: left }),
      },
      h("div", {
        class: "timer-fill",
        style: `width: ${(100 * leftMs) / Math.max(1, timer.total_ms)}%`,
      }),
    ),
  );
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
      out.push(
        h(
          "p",
          { class: "notice grace", dataset: { grace: seat } },
          t("grace.running", { name }),
          " ",
          h(
            "span",
            { id: `grace-${seat}` },
            t("grace.left", { s: Math.ceil(left / 1000) }),
          ),
        ),
      );
      continue;
    }
    const claimer = state.seat && state.seat !== seat;
    if (claimer && !state.claimDismissed) {
      out.push(
        h(
          "section",
          {
            class: "panel claim",
            role: "alertdialog",
            "aria-modal": "false",
            "aria-labelledby": "claim-h",
            "aria-describedby": "claim-text",
          },
          h("h2", { id: "claim-h" }, t("claim.title")),
          h("p", { id: "claim-text" }, t("claim.text", { name })),
          h(
            "div",
            { class: "button-row" },
            h(
              "button",
              {
                type: "button",
                class: "button primary",
                dataset: { cmd: "claim", key: "claim" },
              },
              t("claim.claim"),
            ),
            h(
              "button",
              {
                type: "button",
                class: "button secondary",
                dataset: { cmd: "claim-wait", key: "claim-wait" },
              },
              t("claim.wait"),
            ),
          ),
        ),
      );
    } else if (claimer) {
      out.push(
        h(
          "p",
          { class: "notice grace" },
          t("claim.waiting", { name }),
          " ",
          h(
            "button",
            {
              type: "button",
              class: "button secondary",
              dataset: { cmd: "claim", key: "claim" },
            },
            t("claim.claim"),
          ),
        ),
      );
    } else {
      out.push(
        h(
          "p",
          { class: "notice grace" },
          t("grace.over", { name, other: seatName(state, otherSeat(seat)) }),
        ),
      );
    }
  }
  return out;
}

export function renderResignConfirm() {
  return h(
    "section",
    {
      class: "panel claim",
      role: "alertdialog",
      "aria-modal": "false",
      "aria-labelledby": "resign-h",
    },
    h("h2", { id: "resign-h" }, t("resign.title")),
    h(
      "div",
      { class: "button-row" },
      h(
        "button",
        {
          type: "button",
          class: "button primary",
          dataset: { cmd: "resign-yes", key: "resign-yes" },
        },
        t("resign.yes"),
      ),
      h(
        "button",
        {
          type: "button",
          class: "button secondary",
          // Gone once pressed: the focus goes back to "Resign" (dom.js keepingFocus).
          dataset: { cmd: "resign-no", key: "resign-no", focusNext: "resign" },
        },
        t("act.cancel"),
      ),
    ),
  );
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
      bar.setAttribute("aria-valuetext", tn("timer.valuetext", left, { s: left }));
      const whose = isMine(state, state.timer.seat)
        ? t("timer.yours")
        : t("timer.theirs", { name: seatName(state, state.timer.seat) });
      const text = document.getElementById("timer-text");
      if (text) text.textContent = t("timer.text", { who: whose, s: left });
      bar.parentElement?.classList.toggle("low", left <= 10);
    }
    const fill = bar.firstElementChild;
    if (fill instanceof HTMLElement)
      fill.style.width = `${(100 * leftMs) / Math.max(1, state.timer.total_ms)}%`;
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
export function noticeText(notice) {
  const key = `error.${notice.code}`;
  return has(key)
    ? t(key)
    : t("error.generic", { message: notice.message || notice.code });
}

/**
 * What a kind of table adds to, or says about, its info bar.
 * @typedef {object} InfoBarOptions
 * @property {(HTMLElement|string)[]} [more]  what it adds to the match line
 * @property {boolean} [resultShown]  the result's dialog is open (it holds the way back)
 * @property {RoomKind} [kind]  the kind of room, whose records its fair mark links to
 */

/**
 * The bar above the table: round, rules, target, the two sides' scores, the switches.
 * @param {TableState} state
 * @param {InfoBarOptions} [options]
 */
export function renderInfoBar(
  state,
  { more = [], resultShown = false, kind = "room" } = {},
) {
  const table = state.view.table;
  const rules = table.rules ?? {};
  const { me, them } = displaySeats(state);
  const target = rules.target_score
    ? t("table.target", { n: rules.target_score })
    : t("table.first_to_knock");
  const presetKey = `preset.short.${rules.name}`;
  const preset = has(presetKey) ? t(presetKey) : (rules.name ?? "");
  const score = (/** @type {Seat} */ seat) =>
    h(
      "span",
      { class: `score${table.turn === seat ? " on-turn" : ""}` },
      h("span", { class: "score-name" }, sideName(state, seat)),
      " ",
      h("strong", {}, String(table.scores[seat])),
    );
  const controls = [];
  // Whether tips may be used here is the server's call (the `tips` message).
  if (state.seat && state.tips.allowed) {
    controls.push(
      h(
        "button",
        {
          type: "button",
          class: `chip tips-toggle${state.tips.on ? " on" : ""}`,
          "aria-pressed": String(state.tips.on),
          dataset: { cmd: "tips", key: "tips" },
        },
        t("act.tips"),
      ),
    );
  }
  const both = state.players?.one && state.players?.two;
  if (
    isMine(state, state.seat) &&
    both &&
    table.match_phase !== "over" &&
    table.round > 0
  ) {
    controls.push(
      h(
        "button",
        {
          type: "button",
          class: "chip resign",
          "aria-expanded": String(Boolean(state.confirmResign)),
          dataset: { cmd: "resign", key: "resign" },
        },
        t("act.resign"),
      ),
    );
  }
  // The match's rounds so far, once one is finished (a dialog; sheet.js).
  if (sheetParts && table.rounds?.some((r) => r.result))
    controls.push(...sheetParts(state));
  const info = state.info;
  // A tournament's room plays one match: after it, the way back to the tournament (in the
  // result's dialog while it is open, results.js).
  const back =
    table.match_phase === "over" && !resultShown ? backToTournament(info) : null;
  if (back) controls.push(back);
  const extra = [...more];
  if (info?.rated) extra.push(h("span", { class: "badge rated" }, t("lobby.rated")));
  // A game on this device has no watchers to speak of.
  if (info?.spectators === false && !state.route.device)
    extra.push(h("span", { class: "watchers" }, t("table.no_watchers")));
  else if (typeof state.watchers === "number" && state.watchers > 0) {
    extra.push(
      h(
        "span",
        { class: "watchers", id: "watchers" },
        tn("table.watchers", state.watchers, { n: state.watchers }),
      ),
    );
  }
  if (state.fair) extra.push(renderFairMark(state.fair, state.seat, kind));
  const tournament = tournamentLink(info);
  return h(
    "div",
    { class: "infobar" },
    h(
      "div",
      { class: "match-info" },
      ...(tournament ? [tournament, " · "] : []),
      h("span", {}, t("table.round", { n: Math.max(1, table.round) })),
      " · ",
      h("span", {}, preset),
      // A preset's name that says its target already ("First to knock") is not followed
      // by it again: not "First to knock · first to knock".
      ...(sameWords(preset, target) ? [] : [" · ", h("span", {}, target)]),
      ...extra.flatMap((el) => [" · ", el]),
    ),
    h(
      "div",
      { class: "scores" },
      score(me),
      h("span", { "aria-hidden": "true" }, " : "),
      score(them),
    ),
    h("div", { class: "info-controls" }, ...controls),
  );
}

/**
 * The felt of a running round: the other side, the piles beside the buttons and the tip
 * (and what a kind of table adds there, `more`), the own hand. The felt fills the rest of
 * the window (css/app.css, "the table as a game screen"): the centre takes what the other
 * side and the hand leave.
 * @param {TableState} state
 * @param {(HTMLElement|null)[]} [more]
 * @param {FeltLook} [look]
 */
export function renderFelt(
  state,
  more = [],
  { lit: advised = NOTHING_LIT, seen = null } = {},
) {
  const view = state.view;
  const table = view.table;
  const { me, them } = displaySeats(state);
  return h(
    "section",
    { class: "felt", "aria-label": t("app.title") },
    renderOpponent(state, them),
    h(
      "div",
      { class: "felt-centre" },
      renderPiles(state, advised),
      h(
        "div",
        { class: "felt-side" },
        renderActions(state, advised),
        renderTip(state),
        ...more,
        table.doubled ? h("p", { class: "hint doubled" }, t("table.doubled")) : null,
      ),
    ),
    state.seat ? renderOwnHand(state, advised, seen) : renderOpponent(state, me, true),
  );
}

/**
 * @param {TableState} state
 * @param {Seat} seat
 */
function playerBadges(state, seat) {
  const table = state.view.table;
  const p = state.players?.[seat];
  const badges = [];
  if (table.dealer === seat)
    badges.push(h("span", { class: "badge" }, t("table.dealer")));
  if (p?.bot) badges.push(h("span", { class: "badge" }, t("table.bot")));
  const player = p?.player ?? state.info?.seats?.[seat]?.player;
  if (player && ratingText(player)) {
    badges.push(
      h(
        "span",
        { class: "badge rating-badge", title: t("lobby.rating") },
        t("lobby.rating.short", { r: ratingText(player) }),
      ),
    );
  }
  const suffix = player?.tag?.includes("#")
    ? player.tag.slice(player.tag.lastIndexOf("#"))
    : null;
  if (suffix && seat !== state.seat)
    badges.push(h("span", { class: "badge tag", title: playerTag(player) }, suffix));
  if (p && !p.bot && !p.connected)
    badges.push(h("span", { class: "badge warn" }, t("table.disconnected")));
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
  const taken = lastMoved(state, seat, /^(take|draw discard)$/);
  const cards = [];
  for (let i = known.length; i < size; i += 1) cards.push(cardBack({ small: true }));
  // Known cards last, so no back covers them.
  for (const card of known) {
    const el = cardElement(card, { small: true });
    el.classList.add("known");
    if (taken.includes(card)) el.classList.add("last-move");
    el.title = t("table.known");
    cards.push(el);
  }
  return h(
    "section",
    {
      class: `opponent${bottom ? " bottom" : ""}${table.turn === seat ? " on-turn" : ""}`,
      dataset: { seat },
    },
    h(
      "div",
      { class: "player-line" },
      h("span", { class: "player-name" }, name),
      ...playerBadges(state, seat),
    ),
    h("div", { class: "fan small-fan", role: "img", "aria-label": label }, ...cards),
  );
}

/**
 * The cards the other side's last moves (state.lastMoves) whose verb matches `verb` moved
 * (by `seat`, or by anyone): marked on the table until the person acts.
 * @param {TableState} state
 * @param {Seat|null} seat
 * @param {RegExp} verb
 */
function lastMoved(state, seat, verb) {
  return state.lastMoves.flatMap((move) => {
    const [what, card] = splitAction(move.action ?? "");
    const moved = card ?? move.top;
    return verb.test(what) && moved && (!seat || move.seat === seat) ? [moved] : [];
  });
}

/**
 * @param {TableState} state
 * @param {Lit} advised
 */
function renderPiles(state, advised) {
  const view = state.view;
  const table = view.table;
  const legal = view.legal_actions;
  const top = table.discard_pile.at(-1);
  const stockLegal = legal.includes("draw stock");
  const stockLabel = t("table.stock", { n: table.stock_size });
  const stockArt = h(
    "span",
    { class: "pile-stack" },
    table.stock_size > 0 ? cardBack() : h("span", { class: "card empty" }),
  );
  const stock = stockLegal
    ? h(
        "button",
        {
          type: "button",
          class: `pile stock lit${recommended(state, advised, "draw stock")}`,
          "aria-label": t("act.draw_stock"),
          "aria-description": stockLabel,
          dataset: { act: "draw stock", key: "act-draw-stock", drag: "pile" },
        },
        stockArt,
        h("span", { class: "pile-caption" }, t("act.draw_stock")),
      )
    : h(
        "div",
        { class: "pile stock", role: "img", "aria-label": stockLabel },
        stockArt,
        h("span", { class: "pile-caption" }, stockLabel),
      );
  const topEl = top ? cardElement(top) : h("span", { class: "card empty" });
  if (top && lastMoved(state, null, /^discard$/).includes(top))
    topEl.classList.add("last-move");
  const takeAction = legal.includes("take")
    ? "take"
    : legal.includes("draw discard")
      ? "draw discard"
      : null;
  const pileLabel = `${t("table.discard_pile")}: ${top ? t("table.discard_top", { card: cardName(top) }) : t("table.discard_empty")}`;
  const discardLegal = legal.some((a) => a.startsWith("discard "));
  let discard;
  if (takeAction) {
    const name = takeAction === "take" ? t("act.take") : t("act.draw_discard");
    // Named as it shows, the card first ("2♥, take the discard"; WCAG 2.5.3). A space
    // parts the card from the caption (the pile is a flex box: it takes no room), so that
    // the text it shows reads "2 Take the discard", not "2Take the discard".
    const shown = top
      ? t(takeAction === "take" ? "act.take.card" : "act.draw_discard.card", {
          label: cardLabel(top),
        })
      : name;
    discard = h(
      "button",
      {
        type: "button",
        class: `pile discard lit${recommended(state, advised, takeAction)}`,
        "aria-label": shown,
        "aria-description": pileLabel,
        dataset: {
          act: takeAction,
          key: `act-${takeAction.replace(" ", "-")}`,
          drag: "pile",
        },
      },
      h("span", { class: "pile-stack" }, topEl),
      " ",
      h("span", { class: "pile-caption" }, name),
    );
  } else {
    discard = h(
      "div",
      {
        class: `pile discard${discardLegal ? " drop-target" : ""}`,
        role: "img",
        "aria-label": pileLabel,
        dataset: discardLegal ? { drop: "discard" } : {},
      },
      h("span", { class: "pile-stack" }, topEl),
      h(
        "span",
        { class: "pile-caption" },
        top ? cardName(top) : t("table.discard_empty"),
      ),
    );
  }
  return h("div", { class: "piles" }, stock, discard);
}

/**
 * @param {TableState} state
 * @param {Lit} advised
 * @param {string} action
 */
function recommended(state, advised, action) {
  const tip = state.tips.tip;
  if (tip && tip.version === state.version && tip.action === action)
    return " recommended";
  return advised.actions.has(action) ? " recommended suggested" : "";
}

/**
 * @param {TableState} state
 * @param {Lit} advised
 */
function renderActions(state, advised) {
  const view = state.view;
  const legal = view.legal_actions;
  const buttons = [];
  if (legal.includes("pass")) {
    buttons.push(
      h(
        "button",
        {
          type: "button",
          class: `button${recommended(state, advised, "pass")}`,
          dataset: { act: "pass", key: "act-pass" },
        },
        t("act.pass"),
      ),
    );
  }
  for (const kind of ["gin", "knock"]) {
    const best = preferredCardAction(view, kind);
    if (!best) continue;
    const [, card] = splitAction(best);
    const tipAction =
      state.tips.tip?.version === state.version ? state.tips.tip.action : null;
    const pointed = [...advised.actions].some((a) => a.startsWith(`${kind} `));
    const rec =
      (tipAction && tipAction.startsWith(`${kind} `)) || pointed ? " recommended" : "";
    buttons.push(
      h(
        "button",
        {
          type: "button",
          class: `button lit ${kind}${rec}`,
          "aria-description": t(`act.${kind}.desc`, { card: card ? cardName(card) : "" }),
          dataset: { act: best, key: `act-${kind}` },
        },
        t(`act.${kind}`),
      ),
    );
  }
  const finishing = actionsByCard(view, "knock").size + actionsByCard(view, "gin").size;
  if (finishing > 1 || state.choose) {
    buttons.push(
      h(
        "button",
        {
          type: "button",
          class: "button secondary",
          "aria-pressed": String(Boolean(state.choose)),
          dataset: {
            cmd: "choose",
            arg: state.choose ? "" : "finish",
            key: "choose-card",
          },
        },
        t("act.choose_card"),
      ),
    );
  }
  if (legal.includes("big gin")) {
    buttons.push(
      h(
        "button",
        {
          type: "button",
          class: `button lit gin${recommended(state, advised, "big gin")}`,
          dataset: { act: "big gin", key: "act-big-gin" },
        },
        t("act.big_gin"),
      ),
    );
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
    return h(
      "aside",
      { class: "tip-box", "aria-label": t("tips.title") },
      h("strong", {}, t("tips.title"), ": "),
      tipText(tips.tip),
      " ",
      h("span", { class: "hint" }, t("tips.on", { n: tips.left })),
    );
  }
  if (tips.on) {
    const waiting = state.view.legal_actions.length > 0;
    return h(
      "aside",
      { class: "tip-box quiet", "aria-label": t("tips.title") },
      waiting ? t("tips.waiting") : t("tips.on", { n: tips.left }),
      tips.message ? ` ${t(tips.message)}` : "",
    );
  }
  if (tips.message)
    return h(
      "aside",
      { class: "tip-box quiet", "aria-label": t("tips.title") },
      t(tips.message),
    );
  return null;
}

/**
 * The hand at the bottom: one's own, or one this page sees without playing it (`seen`),
 * whose cards then do what `seen` says instead of playing them.
 * @param {TableState} state
 * @param {Lit} advised
 * @param {SeenHand|null} seen
 */
function renderOwnHand(state, advised, seen) {
  const view = state.view;
  const other = isMine(state, state.seat) ? null : seen;
  const press = other?.press ?? null;
  const order = handOrder(view, state.manualOrder);
  const melds = meldIndex(view);
  const discards = actionsByCard(view, "discard");
  // Choosing the card to lay down face down: gin with it if that is legal, else knock.
  const chooseMap = state.choose
    ? new Map([...actionsByCard(view, "knock"), ...actionsByCard(view, "gin")])
    : null;
  const tip = state.tips.tip?.version === state.version ? state.tips.tip.action : null;
  const fresh = new Set(state.fresh);
  /** @type {HTMLElement[]} */
  const cards = [];
  /** @type {string|null} */
  let previousGroup = null;
  order.forEach((card, position) => {
    const group = melds.has(card) ? `m${melds.get(card)}` : "dead";
    const name = cardName(card);
    const pressed = press ? press(card) : null;
    let action = null;
    let description;
    if (chooseMap) {
      action = chooseMap.get(card) ?? null;
      description = action
        ? t(action.startsWith("gin") ? "hand.gin_with" : "hand.knock_with", {
            card: name,
          })
        : null;
    } else {
      action = discards.get(card) ?? null;
      if (action) description = t("hand.discard", { card: name });
      else if (view.taken === card && view.legal_actions.length)
        description = t("hand.taken", { card: name });
      else if (pressed) description = pressed.text;
    }
    const inMeld = melds.has(card);
    const classes = [
      "hand-card",
      inMeld ? `meld meld-${(melds.get(card) ?? 0) % 4}` : "deadwood",
    ];
    if (group !== previousGroup && position > 0) classes.push("group-start");
    if (action) classes.push("playable");
    if (fresh.has(card)) classes.push("fresh");
    if (view.taken === card) classes.push("taken");
    if (
      (tip && action && tip === action) ||
      (action && advised.actions.has(action)) ||
      advised.cards.has(card)
    )
      classes.push("recommended");
    previousGroup = group;
    const button = h(
      "button",
      {
        type: "button",
        class: classes.join(" "),
        "aria-label": cardControlName(card),
        "aria-description": [description, inMeld ? t("hand.meld") : t("hand.deadwood")]
          .filter(Boolean)
          .join(". "),
        "aria-disabled": action || pressed ? null : "true",
        dataset: {
          card,
          act: action ?? undefined,
          key: `card-${card}`,
          drag: "card",
          ...(pressed ? { cmd: pressed.cmd, arg: pressed.arg } : {}),
        },
      },
      cardElement(card),
    );
    cards.push(button);
  });
  const arrangement = view.arrangement;
  const owner = other ? other.owner : t("table.you");
  return h(
    "section",
    { class: `own${view.legal_actions.length ? " on-turn" : ""}` },
    h(
      "div",
      { class: "player-line" },
      h("span", { class: "player-name" }, owner),
      ...(state.seat ? playerBadges(state, state.seat) : []),
      arrangement
        ? h(
            "span",
            {
              class: `deadwood-counter${arrangement.deadwood <= view.table.knock_limit ? " low" : ""}`,
            },
            t("table.deadwood", { n: arrangement.deadwood }),
            " ",
            h(
              "span",
              { class: "hint" },
              `(${t("table.deadwood.knock_limit", { n: view.table.knock_limit })})`,
            ),
          )
        : null,
      h(
        "span",
        { class: "sort-buttons" },
        h(
          "button",
          {
            type: "button",
            class: "chip",
            dataset: { cmd: "sort-suit", key: "sort-suit" },
          },
          t("act.sort_suit"),
        ),
        h(
          "button",
          {
            type: "button",
            class: "chip",
            dataset: { cmd: "sort-rank", key: "sort-rank" },
          },
          t("act.sort_rank"),
        ),
        state.manualOrder
          ? h(
              "button",
              { type: "button", class: "chip", dataset: { cmd: "sort", key: "sort" } },
              t("act.sort"),
            )
          : null,
      ),
    ),
    h(
      "div",
      {
        class: "fan hand",
        role: "group",
        dataset: { drop: "hand" },
        "aria-label": other ? other.label : t("table.your_hand"),
      },
      ...cards,
    ),
    h("p", { class: "hint hand-help" }, other ? other.help : t("table.hand_help")),
  );
}

/**
 * Whether two texts say the same words (case aside).
 * @param {string} a
 * @param {string} b
 */
function sameWords(a, b) {
  return a.toLocaleLowerCase() === b.toLocaleLowerCase();
}
