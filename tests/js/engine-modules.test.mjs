// The browser engine's modules load in a browser as they are: plain ES modules that
// import only each other (relative ".js" paths), no Node built-in, no bare package name.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";

const DIR = new URL("../../src/ginrummy/web/js/engine/", import.meta.url);

test("every engine module imports only sibling .js modules", () => {
  const modules = readdirSync(DIR).filter((f) => f.endsWith(".js"));
  assert.ok(modules.length >= 12);
  for (const file of modules) {
    const text = readFileSync(new URL(file, DIR), "utf8");
    for (const [, target] of text.matchAll(
      /^(?:import|export)[^"]*?from\s+"([^"]+)"/gm,
    )) {
      assert.match(target, /^\.\/[a-z]+\.js$/, `${file} imports ${target}`);
      assert.ok(modules.includes(target.slice(2)), `${file} imports a missing ${target}`);
    }
  }
});

test("the index exports the engine", async () => {
  const engine = await import(new URL("index.js", DIR).href);
  for (const name of [
    "parseCards",
    "bestArrangement",
    "settle",
    "newRound",
    "legalActions",
    "apply",
    "newMatch",
    "viewForSeat",
    "encodeSeatView",
    "replayMatch",
    "Rules",
    "IllegalActionError",
  ]) {
    assert.ok(name in engine, name);
  }
  assert.equal(
    engine.bestArrangement(engine.parseCards("7h 8h 9h Tc Td Ts 2c 3d 4s Kh")).deadwood,
    19,
  );
});
