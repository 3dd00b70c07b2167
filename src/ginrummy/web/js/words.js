// What the page says in words beyond the status line: announcements for the screen
// reader, the timer sentence, a tip, a round's result. Pure functions of the state.
import { t, tn, has, language } from "./i18n.js";
import { cardName, cardList } from "./cards.js";
import { splitAction, timeLeft } from "./store.js";
import { seatName, forfeitText, otherSeat, isMine } from "./status.js";

/** @typedef {import("./types.js").State} State */
/** @typedef {import("./types.js").View} View */
/** @typedef {import("./types.js").Seat} Seat */
/** @typedef {import("./types.js").RoundResult} RoundResult */
/** @typedef {import("./types.js").MatchResult} MatchResult */
/** @typedef {import("./types.js").Announcement} Announcement */
/** @typedef {import("./types.js").Tip} Tip */

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
  return isMine(state, timer.seat)
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
    return has(key)
      ? t(key, { name, card: shown ? cardName(shown) : "" })
      : `${name}: ${item.action}`;
  }
  if (item.kind === "presence")
    return t(`ann.presence.${item.what}`, { name: seatName(state, item.seat) });
  if (item.kind === "round_end") {
    const result = lastResult(state.view);
    return result ? t("ann.round_end", { text: resultSummary(state, result) }) : "";
  }
  if (item.kind === "deal" && state.view) {
    const table = state.view.table;
    return isMine(state, table.dealer)
      ? t("ann.deal.you", { n: table.round })
      : t("ann.deal", { n: table.round, dealer: seatName(state, table.dealer) });
  }
  if (item.kind === "text") return item.text ?? "";
  if (item.kind === "tips")
    return item.on ? t("tips.on", { n: item.left }) : t(item.message ?? "tips.off");
  if (item.kind === "forfeit") {
    const reason = /** @type {MatchResult["forfeit"]} */ (item.reason);
    return forfeitText(state, { forfeit: reason, forfeited_by: item.seat });
  }
  return "";
}

/**
 * @param {View|null} view
 */
export function lastResult(view) {
  if (!view) return null;
  return view.table.result ?? view.table.rounds.at(-1)?.result ?? null;
}

/**
 * @param {State} state
 * @param {RoundResult} result
 */
export function resultSummary(state, result) {
  const knocker = seatName(state, result.knocker);
  const winner = result.winner;
  const lines = [];
  const mine = (/** @type {Seat|null} */ seat) => isMine(state, seat);
  switch (result.kind) {
    case "void":
      return t("result.void");
    case "gin":
      lines.push(
        mine(result.knocker) ? t("result.gin.you") : t("result.gin", { name: knocker }),
      );
      break;
    case "big_gin":
      lines.push(
        mine(result.knocker)
          ? t("result.big_gin.you")
          : t("result.big_gin", { name: knocker }),
      );
      break;
    case "undercut": {
      if (!result.knocker) break;
      const defender = otherSeat(result.knocker);
      if (mine(defender)) lines.push(t("result.undercut.you", { knocker }));
      else if (mine(result.knocker))
        lines.push(t("result.undercut.them", { defender: seatName(state, defender) }));
      else
        lines.push(
          t("result.undercut", { defender: seatName(state, defender), knocker }),
        );
      break;
    }
    default:
      lines.push(
        mine(result.knocker)
          ? t("result.knock.you", { k: result.showdown?.knocker_deadwood ?? "" })
          : t("result.knock", {
              name: knocker,
              k: result.showdown?.knocker_deadwood ?? "",
            }),
      );
  }
  if (winner && result.points) {
    lines.push(
      mine(winner)
        ? tn("line.points.you", result.points, { n: result.points })
        : tn("line.points", result.points, {
            name: seatName(state, winner),
            n: result.points,
          }),
    );
  }
  return lines.join(" ");
}

/** @param {unknown} value */
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
    else if (Array.isArray(value) && value.every(looksLikeCard))
      out[key] = cardList(value);
    else if (typeof value === "string" && value.split(/[\s,-]+/).every(looksLikeCard))
      out[key] = cardList(value.split(/[\s,-]+/));
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
  const choice = has(choiceKey)
    ? t(choiceKey, { card: card ? cardName(card) : "" })
    : tip.action;
  const params = wordParams(tip.params);
  const reasonKey = `tip.${tip.key}`;
  if (has(reasonKey)) return t(reasonKey, params);
  const serverText = tip.text?.[language()];
  return `${t("tips.recommend", { choice })} ${serverText ?? t("tip.generic")}`;
}
