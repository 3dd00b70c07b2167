// What a chouette table asks of this page now: one pure function decides the status
// sentence and the buttons (as status.js does for two players), so that the sentence
// never names a button the page does not show. The in-round sentences are the
// two-player ones: the box and the captain play an ordinary round.
import { t } from "../i18n.js";
import { cardName } from "../cards.js";
import { connectionText, isMine, momentText, seatName, sideName } from "../status.js";
import { playsNextRound, positionName, tableFull } from "./state.js";
import { canAdvise } from "./pointing.js";

/** @typedef {import("../types.js").State} State */
/** @typedef {import("../types.js").ChouetteState} ChouetteState */
/** @typedef {import("../status.js").TableStatus} TableStatus */
/** @typedef {import("../status.js").Between} Between */

/**
 * The button between rounds (for the box and the captain who plays the next round) or
 * between matches (for everyone seated); disabled once this page asked.
 * @param {State} state
 * @returns {Between|null}
 */
export function chouetteBetween(state) {
  const c = state.chouette;
  const view = state.view;
  if (!c?.info || !view || c.position === null || !tableFull(c)) return null;
  const me = c.players[c.position];
  if (!me) return null;
  if (c.info.phase === "settled" || view.table.match_phase === "over") {
    return {
      cmd: "next-match",
      label: "chouette.next_match",
      disabled: Boolean(me.next_match),
    };
  }
  if (view.table.match_phase === "deal" && view.table.round > 0 && playsNextRound(c)) {
    return { cmd: "next-round", label: "act.next_round", disabled: Boolean(me.ready) };
  }
  return null;
}

/**
 * Who the table waits for: the people among `positions` who have not asked yet.
 * @param {State} state
 * @param {number[]} positions
 * @param {"ready"|"next_match"} flag
 */
function waitingFor(state, positions, flag) {
  const c = /** @type {ChouetteState} */ (state.chouette);
  return positions
    .filter(
      (p) =>
        p !== c.position && c.players[p] && !c.players[p]?.bot && !c.players[p]?.[flag],
    )
    .map((p) => positionName(state, p))
    .join(", ");
}

/**
 * "You are the box." and the like: this page's part at the table.
 * @param {State} state
 */
export function roleText(state) {
  const c = state.chouette;
  if (!c?.info) return "";
  if (c.position === null) return t("chouette.role.watching");
  if (c.role === "box") return t("chouette.role.box");
  if (c.role === "captain") return t("chouette.role.captain");
  return t("chouette.role.partner", { name: positionName(state, c.info.captain) });
}

/**
 * "The match is over: you win." / "… your team wins." / "… Box Ann wins."
 * @param {State} state
 */
function matchOverText(state) {
  const winner = state.view?.table.match_result?.winner;
  if (isMine(state, winner)) return t("chouette.status.over_you");
  return t("status.match_over", { name: sideName(state, winner) });
}

/**
 * The sentence of the "Game status" region and the buttons of a chouette table.
 * @param {State} state
 * @returns {TableStatus}
 */
export function chouetteStatus(state) {
  const c = state.chouette;
  const view = state.view;
  if (!c?.info || !view)
    return {
      text: connectionText(state) ?? t("status.connecting"),
      actions: [],
      between: null,
    };
  const table = view.table;
  const full = tableFull(c);
  const top = table.discard_pile.at(-1);
  const topName = top ? cardName(top) : "";
  const inRound = table.match_phase === "round" && table.round_phase !== "over";
  const plays = c.role === "box" || c.role === "captain";
  const actions =
    inRound && full && plays && state.pending == null ? [...view.legal_actions] : [];
  const between = chouetteBetween(state);
  const parts = [];
  if (!full) {
    parts.push(
      t("chouette.status.waiting", {
        n: c.players.filter(Boolean).length,
        m: c.info.players,
      }),
    );
  } else {
    parts.push(momentText(state, actions, matchOverText(state)));
    if (inRound && canAdvise(state))
      parts.push(t("chouette.status.may_advise", { name: seatName(state, "two") }));
  }
  if (between) {
    const next = between.cmd === "next-match";
    const who = next
      ? waitingFor(
          state,
          c.players.map((_, i) => i),
          "next_match",
        )
      : waitingFor(state, [c.info.box, c.info.captain], "ready");
    if (!between.disabled)
      parts.push(t(next ? "chouette.status.press_next_match" : "status.press_next"));
    else if (who)
      parts.push(
        t(next ? "chouette.status.waiting_next_match" : "status.waiting_ready", {
          name: who,
        }),
      );
  } else if (
    full &&
    c.position !== null &&
    table.match_phase === "deal" &&
    table.round > 0
  ) {
    parts.push(
      t("chouette.status.waiting_round", {
        box: positionName(state, c.info.box),
        captain: positionName(state, c.info.captain),
      }),
    );
  }
  parts.unshift(roleText(state));
  const seen = [];
  if (inRound)
    seen.push(
      top ? t("status.discard_top", { card: topName }) : t("status.discard_none"),
    );
  seen.push(
    t("chouette.status.scores", {
      box: sideName(state, "one"),
      a: table.scores.one,
      team: sideName(state, "two"),
      b: table.scores.two,
    }),
  );
  if (table.rules?.target_score)
    seen.push(t("status.target", { n: table.rules.target_score }));
  if (plays && view.arrangement && inRound)
    seen.push(t("status.deadwood", { n: view.arrangement.deadwood }));
  if (state.pending != null) parts.unshift(t("status.sending"));
  const conn = connectionText(state);
  return {
    text: [...parts, ...seen, conn].filter(Boolean).join(" "),
    actions,
    between,
    seen: seen.join(" "),
  };
}
