// The end of a round and of a match: both hands, the showdown, the calculation line by
// line, the match totals, and the one button status.js decided on.
import { h } from "./dom.js";
import { t, tn } from "./i18n.js";
import { cardName, cardList, cardElement } from "./cards.js";
import { lastResult, resultSummary } from "./words.js";
import {
  seatName,
  sideName,
  forfeitText,
  otherSeat,
  displaySeats,
  isMine,
} from "./status.js";
import { reviewLinks, backToTournament } from "./links.js";
import { renderVerifyLinks } from "./fair/mark.js";

/** @typedef {import("./types.js").TableState} TableState */
/** @typedef {import("./types.js").RoundResult} RoundResult */
/** @typedef {import("./types.js").MatchResult} MatchResult */

/**
 * @param {TableState} state
 * @param {import("./status.js").Between|null} between  the button status.js decided on
 * @param {import("./fair/mark.js").RoomKind} [kind]  the kind of room: where its records
 *   are; only a two-player room's match has a review and a record link here
 */
export function renderRoundEnd(state, between, kind = "room") {
  const view = state.view;
  const table = view.table;
  const result = lastResult(view);
  const out = h("section", { class: "panel round-end", "aria-labelledby": "result-h" });
  const over = table.match_phase === "over";
  if (over && table.match_result) out.append(renderMatchEnd(state, table.match_result));
  if (result) {
    out.append(
      h(
        "h2",
        { id: over ? "round-result-h" : "result-h" },
        t("result.title", { n: table.round }),
      ),
    );
    out.append(h("p", { class: "result-summary" }, resultSummary(state, result)));
    out.append(renderShowdown(state, result));
    out.append(renderCalculation(state, result));
  }
  const { me, them } = displaySeats(state);
  out.append(
    h(
      "p",
      { class: "match-score" },
      h("strong", {}, t("result.match_score"), ": "),
      t("result.match_score.line", {
        a: sideName(state, me),
        sa: table.scores[me],
        b: sideName(state, them),
        sb: table.scores[them],
      }),
    ),
  );
  // What comes next (the review, the record, the deals' check, the button) in one
  // footer: it stays in the window as a whole where the result is longer (app.css), so
  // that the button never lies over the links before it.
  const next = h("div", { class: "result-next" });
  // Only a two-player room's match is reviewed (docs/review.md).
  const room = kind === "room";
  const links =
    over && room
      ? reviewLinks(state.route.room, state.seat, state.info?.visibility === "public")
      : null;
  if (links) next.append(links);
  // A finished match's record is public, as a device game's (docs/fairness.md): the room
  // serves it once the match is over (docs/protocol.md, GET /api/rooms/{id}/record).
  if (over && room && !state.route.device && state.route.room)
    next.append(recordLink(state.route.room));
  // A device game's record is made in the page (docs/device.md): downloaded by a button.
  if (over && state.route.device) {
    next.append(
      h(
        "p",
        { class: "record-link" },
        h(
          "button",
          {
            type: "button",
            class: "button secondary",
            dataset: { cmd: "device-record", key: "device-record" },
          },
          t("device.record"),
        ),
      ),
    );
  }
  // A tournament's match over: the way back, in the dialog (the info bar's is behind it).
  const back = over ? backToTournament(state.info) : null;
  if (back) next.append(h("p", { class: "record-link" }, back));
  const verify = renderVerifyLinks(state.fair, kind);
  if (verify) next.append(verify);
  if (between) next.append(betweenButton(between, true));
  if (next.childElementCount) out.append(next);
  return out;
}

/**
 * The button status.js decided on between rounds or matches ("Next round", "New match").
 * @param {import("./status.js").Between} between
 * @param {boolean} first  the one a dialog showing the result gives the focus to
 */
function betweenButton(between, first) {
  return h(
    "button",
    {
      type: "button",
      class: "button primary",
      disabled: between.disabled,
      autofocus: first && !between.disabled,
      dataset: { cmd: between.cmd, key: between.cmd },
    },
    t(between.label),
  );
}

/**
 * Which result a table shows: the round's, or the match's once it is over (of which of
 * the table's matches, where it counts them: State.seating). A result the person closed
 * stays closed until the next one.
 * @param {TableState} state
 */
