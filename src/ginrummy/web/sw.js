// The service worker (docs/offline.md): keeps one build of the client in a cache of its
// own, so that the site opens with no network and a repeat visit asks the server nothing
// before the page shows. The server fills in the next line at start-up: this build's
// version, every file with the hash its ETag carries, the files kept only once they are
// used, and from the site's one list (web/js/site.json) the page's routes and the language
// spoken when the browser speaks none of the site's (server/static.py).
const BUILD = { version: "dev", files: {}, later: [], routes: [], fallback: "en" };

const worker = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));
const PREFIX = "ginrummy-";
const CACHE = `${PREFIX}${BUILD.version}`;
/** @type {Record<string, string>} */
const FILES = BUILD.files;
/** Kept once used (the other language's messages, the verify page), not at install.
 * @type {Set<string>} */
const LATER = new Set(BUILD.later);
// A language's messages (web/js/i18n.js catalogPath).
const CATALOG = /^\/static\/js\/i18n\/(\w+)\.json$/;
/**
 * The page's own routes (web/js/site.json, as web/js/routes.js pathPattern reads them):
 * all are the one page kept under "/".
 * @type {RegExp[]}
 */
const PAGE_ROUTES = BUILD.routes.map(
  (/** @type {{path: string, values?: Record<string, string[]>}} */ route) => {
    const source = route.path
      .replace(/\/$/, "")
      .split(/(\{\w+\})/)
      .map((part) => {
        const param = /^\{(\w+)\}$/.exec(part);
        if (!param) return part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
        const values = route.values?.[param[1]];
        return values ? `(?:${values.join("|")})` : "[^/]+";
      })
      .join("");
    return new RegExp(`^${source}/?$`);
  },
);

/**
 * A file of this build, checked: its ETag names the hash the build expects. The HTTP
 * cache is asked first (the page has just loaded most files); a copy of another build
 * there is fetched again from the server.
 * @param {string} url
 * @param {string} digest
 */
async function fetchChecked(url, digest) {
  let answer = "";
  for (const mode of /** @type {RequestCache[]} */ (["force-cache", "no-cache"])) {
    const response = await fetch(url, { cache: mode });
    const etag = response.headers.get("ETag") ?? "";
    if (response.ok && etag.includes(digest)) return response;
    answer = `status ${response.status}, ETag ${etag}`;
  }
  throw new Error(
    `${url}: expected build ${BUILD.version} (hash ${digest}), got ${answer}`,
  );
}

/**
 * The messages of the browser's language (as web/js/i18n.js detectLanguage picks it,
 * English when none is spoken here).
 * @param {string[]} catalogs
 */
function browserCatalog(catalogs) {
  for (const tag of worker.navigator.languages ?? []) {
    const base = String(tag).toLowerCase().split("-")[0];
    const found = catalogs.find((url) => CATALOG.exec(url)?.[1] === base);
    if (found) return found;
  }
  return catalogs.find((url) => CATALOG.exec(url)?.[1] === BUILD.fallback);
}

/** The files of LATER that an older build's cache had kept: used before, so kept again. */
async function usedBefore() {
  const names = (await caches.keys()).filter((n) => n.startsWith(PREFIX) && n !== CACHE);
  const used = new Set();
  for (const name of names) {
    for (const request of await (await caches.open(name)).keys()) {
      const path = new URL(request.url).pathname;
      if (LATER.has(path)) used.add(path);
    }
  }
  return used;
}

/**
 * Keep this build's files: all but LATER, and of LATER the browser language's messages
 * and whatever an older build had kept. A file that changed meanwhile (a newer build being
 * deployed) fails the installation, and the old build stays in charge until a later
 * visit installs a consistent one.
 * @param {Cache} cache
 */
async function keepBuild(cache) {
  const wanted = await usedBefore();
  const catalog = browserCatalog([...LATER].filter((url) => CATALOG.test(url)));
  if (catalog) wanted.add(catalog);
  const urls = Object.keys(FILES).filter((url) => !LATER.has(url) || wanted.has(url));
  await Promise.all(
    urls.map(async (url) => {
      await cache.put(url, await fetchChecked(url, FILES[url]));
    }),
  );
}

/**
 * A file of LATER from the cache, else fetched (checked: this build's), kept and given.
 * @param {string} url
 */
async function keepLater(url) {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(url);
  if (kept) return kept;
  const response = await fetchChecked(url, FILES[url]);
  await cache.put(url, response.clone());
  return response;
}

worker.addEventListener("install", (event) => {
  // No skipWaiting: a page that is open keeps the build it started with (a running game
  // is not interrupted and never loads a file of another build); the new build takes over
  // when every page of the old one is closed, that is on the next visit.
  event.waitUntil(caches.open(CACHE).then(keepBuild));
});

/** Delete the caches of other builds. */
async function forgetOtherBuilds() {
  const names = await caches.keys();
  await Promise.all(
    names.filter((n) => n.startsWith(PREFIX) && n !== CACHE).map((n) => caches.delete(n)),
  );
}

/**
 * Reload every page this worker now serves: a page open when this worker takes over was
 * loaded by an older build. A page still loading then is not among them (no script of it
 * has run): it asks which build this worker keeps and reloads itself (web/js/offline.js
 * keepOwnBuild). Not awaited: the reload's own request waits for this worker to be active.
 */
async function reloadHandedOver() {
  for (const page of await worker.clients.matchAll({ type: "window" })) {
    page
      .navigate(page.url)
      .catch((err) => console.warn(`${page.url} could not be reloaded`, err));
  }
}

worker.addEventListener("activate", (event) => {
  event.waitUntil(forgetOtherBuilds().then(reloadHandedOver));
});

worker.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== location.origin) return;
  // Only this build's files and the page's routes; the API and the socket go to the server.
  const key =
    request.mode === "navigate" && PAGE_ROUTES.some((route) => route.test(url.pathname))
      ? "/"
      : url.pathname;
  if (!(key in FILES) || (key !== "/" && url.search)) return;
  event.respondWith(
    (async () => {
      if (LATER.has(key)) return keepLater(key);
      const cache = await caches.open(CACHE);
      return (await cache.match(key)) ?? fetch(request);
    })(),
  );
});

// A page asks which build this worker keeps (web/js/offline.js keepOwnBuild).
worker.addEventListener("message", (event) => {
  if (event.data?.build !== "?") return;
  event.source?.postMessage({ build: BUILD.version });
});

// A page not yet under this worker (the first visit) names a file of LATER it uses, such
// as its language's messages (web/js/offline.js keepFile): keep it for visits offline.
worker.addEventListener("message", (event) => {
  const url = event.data?.keep;
  if (typeof url !== "string" || !LATER.has(url)) return;
  event.waitUntil(
    keepLater(url).catch((err) => console.warn(`${url} could not be kept`, err)),
  );
});
