// What this browser remembers between visits (localStorage; nothing breaks without it)
// and the name it plays under when none was typed.
import { list } from "./i18n.js";
import { cleanText } from "./store.js";

export const NAME_KEY = "ginrummy.name";
export const COLOUR_KEY = "ginrummy.fourColour";
export const LARGE_KEY = "ginrummy.largeCards";
export const SOUND_KEY = "ginrummy.turnSound";
export const MUTED_KEY = "ginrummy.muted";
export const NOTE_KEY = "ginrummy.deviceNoteHidden";

/**
 * @param {string} key
 */
export function remembered(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

/**
 * @param {string} key
 * @param {string} value
 */
export function remember(key, value) {
  try {
    localStorage.setItem(key, value);
  } catch {
    /* private mode */
  }
}

/** A friendly default name in the page language. */
export function friendlyName() {
  const names = list("names.friendly");
  return names.length ? names[Math.floor(Math.random() * names.length)] : "Guest";
}

/**
 * The name to play under: the typed one, else the remembered one, else a friendly default.
 * @param {unknown} typed
 */
export function playerName(typed) {
  const name = cleanText(typed) || remembered(NAME_KEY) || friendlyName();
  remember(NAME_KEY, name);
  return name;
}

/** The served limits (loaded at boot, before any page that needs them). */