export function resultKey(state) {
  const table = state.view.table;
  return `${state.route.room ?? ""}:${table.match_phase === "over" ? "match" : "round"}:${table.round}:${state.seating?.match ?? ""}`;
}

/**
 * The round's or the match's result `end` (renderRoundEnd) in a modal dialog (web/js/
 * dialogs.js opens it with showModal: the focus is kept inside it while it is open and
 * given back when it closes); once the person closed it (Escape or its close button), a
 * line with a button that opens it again and `between`'s button, so that "Next round"
 * is always within reach.
 * @param {TableState} state
 * @param {HTMLElement} end
 * @param {import("./status.js").Between|null} between
 */
export function resultPlace(state, end, between) {
  const key = resultKey(state);
  const over = state.view.table.match_phase === "over";
  if (state.resultClosed === key) {
    return h(
      "section",
      {
        class: "panel result-closed",
        "aria-label": t(over ? "match.title" : "result.title", {
          n: state.view.table.round,
        }),
      },
      h(
        "div",
        { class: "button-row" },
        h(
          "button",
          {
            type: "button",
            class: "button secondary",
            dataset: { cmd: "show-result", key: "show-result" },
          },
          over
            ? t("act.show_match_result")
            : t("act.show_result", { n: state.view.table.round }),
        ),
        between ? betweenButton(between, false) : null,
      ),
    );
  }
  const heading = end.querySelector("h2");
  return h(
    "dialog",
    {
      class: "result-dialog",
      "aria-labelledby": heading?.id || null,
      dataset: {
        key: "result-dialog",
        modal: "result",
        result: key,
        returnKey: "show-result",
      },
    },
    h(
      "button",
      {
        type: "button",
        class: "chip dialog-close",
        "aria-label": t("act.close_result"),
        dataset: { cmd: "close-result", arg: key, key: "close-result" },
      },
      h("span", { "aria-hidden": "true" }, "\u2715"),
    ),
    end,
  );
}

/**
 * The download of a finished room match's record (`ginrummy replay` and `ginrummy verify`
 * read it; the verify page too).
 * @param {string} room
 */
function recordLink(room) {
  return h(
    "p",
    { class: "record-link" },
    h(
      "a",
      {
        class: "button secondary",
        href: `/api/rooms/${encodeURIComponent(room)}/record`,
        download: `ginrummy-${room}.json`,
      },
      t("room.record"),
    ),
  );
}

/**
 * @param {TableState} state
 * @param {MatchResult} m
 */
function renderMatchEnd(state, m) {
  const { me, them } = displaySeats(state);
  const headline = isMine(state, m.winner)
    ? t("match.you_win")
    : t("match.winner", { name: sideName(state, m.winner) });
  /** @type {("round_points"|"rounds_won"|"box_bonus"|"game_bonus"|"shutout_bonus"|"totals")[]} */
  const keys = [
    "round_points",
    "rounds_won",
    "box_bonus",
    "game_bonus",
    "shutout_bonus",
    "totals",
  ];
  const always = ["round_points", "rounds_won", "totals"];
  const rows = keys.flatMap((key) => {
    const row = m[key];
    return row && (always.includes(key) || row.one || row.two) ? [{ key, row }] : [];
  });
  return h(
    "div",
    { class: "match-end" },
    h("h2", { id: "result-h" }, t("match.title")),
    h("p", { class: "winner" }, headline),
    m.forfeit ? h("p", { class: "forfeit" }, forfeitText(state, m)) : null,
    h(
      "table",
      { class: "totals" },
      h("caption", {}, t("match.table.caption")),
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          h("th", { scope: "col" }, ""),
          h("th", { scope: "col" }, sideName(state, me)),
          h("th", { scope: "col" }, sideName(state, them)),
        ),
      ),
      h(
        "tbody",
        {},
        ...rows.map(({ key, row }) =>
          h(
            "tr",
            { class: key === "totals" ? "total-row" : "" },
            h("th", { scope: "row" }, t(`match.row.${key}`)),
            h("td", {}, String(row[me])),
            h("td", {}, String(row[them])),
          ),
        ),
      ),
    ),
  );
}

/**
 * @param {string[]} cards
 * @param {string} label
 * @param {string} [extraClass]
 */
