// Message catalogs (de, en): language from the browser, switchable, remembered.
const STORAGE_KEY = "ginrummy.lang";
export const LANGUAGES = ["de", "en"];

let catalog = {};
let current = "en";

export function detectLanguage(storage = globalThis.localStorage, navigatorLike = globalThis.navigator) {
  const saved = storage?.getItem(STORAGE_KEY);
  if (LANGUAGES.includes(saved)) return saved;
  const wanted = navigatorLike?.languages?.length ? navigatorLike.languages : [navigatorLike?.language ?? "en"];
  for (const tag of wanted) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (LANGUAGES.includes(base)) return base;
  }
  return "en";
}

export function rememberLanguage(lang, storage = globalThis.localStorage) {
  try { storage?.setItem(STORAGE_KEY, lang); } catch { /* private mode: not remembered */ }
}

export async function loadLanguage(lang) {
  const response = await fetch(`/static/js/i18n/${lang}.json`);
  catalog = await response.json();
  current = lang;
  document.documentElement.lang = lang;
}

export function setCatalog(lang, messages) {
  catalog = messages;
  current = lang;
}

export function language() {
  return current;
}

/** The message `key` with `{name}` placeholders filled from `params`. */
export function t(key, params = {}) {
  const text = catalog[key];
  if (typeof text !== "string") return key;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

export function list(key) {
  const value = catalog[key];
  return Array.isArray(value) ? value : [];
}

export function has(key) {
  return typeof catalog[key] === "string";
}
