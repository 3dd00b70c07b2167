#!/usr/bin/env node
// `node bench.mjs [--decisions N] [--seed K] [--levels a,b]`: decision times of every
// level (or of the levels named) in the browser bots (and the coach), like `ginrummy
// bench bots`: N decision views from seeded strong-vs-strong matches, each level timed
// around each call (fresh PortableRandom per view), printed as one JSON object in
// milliseconds (median, p99, max; and the process's CPU time, median and p99). `master`
// searches: `--levels master --decisions 400`. `ginrummy bench chromium` times the same
// in headless Chromium (timing.mjs is the common part).

import { parseArgs } from "node:util";

import { LEVELS } from "./index.js";
import { collect, measure } from "./timing.mjs";

const { values } = parseArgs({
  options: {
    decisions: { type: "string", default: "2000" },
    seed: { type: "string", default: "1" },
    levels: { type: "string", default: LEVELS.join(",") },
  },
});
const levels = values.levels.split(",").filter((x) => x);
const { views } = collect(Number(values.decisions), Number(values.seed));
const cpuMs = () => {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
};
const out = { decisions: views.length, node: process.version };
console.log(
  JSON.stringify(
    { ...out, ...measure(views, levels, Number(values.seed), cpuMs) },
    null,
    1,
  ),
);
