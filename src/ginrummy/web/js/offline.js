// Offline use (docs/offline.md): the service worker that keeps the client for visits
// without network, the server's configuration remembered from the last visit, and which
// pages need the server.
import { remembered, remember } from "./prefs.js";
import { atTable } from "./routes.js";

/** @typedef {import("./types.js").Config} Config */
/** @typedef {import("./types.js").State} State */

export const CONFIG_KEY = "ginrummy.config";
export const LEVELS_KEY = "ginrummy.levels";

/**
 * Register /sw.js once the page has loaded, so that it never competes with the first paint.
 * @param {Window} win
 */
export function registerWorker(win = window) {
  const workers = win.navigator.serviceWorker;
  if (!workers) return;
  const start = () => {
    workers
      .register("/sw.js")
      .catch((err) => console.warn("the service worker could not be registered", err));
  };
  if (win.document.readyState === "complete") start();
  else win.addEventListener("load", start, { once: true });
}

/** The page's build: index.html's meta element, filled in by the server (server/static.py). */
export const BUILD_META = 'meta[name="ginrummy-build"]';
/** The builds of the last reload for another build ("page>worker"), for this tab only. */
export const RELOADED_KEY = "ginrummy.reloadedFor";

/**
 * Whether a page of build `page`, served now by a worker of build `worker`, reloads: when
 * they differ, and not twice for the same pair (`reloaded`: the pair of the last reload in
 * this tab), so that a page the worker could not give from its cache never reloads forever.
 * @param {string|null|undefined} page
 * @param {unknown} worker  the build a worker answered
 * @param {string|null} reloaded
 */
export function reloadsFor(page, worker, reloaded) {
  if (!page || typeof worker !== "string" || !worker || page === worker) return false;
  return reloaded !== `${page}>${worker}`;
}

/**
 * Keep the page and its files of one build. A worker of a newer build can come to take
 * charge while a page of the old one loads: Chromium lets the new worker activate when a
 * visit began just as the last page of the old build closed. Such a page may be handed to
 * the new worker, or stay with the old one, now redundant, whose cache is gone (its files
 * then come from the network: the new build's). Either way the page asks the worker in
 * charge (the registration's active one) which build it keeps: at start, when its
 * controller changes or changes state, and when a new worker activates; it reloads when
 * that is another build. Reloaded, it runs that build whole (docs/offline.md).
 * @param {Window} win
 */
export function keepOwnBuild(win = window) {
  const workers = win.navigator.serviceWorker;
  const page = win.document.querySelector(BUILD_META)?.getAttribute("content");
  if (!workers || !page) return;
  workers.addEventListener("message", (event) => {
    const worker = event.data?.build;
    try {
      if (!reloadsFor(page, worker, win.sessionStorage.getItem(RELOADED_KEY))) return;
      win.sessionStorage.setItem(RELOADED_KEY, `${page}>${worker}`);
    } catch {
      return; // no storage: a reload could not tell it was tried already
    }
    console.info(`this page is of build ${page}, its worker keeps ${worker}: reloading`);
    win.location.reload();
  });
  workers.startMessages();
  const ready = workers.ready; // the page's registration, once it has an active worker
  const ask = () => {
    ready
      .then((registration) => registration.active?.postMessage({ build: "?" }))
      .catch((err) =>
        console.warn("the service worker could not be asked its build", err),
      );
  };
  /** @param {ServiceWorker|null|undefined} worker  activated or replaced: ask again */
  const watch = (worker) => worker?.addEventListener("statechange", ask);
  workers.addEventListener("controllerchange", ask);
  watch(workers.controller);
  ready
    .then((registration) => {
      watch(registration.installing);
      watch(registration.waiting);
      registration.addEventListener("updatefound", () => watch(registration.installing));
    })
    .catch((err) => console.warn("the service worker's updates cannot be followed", err));
  ask();
}

/**
 * Ask the service worker to keep `path`, a file it keeps only once used (the messages of
 * the page's language), for visits without network. On the first visit no worker serves
 * the page yet, so the worker does not see the page load it: the page names it.
 * @param {string} path
 * @param {Window} win
 */
export function keepFile(path, win = window) {
  win.navigator.serviceWorker?.ready
    .then((registration) => registration.active?.postMessage({ keep: path }))
    .catch((err) => console.warn(`the service worker could not keep ${path}`, err));
}

/**
 * The configuration of the last visit: the first page needs no answer from the server.
 * @returns {Config|null}
 */
export function rememberedConfig() {
  try {
    const config = JSON.parse(remembered(CONFIG_KEY) ?? "null");
    return config && typeof config === "object" && config.limits ? config : null;
  } catch {
    return null;
  }
}

/**
 * @param {Config} config
 */
export function rememberConfig(config) {
  remember(CONFIG_KEY, JSON.stringify(config));
}

/**
 * The server's computer levels: `fresh` (then remembered) or, offline, the last ones seen,
 * so that the computer still plays on this device (docs/device.md).
 * @param {unknown} fresh  GET /api/levels, or null when it failed
 * @returns {unknown}
 */
export function knownLevels(fresh) {
  if (fresh) {
    remember(LEVELS_KEY, JSON.stringify(fresh));
    return fresh;
  }
  try {
    return JSON.parse(remembered(LEVELS_KEY) ?? "null");
  } catch {
    return null;
  }
}

/**
 * Whether the page of `state` needs the server and cannot have it: everything but the
 * start page (with the rules) and games on this device while offline; a table already shown keeps its own
 * connection status instead.
 * @param {State} state
 */
export function needsConnection(state) {
  // A game on this device needs no server (docs/device.md).
  if (state.online || state.route.name === "home" || state.route.device) return false;
  return !(atTable(state.route) && state.view);
}

/**
 * Call `onChange(online)` whenever the browser's network comes or goes.
 * @param {(online: boolean) => void} onChange
 * @param {Window} win
 */
export function watchNetwork(onChange, win = window) {
  win.addEventListener("online", () => onChange(true));
  win.addEventListener("offline", () => onChange(false));
}

/**
 * Resolves once the page has shown its first content (at most half a second: a hidden
 * page paints nothing), so that requests made after it never delay the first paint of a
 * visit the service worker serves.
 * @param {Window} win
 * @returns {Promise<void>}
 */
export function afterPaint(win = window) {
  const painted = () =>
    win.performance.getEntriesByName("first-contentful-paint").length > 0;
  if (painted()) return Promise.resolve();
  return new Promise((resolve) => {
    const observer = new PerformanceObserver(() => {
      if (painted()) finish();
    });
    const timer = setTimeout(() => finish(), 500);
    const finish = () => {
      observer.disconnect();
      clearTimeout(timer);
      resolve();
    };
    observer.observe({ type: "paint", buffered: true });
  });
}
