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
    if (key === "dataset") for (const [name, v] of Object.entries(value ?? {})) { if (v !== undefined) el.dataset[name] = String(v); }
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

/**
 * Run ``paint`` (which may replace the page's elements) and give the focus back to the
 * element with the same ``data-key``, with its caret and, while someone types, their text:
 * a render in between must not move the focus or change what is being typed.
 * @param {() => void} paint
 */
export function keepingFocus(paint) {
  const active = document.activeElement;
  const focusKey = active instanceof HTMLElement ? active.dataset.key ?? null : null;
  const selection = active instanceof HTMLInputElement ? { start: active.selectionStart, end: active.selectionEnd } : null;
  const typed = active instanceof HTMLInputElement && active.type === "text" ? active.value : null;
  paint();
  if (!focusKey) return;
  const again = document.querySelector(`[data-key="${CSS.escape(focusKey)}"]`);
  if (!(again instanceof HTMLElement) || again === document.activeElement) return;
  if (typed !== null && again instanceof HTMLInputElement && again.type === "text") again.value = typed;
  again.focus({ preventScroll: true });
  if (selection && again instanceof HTMLInputElement) {
    try { again.setSelectionRange(selection.start, selection.end); } catch { /* not a text input */ }
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
    try { return document.execCommand("copy"); } catch { return false; }
  }
}
