// A tiny element builder. Text is always set as text (never parsed as HTML).

/** @typedef {Node|string|number|boolean|null|undefined|unknown[]} Child  (arrays are flattened) */
/** @typedef {Record<string, unknown> & {dataset?: Record<string, string|undefined>}} Attrs */

/**
 * h("button", {class: "x", "aria-label": "y", dataset: {cmd: "z"}}, "text", child)
 * Attributes with null/undefined/false values are left out.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Attrs|null} [attrs]
 * @param {...Child} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs ?? {})) {
    if (value === null || value === undefined || value === false) continue;
    // A data attribute whose value is undefined is left out (not written as "undefined").
    if (key === "dataset")
      for (const [name, v] of Object.entries(value ?? {})) {
        if (v !== undefined) el.dataset[name] = String(v);
      }
    else if (key === "class") el.className = String(value);
    else if (key === "text") el.textContent = String(value);
    else if (key === "value" && "value" in el) el.value = String(value);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  append(el, children);
  return el;
}

/**
 * @param {Element} el
 * @param {unknown[]} children
 */
function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else if (child instanceof Node) el.append(child);
    else el.append(document.createTextNode(String(child)));
  }
}

const ELEMENT_NODE = 1;

/**
 * The key an element keeps across renders: its `data-key`, else its id (null: none, it
 * is matched by its place among its unkeyed siblings).
 * @param {Node} node
 * @returns {string|null}
 */
function keyOf(node) {
  if (node.nodeType !== ELEMENT_NODE) return null;
  const el = /** @type {Element} */ (node);
  return el.getAttribute("data-key") ?? (el.getAttribute("id") || null);
}

/** Attributes the page (not the renderer) sets: a dialog opened by `showModal`, a
 * `<details>` the person opened. The renderer's value wins only where it gives one. */
const LIVE_ATTRIBUTES = { DIALOG: "open", DETAILS: "open" };

/**
 * Whether `old` can become `want` in place: the same kind of node, the same tag.
 * @param {Node} old
 * @param {Node} want
 */
function sameKind(old, want) {
  return old.nodeType === want.nodeType && old.nodeName === want.nodeName;
}

/**
 * Make `parent`'s children equal to `wanted` (freshly built nodes, as `h` makes them)
 * while keeping the nodes already there: a child with the same key (`data-key`, else the
 * id), or else an unkeyed one of the same tag in the same order, is updated in place (its
 * attributes, text, form values and children), so that an unchanged button is the same
 * node after a render, keeps the focus, and a click on it that lands during a render is
 * not lost (issue 19: a click on "Next round" went to a detached node). A node in
 * `wanted` that is already in the page (a chat panel kept across renders) is placed as it
 * is, never rebuilt.
 * @param {Node} parent
 * @param {Node[]} wanted
 */
export function morphChildren(parent, wanted) {
  /** @type {Map<string, Node>} */
  const keyed = new Map();
  for (let node = parent.firstChild; node; node = node.nextSibling) {
    const key = keyOf(node);
    if (key !== null && !keyed.has(key)) keyed.set(key, node);
  }
  const keysWanted = new Set(wanted.map(keyOf).filter((key) => key !== null));
  /** @type {Set<Node>} */
  const used = new Set();
  let cursor = parent.firstChild;
  /** Drop the keyed nodes no longer wanted, so that the ones after them need not move
   * (a moved node loses the focus). */
  const skipGone = () => {
    while (cursor) {
      const key = keyOf(cursor);
      if (key === null || keysWanted.has(key)) return;
      const gone = cursor;
      cursor = cursor.nextSibling;
      parent.removeChild(gone);
    }
  };
  for (const want of wanted) {
    skipGone();
    const match = matchFor(parent, want, keyed, used, cursor);
    if (match) {
      used.add(match);
      if (match !== want) morphNode(match, want);
      if (match === cursor) cursor = cursor.nextSibling;
      else if (holdsOpenDialog(match)) {
        // Moved, its open dialog would leave the top layer: no longer modal, no backdrop,
        // the focus lost (the browser closes nothing, it only stops trapping). It stays;
        // the nodes not yet placed before it go to the end, where they are still found.
        while (cursor && cursor !== match) {
          const before = cursor;
          cursor = cursor.nextSibling;
          parent.appendChild(before);
        }
        cursor = match.nextSibling;
      } else parent.insertBefore(match, cursor);
    } else {
      parent.insertBefore(want, cursor);
    }
  }
  while (cursor) {
    const gone = cursor;
    cursor = cursor.nextSibling;
    parent.removeChild(gone);
  }
}

/**
 * Whether `node` is, or holds, a dialog the page opened (`showModal`).
 * @param {Node} node
 * @returns {boolean}
 */
function holdsOpenDialog(node) {
  if (node.nodeType !== ELEMENT_NODE) return false;
  const el = /** @type {Element} */ (node);
  if (el.nodeName === "DIALOG" && el.hasAttribute("open")) return true;
  for (let child = el.firstChild; child; child = child.nextSibling)
    if (holdsOpenDialog(child)) return true;
  return false;
}

/**
 * The node of `parent` that becomes `want`, or null (`want` is inserted).
 * @param {Node} parent
 * @param {Node} want
 * @param {Map<string, Node>} keyed
 * @param {Set<Node>} used
 * @param {ChildNode|null} cursor  the first child not yet placed
 * @returns {Node|null}
 */
