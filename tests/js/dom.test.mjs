// The render that keeps its nodes (web/js/dom.js morphChildren, issue 19): after a morph
// from any tree to any other the page has the new tree's markup, and every node whose key
// (data-key, else id) and tag are in both is the very same node, so a button keeps its
// focus and a click that lands during a render reaches it. Run on tests/js/fake-dom.mjs.
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { morphChildren } from "../../src/ginrummy/web/js/dom.js";
import { FakeDocument, markup } from "./fake-dom.mjs";

/**
 * @typedef {object} Spec  a tree to build: an element or, with `text`, a text node
 * @property {string} tag
 * @property {string|null} key
 * @property {Record<string, string>} attrs
 * @property {string|null} text
 * @property {string|null} value  an input's value
 * @property {Spec[]} children
 */

const KEYS = ["next-round", "settings", "lang-de", "lang-en", "sort"];
const leafArb = fc.record({
  tag: fc.constantFrom("p", "button", "span", "input", "#text"),
  key: fc.option(fc.constantFrom(...KEYS), { nil: null }),
  attrs: fc.record(
    {
      class: fc.constantFrom("a", "b", "chip"),
      "aria-pressed": fc.constantFrom("true", "false"),
    },
    { requiredKeys: [] },
  ),
  text: fc.constantFrom("Next round", "Weiter", "7♥", ""),
  value: fc.constantFrom("", "Ann", "Bo"),
});
/** @type {fc.Arbitrary<Spec[]>} */
const forestArb = fc.letrec((tie) => ({
  forest: fc.array(tie("tree"), { maxLength: 5 }),
  tree: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    leafArb.map((leaf) => ({ ...leaf, children: [] })),
    fc.record({ leaf: leafArb, children: tie("forest") }).map(({ leaf, children }) => ({
      ...leaf,
      tag: leaf.tag === "#text" ? "div" : leaf.tag,
      children,
    })),
  ),
})).forest;

/**
 * Build `specs` as nodes of `doc`; a key already used among the siblings is left out
 * (keys are unique among siblings, as the renderer makes them).
 * @param {FakeDocument} doc
 * @param {Spec[]} specs
 */
function build(doc, specs) {
  const seen = new Set();
  return specs.map((spec) => {
    if (spec.tag === "#text") return doc.createTextNode(spec.text ?? "");
    const el = doc.createElement(spec.tag);
    for (const [name, value] of Object.entries(spec.attrs)) el.setAttribute(name, value);
    if (spec.key && !seen.has(spec.key)) {
      seen.add(spec.key);
      el.setAttribute("data-key", spec.key);
    }
    if (spec.tag === "input") el.value = spec.value ?? "";
    else
      for (const child of [
        doc.createTextNode(spec.text ?? ""),
        ...build(doc, spec.children),
      ])
        el.appendChild(child);
    return el;
  });
}

/**
 * A page holding `specs`.
 * @param {Spec[]} specs
 */
function page(specs) {
  const doc = new FakeDocument();
  const root = doc.createElement("main");
  doc.appendChild(root);
  for (const node of build(doc, specs)) root.appendChild(node);
  return { doc, root };
}

/**
 * Each node's keyed children by key, down the tree of keyed nodes.
 * @param {any} parent
 * @returns {Map<string, {node: any, tag: string, below: Map<string, any>}>}
 */
function keyedTree(parent) {
  const out = new Map();
  for (const node of parent.childNodes) {
    const key = node.nodeType === 1 ? node.getAttribute("data-key") : null;
    if (key) out.set(key, { node, tag: node.nodeName, below: keyedTree(node) });
  }
  return out;
}

/**
 * Every node of `parent` with a key and tag `before` had is that same node (and so on down).
 * @param {any} parent
 * @param {Map<string, {node: any, tag: string, below: Map<string, any>}>} before
 */
function assertKept(parent, before) {
  for (const node of parent.childNodes) {
    const key = node.nodeType === 1 ? node.getAttribute("data-key") : null;
    const old = key ? before.get(key) : undefined;
    if (!old || old.tag !== node.nodeName) continue;
    assert.equal(node, old.node, `the node keyed ${key} was replaced`);
    assertKept(node, old.below);
  }
}

