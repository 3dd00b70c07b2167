// The verify page: reads a pasted or opened record, runs the verifier, shows the verdicts
// in a live region. All checking is in verify.js; this module only wires the page.
import {
  detectLanguage,
  rememberLanguage,
  setCatalog,
  t,
  LANGUAGES,
  LANGUAGE_NAMES,
} from "../i18n.js";
import { TEXTS, verdictText } from "./texts.js";
import { verifyRecord } from "./verify.js";
import { dealKey, keptSeeds } from "./seed.js";
import { phraseSeed, seedPhrase } from "./phrase.js";

/** @param {string} id  @returns {HTMLElement} */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/** @param {"de"|"en"} lang */
function applyLanguage(lang) {
  setCatalog(lang, TEXTS[lang]);
  document.documentElement.lang = lang;
  document.title = t("page.title");
  for (const el of document.querySelectorAll("[data-text]"))
    el.textContent = t(el.getAttribute("data-text") ?? "");
  for (const el of document.querySelectorAll("[data-text-label]"))
    el.setAttribute("aria-label", t(el.getAttribute("data-text-label") ?? ""));
  for (const button of document.querySelectorAll("[data-lang]")) {
    button.setAttribute(
      "aria-pressed",
      String(button.getAttribute("data-lang") === lang),
    );
  }
}

/**
 * A language the page has texts for (English otherwise).
 * @param {string} lang  @returns {"de"|"en"}
 */
function pageLanguage(lang) {
  return lang === "de" ? "de" : "en";
}

/** @param {string} summary  @param {string[]} items  @param {boolean} ok */
function show(summary, items, ok) {
  const result = $("result");
  result.replaceChildren();
  result.className = ok ? "notice" : "notice error";
  const head = document.createElement("p");
  head.textContent = summary;
  result.append(head);
  if (items.length) {
    const list = document.createElement("ol");
    for (const text of items) {
      const li = document.createElement("li");
      li.textContent = text;
      list.append(li);
    }
    result.append(list);
  }
}

/** @param {import("./verify.js").RoundVerdict} v */
function roundLine(v) {
  const line = t(`round.${v.check}`, { round: v.round });
  return v.reason ? `${line} ${t("details", { reason: v.reason })}` : line;
}

async function check() {
  const text = /** @type {HTMLTextAreaElement} */ ($("record-text")).value.trim();
  if (!text) return show(t("empty"), [], false);
  let data;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return show(
      t("bad.json", { message: error instanceof Error ? error.message : String(error) }),
      [],
      false,
    );
  }
  show(t("checking"), [], true);
  const report = await verifyRecord(data);
  if (report.error) {
    const message = report.error.message.slice(report.error.field.length + 2);
    return show(t("malformed", { field: report.error.field, message }), [], false);
  }
  const own = ownSeedLines(data);
  const failed = report.rounds.filter((r) => r.check !== "ok").length + own.mismatches;
  const total = report.rounds.length;
  const summary = verdictText(failed, total);
  const phrase = await phraseLines(data);
  show(summary, [...report.rounds.map(roundLine), ...own.lines, ...phrase], failed === 0);
}

/**
 * Compare the record with the seeds this browser sent and the server confirmed (kept by
 * the table, seed.js): a record that does not hold them was not dealt from them.
 * @param {any} data  a record the verifier read without error
 */
function ownSeedLines(data) {
  const rounds = data.kind === "match" ? data.rounds : [data];
  const kept = keptSeeds();
  const lines = [];
  let mismatches = 0;
  for (const rnd of rounds) {
    const fair = rnd.fair;
    const mine = kept[dealKey(fair)];
    if (!mine || !mine.confirmed || mine.commitment !== fair.commitment) continue;
    const held = mine.seed === fair.seeds.one || mine.seed === fair.seeds.two;
    if (!held) mismatches += 1;
    lines.push(t(held ? "own.held" : "own.missing", { round: fair.round }));
  }
  return { lines, mismatches };
}

/**
 * With a seed phrase set in this browser: the rounds whose seat seed is the one the
 * phrase gives (docs/fairness.md §5a). A round without one says nothing: the phrase
 * may have been set later, or the seat sent a random seed.
 * @param {any} data  a record the verifier read without error
 */
async function phraseLines(data) {
  const phrase = seedPhrase();
  if (!phrase) return [];
  const lines = [];
  for (const rnd of data.kind === "match" ? data.rounds : [data]) {
    const fair = rnd.fair;
    for (const seat of /** @type {const} */ (["one", "two"])) {
      if (fair.seeds[seat] === (await phraseSeed(phrase, fair, seat)))
        lines.push(t("own.phrase", { round: fair.round }));
    }
  }
  return lines;
}

/** The page was opened with `?record=/api/...`: load that record (this server's only). */
async function loadLinked() {
  const source = new URLSearchParams(globalThis.location.search).get("record");
  if (!source) return;
  if (!source.startsWith("/") || source.startsWith("//"))
    return show(t("link.bad"), [], false);
  show(t("checking"), [], true);
  try {
    const response = await fetch(source, { credentials: "same-origin" });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const record = await response.json();
    /** @type {HTMLTextAreaElement} */ ($("record-text")).value = JSON.stringify(
      record,
      null,
      2,
    );
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return show(t("link.failed", { message }), [], false);
  }
  await check();
}

/** The language switch: a button for each of the site's languages (js/site.json) that
 * this page has texts for (texts.js). */
function languageButtons() {
  const group = document.querySelector(".lang-switch");
  if (!group) return;
  group.replaceChildren(
    ...LANGUAGES.filter((code) => code in TEXTS).map((code) => {
      const button = document.createElement("button");
      Object.assign(button, {
        type: "button",
        className: "chip",
        lang: code,
        textContent: LANGUAGE_NAMES[code],
      });
      button.dataset.lang = code;
      return button;
    }),
  );
}

function main() {
  languageButtons();
  applyLanguage(pageLanguage(detectLanguage()));
  for (const button of document.querySelectorAll("[data-lang]")) {
    button.addEventListener("click", () => {
      const lang = button.getAttribute("data-lang") ?? "";
      if (!LANGUAGES.includes(lang)) return;
      rememberLanguage(lang);
      applyLanguage(pageLanguage(lang));
    });
  }
  $("record-file").addEventListener("change", async (event) => {
    const file = /** @type {HTMLInputElement} */ (event.target).files?.[0];
    if (!file) return;
    /** @type {HTMLTextAreaElement} */ ($("record-text")).value = await file.text();
    await check();
  });
  $("verify-form").addEventListener("submit", (event) => {
    event.preventDefault();
    check();
  });
  loadLinked();
}

main();
