// The chouette table (docs/rules.md §8): the two-player table's parts (info bar, timer,
// felt, round and match results) around the box-and-team match, plus what a chouette
// adds: who is box, captain and partner, the captain order, the ledger, advice, the
// settlement of each match. A pure function of the state, like table.js.
import { h } from "../dom.js";
import { t } from "../i18n.js";
import {
  renderInfoBar,
  renderStatus,
  renderTimer,
  renderFelt,
  renderResignConfirm,
  noticeText,
} from "../table.js";
import { renderRoundEnd, resultPlace } from "../results.js";
import { chouetteStatus } from "./status.js";
import { choiceText, positionName, suggestionText, tableFull } from "./state.js";
import {
  canAdvise,
  currentSuggestions,
  pointCommand,
  pointText,
  suggested,
} from "./pointing.js";
import { seatName } from "../status.js";
import { peerButton } from "../chat.js";

/** @typedef {import("../types.js").State} State */
/** @typedef {import("../types.js").TableState} TableState */
/** @typedef {import("../types.js").ChouetteState} ChouetteState */
/** @typedef {import("../types.js").ChouetteInfo} ChouetteInfo */
/** @typedef {import("../types.js").ChouetteSettlement} ChouetteSettlement */

/**
 * A signed amount of the ledger: "+30", "−60", "0".
 * @param {number} n
 */
export function signed(n) {
  if (n > 0) return `+${n}`;
  if (n < 0) return `\u2212${Math.abs(n)}`;
  return "0";
}

/**
 * The positions as the table lists them: the box, then the team in captain order.
 * @param {ChouetteInfo} info
 */
export function seatingOrder(info) {
  return [info.box, ...info.order];
}

/**
 * The captain order as it reads from the captain on: the captain, then the others in
 * turn (a rotation of the server's order, for display; who takes over is the server's
 * `next_captain`).
 * @param {ChouetteInfo} info
 */
export function captainsFromNow(info) {
  const at = Math.max(0, info.order.indexOf(info.captain));
  return [...info.order.slice(at), ...info.order.slice(0, at)];
}

/**
 * A position's part: box, captain, the next captain (as the server names it: an absent
 * partner is skipped, docs/rules.md §8.1), or team.
 * @param {ChouetteInfo} info
 * @param {number} position
 */
export function partText(info, position) {
  if (position === info.box) return t("chouette.part.box");
  if (position === info.captain) return t("chouette.part.captain");
  return t(info.next_captain === position ? "chouette.part.next" : "chouette.part.team");
}

/**
 * @param {State} rawState
 * @param {number} [now]
 */
export function renderChouetteTable(rawState, now = 0) {
  const status = chouetteStatus(rawState);
  const c = rawState.chouette;
  if (!rawState.view || !c?.info)
    return [h("p", { role: "status", "aria-label": t("status.label") }, status.text)];
  /** @type {TableState} */
  const state = {
    ...rawState,
    view: { ...rawState.view, legal_actions: status.actions },
  };
  const table = state.view.table;
  const inRound = table.match_phase === "round" && table.round_phase !== "over";
  /** @type {(HTMLElement|null)[]} */
  const out = [];
  out.push(
    renderInfoBar(state, {
      more: [h("span", {}, t("chouette.match", { n: c.info.number }))],
      kind: "chouette",
    }),
  );
  out.push(renderStatus(state, status, now));
  out.push(renderTimer(state, now));
  out.push(...renderGrace(state, now));
  if (state.confirmResign) out.push(renderResignConfirm());
  if (state.notice)
    out.push(h("p", { class: "notice", role: "alert" }, noticeText(state.notice)));
  if (c.position === null)
    out.push(h("p", { class: "hint spectating" }, t("table.spectating")));
  const full = tableFull(c);
  if (!full) out.push(renderChouetteInvite(state));
  if (inRound && table.round > 0)
    out.push(
      renderFelt(
        state,
        [renderSuggestions(state), renderAdvise(state), renderAsk(state)],
        { lit: suggested(state), seen: captainsHand(state) },
      ),
    );
  else if (!inRound && (table.round > 0 || status.between)) {
    const end = renderRoundEnd(state, status.between, "chouette");
    // The settlement right below the match's totals, above the round's details.
    if (table.match_phase === "over") {
      const settlement = renderSettlement(state);
      const totals = end.querySelector(".match-end");
      if (totals) totals.after(settlement);
      else end.prepend(settlement);
      // What comes next ("Next match" with the links beside it, one footer: results.js)
      // right below the settlement: the round's details follow.
      const next = end.querySelector(".result-next");
      if (next) settlement.after(next);
    }
    out.push(resultPlace(state, end, status.between));
  }
  out.push(renderPlayers(state));
  return out.filter((el) => el !== null);
}

/**
 * The captain's hand as a partner sees it: the partner's press on a card points the
 * captain at it (pointing.js), while the partner may advise.
 * @param {TableState} state
 * @returns {import("../table.js").SeenHand|null}
 */