test("a morph from any tree to any other gives the new tree's markup and keeps the nodes with equal keys", () => {
  fc.assert(
    fc.property(forestArb, forestArb, (a, b) => {
      const { doc, root } = page(a);
      const before = keyedTree(root);
      morphChildren(/** @type {any} */ (root), /** @type {any} */ (build(doc, b)));
      const fresh = page(b).root;
      assert.equal(markup(root), markup(fresh));
      assertKept(root, before);
    }),
    { numRuns: 400 },
  );
});

test("a render of an unchanged page keeps every node where it is", () => {
  fc.assert(
    fc.property(forestArb, (a) => {
      const { doc, root } = page(a);
      /** @type {any[]} */
      const nodes = [];
      const walk = (/** @type {any} */ n) => {
        for (const c of n.childNodes) {
          nodes.push(c);
          walk(c);
        }
      };
      walk(root);
      const moves = nodes.map((n) => n.moves ?? 0);
      morphChildren(/** @type {any} */ (root), /** @type {any} */ (build(doc, a)));
      const after = /** @type {any[]} */ ([]);
      const walkAfter = (/** @type {any} */ n) => {
        for (const c of n.childNodes) {
          after.push(c);
          walkAfter(c);
        }
      };
      walkAfter(root);
      assert.equal(after.length, nodes.length);
      after.forEach((node, i) => assert.equal(node, nodes[i]));
      assert.deepEqual(
        nodes.map((n) => n.moves ?? 0),
        moves,
        "no node was moved or inserted again",
      );
    }),
    { numRuns: 300 },
  );
});

/** @param {string} tag @param {Record<string, string>} attrs @param {string} [text] */
const spec = (tag, attrs = {}, text = "", children = /** @type {Spec[]} */ ([])) => ({
  tag,
  key: attrs["data-key"] ?? null,
  attrs: Object.fromEntries(Object.entries(attrs).filter(([k]) => k !== "data-key")),
  text,
  value: null,
  children,
});

test("a button after one that goes is neither moved nor rebuilt (a moved node loses the focus)", () => {
  const { doc, root } = page([
    spec("p", { "data-key": "status" }, "Round 1 is over"),
    spec("button", { "data-key": "next-round" }, "Next round"),
  ]);
  const button = root.childNodes[1];
  const moves = button.moves;
  morphChildren(
    /** @type {any} */ (root),
    /** @type {any} */ (
      build(doc, [
        spec("button", { "data-key": "next-round", class: "primary" }, "Next round"),
      ])
    ),
  );
  assert.equal(root.childNodes.length, 1);
  assert.equal(root.childNodes[0], button);
  assert.equal(button.moves, moves);
  assert.equal(button.getAttribute("class"), "primary");
});

test("the focused field keeps what is typed; another field takes the rendered value", () => {
  const { doc, root } = page([]);
  const [typing, other] = build(doc, [
    spec("input", { "data-key": "chat" }),
    spec("input", { "data-key": "name" }),
  ]);
  root.appendChild(typing);
  root.appendChild(other);
  typing.value = "Hallo, wie ge";
  other.value = "typed before";
  doc.activeElement = /** @type {any} */ (typing);
  const next = build(doc, [
    spec("input", { "data-key": "chat" }),
    spec("input", { "data-key": "name" }),
  ]);
  next[0].value = "Hallo";
  next[1].value = "Ann";
  morphChildren(/** @type {any} */ (root), /** @type {any} */ (next));
  assert.equal(root.childNodes[0], typing);
  assert.equal(typing.value, "Hallo, wie ge");
  assert.equal(other.value, "Ann");
});

test("a node kept by its module (a chat panel) is placed as it is, never rebuilt or emptied", () => {
  const { doc, root } = page([spec("div", { "data-key": "area" }, "table")]);
  const side = doc.createElement("aside");
  doc.appendChild(side);
  const chat = build(doc, [spec("section", { id: "chat" }, "Hello")])[0];
  side.appendChild(chat);
  morphChildren(
    /** @type {any} */ (root),
    /** @type {any} */ ([
      build(doc, [spec("div", { "data-key": "area" }, "table")])[0],
      chat,
    ]),
  );
  assert.equal(root.childNodes[1], chat);
  assert.equal(markup(chat), JSON.stringify("Hello"));
  morphChildren(/** @type {any} */ (root), /** @type {any} */ ([chat]));
  assert.equal(root.childNodes[0], chat);
  assert.equal(markup(chat), JSON.stringify("Hello"));
});

