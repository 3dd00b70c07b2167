// Reads a JSON-lines file of records and writes the browser verifier's report of each,
// one JSON line per record (tests/fairness/test_agreement.py compares them with Python's).
import { readFileSync } from "node:fs";
import { verifyRecord } from "../../src/ginrummy/web/js/fair/verify.js";

const lines = readFileSync(process.argv[2], "utf-8").split("\n").filter(Boolean);
const out = [];
for (const line of lines) out.push(JSON.stringify(await verifyRecord(JSON.parse(line))));
process.stdout.write(out.join("\n") + "\n");
