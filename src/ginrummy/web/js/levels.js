// The computer levels as the server lists them (GET /api/levels: a key and a name per
// language) and the names of computer players, which are their level's name in the page's
// language: the level menu and the table say the same ("Gelegenheitsspieler", not "casual").
import { language } from "./i18n.js";

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
  if (names && typeof names === "object") return names[lang] ?? names.en ?? levelId(level);
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