function matchFor(parent, want, keyed, used, cursor) {
  if (want.parentNode === parent) return want; // kept across renders: placed as it is
  if (want.isConnected) return null; // kept elsewhere in the page: moved here
  const key = keyOf(want);
  if (key !== null) {
    const old = keyed.get(key);
    return old && !used.has(old) && sameKind(old, want) ? old : null;
  }
  for (let node = cursor; node; node = node.nextSibling) {
    if (keyOf(node) !== null || used.has(node)) continue;
    if (sameKind(node, want)) return node;
  }
  return null;
}

/**
 * Update `old` in place to look like `want` (same kind): text, attributes, the form
 * values a person changes (never those of the focused field, which the person is typing
 * in), and the children.
 * @param {Node} old
 * @param {Node} want
 */
function morphNode(old, want) {
  if (old.nodeType !== ELEMENT_NODE) {
    if (old.nodeValue !== want.nodeValue) old.nodeValue = want.nodeValue;
    return;
  }
  const el = /** @type {Element} */ (old);
  const next = /** @type {Element} */ (want);
  for (const { name, value } of [...next.attributes]) {
    if (el.getAttribute(name) !== value) el.setAttribute(name, value);
  }
  const live =
    LIVE_ATTRIBUTES[/** @type {keyof typeof LIVE_ATTRIBUTES} */ (el.nodeName)] ?? null;
  for (const { name } of [...el.attributes]) {
    if (!next.hasAttribute(name) && name !== live) el.removeAttribute(name);
  }
  // The form values wanted, read before the children move: a select's options go from
  // `next` to `el` below, and a select left without options has no value.
  const values = FORM_NODES.has(el.nodeName)
    ? FORM_PROPERTIES.filter((p) => p in next).map((p) => [p, Reflect.get(next, p)])
    : [];
  morphChildren(el, [...next.childNodes]);
  if (el.ownerDocument.activeElement === el) return;
  for (const [property, value] of values) {
    if (Reflect.get(el, property) !== value) Reflect.set(el, property, value);
  }
}

/** The properties of a form element a person changes. */
const FORM_PROPERTIES = ["value", "checked"];

/** The elements whose `value` (and `checked`) the person changes, not their attributes. */
const FORM_NODES = new Set(["INPUT", "SELECT", "TEXTAREA"]);

/** The element that took the focus when the one that had it was gone (see below): while
 * the focus is still there, an element that comes to match `data-focus-fresh` takes it.
 * @type {Element|null} */
let fellBack = null;

/**
 * Run ``paint`` (which may replace the page's elements) and give the focus back to the
 * element with the same ``data-key``, with its caret and, while someone types, their text:
 * a render in between must not move the focus or change what is being typed. An element
 * that is gone after the render may name, in ``data-focus-next``, the ``data-key`` of the
 * element that takes the focus then (a confirmation's "Cancel": the button it asked for).
 * Else the focus, never left on the page's body, goes where the region it was in says:
 * ``data-focus-home``, a selector (a table: its hand's first card; render.js), and, once
 * something matches it, ``data-focus-fresh`` (the card just drawn).
 * @param {() => void} paint
 */
export function keepingFocus(paint) {
  const active = document.activeElement;
  const focusKey = active instanceof HTMLElement ? (active.dataset.key ?? null) : null;
  const next = active instanceof HTMLElement ? (active.dataset.focusNext ?? null) : null;
  const selection =
    active instanceof HTMLInputElement
      ? { start: active.selectionStart, end: active.selectionEnd }
      : null;
  const typed =
    active instanceof HTMLInputElement && active.type === "text" ? active.value : null;
  const region =
    active instanceof HTMLElement ? active.closest("[data-focus-home]") : null;
  const { focusHome = null, focusFresh = null } =
    region instanceof HTMLElement ? region.dataset : {};
  const kept = active === fellBack;
  paint();
  if (!focusKey) return;
  const fresh = focusFresh ? document.querySelector(focusFresh) : null;
  let again =
    kept && fresh
      ? fresh
      : document.querySelector(`[data-key="${CSS.escape(focusKey)}"]`);
  if (!(kept && !fresh)) fellBack = null;
  if (!again && next) again = document.querySelector(`[data-key="${CSS.escape(next)}"]`);
  if (!again && focusHome && document.activeElement === document.body)
    again = fellBack = fresh ?? document.querySelector(focusHome);
  if (!(again instanceof HTMLElement) || again === document.activeElement) return;
  if (typed !== null && again instanceof HTMLInputElement && again.type === "text")
    again.value = typed;
  again.focus({ preventScroll: true });
  if (selection && again instanceof HTMLInputElement) {
    try {
      again.setSelectionRange(selection.start, selection.end);
    } catch {
      /* not a text input */
    }
  }
}

/**
 * Copy the text field `id`'s value (or `fallback` when the page has no such field) to the
 * clipboard; where the clipboard API is refused, select the field and copy the selection.
 * @param {string} id
 * @param {string} fallback
 * @returns {Promise<boolean>} whether it was copied
 */
export async function copyField(id, fallback) {
  const field = document.getElementById(id);
  const input = field instanceof HTMLInputElement ? field : null;
  try {
    await navigator.clipboard.writeText(input?.value ?? fallback);
    return true;
  } catch {
    if (!input) return false;
    input.select();
    try {
      return document.execCommand("copy");
    } catch {
      return false;
    }
  }
}

/**
 * A plain button that runs `act` when pressed: `actionButton("Save", save)` (a promise
 * it returns is the caller's to settle; the dialogs report their own errors).
 * @param {string} text
 * @param {() => unknown} act
 * @param {Attrs} [attrs]
 */
export function actionButton(text, act, attrs = {}) {
  const b = h("button", { type: "button", class: "button", ...attrs }, text);
  b.addEventListener("click", () => void act());
  return b;
}
