// The disclosure next to the table's fair-deal mark where a person sets or forgets the
// optional seed phrase (docs/fairness.md §5a; the phrase itself is phrase.js's).
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { forgetSeedPhrase, seedPhrase, setSeedPhrase } from "./phrase.js";

/**
 * @typedef {object} Disclosure
 * @property {HTMLDetailsElement} el
 * @property {HTMLElement} summary
 * @property {HTMLLabelElement} label
 * @property {HTMLInputElement} input
 * @property {HTMLButtonElement} use
 * @property {HTMLButtonElement} forget
 * @property {HTMLElement} hint
 * @property {HTMLElement} state
 */

/** @type {Disclosure|null} */
let shown = null;

/** The texts and which button is offered follow the language and the stored phrase. */
function refresh(/** @type {Disclosure} */ d) {
  const phrase = seedPhrase();
  d.summary.textContent = t("fair.phrase.summary");
  d.label.textContent = t("fair.phrase.label");
  d.use.textContent = t("fair.phrase.use");
  d.forget.textContent = t("fair.phrase.forget");
  d.hint.textContent = t("fair.phrase.hint");
  d.state.textContent = phrase ? t("fair.phrase.set") : "";
  d.forget.style.display = phrase ? "" : "none"; // not `hidden`: .button sets display
}

function build() {
  const input = h("input", {
    id: "seed-phrase",
    type: "text",
    autocomplete: "off",
    spellcheck: "false",
    dataset: { key: "seed-phrase" },
  });
  const d = {
    el: h("details", { class: "seed-phrase", id: "seed-phrase-box" }),
    summary: h("summary", {}),
    label: h("label", { for: "seed-phrase" }),
    input,
    use: h("button", {
      type: "submit",
      class: "button",
      dataset: { key: "seed-phrase-use" },
    }),
    forget: h("button", {
      type: "button",
      class: "button",
      dataset: { key: "seed-phrase-forget" },
    }),
    hint: h("p", { class: "hint", id: "seed-phrase-hint" }),
    state: h("p", { class: "hint", role: "status" }),
  };
  input.setAttribute("aria-describedby", "seed-phrase-hint");
  const form = h(
    "form",
    {},
    d.label,
    " ",
    input,
    " ",
    d.use,
    " ",
    d.forget,
    d.hint,
    d.state,
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (!input.value.trim()) return input.focus();
    setSeedPhrase(input.value);
    input.value = "";
    refresh(d);
  });
  d.forget.addEventListener("click", () => {
    forgetSeedPhrase();
    refresh(d);
  });
  d.el.append(d.summary, form);
  return d;
}

/**
 * The disclosure next to the fair-deal mark. One element kept across renders, so its
 * open state and a half-typed phrase survive the table's redraws.
 * @returns {HTMLDetailsElement}
 */
export function renderPhraseBox() {
  shown ??= build();
  refresh(shown);
  return shown.el;
}
