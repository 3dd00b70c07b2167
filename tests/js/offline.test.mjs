// Offline use (offline.js, index.html): which pages need the server, the page preloads
// every module main.js imports so that none waits for the one importing it, and a page
// reloads for a worker of another build.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { posix } from "node:path";
import fc from "fast-check";
import {
  BUILD_META,
  RELOADED_KEY,
  keepOwnBuild,
  needsConnection,
  reloadsFor,
} from "../../src/ginrummy/web/js/offline.js";
import { initialState } from "../../src/ginrummy/web/js/store.js";
import { detectLanguage } from "../../src/ginrummy/web/js/i18n.js";

const WEB = new URL("../../src/ginrummy/web/", import.meta.url);
const IMPORT = /^\s*(?:import|export)\s[^;]*?\sfrom\s+"(\.[^"]+)"/gms;

/** The modules `start` imports, directly or not (paths under web/js/), with itself. */
function imported(start) {
  const seen = new Set();
  const walk = (name) => {
    if (seen.has(name)) return;
    seen.add(name);
    const source = readFileSync(new URL(`js/${name}`, WEB), "utf8");
    for (const match of source.matchAll(IMPORT))
      walk(posix.normalize(posix.join(posix.dirname(name), match[1])));
  };
  walk(start);
  return seen;
}

test("index.html preloads exactly the modules main.js imports", () => {
  const page = readFileSync(new URL("index.html", WEB), "utf8");
  const preloaded = [
    ...page.matchAll(/<link rel="modulepreload" href="\/static\/js\/([^"]+)">/g),
  ].map((m) => m[1]);
  // site.json is a JSON module (routes.js, i18n.js): not a script to preload.
  const needed = [...imported("main.js")].filter(
    (name) => name !== "main.js" && !name.endsWith(".json"),
  );
  assert.deepEqual([...preloaded].sort(), needed.sort());
  assert.equal(new Set(preloaded).size, preloaded.length);
});

test("offline, every page but the start page needs the server; a table shown keeps its own status", () => {
  const at = (name, extra = {}) => ({
    ...initialState(),
    online: false,
    route: { name, room: name === "room" ? "r1" : null },
    ...extra,
  });
  assert.equal(needsConnection(at("home")), false);
  for (const name of ["lobby", "leaderboard", "player", "room", "chouette"])
    assert.equal(needsConnection(at(name)), true, name);
  assert.equal(
    needsConnection(at("room", { view: /** @type {any} */ ({ legal_actions: [] }) })),
    false,
  );
  assert.equal(
    needsConnection(at("chouette", { view: /** @type {any} */ ({ legal_actions: [] }) })),
    false,
  );
  // A game on this device (docs/device.md) needs no server, even before its table shows.
  assert.equal(
    needsConnection({ ...at("room"), route: { name: "room", room: "g1", device: true } }),
    false,
  );
  for (const name of ["home", "lobby", "leaderboard", "player", "room"]) {
    assert.equal(needsConnection({ ...at(name), online: true }), false, name);
  }
});

// index.html's inline script: the page's first requests, sent while the modules load.
function earlyRequests({ saved = null, languages = ["en-US"], config = null } = {}) {
  // The languages as the server fills them in (server/static.py with_site), from site.json.
  const site = JSON.parse(readFileSync(new URL("js/site.json", WEB), "utf8"));
  const known = JSON.stringify({
    languages: site.languages.map((l) => l.code),
    fallback: site.fallback_language,
  });
  const page = readFileSync(new URL("index.html", WEB), "utf8").replace(
    /^(\s*)const site = .*;$/m,
    `$1const site = ${known};`,
  );
  const script = /<script>([\s\S]*?)<\/script>/.exec(page)?.[1];
  assert.ok(script, "index.html has its inline script");
  const asked = [];
  const storage = {
    getItem: (key) =>
      ({ "ginrummy.lang": saved, "ginrummy.config": config })[key] ?? null,
  };
  const sandbox = {
    localStorage: storage,
    navigator: { languages, language: languages[0] },
    fetch: (path) => {
      asked.push(path);
      return Promise.resolve({ ok: true });
    },
  };
  sandbox.globalThis = sandbox;
  new Function("globalThis", "localStorage", "navigator", "fetch", script)(
    sandbox,
    sandbox.localStorage,
    sandbox.navigator,
    sandbox.fetch,
  );
  return { early: sandbox.ginrummyEarly, asked, storage, navigator: sandbox.navigator };
}

