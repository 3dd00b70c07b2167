// The match review page (docs/review.md, "The page"): a progress bar while the server
// reviews, then every decision of the reviewed seat as that seat saw it, with the
// expert's choice and a grade, both hands at each round's end, a graph of the round's
// estimates and the summary. A pure function of the client state: the review is the
// server's JSON (GET /api/rooms/{id}/review), the step is the page's only own state.
import { h } from "./dom.js";
import { t, tn, has, language } from "./i18n.js";
import { cardList, cardElement, cardName } from "./cards.js";
import { splitAction } from "./store.js";

/** @typedef {import("./types.js").State} State */
/** @typedef {"one"|"two"} Seat */
/**
 * @typedef {object} ReviewDecision
 * @property {number} index
 * @property {number} turn
 * @property {{phase: string, hand: string[], deadwood: number, taken: string|null, discard_pile: string[],
 *   stock_size: number, opponent_known: string[], scores: Record<Seat, number>,
 *   moves_since: {seat: Seat, move: string}[]}} view
 * @property {string} played
 * @property {string|null} expert
 * @property {string|null} best
 * @property {{action: string, value: number, worlds: number}[]} choices
 * @property {number|null} loss
 * @property {string} grade
 * @property {string|null} pattern
 * @property {{text?: Record<string, string>}|null} note
 * @property {"sure"|"likely"|"unsure"|null} [certainty]   how sure the grade is
 * @property {{text?: Record<string, string>}|null} [verdict]   the same in words, with the
 *   loss, its standard error, its interval and the worlds it was measured on
 */
/**
 * @typedef {object} ReviewEnd
 * @property {string} result
 * @property {Seat|null} knocker
 * @property {Seat|null} winner
 * @property {number} points
 * @property {Record<Seat, string[]>} hands
 * @property {Record<Seat, number>} scores
 */
/**
 * @typedef {object} ReviewRound
 * @property {number} number
 * @property {ReviewDecision[]} decisions
 * @property {{index: number, turn: number, value: number|null}[]} series
 * @property {ReviewEnd|null} end
 */
/**
 * @typedef {object} Review
 * @property {Seat} seat
 * @property {ReviewRound[]} rounds
 * @property {{counts: Record<string, number>, points_lost: number, text: Record<string, string>,
 *   certainty?: {text?: Record<string, string>}}} summary
 */
/**
 * @typedef {{kind: "decision", round: ReviewRound, decision: ReviewDecision}
 *   | {kind: "end", round: ReviewRound, end: ReviewEnd}} Step
 */
/**
 * The review page's part of the state (state.page.data).
 * @typedef {object} ReviewPage
 * @property {string} room
 * @property {Seat} seat
 * @property {number} done
 * @property {number} total
 * @property {Review|null} review
 * @property {number} step
 * @property {string|null} error   an error code of docs/protocol.md
 */

export const GRADES = ["forced", "best", "good", "inaccuracy", "mistake", "blunder"];
const JUDGED = ["inaccuracy", "mistake", "blunder"];

/**
 * Every step of the review in order: each round's decisions, then its end (both hands)
 * when the round was played out.
 * @param {Review|null|undefined} review
 * @returns {Step[]}
 */
export function steps(review) {
  /** @type {Step[]} */
  const out = [];
  for (const round of review?.rounds ?? []) {
    for (const decision of round.decisions)
      out.push({ kind: "decision", round, decision });
    if (round.end) out.push({ kind: "end", round, end: round.end });
  }
  return out;
}

/**
 * The step after moving by `delta` from `step`, kept within the review.
 * @param {number} step
 * @param {number} delta
 * @param {number} count
 */
export function clampStep(step, delta, count) {
  return Math.max(0, Math.min(count - 1, step + delta));
}

/**
 * Per cent of the work done, for the progress bar (0 while the total is unknown).
 * @param {number} done
 * @param {number} total
 */
export function percent(done, total) {
  return total > 0 ? Math.round((100 * Math.min(done, total)) / total) : 0;
}

/**
 * Chart coordinates of a round's estimates: x by decision, y by expected round points
 * (0 in the middle of the scale, which is symmetric). Forced decisions have no value
 * and no point. Pure, so it is tested under node.
 * @param {{index: number, turn: number, value: number|null}[]} series
 * @param {{width?: number, height?: number, pad?: number}} [size]
 */
export function seriesGeometry(series, { width = 600, height = 160, pad = 24 } = {}) {
  const values = series.map((p) => p.value).filter((v) => typeof v === "number");
  const top = Math.max(10, ...values.map((v) => Math.ceil(Math.abs(v) / 10) * 10));
  const x = (/** @type {number} */ i) =>
    pad +
    (series.length <= 1
      ? (width - 2 * pad) / 2
      : (i * (width - 2 * pad)) / (series.length - 1));
  const y = (/** @type {number} */ v) => height / 2 - (v * (height / 2 - pad)) / top;
  /** @type {{x: number, y: number, position: number, value: number}[]} */
  const points = [];
  series.forEach((p, i) => {
    if (typeof p.value === "number")
      points.push({ x: x(i), y: y(p.value), position: i, value: p.value });
  });
  return { width, height, pad, top, zero: y(0), points };
}

