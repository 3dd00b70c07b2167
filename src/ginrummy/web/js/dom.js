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
    if (key === "dataset") Object.assign(el.dataset, value);
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