test("index.html asks early for the language detectLanguage picks, and for the configuration only when none is remembered", () => {
  const cases = [
    {},
    { languages: ["de-AT", "en"] },
    { languages: ["fr-FR", "de"] },
    { languages: ["fr"] },
    { saved: "de" },
    { saved: "en", languages: ["de-DE"] },
    { saved: "xx", languages: ["de"] },
    { languages: [] },
  ];
  for (const options of cases) {
    const { early, asked, storage, navigator } = earlyRequests(options);
    const lang = detectLanguage(storage, navigator);
    assert.equal(early.lang, lang, JSON.stringify(options));
    assert.deepEqual(
      asked,
      [`/static/js/i18n/${lang}.json`, "/api/config"],
      JSON.stringify(options),
    );
  }
  const remembered = earlyRequests({ config: "{}" });
  assert.deepEqual(remembered.asked, ["/static/js/i18n/en.json"]); // a repeat visit asks the server nothing
  assert.equal(remembered.early.config, null);
});

test("every route of site.json is its page (routes.js), with a slash at the end too; any other path is the page not found", async () => {
  const { pageOf, routeOf } = await import("../../src/ginrummy/web/js/routes.js");
  const site = JSON.parse(readFileSync(new URL("js/site.json", WEB), "utf8"));
  for (const route of site.routes) {
    const path = route.path.replace(
      /\{(\w+)\}/g,
      (_, name) => route.values?.[name]?.[0] ?? "a%2Fb",
    );
    for (const shown of [path, path.endsWith("/") ? path : `${path}/`]) {
      const found = routeOf(shown);
      assert.equal(pageOf(found), route.page, shown);
      if (path.includes("a%2Fb"))
        assert.equal(found.room ?? found.player ?? found.tournament, "a/b", shown);
    }
  }
  for (const path of ["/nowhere", "/r/k3Xa_9/review/three", "/r/a/b"]) {
    assert.equal(routeOf(path).name, "notfound", path);
    assert.equal(pageOf(routeOf(path)), "notfound", path);
  }
});

test("a table is a room's, a device game's or a chouette's link; no other page is one", async () => {
  const { atTable, routeOf } = await import("../../src/ginrummy/web/js/routes.js");
  const tables = ["/r/k3Xa_9", "/d/g1", "/c/k3Xa_9"];
  for (const path of [
    "/",
    "/lobby",
    "/leaderboard",
    "/r/k3Xa_9/review/two",
    "/p/pl1",
    "/t/t1",
    ...tables,
  ]) {
    assert.equal(atTable(routeOf(path)), tables.includes(path), path);
  }
});

test("a page reloads for a worker of another build, once for each pair of builds", () => {
  assert.equal(reloadsFor("a1", "b2", null), true);
  assert.equal(reloadsFor("a1", "b2", "a1>c3"), true); // another pair: reloads again
  assert.equal(reloadsFor("a1", "b2", "a1>b2"), false); // tried already in this tab
  assert.equal(reloadsFor("a1", "a1", null), false);
  assert.equal(reloadsFor(null, "b2", null), false); // a page that names no build
  assert.equal(reloadsFor("a1", undefined, null), false); // not an answer about builds
  assert.equal(reloadsFor("a1", "", null), false);
  fc.assert(
    fc.property(
      fc.string(),
      fc.string(),
      fc.option(fc.string()),
      (page, worker, last) => {
        const reloads = reloadsFor(page, worker, last);
        if (reloads) assert.ok(page && worker && page !== worker);
        // Once reloaded for this pair, never again for it.
        assert.equal(reloadsFor(page, worker, `${page}>${worker}`), false);
      },
    ),
  );
});

