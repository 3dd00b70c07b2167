// A small stand-in for the browser's DOM, enough for dom.js morphChildren in node: nodes
// with children and siblings, attributes, text, a form field's value, a document with the
// focused element, and the markup of a tree. Not a DOM: only what the morph reads and
// writes, each as the DOM defines it.

export class FakeNode {
  /** @param {number} nodeType @param {string} nodeName @param {FakeDocument|null} doc */
  constructor(nodeType, nodeName, doc) {
    this.nodeType = nodeType;
    this.nodeName = nodeName;
    this.ownerDocument = doc;
    /** @type {FakeNode|null} */
    this.parentNode = null;
    /** @type {FakeNode[]} */
    this.childNodes = [];
    /** @type {string|null} */
    this.nodeValue = null;
  }

  get firstChild() {
    return this.childNodes[0] ?? null;
  }

  get nextSibling() {
    const siblings = this.parentNode?.childNodes ?? [];
    return siblings[siblings.indexOf(this) + 1] ?? null;
  }

  get isConnected() {
    /** @type {FakeNode|null} */
    let node = this;
    while (node.parentNode) node = node.parentNode;
    return node instanceof FakeDocument;
  }

  /** @param {FakeNode} node @param {FakeNode|null} before */
  insertBefore(node, before) {
    if (node.parentNode) node.parentNode.removeChild(node);
    const at = before ? this.childNodes.indexOf(before) : this.childNodes.length;
    if (at < 0) throw new Error("insertBefore: the reference node is not a child");
    this.childNodes.splice(at, 0, node);
    node.parentNode = this;
    node.moves = (node.moves ?? 0) + 1; // how often it was inserted (a move is an insertion)
    return node;
  }

  /** @param {FakeNode} node */
  appendChild(node) {
    return this.insertBefore(node, null);
  }

  /** @param {FakeNode} node */
  removeChild(node) {
    const at = this.childNodes.indexOf(node);
    if (at < 0) throw new Error("removeChild: not a child");
    this.childNodes.splice(at, 1);
    node.parentNode = null;
    return node;
  }
}

export class FakeElement extends FakeNode {
  /** @param {string} tag @param {FakeDocument} doc */
  constructor(tag, doc) {
    super(1, tag.toUpperCase(), doc);
    /** @type {{name: string, value: string}[]} */
    this.attributes = [];
    if (this.nodeName === "INPUT") this.value = "";
  }

  /** @param {string} name */
  getAttribute(name) {
    return this.attributes.find((a) => a.name === name)?.value ?? null;
  }

  /** @param {string} name */
  hasAttribute(name) {
    return this.attributes.some((a) => a.name === name);
  }

  /** @param {string} name @param {string} value */
  setAttribute(name, value) {
    const found = this.attributes.find((a) => a.name === name);
    if (found) found.value = String(value);
    else this.attributes.push({ name, value: String(value) });
  }

  /** @param {string} name */
  removeAttribute(name) {
    this.attributes = this.attributes.filter((a) => a.name !== name);
  }
}

export class FakeDocument extends FakeNode {
  constructor() {
    super(9, "#document", null);
    /** @type {FakeElement|null} */
    this.activeElement = null;
  }

  /** @param {string} tag */
  createElement(tag) {
    return new FakeElement(tag, this);
  }

  /** @param {string} text */
  createTextNode(text) {
    const node = new FakeNode(3, "#text", this);
    node.nodeValue = text;
    return node;
  }
}

/**
 * The markup of `node`'s children (attributes in order of name, a field's value as
 * `value=` after them): two trees with equal markup look the same.
 * @param {FakeNode} node
 * @returns {string}
 */
export function markup(node) {
  return node.childNodes
    .map((child) => {
      if (child.nodeType === 3) return JSON.stringify(child.nodeValue);
      const el = /** @type {FakeElement} */ (child);
      const attrs = [...el.attributes]
        .sort((a, b) => a.name.localeCompare(b.name))
        .map((a) => ` ${a.name}="${a.value}"`)
        .join("");
      const value = "value" in el ? ` (value=${JSON.stringify(el.value)})` : "";
      return `<${el.nodeName.toLowerCase()}${attrs}${value}>${markup(el)}</${el.nodeName.toLowerCase()}>`;
    })
    .join("");
}
