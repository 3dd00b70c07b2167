#!/usr/bin/env node
// `node cli.mjs analyze [hand]` and `node cli.mjs settle [--knocker ... --defender ...
// --preset p --knock-limit n]`: the contract of `ginrummy analyze` / `ginrummy settle`
// (src/ginrummy/tools.py). JSON on stdout; bad input: exit code 2 and one line on
// stderr; in batch mode (no hand, one input per line on stdin) an {"error": ...} line
// instead, and the run goes on.

import { createInterface } from "node:readline";
import { parseArgs } from "node:util";

import { GinRummyError } from "./errors.js";
import { PRESETS } from "./rules.js";
import { InputError, analyzeHand, pyJson, settleHands, settleLine } from "./tools.js";

const USAGE = {
  analyze: "usage: ginrummy analyze [-h] [hand]",
  settle:
    "usage: ginrummy settle [-h] [--knocker KNOCKER] [--defender DEFENDER] [--preset {" +
    Object.keys(PRESETS).sort().join(",") +
    "}] [--knock-limit KNOCK_LIMIT]",
};

/** @param {string} prog @param {string} message @returns {number} */
function fail(prog, message) {
  process.stderr.write(`ginrummy ${prog}: ${message}\n`);
  return 2;
}

/** @param {unknown} obj */
function dump(obj) {
  process.stdout.write(pyJson(obj) + "\n");
}

/** Errors the tools report (the reference's GinRummyError and ValueError).
 * @param {unknown} exc @returns {exc is Error} */
function isInputError(exc) {
  return exc instanceof GinRummyError || exc instanceof InputError;
}

/** @param {(line: string) => unknown} handle */
async function batch(handle) {
  for await (const line of createInterface({
    input: process.stdin,
    crlfDelay: Infinity,
  })) {
    if (!line.trim()) continue;
    try {
      dump(handle(line));
    } catch (exc) {
      if (!isInputError(exc)) throw exc;
      dump({ error: exc.message });
    }
  }
  return 0;
}

/** @param {string[]} argv @returns {Promise<number>} */
async function analyze(argv) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: { help: { type: "boolean", short: "h" } },
      allowPositionals: true,
    });
  } catch (exc) {
    return fail("analyze", `error: ${/** @type {Error} */ (exc).message}`);
  }
  if (parsed.values.help) {
    process.stdout.write(
      `${USAGE.analyze}\n\nBest melds and deadwood of a 10- or 11-card hand (11: also best discards). ` +
        "Without a hand, reads one hand per line from stdin.\n",
    );
    return 0;
  }
  if (parsed.positionals.length > 1)
    return fail(
      "analyze",
      `error: unrecognized arguments: ${parsed.positionals.slice(1).join(" ")}`,
    );
  if (parsed.positionals.length === 0) return batch(analyzeHand);
  try {
    dump(analyzeHand(parsed.positionals[0]));
  } catch (exc) {
    if (!(exc instanceof GinRummyError)) throw exc;
    return fail("analyze", exc.message);
  }
  return 0;
}

/** @param {string[]} argv @returns {Promise<number>} */
async function settle(argv) {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        help: { type: "boolean", short: "h" },
        knocker: { type: "string" },
        defender: { type: "string" },
        preset: { type: "string", default: "standard" },
        "knock-limit": { type: "string" },
      },
    }));
  } catch (exc) {
    return fail("settle", `error: ${/** @type {Error} */ (exc).message}`);
  }
  if (values.help) {
    process.stdout.write(
      `${USAGE.settle}\n\nScore a knock. Without hands, reads JSON lines ` +
        '{"knocker": "...", "defender": "...", "preset": "standard"} from stdin.\n',
    );
    return 0;
  }
  const preset = values.preset ?? "standard";
  if (!Object.hasOwn(PRESETS, preset)) {
    const choices = Object.keys(PRESETS)
      .sort()
      .map((p) => `'${p}'`)
      .join(", ");
    return fail(
      "settle",
      `error: argument --preset: invalid choice: '${preset}' (choose from ${choices})`,
    );
  }
  let limit = null;
  if (values["knock-limit"] !== undefined) {
    limit = Number(values["knock-limit"]);
    if (!/^\s*[-+]?\d+\s*$/.test(values["knock-limit"])) {
      return fail(
        "settle",
        `error: argument --knock-limit: invalid int value: '${values["knock-limit"]}'`,
      );
    }
  }
  if (values.knocker === undefined && values.defender === undefined)
    return batch(settleLine);
  if (values.knocker === undefined || values.defender === undefined) {
    return fail(
      "settle",
      "give both --knocker and --defender (or neither, for batch mode)",
    );
  }
  try {
    dump(settleHands(values.knocker, values.defender, preset, limit));
  } catch (exc) {
    if (!(exc instanceof GinRummyError)) throw exc;
    return fail("settle", exc.message);
  }
  return 0;
}

/** @param {string[]} argv @returns {Promise<number>} */
export async function main(argv) {
  const [command, ...rest] = argv;
  if (command === "analyze") return analyze(rest);
  if (command === "settle") return settle(rest);
  process.stderr.write(
    `ginrummy: unknown command ${JSON.stringify(command ?? "")}; use analyze or settle\n`,
  );
  return 2;
}

process.exitCode = await main(process.argv.slice(2));