/** A service worker keeping build `build`, whose answers go to `page`'s listeners. */
function fakeWorker(build, page) {
  const listeners = [];
  return {
    state: "activated",
    postMessage: (data) => {
      assert.deepEqual(data, { build: "?" });
      page.asked += 1;
      page.listeners.message?.({ data: { build } });
    },
    addEventListener: (type, listener) =>
      type === "statechange" && listeners.push(listener),
    /** @param {string} state */
    becomes(state) {
      this.state = state;
      for (const listener of listeners) listener();
    },
  };
}

/**
 * A page of build `page` whose registration's active worker keeps `worker`; what it did.
 * `controlled`: a worker serves the page (not on the first visit). `pending`: a worker of
 * build "b2" is there already, "installing" or "waiting" (`did.next`).
 */
async function servedPage(
  page,
  worker,
  { storage = true, controlled = true, pending = null } = {},
) {
  const did = { asked: 0, reloads: 0, listeners: {}, stored: new Map() };
  did.next = fakeWorker("b2", did);
  const registration = {
    active: fakeWorker(worker, did),
    installing: pending === "installing" ? did.next : null,
    waiting: pending === "waiting" ? did.next : null,
    addEventListener: (type, listener) =>
      (did.listeners[`registration.${type}`] = listener),
  };
  const win = {
    document: {
      querySelector: (selector) =>
        selector === BUILD_META && page ? { getAttribute: () => page } : null,
    },
    navigator: {
      serviceWorker: {
        controller: controlled ? registration.active : null,
        ready: Promise.resolve(registration),
        addEventListener: (type, listener) => (did.listeners[type] = listener),
        startMessages: () => {},
      },
    },
    sessionStorage: {
      getItem: (key) => {
        if (!storage) throw new Error("no storage");
        return did.stored.get(key) ?? null;
      },
      setItem: (key, value) => did.stored.set(key, value),
    },
    location: { reload: () => (did.reloads += 1) },
  };
  keepOwnBuild(/** @type {any} */ (win));
  did.registration = registration;
  did.settled = () => new Promise((resolve) => setImmediate(resolve));
  await did.settled();
  return did;
}

test("keepOwnBuild asks the worker in charge, and again when another takes charge", async () => {
  const same = await servedPage("a1", "a1");
  assert.equal(same.asked, 1);
  assert.equal(same.reloads, 0);
  const other = await servedPage("a1", "b2");
  assert.equal(other.reloads, 1);
  assert.equal(other.stored.get(RELOADED_KEY), "a1>b2");
  other.listeners.controllerchange(); // the same worker's answer again: not a second reload
  await other.settled();
  assert.equal(other.asked, 2);
  assert.equal(other.reloads, 1);
  assert.equal((await servedPage("a1", "b2", { storage: false })).reloads, 0);
  assert.equal((await servedPage(null, "b2")).asked, 0); // a page that names no build
});

test("a page left with its old worker reloads when that worker is replaced", async () => {
  const page = await servedPage("a1", "a1");
  const old = page.registration.active;
  page.registration.active = fakeWorker("b2", page); // the new build activates...
  old.becomes("redundant"); // ...and the page's controller is no more: no controllerchange
  await page.settled();
  assert.equal(page.reloads, 1);
  assert.equal(page.stored.get(RELOADED_KEY), "a1>b2");
});

test("a new worker activating after the page started is asked, installed or waiting", async () => {
  for (const pending of ["installing", "waiting", null]) {
    const page = await servedPage("a1", "a1", { controlled: pending !== null, pending });
    if (!pending) {
      // Found after the page started (on the first visit, no controller to watch).
      page.registration.installing = page.next;
      page.listeners["registration.updatefound"]();
    }
    page.next.becomes("installed");
    await page.settled();
    assert.equal(page.reloads, 0, pending); // not in charge yet: the page keeps its build
    page.registration.active = page.next;
    page.next.becomes("activated");
    await page.settled();
    assert.equal(page.reloads, 1, pending);
  }
});