function cardRow(cards, label, extraClass = "") {
  return h(
    "div",
    {
      class: `card-row ${extraClass}`,
      role: "img",
      "aria-label": `${label}: ${cards.length ? cardList(cards) : t("result.none")}`,
    },
    ...cards.map((card) => cardElement(card, { small: true })),
  );
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
    const title = isMine(state, seat)
      ? t("result.your_cards")
      : t("result.hand_of", { name: seatName(state, seat) });
    const box = h("div", { class: "showdown-hand" }, h("h3", {}, title));
    if (sd) {
      const isKnocker = seat === result.knocker;
      const melds = isKnocker ? sd.knocker_melds : sd.defender_melds;
      const dead = isKnocker ? sd.knocker_deadwood_cards : sd.defender_deadwood_cards;
      const meldBox = h(
        "div",
        { class: "melds" },
        h("span", { class: "row-label" }, t("result.melds")),
      );
      if (!melds.length) meldBox.append(h("span", { class: "hint" }, t("result.none")));
      melds.forEach((meld, i) =>
        meldBox.append(cardRow(meld, t("result.melds"), `meld meld-${i % 4}`)),
      );
      box.append(meldBox);
      if (!isKnocker && sd.layoffs.length) {
        const lo = h(
          "div",
          { class: "layoffs" },
          h("span", { class: "row-label" }, t("result.laid_off")),
        );
        for (const layoff of sd.layoffs) {
          lo.append(
            h(
              "div",
              { class: "layoff" },
              cardRow([layoff.card], t("result.laid_off")),
              h(
                "span",
                { class: "hint" },
                t("result.layoff", {
                  card: cardName(layoff.card),
                  meld: cardList(layoff.onto),
                }),
              ),
            ),
          );
        }
        box.append(lo);
      }
      box.append(
        h(
          "div",
          { class: "deadwood-row" },
          h("span", { class: "row-label" }, t("result.deadwood_cards")),
          dead.length
            ? cardRow(dead, t("result.deadwood_cards"))
            : h("span", { class: "hint" }, t("result.none")),
        ),
      );
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
    const mineK = isMine(state, result.knocker);
    const mineD = isMine(state, otherSeat(result.knocker));
    const you = (/** @type {string} */ key, /** @type {boolean} */ mine) =>
      mine ? `${key}.you` : key;
    lines.push(t(you("line.knocker_deadwood", mineK), { name: knocker, n: K }));
    if (result.kind === "gin" || result.kind === "big_gin") {
      lines.push(t(you("line.defender_deadwood_gin", mineD), { name: defender, n: D }));
      lines.push(t("line.difference", { a: D, b: K, n: sd.base_points }));
      lines.push(
        t(result.kind === "gin" ? "line.gin_bonus" : "line.big_gin_bonus", {
          n: sd.bonus,
        }),
      );
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
    if (sd.multiplier && sd.multiplier !== 1)
      lines.push(t("line.doubling", { n: sd.multiplier }));
    if (result.winner) {
      lines.push(
        isMine(state, result.winner)
          ? tn("line.points.you", result.points, { n: result.points })
          : tn("line.points", result.points, {
              name: seatName(state, result.winner),
              n: result.points,
            }),
      );
    } else {
      lines.push(t("line.no_points"));
    }
  }
  // A short table: each line's label beside its figure; the last line (who scores) whole.
  const rows = lines.map((line, i) => {
    const [label, figure] = calcCells(line);
    const last = i === lines.length - 1;
    return h(
      "tr",
      { class: last ? "total-row" : "" },
      figure === null
        ? h("th", { scope: "row", colspan: "2" }, label)
        : [h("th", { scope: "row" }, label), h("td", {}, figure)],
    );
  });
  return h(
    "table",
    { class: "calc" },
    h("caption", {}, t("result.calc")),
    h("tbody", {}, ...rows),
  );
}

/**
 * A line of the calculation as a table row's two cells: "Gin bonus: +25" is
 * ["Gin bonus", "+25"]; a line without a figure after a colon ("You score 22 points.")
 * is one cell, [line, null].
 * @param {string} line
 * @returns {[string, string|null]}
 */
export function calcCells(line) {
  const at = line.lastIndexOf(": ");
  return at < 0 ? [line, null] : [line.slice(0, at), line.slice(at + 2)];
}
