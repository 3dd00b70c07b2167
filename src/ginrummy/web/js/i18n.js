// Message catalogs, one per language of the site (site.json): language from the browser,
// switchable, remembered.
import SITE from "./site.json" with { type: "json" };

const STORAGE_KEY = "ginrummy.lang";
/** The site's languages by code (site.json), in the order the language switch shows them. */
export const LANGUAGES = SITE.languages.map((l) => l.code);
/** Each language's name in itself (the switch's labels). @type {Record<string, string>} */
export const LANGUAGE_NAMES = Object.fromEntries(
  SITE.languages.map((l) => [l.code, l.name]),
);
const FALLBACK = SITE.fallback_language;

/** @type {Record<string, unknown>} */
let catalog = {};
let current = "en";

/**
 * The page language: the remembered one, else the browser's first we speak, else English.
 * @param {Pick<Storage, "getItem">|undefined} [storage]
 * @param {{languages?: readonly string[], language?: string}|undefined} [navigatorLike]
 */
export function detectLanguage(
  storage = globalThis.localStorage,
  navigatorLike = globalThis.navigator,
) {
  const saved = storage?.getItem(STORAGE_KEY);
  if (saved && LANGUAGES.includes(saved)) return saved;
  const wanted = navigatorLike?.languages?.length
    ? navigatorLike.languages
    : [navigatorLike?.language ?? "en"];
  for (const tag of wanted) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (LANGUAGES.includes(base)) return base;
  }
  return FALLBACK;
}

/**
 * @param {string} lang
 * @param {Pick<Storage, "setItem">|undefined} [storage]
 */
export function rememberLanguage(lang, storage = globalThis.localStorage) {
  try {
    storage?.setItem(STORAGE_KEY, lang);
  } catch {
    /* private mode: not remembered */
  }
}

/**
 * Where the messages of `lang` are (the service worker keeps them once used: docs/offline.md).
 * @param {string} lang
 */
export function catalogPath(lang) {
  return `/static/js/i18n/${lang}.json`;
}

/** @param {string} lang */
export async function loadLanguage(lang) {
  const response = await fetch(catalogPath(lang));
  catalog = await response.json();
  current = lang;
  document.documentElement.lang = lang;
}

/**
 * @param {string} lang
 * @param {Record<string, unknown>} messages
 */
export function setCatalog(lang, messages) {
  catalog = messages;
  current = lang;
}

export function language() {
  return current;
}

/**
 * The message `key` with `{name}` placeholders filled from `params`.
 * @param {string} key
 * @param {Record<string, unknown>} [params]
 */
export function t(key, params = {}) {
  const text = catalog[key];
  if (typeof text !== "string") return key;
  return text.replace(/\{(\w+)\}/g, (whole, name) =>
    name in params ? String(params[name]) : whole,
  );
}

/**
 * The message `key` for a count of `count`: its singular `key.one` when the count is 1 and
 * the catalog has one (English and German use the singular for one only), else `key`.
 * @param {string} key
 * @param {number} count
 * @param {Record<string, unknown>} [params]
 */
export function tn(key, count, params = {}) {
  return t(count === 1 && has(`${key}.one`) ? `${key}.one` : key, params);
}

/**
 * @param {string} key
 * @returns {string[]}
 */
export function list(key) {
  const value = catalog[key];
  return Array.isArray(value) ? value : [];
}

/** @param {string} key */
export function has(key) {
  return typeof catalog[key] === "string";
}

// The computer levels as the server lists them (GET /api/levels: a key and a name per
// language), a small catalog of its own: a computer player is named by its level in the
// page's language, so the level menu and the table say the same ("Gelegenheitsspieler").

/** @type {Record<string, any>[]} */
let known = [];

/**
 * The levels the names come from (the start page's list, or the remembered one).
 * @param {Record<string, any>[]} levels
 */
export function setLevels(levels) {
  known = levels;
}

/** Whether the level names are known (else computerName falls back to the key). */
export function levelsKnown() {
  return known.length > 0;
}

/**
 * @param {Record<string, any>} level
 */
export function levelId(level) {
  return level.id ?? level.level ?? level.key;
}

/**
 * A level's name in the page's language.
 * @param {Record<string, any>} level
 */
export function levelName(level) {
  const lang = language();
  if (!level) return "";
  const names = level.names ?? level.name;
  if (names && typeof names === "object")
    return names[lang] ?? names.en ?? levelId(level);
  return level[`name_${lang}`] ?? level.name ?? levelId(level);
}

/**
 * The name of a computer player of level `key`, in the page's language; a level not
 * listed (a measuring stick such as `random`) by its key, capitalised like the others.
 * @param {string} key
 */
export function computerName(key) {
  const level = known.find((l) => levelId(l) === key);
  return level ? levelName(level) : key.charAt(0).toUpperCase() + key.slice(1);
}
