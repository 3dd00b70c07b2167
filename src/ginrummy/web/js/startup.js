// The page's first answers: what index.html's inline script asked for while the modules
// loaded (docs/offline.md), taken once, or asked again when that did not answer.
import { configUntilAnswered } from "./api.js";
import { LANGUAGES, loadLanguage, setCatalog } from "./i18n.js";

/**
 * The answers index.html asked for while the modules loaded (null: none).
 * @returns {{lang: string, catalog: Promise<Response|null>, config: Promise<Response|null>|null}|null}
 */
export function early() {
  const asked = Reflect.get(globalThis, "ginrummyEarly");
  Reflect.deleteProperty(globalThis, "ginrummyEarly"); // taken once
  return asked && typeof asked === "object" ? asked : null;
}

/**
 * The messages of `lang`: the early answer when it is theirs, else fetched; when they
 * cannot be had (offline, never kept here), another language's.
 * @param {string} lang
 * @param {Promise<Response|null>|null} asked
 */
export async function firstMessages(lang, asked) {
  const response = await asked;
  if (response?.ok) {
    try {
      setCatalog(lang, await response.json());
      document.documentElement.lang = lang;
      return;
    } catch { /* not JSON after all: fetched again below */ }
  }
  await loadLanguage(lang).catch(() => loadLanguage(LANGUAGES.find((l) => l !== lang) ?? lang));
}

/**
 * The server's configuration: the early answer when there is one, else asked until answered.
 * @param {Promise<Response|null>|null} asked
 * @returns {Promise<import("./types.js").Config>}
 */
export async function firstConfig(asked) {
  const response = await asked;
  if (response?.ok) {
    try { return await response.json(); } catch { /* asked again below */ }
  }
  return configUntilAnswered();
}
