// The operators' page, /admin (docs/operations.md, "The operators' console"): open
// reports with their evidence, a player's history of reports and sanctions, the audit
// log, and the actions (dismiss, warn, chat timeout, mute, ban, rename, close an
// account), each with its reason. The server refuses every route to anyone but the
// operators the configuration names; this page only says so in words. Its content is
// one element kept across renders and filled by the page itself (as the chat panels are),
// so that what an operator types survives the page's redraws.
import { api, ApiError } from "../api.js";
import { language, t } from "../i18n.js";
import { problem } from "../civility.js";
import { actionButton as button, h as el } from "../dom.js";

/** @typedef {import("../pages.js").App} App */
/** @typedef {import("../pages.js").Page} Page */

const ACTIONS = ["dismiss", "warn", "chat_timeout", "mute", "ban", "rename", "close"];
const TIMED = new Set(["chat_timeout", "mute", "ban"]);

/** @param {number|null|undefined} seconds   a time on the server's clock (epoch s) */
function when(seconds) {
  return seconds == null
    ? t("admin.for_good")
    : new Date(seconds * 1000).toLocaleString();
}

/** @param {string} reason */
function reasonText(reason) {
  const key = `civility.reason.${reason}`;
  return t(key) === key ? reason : t(key);
}

/** @param {string} action */
function actionText(action) {
  return t(`admin.action.${action}`);
}

/**
 * @param {App} app
 * @returns {Page}
 */