/**
 * A choice in words ("discard the seven of hearts").
 * @param {string|null} action
 */
export function choiceText(action) {
  if (!action) return "–";
  const [verb, card] = splitAction(action);
  const key = `tip.choice.${verb.replace(" ", "_")}`;
  return has(key) ? t(key, { card: card ? cardName(card) : "" }) : action;
}

/**
 * The text alternative of a round's graph.
 * @param {ReviewRound} round
 */
export function graphLabel(round) {
  const values = round.series.map((p) => p.value).filter((v) => typeof v === "number");
  if (!values.length) return t("review.graph.empty", { n: round.number });
  const fmt = (/** @type {number} */ v) =>
    v.toLocaleString(language(), { maximumFractionDigits: 1 });
  return tn("review.graph.label", values.length, {
    n: round.number,
    count: values.length,
    first: fmt(values[0]),
    last: fmt(values[values.length - 1]),
    low: fmt(Math.min(...values)),
    high: fmt(Math.max(...values)),
  });
}

// ---------------------------------------------------------------- rendering

const SVG = "http://www.w3.org/2000/svg";

/**
 * @param {string} tag
 * @param {Record<string, string|number>} attrs
 * @param {...Node} children
 */
function s(tag, attrs, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, String(value));
  el.append(...children);
  return el;
}

/**
 * @param {ReviewRound} round
 * @param {number|null} current   the position of the shown decision in the round
 */