function captainsHand(state) {
  if (state.seating?.plays !== false) return null; // a partner sees it without playing it
  const name = seatName(state, state.seat);
  return {
    owner: t("chouette.captain_named", { name }),
    label: t("chouette.captain_hand", { name }),
    help: t("chouette.hand_help"),
    press: canAdvise(state)
      ? (card) => ({ ...pointCommand(state, card), text: pointText(state, card) })
      : null,
  };
}

/**
 * The invite link of the table, shown while a seat is free (a table whose other seats
 * are computers has none: nobody is to be invited).
 * @param {State} state
 */
export function renderChouetteInvite(state) {
  const url = `${globalThis.location.origin}/c/${state.route.room}`;
  return h(
    "section",
    { class: "panel invite waiting", "aria-labelledby": "invite-h" },
    h("h2", { id: "invite-h" }, t("chouette.invite.title")),
    h("p", {}, t("chouette.invite.text")),
    h(
      "div",
      { class: "invite-row" },
      h("label", { for: "invite-link", class: "visually-hidden" }, t("room.invite.link")),
      h("input", {
        id: "invite-link",
        type: "text",
        readonly: true,
        value: url,
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
  );
}

/**
 * Everyone at the table: part, place in the captain order, presence and ledger.
 * @param {State} state
 */
function renderPlayers(state) {
  const c = /** @type {ChouetteState} */ (state.chouette);
  const info = /** @type {ChouetteInfo} */ (c.info);
  const table = state.view?.table;
  const dealer = table?.dealer
    ? table.dealer === "one"
      ? info.box
      : info.captain
    : null;
  const rows = seatingOrder(info).map((position) => {
    const p = c.players[position];
    const badges = [];
    if (position === dealer && table?.round) badges.push(t("table.dealer"));
    if (position === info.turn) badges.push(t("chouette.badge.turn"));
    if (p?.bot) badges.push(t("table.bot"));
    if (info.absent.includes(position)) badges.push(t("chouette.badge.absent"));
    else if (p && !p.bot && !p.connected) badges.push(t("table.disconnected"));
    const mine = position === c.position;
    const name = p
      ? positionName(state, position)
      : t("chouette.seat_free", { n: position + 1 });
    // Another person's seat: report or block them (civility.js), as at a two-player table.
    const player = p?.player;
    const peer =
      player && !mine && !p.bot && state.me?.id !== player.id
        ? peerButton({
            player: player.id,
            name: player.tag ?? p.name,
            place: "table",
            room: state.route.room,
            key: `peer-${position}`,
          })
        : "";
    return h(
      "tr",
      { class: `${mine ? "mine" : ""}${position === info.turn ? " on-turn" : ""}` },
      h("th", { scope: "row" }, name, peer ? " " : "", peer),
      h("td", {}, partText(info, position)),
      h("td", {}, badges.join(", ")),
      h("td", { class: "num" }, signed(info.ledger[position] ?? 0)),
    );
  });
  const order = captainsFromNow(info)
    .map((p) => positionName(state, p))
    .join(" → ");
  // Below the table, not above the hand (css/app.css, "the table as a game screen").
  return h(
    "section",
    { class: "panel chouette-players table-more", "aria-labelledby": "chouette-h" },
    h("h2", { id: "chouette-h" }, t("chouette.table.title")),
    h(
      "table",
      { class: "totals chouette-ledger" },
      h("caption", {}, t("chouette.table.caption")),
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          h("th", { scope: "col" }, t("chouette.col.player")),
          h("th", { scope: "col" }, t("chouette.col.part")),
          h("th", { scope: "col" }, t("chouette.col.state")),
          h("th", { scope: "col", class: "num" }, t("chouette.col.ledger")),
        ),
      ),
      h("tbody", {}, ...rows),
    ),
    h("p", { class: "hint" }, t("chouette.order", { order })),
  );
}

/**
 * Grace periods of absent people: the box or the captain forfeit when theirs runs out,
 * a partner is skipped in the captain order (docs/protocol.md, Chouette rooms).
 * @param {State} state
 * @param {number} now
 */
function renderGrace(state, now) {
  const c = /** @type {ChouetteState} */ (state.chouette);
  const out = [];
  for (const [position, p] of c.players.entries()) {
    if (!p || p.connected || typeof p.grace_remaining_ms !== "number") continue;
    const left = Math.max(
      0,
      p.grace_remaining_ms - Math.max(0, now - (state.playersAt ?? 0)),
    );
    // The box's and the captain's count down with the clock (table.js patchClocks).
    const seat =
      position === c.info?.box ? "one" : position === c.info?.captain ? "two" : null;
    out.push(
      h(
        "p",
        { class: "notice grace" },
        t("grace.running", { name: positionName(state, position) }),
        " ",
        h(
          "span",
          { id: seat ? `grace-${seat}` : null },
          t("grace.left", { s: Math.ceil(left / 1000) }),
        ),
      ),
    );
  }
  return out;
}

/**
 * The suggestions for the decision now, with the advisers' names (the team sees them;
 * the captain's buttons and cards they name are highlighted by table.js).
 * @param {TableState} state
 */
function renderSuggestions(state) {
  const list = currentSuggestions(state);
  if (!list.length) return null;
  return h(
    "aside",
    { class: "tip-box advice-box", "aria-label": t("chouette.advice.title") },
    h("strong", {}, t("chouette.advice.title"), ": "),
    h(
      "ul",
      { class: "advice-list" },
      ...list.map((s) => h("li", {}, suggestionText(state, s))),
    ),
  );
}

/**
 * A partner's buttons: point the captain at one of their legal actions.
 * @param {TableState} state
 */
function renderAdvise(state) {
  const c = /** @type {ChouetteState} */ (state.chouette);
  if (!canAdvise(state) || !c.info) return null;
  const captain = positionName(state, c.info.captain);
  const sent = c.sent && c.sent.version === state.version ? c.sent.what : null;
  const button = (/** @type {string} */ action) =>
    h(
      "button",
      {
        type: "button",
        class: `button secondary${sent === action ? " sent" : ""}`,
        "aria-pressed": String(sent === action),
        dataset: { cmd: "advise", arg: action, key: `advise-${action}` },
      },
      t("chouette.suggest", { choice: choiceText(action) }),
    );
  // Discards are many: they are also the cards of the hand, so their buttons fold away.
  const discards = c.advice.filter((a) => a.startsWith("discard "));
  const others = c.advice.filter((a) => !a.startsWith("discard "));
  return h(
    "section",
    { class: "advise", "aria-labelledby": "advise-h" },
    h("h3", { id: "advise-h" }, t("chouette.advise.title", { name: captain })),
    others.length ? h("div", { class: "button-row" }, ...others.map(button)) : null,
    discards.length
      ? h(
          "details",
          { class: "advise-discards", open: discards.includes(sent ?? "") },
          h("summary", {}, t("chouette.advise.discards", { n: discards.length })),
          h("div", { class: "button-row" }, ...discards.map(button)),
        )
      : null,
    h("p", { class: "hint" }, t("chouette.advise.help")),
  );
}

/**
 * The captain's button to ask the computer partners, when the team has one.
 * @param {TableState} state
 */
function renderAsk(state) {
  const c = /** @type {ChouetteState} */ (state.chouette);
  if (c.role !== "captain" || !c.info || !state.view.legal_actions.length) return null;
  const computers = c.info.order.filter(
    (p) => p !== c.info?.captain && c.players[p]?.bot,
  );
  if (!computers.length) return null;
  const asked = c.sent && c.sent.version === state.version && c.sent.what === "ask";
  return h(
    "div",
    { class: "button-row ask" },
    h(
      "button",
      {
        type: "button",
        class: "button secondary",
        disabled: asked,
        dataset: { cmd: "ask-advice", key: "ask-advice" },
      },
      t("chouette.ask"),
    ),
  );
}

/**
 * The settlement of the match just over, and the ledger after it.
 * @param {State} state
 */
export function renderSettlement(state) {
  const c = /** @type {ChouetteState} */ (state.chouette);
  const info = /** @type {ChouetteInfo} */ (c.info);
  /** @type {ChouetteSettlement|undefined} */
  const s =
    info.settlements.find((x) => x.number === info.number) ?? info.settlements.at(-1);
  if (!s) return h("p", { class: "hint" }, t("chouette.settling"));
  const record = `/api/chouette/${encodeURIComponent(state.route.room ?? "")}/record`;
  const rows = [s.box, ...s.team].map((position) =>
    h(
      "tr",
      {},
      h("th", { scope: "row" }, positionName(state, position)),
      h("td", {}, position === s.box ? t("chouette.part.box") : t("chouette.part.team")),
      h("td", { class: "num" }, signed(s.changes[position] ?? 0)),
      h("td", { class: "num" }, signed(info.ledger[position] ?? 0)),
    ),
  );
  return h(
    "div",
    { class: "settlement" },
    h("h3", { id: "settlement-h" }, t("chouette.settlement.title", { n: s.number })),
    h("p", {}, t("chouette.settlement.value", { n: s.value, k: s.team.length })),
    h(
      "table",
      { class: "totals", "aria-labelledby": "settlement-h" },
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          h("th", { scope: "col" }, t("chouette.col.player")),
          h("th", { scope: "col" }, t("chouette.col.part")),
          h("th", { scope: "col", class: "num" }, t("chouette.col.change")),
          h("th", { scope: "col", class: "num" }, t("chouette.col.ledger")),
        ),
      ),
      h("tbody", {}, ...rows),
    ),
    h(
      "p",
      {},
      h(
        "a",
        { href: record, download: `chouette-${state.route.room}.json` },
        t("chouette.record"),
      ),
    ),
  );
}