test("a dialog the page opened stays open over a render; one the render opens is opened", () => {
  const { doc, root } = page([spec("dialog", { "data-key": "result" }, "Round 1")]);
  const dialog = root.childNodes[0];
  dialog.setAttribute("open", ""); // showModal
  morphChildren(
    /** @type {any} */ (root),
    /** @type {any} */ (
      build(doc, [spec("dialog", { "data-key": "result" }, "Round 1")])
    ),
  );
  assert.equal(root.childNodes[0], dialog);
  assert.equal(dialog.getAttribute("open"), "");
  // Any other attribute the render leaves out goes.
  dialog.setAttribute("class", "old");
  morphChildren(
    /** @type {any} */ (root),
    /** @type {any} */ (
      build(doc, [spec("dialog", { "data-key": "result" }, "Round 2")])
    ),
  );
  assert.equal(dialog.hasAttribute("class"), false);
  assert.equal(markup(dialog), JSON.stringify("Round 2"));
});

/**
 * `specs` built with an open dialog keyed "result" (showModal set its `open`) inserted
 * at `at`: directly, or (`inside`) in a div around it, as the table screen holds it.
 * @param {FakeDocument} doc @param {Spec[]} specs @param {number} at @param {boolean} inside
 */
function withOpenDialog(doc, specs, at, inside) {
  const nodes = build(
    doc,
    specs.filter((s) => s.key !== "result"),
  );
  const [dialog] = build(doc, [spec("dialog", { "data-key": "result" }, "Match over")]);
  dialog.setAttribute("open", "");
  let holder = dialog;
  if (inside) {
    holder = doc.createElement("div");
    holder.setAttribute("data-key", "screen");
    holder.appendChild(dialog);
  }
  nodes.splice(Math.min(at, nodes.length), 0, holder);
  return { nodes, dialog, holder };
}

test("an open dialog is never moved by a render: the parts before it that go or move leave it where it is", () => {
  // The result came up while a notice (unkeyed) stood above it; the notice goes.
  const { doc, root } = page([]);
  const first = withOpenDialog(
    doc,
    [spec("p", { class: "notice" }, "Bob is back")],
    1,
    false,
  );
  for (const node of first.nodes) root.appendChild(node);
  const moves = first.dialog.moves;
  const next = withOpenDialog(doc, [], 0, false).nodes;
  morphChildren(/** @type {any} */ (root), /** @type {any} */ (next));
  assert.equal(root.childNodes.length, 1);
  assert.equal(root.childNodes[0], first.dialog);
  assert.equal(first.dialog.moves, moves, "the open dialog was moved");
  assert.equal(first.dialog.getAttribute("open"), "");
});

test("any render keeps an open dialog (or the part holding it) in place, with the new tree's markup", () => {
  fc.assert(
    fc.property(
      forestArb,
      forestArb,
      fc.nat(5),
      fc.nat(5),
      fc.boolean(),
      (a, b, atA, atB, inside) => {
        const { doc, root } = page([]);
        const before = withOpenDialog(doc, a, atA, inside);
        for (const node of before.nodes) root.appendChild(node);
        const moves = [before.holder.moves, before.dialog.moves];
        const want = withOpenDialog(doc, b, atB, inside);
        morphChildren(/** @type {any} */ (root), /** @type {any} */ (want.nodes));
        const fresh = page([]);
        for (const node of withOpenDialog(fresh.doc, b, atB, inside).nodes)
          fresh.root.appendChild(node);
        assert.equal(markup(root), markup(fresh.root));
        assert.equal(root.childNodes.includes(before.holder), true);
        assert.deepEqual([before.holder.moves, before.dialog.moves], moves, "moved");
      },
    ),
    { numRuns: 400 },
  );
});
