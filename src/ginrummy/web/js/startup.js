// The page's start (startPage) and its first answers: what index.html's inline script asked
// for while the modules loaded (docs/offline.md), taken once, or asked again when that did
// not answer.
import { api, configUntilAnswered } from "./api.js";
import {
  LANGUAGES,
  catalogPath,
  detectLanguage,
  language,
  loadLanguage,
  setCatalog,
} from "./i18n.js";
import {
  afterPaint,
  keepFile,
  keepOwnBuild,
  registerWorker,
  rememberConfig,
  rememberedConfig,
} from "./offline.js";
import {
  COLOUR_KEY,
  LARGE_KEY,
  SOUND_KEY,
  MUTED_KEY,
  NOTE_KEY,
  remembered,
} from "./prefs.js";
import { routeOf } from "./routes.js";

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
    } catch {
      /* not JSON after all: fetched again below */
    }
  }
  await loadLanguage(lang).catch(() =>
    loadLanguage(LANGUAGES.find((l) => l !== lang) ?? lang),
  );
}

/**
 * The server's configuration: the early answer when there is one, else asked until answered.
 * @param {Promise<Response|null>|null} asked
 * @returns {Promise<import("./types.js").Config>}
 */
export async function firstConfig(asked) {
  const response = await asked;
  if (response?.ok) {
    try {
      return await response.json();
    } catch {
      /* asked again below */
    }
  }
  return configUntilAnswered();
}

/** At most this long the worker's registration waits for the start page (startPage). */
const WORKER_WAIT_MS = 3000;

/**
 * What the page's start needs of the router (main.js).
 * @typedef {object} Start
 * @property {import("./store.js").Store} store
 * @property {(route: import("./types.js").Route) => void} enter  show the page of a route
 * @property {() => Promise<void>} homeEntry  the start page's last entry (done once it shows)
 */

/**
 * Start the page: language, configuration (the last visit's when known, so that the page
 * shows before the server answers, or offline), remembered preferences, the first route;
 * then the service worker and a fresh configuration.
 * @param {Start} start
 */
export async function startPage({ store, enter, homeEntry }) {
  keepOwnBuild();
  const lang = detectLanguage();
  // The last visit's configuration lets the page show before the server answers (or offline).
  const known = rememberedConfig();
  const asked = early();
  const messages = firstMessages(lang, asked?.lang === lang ? asked.catalog : null);
  const [config] = await Promise.all([
    known ?? firstConfig(asked?.config ?? null),
    messages,
  ]);
  rememberConfig(config);
  store.update((s) => ({ ...s, config, online: navigator.onLine }), { silent: true });
  let muted = [];
  try {
    muted = JSON.parse(remembered(MUTED_KEY) ?? "[]");
  } catch {
    muted = [];
  }
  store.update(
    (s) => ({
      ...s,
      lang: language(),
      fourColour: remembered(COLOUR_KEY) === "1",
      largeCards: remembered(LARGE_KEY) === "1",
      turnSound: remembered(SOUND_KEY) === "1",
      deviceNoteHidden: remembered(NOTE_KEY) === "1",
      muted: Array.isArray(muted) ? muted.map(String) : [],
    }),
    { silent: true },
  );
  enter(routeOf(location.pathname));
  await afterPaint();
  // The worker's installation fetches every file it keeps, asking the HTTP cache first: on
  // the start page it waits (a few seconds at most) until the page has loaded the computer
  // players itself, so that it finds them there instead of fetching them again.
  const entered = homeEntry().catch((err) =>
    console.warn("the start page did not load completely", err),
  );
  await Promise.race([
    entered,
    new Promise((resolve) => setTimeout(resolve, WORKER_WAIT_MS)),
  ]);
  registerWorker();
  keepFile(catalogPath(language()));
  if (known && navigator.onLine) {
    api
      .config()
      .then((fresh) => {
        rememberConfig(fresh);
        store.update((s) => ({ ...s, config: fresh }), { silent: true });
      })
      .catch((err) =>
        console.warn("GET /api/config failed; the remembered configuration stays", err),
      );
  }
}