export function init(app) {
  const root = el("div", { class: "admin" });
  const status = el("p", { role: "status", class: "notice" });
  const reports = el("section", { class: "panel", "aria-labelledby": "admin-reports-h" });
  const history = el("section", { class: "panel", "aria-labelledby": "admin-history-h" });
  const audit = el("section", { class: "panel", "aria-labelledby": "admin-audit-h" });

  // The action form: what, to whom, for how long, why.
  const action = /** @type {HTMLSelectElement} */ (el("select", { id: "admin-action" }));
  const target = /** @type {HTMLInputElement} */ (
    el("input", { id: "admin-target", autocomplete: "off" })
  );
  const minutes = /** @type {HTMLInputElement} */ (
    el("input", { id: "admin-minutes", type: "number", min: "1", inputmode: "numeric" })
  );
  const newName = /** @type {HTMLInputElement} */ (
    el("input", { id: "admin-name", autocomplete: "off", maxlength: "20" })
  );
  const reason = /** @type {HTMLInputElement} */ (
    el("input", {
      id: "admin-reason",
      autocomplete: "off",
      maxlength: "300",
      required: "",
    })
  );
  const answers = el("p", { class: "hint" });
  /** @type {string|null} */
  let report = null;
  const actions = el("section", { class: "panel", "aria-labelledby": "admin-act-h" });

  function drawActionForm() {
    action.replaceChildren(
      ...ACTIONS.map((a) => el("option", { value: a }, actionText(a))),
    );
    actions.replaceChildren(
      el("h2", { id: "admin-act-h" }, t("admin.act")),
      el("label", { for: "admin-action" }, t("admin.action")),
      action,
      el("label", { for: "admin-target" }, t("admin.target")),
      target,
      el("label", { for: "admin-minutes" }, t("admin.minutes")),
      minutes,
      el("label", { for: "admin-name" }, t("admin.new_name")),
      newName,
      el("label", { for: "admin-reason" }, t("admin.reason")),
      reason,
      answers,
      button(t("admin.carry_out"), carryOut, { class: "button primary" }),
    );
  }

  /**
   * Fill the form for a report: its reported player (or the report, to dismiss it).
   * @param {any} r
   */
  function actOn(r) {
    report = r.id;
    target.value = r.reported;
    answers.textContent = t("admin.answers", { name: r.reported_name ?? r.reported });
    action.value = "warn";
    reason.focus();
  }

  async function carryOut() {
    const what = action.value;
    if (!reason.value.trim()) {
      status.textContent = t("admin.reason_needed");
      reason.focus();
      return;
    }
    /** @type {Record<string, unknown>} */
    const body = {
      action: what,
      target: what === "dismiss" ? (report ?? target.value.trim()) : target.value.trim(),
      reason: reason.value.trim(),
    };
    if (TIMED.has(what) && minutes.value) body.minutes = Number(minutes.value);
    if (what === "rename") body.name = newName.value.trim();
    if (what !== "dismiss" && report) body.report = report;
    try {
      await api.adminAct(body);
      status.textContent = t("admin.done", { action: actionText(what) });
      report = null;
      answers.textContent = "";
      reason.value = "";
      minutes.value = "";
      newName.value = "";
      await Promise.all([loadReports(), loadAudit()]);
      if (what !== "dismiss") await loadHistory(/** @type {string} */ (body.target));
    } catch (err) {
      status.textContent = problem(err);
    }
  }

  /** @param {any} r */
  function reportItem(r) {
    const name = r.reported_name ?? r.reported;
    const evidence = el(
      "details",
      {},
      el("summary", {}, t("admin.evidence")),
      ...(r.evidence?.chat?.length
        ? [
            el(
              "ul",
              { class: "evidence-chat" },
              ...r.evidence.chat.map((/** @type {any} */ c) =>
                el("li", {}, `${c.tag ?? c.player}: ${c.text ?? c.phrase ?? ""}`),
              ),
            ),
          ]
        : []),
      el("pre", {}, JSON.stringify(r.evidence, null, 2)),
    );
    return el(
      "li",
      { class: "report" },
      el("h3", {}, t("admin.report_about", { name, reason: reasonText(r.reason) })),
      el(
        "p",
        {},
        t("admin.report_by", {
          name: r.reporter_name ?? r.reporter,
          when: when(r.t),
          place: t(`admin.place.${r.place}`),
        }),
      ),
      r.note ? el("p", { class: "note" }, t("admin.note", { note: r.note })) : "",
      evidence,
      button(t("admin.act_on", { name }), () => actOn(r)),
      button(t("admin.dismiss_report", { name }), () => {
        actOn(r);
        action.value = "dismiss";
      }),
      button(t("admin.history_of", { name }), () => loadHistory(r.reported)),
    );
  }

  async function loadReports() {
    const found = (await api.admin("/reports")).reports;
    reports.replaceChildren(
      el("h2", { id: "admin-reports-h" }, t("admin.reports")),
      found.length
        ? el("ul", { class: "reports" }, ...found.map(reportItem))
        : el("p", {}, t("admin.no_reports")),
    );
  }

  const lookup = /** @type {HTMLInputElement} */ (
    el("input", { id: "admin-lookup", autocomplete: "off" })
  );

  /** @param {string} player */
  async function loadHistory(player) {
    lookup.value = player;
    /** @type {Node[]} */
    let shown = [];
    try {
      const data = await api.admin(`/players/${encodeURIComponent(player)}`);
      const lock = data.play_lock;
      shown = [
        el("h3", {}, data.player?.tag ?? player),
        el(
          "p",
          {},
          t("admin.standing", { offences: data.offences, abandons: data.abandons }),
        ),
        el(
          "p",
          {},
          lock
            ? t("admin.locked", { reason: lock.reason, until: when(lock.until) })
            : t("admin.not_locked"),
        ),
        el("h4", {}, t("admin.sanctions")),
        data.sanctions.length
          ? el(
              "ul",
              {},
              ...data.sanctions.map((/** @type {any} */ s) =>
                el(
                  "li",
                  {},
                  t("admin.sanction", {
                    action: actionText(s.kind),
                    reason: s.reason,
                    when: when(s.t),
                    until: when(s.until),
                    by: s.by,
                  }),
                ),
              ),
            )
          : el("p", {}, t("admin.none")),
        el("h4", {}, t("admin.reports_about")),
        data.reports.length
          ? el(
              "ul",
              {},
              ...data.reports.map((/** @type {any} */ r) =>
                el(
                  "li",
                  {},
                  t("admin.past_report", {
                    reason: reasonText(r.reason),
                    when: when(r.t),
                    status: r.status,
                  }),
                ),
              ),
            )
          : el("p", {}, t("admin.none")),
      ];
    } catch (err) {
      shown = [el("p", { role: "alert" }, problem(err))];
    }
    history.replaceChildren(
      el("h2", { id: "admin-history-h" }, t("admin.history")),
      el("label", { for: "admin-lookup" }, t("admin.target")),
      lookup,
      button(t("admin.show_history"), () => loadHistory(lookup.value.trim())),
      ...shown,
    );
  }

  async function loadAudit() {
    const entries = (await api.admin("/audit")).entries;
    const rows = entries.map((/** @type {any} */ e) =>
      el(
        "tr",
        {},
        el("td", {}, when(e.t)),
        el("td", {}, e.operator),
        el("td", {}, actionText(e.action)),
        el("td", {}, e.target),
        el("td", {}, e.reason),
      ),
    );
    audit.replaceChildren(
      el("h2", { id: "admin-audit-h" }, t("admin.audit")),
      entries.length
        ? el(
            "table",
            {},
            el(
              "thead",
              {},
              el(
                "tr",
                {},
                ...["when", "operator", "action", "target", "reason"].map((c) =>
                  el("th", { scope: "col" }, t(`admin.col.${c}`)),
                ),
              ),
            ),
            el("tbody", {}, ...rows),
          )
        : el("p", {}, t("admin.none")),
    );
  }

  /** The language the page was drawn in: another one draws it again. */
  let drawn = "";

  async function enter() {
    drawn = language();
    root.replaceChildren(el("p", { role: "status" }, t("status.connecting")));
    try {
      const who = await api.admin("");
      drawActionForm();
      history.replaceChildren(
        el("h2", { id: "admin-history-h" }, t("admin.history")),
        el("label", { for: "admin-lookup" }, t("admin.target")),
        lookup,
        button(t("admin.show_history"), () => loadHistory(lookup.value.trim())),
      );
      root.replaceChildren(
        el("h1", { class: "page-title" }, t("admin.title")),
        el("p", {}, t("admin.signed_in_as", { name: who.operator })),
        status,
        reports,
        actions,
        history,
        audit,
      );
      await Promise.all([loadReports(), loadAudit()]);
    } catch (err) {
      const refused =
        err instanceof ApiError &&
        ["not_operator", "unauthorized", "bad_token"].includes(err.code);
      root.replaceChildren(
        el("h1", { class: "page-title" }, t("admin.title")),
        el("p", { role: "alert" }, refused ? t("admin.operators_only") : problem(err)),
      );
    }
  }

  return {
    enter,
    render: () => {
      if (drawn && drawn !== language()) void enter();
      return [root];
    },
  };
}