function roundGraph(round, current) {
  const g = seriesGeometry(round.series);
  const label = graphLabel(round);
  const line = g.points.map((p) => `${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(" ");
  return s(
    "svg",
    {
      class: "review-graph",
      viewBox: `0 0 ${g.width} ${g.height}`,
      role: "img",
      "aria-label": label,
    },
    s("title", {}, document.createTextNode(label)),
    s("line", { class: "zero", x1: g.pad, x2: g.width - g.pad, y1: g.zero, y2: g.zero }),
    s("text", { x: 2, y: g.pad }, document.createTextNode(`+${g.top}`)),
    s("text", { x: 2, y: g.height - g.pad / 2 }, document.createTextNode(`−${g.top}`)),
    s("polyline", { class: "review-line", points: line }),
    ...g.points.map((p) =>
      s("circle", {
        class: p.position === current ? "review-dot current" : "review-dot",
        cx: p.x.toFixed(1),
        cy: p.y.toFixed(1),
        r: p.position === current ? 6 : 3.5,
      }),
    ),
  );
}

/**
 * @param {string[]} cards
 * @param {string} label
 */
function cardRow(cards, label) {
  return h(
    "div",
    { class: "review-cards" },
    h("span", { class: "row-label" }, label),
    h(
      "div",
      {
        class: "card-row",
        role: "img",
        "aria-label": `${label}: ${cards.length ? cardList(cards) : t("result.none")}`,
      },
      ...cards.map((card) => cardElement(card, { small: true })),
    ),
    cards.length
      ? null
      : h("span", { class: "hint", "aria-hidden": "true" }, t("result.none")),
  );
}

/**
 * @param {Seat} seat
 * @param {Seat} own
 */
function who(seat, own) {
  return seat === own ? t(`review.seat.${seat}.own`) : t(`review.seat.${seat}`);
}

/**
 * @param {ReviewDecision} d
 * @param {Seat} own
 */
function renderDecision(d, own) {
  const view = d.view;
  const pile = view.discard_pile;
  const judged = JUDGED.includes(d.grade);
  // An unclear decision is graded good, but its better choice is worth showing.
  const doubted = judged || d.certainty === "unsure";
  const note = d.note?.text?.[language()];
  const verdict = d.verdict?.text?.[language()];
  return h(
    "div",
    { class: "review-step" },
    view.moves_since.length
      ? h(
          "ul",
          { class: "review-moves", "aria-label": t("review.moves") },
          ...view.moves_since.map((m) => {
            const [verb, card] = splitAction(m.move);
            const key = `ann.${verb.replace(" ", "_")}`;
            return h(
              "li",
              {},
              has(key)
                ? t(key, { name: who(m.seat, own), card: card ? cardName(card) : "" })
                : m.move,
            );
          }),
        )
      : null,
    cardRow(view.hand, t("review.hand", { n: view.deadwood })),
    view.taken ? h("p", {}, t("review.taken", { card: cardName(view.taken) })) : null,
    cardRow(pile.slice(-8), t("review.pile", { n: pile.length })),
    cardRow(view.opponent_known, t("review.known")),
    h(
      "dl",
      { class: "review-verdict" },
      h(
        "div",
        {},
        h("dt", {}, t("review.played")),
        h("dd", { id: "review-played" }, choiceText(d.played)),
      ),
      h("div", {}, h("dt", {}, t("review.expert")), h("dd", {}, choiceText(d.expert))),
      h(
        "div",
        {},
        h("dt", {}, t("review.grade")),
        h(
          "dd",
          {},
          h(
            "span",
            { class: `grade grade-${d.grade}`, id: "review-grade" },
            t(`review.grade.${d.grade}`),
          ),
          judged && !verdict && typeof d.loss === "number"
            ? ` ${t("review.loss", { n: d.loss.toLocaleString(language(), { maximumFractionDigits: 1 }) })}`
            : null,
        ),
      ),
    ),
    verdict
      ? h("p", { class: "review-certainty", id: "review-certainty" }, verdict)
      : null,
    doubted && d.best
      ? h("p", {}, t("review.best", { choice: choiceText(d.best) }))
      : null,
    note && judged ? h("p", { class: "hint" }, note) : null,
  );
}

/**
 * @param {ReviewEnd} end
 * @param {Seat} own
 */
function renderEnd(end, own) {
  const other = own === "one" ? "two" : "one";
  const winner = end.winner
    ? tn("review.end.winner", end.points, { name: who(end.winner, own), n: end.points })
    : t("review.end.no_winner");
  return h(
    "div",
    { class: "review-step review-end" },
    h("p", {}, t(`review.end.${end.result}`), " ", winner),
    cardRow(end.hands[own], t("review.end.your_hand")),
    cardRow(end.hands[other], t("review.end.their_hand")),
    h("p", {}, t("review.end.scores", { a: end.scores[own], b: end.scores[other] })),
  );
}

/**
 * @param {ReviewPage} data
 */
function renderProgress(data) {
  const value = percent(data.done, data.total);
  return h(
    "section",
    { class: "panel", "aria-labelledby": "review-h" },
    h("h1", { id: "review-h" }, t("review.title")),
    h(
      "p",
      { id: "review-progress-label" },
      t("review.running", { done: data.done, total: data.total || "…" }),
    ),
    h(
      "div",
      {
        class: "progress",
        role: "progressbar",
        "aria-labelledby": "review-progress-label",
        "aria-valuemin": "0",
        "aria-valuemax": "100",
        "aria-valuenow": String(value),
      },
      h("div", { class: "progress-fill", style: `width: ${value}%` }),
    ),
  );
}

/**
 * @param {State} state
 */
export function renderReview(state) {
  const page = state.page;
  /** @type {ReviewPage|null} */
  const data = page.data;
  if (page.status === "loading" || !data)
    return [h("p", { class: "panel", role: "status" }, t("status.connecting"))];
  if (page.status === "error" || !data.review) {
    if (data.error) {
      const key = has(`review.error.${data.error}`)
        ? `review.error.${data.error}`
        : "error.network";
      return [
        h(
          "section",
          { class: "panel message" },
          h("p", { role: "alert" }, t(key)),
          h(
            "a",
            {
              class: "button secondary",
              href: "/",
              dataset: { nav: "/", key: "review-home" },
            },
            t("act.leave"),
          ),
        ),
      ];
    }
    return [renderProgress(data)];
  }
  const all = steps(data.review);
  const summary = data.review.summary;
  if (!all.length) {
    return [
      h("h1", { class: "page-title" }, t("review.title")),
      h("p", { class: "panel" }, summary.text?.[language()] ?? ""),
    ];
  }
  const at = clampStep(data.step, 0, all.length);
  const step = all[at];
  const position =
    step.kind === "decision" ? step.round.decisions.indexOf(step.decision) : null;
  return [
    h(
      "h1",
      { class: "page-title", id: "review-h" },
      t("review.title.seat", { seat: t(`review.seat.${data.seat}`) }),
    ),
    h(
      "section",
      { class: "panel", "aria-labelledby": "review-summary-h" },
      h("h2", { id: "review-summary-h" }, t("review.summary")),
      h("p", { id: "review-summary" }, summary.text?.[language()] ?? ""),
      summary.certainty?.text
        ? h(
            "p",
            { id: "review-summary-certainty" },
            summary.certainty.text[language()] ?? "",
          )
        : null,
    ),
    h(
      "section",
      { class: "panel review-stepper", "aria-labelledby": "review-step-h" },
      h(
        "h2",
        { id: "review-step-h", "aria-live": "polite" },
        step.kind === "decision"
          ? t("review.step", {
              round: step.round.number,
              turn: step.decision.turn,
              at: at + 1,
              count: all.length,
            })
          : t("review.step.end", {
              round: step.round.number,
              at: at + 1,
              count: all.length,
            }),
      ),
      h(
        "div",
        { class: "review-nav", role: "group", "aria-label": t("review.nav") },
        h(
          "button",
          {
            type: "button",
            class: "button secondary",
            disabled: at === 0,
            dataset: { cmd: "review-step", arg: "-1", key: "review-prev" },
          },
          t("review.prev"),
        ),
        h(
          "button",
          {
            type: "button",
            class: "button primary",
            disabled: at === all.length - 1,
            dataset: { cmd: "review-step", arg: "1", key: "review-next" },
          },
          t("review.next"),
        ),
      ),
      h("p", { class: "hint" }, t("review.keys")),
      step.kind === "decision"
        ? renderDecision(step.decision, data.seat)
        : renderEnd(step.end, data.seat),
      roundGraph(step.round, position),
    ),
  ];
}
