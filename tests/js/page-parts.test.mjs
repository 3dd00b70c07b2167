// The client's shape (docs/architecture.md, "The browser client"): a kind of table is a
// page module that composes the shared parts of a table. The shared modules take what a
// kind of table does differently as parameters (render.js TableLook, table.js FeltLook,
// chat.js chatPanel, results.js and the info bar's kind of room, State.seating) and know
// no kind of table by name; the chouette's code is loaded with its page only.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";

const JS = new URL("../../src/ginrummy/web/js/", import.meta.url);

/** The shared modules every table is drawn, folded and played with. */
const SHARED = [
  "render.js",
  "status.js",
  "results.js",
  "chat.js",
  "table.js",
  "words.js",
  "store.js",
  "follow.js",
  "input.js",
  "dialogs.js",
  "main.js",
  "pages/tableparts.js",
  "pages/room.js",
  "pages/device.js",
  "pages/common.js",
];

/** @param {string} name */
const source = (name) => readFileSync(new URL(name, JS), "utf8");

test("no shared part of a table names the chouette: its page passes what differs", () => {
  for (const name of SHARED) {
    const text = source(name);
    const at = text.search(/chouette/i);
    assert.equal(
      at,
      -1,
      `${name} names the chouette: ${text.slice(Math.max(0, at - 60), at + 60)}`,
    );
  }
});

test("only the chouette's page module loads the chouette's code", () => {
  const files = [
    ...readdirSync(JS).filter((f) => f.endsWith(".js")),
    ...readdirSync(new URL("pages/", JS)).map((f) => `pages/${f}`),
  ];
  for (const name of files) {
    if (name === "pages/chouette.js") continue;
    assert.doesNotMatch(
      source(name),
      /from\s+"[^"]*chouette\//,
      `${name} imports a module of web/js/chouette/`,
    );
  }
  // The registration table loads the page when it is shown, not with the start page.
  assert.match(
    source("pages.js"),
    /chouette: \{ load: \(\) => import\("\.\/pages\/chouette\.js"\) \}/,
  );
});

test("each table page hands the shared drawing its own table look", async () => {
  const store = { get: () => ({}), update: () => {}, subscribe: () => () => {} };
  const app = /** @type {any} */ ({
    store,
    table: { commands: {}, send: () => {}, field: () => {}, tick: () => {} },
    say: () => {},
    navigate: () => {},
    me: { adopt: () => {} },
    limits: () => ({}),
  });
  for (const [page, look] of [
    ["pages/room.js", "ROOM_LOOK"],
    ["pages/chouette.js", "CHOUETTE_LOOK"],
  ]) {
    const module = await import(new URL(page, JS).href);
    const registered = module.init(app);
    assert.equal(typeof module[look]?.parts, "function", `${page} exports its look`);
    assert.equal(registered.table, module[look], `${page} registers its own look`);
  }
  assert.notEqual(
    (await import(new URL("pages/room.js", JS).href)).ROOM_LOOK,
    (await import(new URL("pages/chouette.js", JS).href)).CHOUETTE_LOOK,
  );
});
