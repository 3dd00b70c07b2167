// Whether two scripts are the same program, comments aside (tests/server/test_slim.py):
// reads [[name, source, shipped], ...] as JSON on standard input, prints each name whose
// two texts differ once TypeScript has parsed and printed them without comments.
import ts from "typescript";

const printer = ts.createPrinter({ removeComments: true });
/** @param {string} name @param {string} text */
const printed = (name, text) =>
  printer.printFile(
    ts.createSourceFile(name, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.JS),
  );
let input = "";
for await (const chunk of process.stdin) input += chunk;
/** @type {[string, string, string][]} */
const pairs = JSON.parse(input);
const differ = pairs.filter(
  ([name, source, shipped]) => printed(name, source) !== printed(name, shipped),
);
for (const [name] of differ) console.log(name);
console.log(`compared ${pairs.length}, different ${differ.length}`);
process.exit(differ.length ? 1 : 0);
