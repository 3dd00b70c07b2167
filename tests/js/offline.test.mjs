// Offline use (offline.js, index.html): which pages need the server, and the page preloads
// every module main.js imports so that none waits for the one importing it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { posix } from "node:path";
import { needsConnection } from "../../src/ginrummy/web/js/offline.js";
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
    for (const match of source.matchAll(IMPORT)) walk(posix.normalize(posix.join(posix.dirname(name), match[1])));
  };
  walk(start);
  return seen;
}

test("index.html preloads exactly the modules main.js imports", () => {
  const page = readFileSync(new URL("index.html", WEB), "utf8");
  const preloaded = [...page.matchAll(/<link rel="modulepreload" href="\/static\/js\/([^"]+)">/g)].map((m) => m[1]);
  const needed = [...imported("main.js")].filter((name) => name !== "main.js");
  assert.deepEqual([...preloaded].sort(), needed.sort());
  assert.equal(new Set(preloaded).size, preloaded.length);
});

test("offline, every page but the start page needs the server; a table shown keeps its own status", () => {
  const at = (name, extra = {}) => ({ ...initialState(), online: false, route: { name, room: name === "room" ? "r1" : null }, ...extra });
  assert.equal(needsConnection(at("home")), false);
  for (const name of ["lobby", "leaderboard", "player", "room", "chouette"]) assert.equal(needsConnection(at(name)), true, name);
  assert.equal(needsConnection(at("room", { view: /** @type {any} */ ({ legal_actions: [] }) })), false);
  assert.equal(needsConnection(at("chouette", { view: /** @type {any} */ ({ legal_actions: [] }) })), false);
  // A game on this device (docs/device.md) needs no server, even before its table shows.
  assert.equal(needsConnection({ ...at("room"), route: { name: "room", room: "g1", device: true } }), false);
  for (const name of ["home", "lobby", "leaderboard", "player", "room"]) {
    assert.equal(needsConnection({ ...at(name), online: true }), false, name);
  }
});

// index.html's inline script: the page's first requests, sent while the modules load.
function earlyRequests({ saved = null, languages = ["en-US"], config = null } = {}) {
  const page = readFileSync(new URL("index.html", WEB), "utf8");
  const script = /<script>([\s\S]*?)<\/script>/.exec(page)?.[1];
  assert.ok(script, "index.html has its inline script");
  const asked = [];
  const storage = { getItem: (key) => ({ "ginrummy.lang": saved, "ginrummy.config": config })[key] ?? null };
  const sandbox = {
    localStorage: storage,
    navigator: { languages, language: languages[0] },
    fetch: (path) => { asked.push(path); return Promise.resolve({ ok: true }); },
  };
  sandbox.globalThis = sandbox;
  new Function("globalThis", "localStorage", "navigator", "fetch", script)(
    sandbox, sandbox.localStorage, sandbox.navigator, sandbox.fetch,
  );
  return { early: sandbox.ginrummyEarly, asked, storage, navigator: sandbox.navigator };
}

test("index.html asks early for the language detectLanguage picks, and for the configuration only when none is remembered", () => {
  const cases = [
    {}, { languages: ["de-AT", "en"] }, { languages: ["fr-FR", "de"] }, { languages: ["fr"] },
    { saved: "de" }, { saved: "en", languages: ["de-DE"] }, { saved: "xx", languages: ["de"] }, { languages: [] },
  ];
  for (const options of cases) {
    const { early, asked, storage, navigator } = earlyRequests(options);
    const lang = detectLanguage(storage, navigator);
    assert.equal(early.lang, lang, JSON.stringify(options));
    assert.deepEqual(asked, [`/static/js/i18n/${lang}.json`, "/api/config"], JSON.stringify(options));
  }
  const remembered = earlyRequests({ config: "{}" });
  assert.deepEqual(remembered.asked, ["/static/js/i18n/en.json"]); // a repeat visit asks the server nothing
  assert.equal(remembered.early.config, null);
});

test("the service worker serves the page for every route the page has", async () => {
  const { routeOf } = await import("../../src/ginrummy/web/js/routes.js");
  const source = readFileSync(new URL("sw.js", WEB), "utf8");
  const match = /^const PAGE_ROUTE = \/(.*)\/;$/m.exec(source);
  assert.ok(match, "sw.js names its PAGE_ROUTE");
  const pageRoute = new RegExp(match[1]);
  const paths = ["/", "/lobby", "/leaderboard", "/r/k3Xa_9", "/r/k3Xa_9/review/two", "/c/k3Xa_9", "/p/pl1", "/d/g1", "/t/t1"];
  for (const path of paths) {
    assert.ok(pageRoute.test(path), path);
    assert.equal(routeOf(path).name === "home", path === "/", path);
  }
  assert.equal(pageRoute.test("/api/rooms"), false);
});

test("a table is a room's, a device game's or a chouette's link; no other page is one", async () => {
  const { atTable, routeOf } = await import("../../src/ginrummy/web/js/routes.js");
  const tables = ["/r/k3Xa_9", "/d/g1", "/c/k3Xa_9"];
  for (const path of ["/", "/lobby", "/leaderboard", "/r/k3Xa_9/review/two", "/p/pl1", "/t/t1", ...tables]) {
    assert.equal(atTable(routeOf(path)), tables.includes(path), path);
  }
});
