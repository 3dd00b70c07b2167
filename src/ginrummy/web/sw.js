// The service worker (docs/offline.md): keeps one build of the client in a cache of its
// own, so that the site opens with no network and a repeat visit asks the server nothing
// before the page shows. The server fills in the next line at start-up: this build's
// version and every file with the hash its ETag carries (server/static.py).
const BUILD = { version: "dev", files: {} };

const worker = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));
const PREFIX = "ginrummy-";
const CACHE = `${PREFIX}${BUILD.version}`;
/** @type {Record<string, string>} */
const FILES = BUILD.files;
// The page's own routes (main.js routeOf): all are the one page kept under "/".
const PAGE_ROUTE = /^\/(?:lobby|leaderboard|r\/[^/]+(?:\/review\/(?:one|two))?|c\/[^/]+|p\/[^/]+|d\/[^/]+|t\/[^/]+)?\/?$/;

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
  throw new Error(`${url}: expected build ${BUILD.version} (hash ${digest}), got ${answer}`);
}

/**
 * Keep every file of this build. A file that changed meanwhile (a newer build being
 * deployed) fails the installation, and the old build stays in charge until a later
 * visit installs a consistent one.
 * @param {Cache} cache
 */
async function keepBuild(cache) {
  await Promise.all(Object.entries(FILES).map(async ([url, digest]) => {
    await cache.put(url, await fetchChecked(url, digest));
  }));
}

worker.addEventListener("install", (event) => {
  // No skipWaiting: a page that is open keeps the build it started with (a running game
  // is not interrupted and never loads a file of another build); the new build takes over
  // when every page of the old one is closed, that is on the next visit.
  event.waitUntil(caches.open(CACHE).then(keepBuild));
});

worker.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    const names = await caches.keys();
    await Promise.all(names.filter((n) => n.startsWith(PREFIX) && n !== CACHE).map((n) => caches.delete(n)));
  })());
});

worker.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== location.origin) return;
  // Only this build's files and the page's routes; the API and the socket go to the server.
  const key = request.mode === "navigate" && PAGE_ROUTE.test(url.pathname) ? "/" : url.pathname;
  if (!(key in FILES) || (key !== "/" && url.search)) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    return (await cache.match(key)) ?? fetch(request);
  })());
});
