// Dialogs that keep the focus rules (issue 19, item 4; WCAG 2.4.3): a modal dialog the
// renderer draws (`<dialog data-modal>`: the round's and the match's result, results.js)
// is opened with showModal once it is in the page, the focus goes into it, Tab and
// Shift+Tab cycle inside it, and when it goes (closed, or drawn no more) the focus goes
// back to the element it names (`data-return-key`: the button that opens it again, drawn
// in its place), else where it was when the dialog opened. The top bar's settings menu, open
// on a narrow window, keeps Tab inside itself the same way (main.js closes it with Escape).

/** What was focused when each open dialog opened. @type {Map<HTMLDialogElement, Element|null>} */
const openers = new Map();

const FOCUSABLE =
  "button:not([disabled]), a[href], input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex='-1'])";

/**
 * After each drawing of the page: give the focus back from the dialogs that went, and
 * open those newly drawn.
 * @param {ParentNode} root
 */
export function settleDialogs(root) {
  for (const [dialog, opener] of [...openers]) {
    if (dialog.isConnected && dialog.open) continue;
    openers.delete(dialog);
    if (dialog.isConnected) continue; // closed and kept: the page closed it on purpose
    // The focus was inside it (it was modal): wherever the browser put it since, it goes back.
    const again = document.querySelector(
      `[data-key="${CSS.escape(dialog.dataset.returnKey ?? "")}"]`,
    );
    const back =
      again ??
      (opener instanceof HTMLElement && opener !== document.body && opener.isConnected
        ? opener
        : null);
    // A control is shown where it is; a region the page focused itself (the page's main
    // part, tabindex -1, taller than the window) keeps the page where the person had it.
    if (back instanceof HTMLElement)
      back.focus({ preventScroll: !back.matches(FOCUSABLE) });
  }
  for (const dialog of root.querySelectorAll("dialog[data-modal]")) {
    if (!(dialog instanceof HTMLDialogElement) || dialog.open) continue;
    openers.set(dialog, document.activeElement);
    dialog.showModal();
  }
}

/**
 * The element that keeps the focus inside it now: an open modal dialog, else the open
 * settings menu (with its button), else null.
 * @returns {HTMLElement|null}
 */
function trap() {
  const dialog = [...openers.keys()].find((d) => d.isConnected && d.open);
  if (dialog) return dialog;
  const menu = document.querySelector(".top-controls.open");
  const toggle = menu?.querySelector(".settings-toggle");
  return menu instanceof HTMLElement &&
    toggle instanceof HTMLElement &&
    toggle.getClientRects().length
    ? menu
    : null;
}

/**
 * Keep Tab and Shift+Tab inside the open dialog or menu: from its last control to its
 * first and back (the browser would leave a modal dialog for its own address bar).
 * @param {KeyboardEvent} event
 */
export function keepTabInside(event) {
  if (event.key !== "Tab" || event.altKey || event.ctrlKey || event.metaKey) return;
  const box = trap();
  if (!box) return;
  const controls = [...box.querySelectorAll(FOCUSABLE)].filter(
    (el) =>
      el instanceof HTMLElement &&
      el.getClientRects().length > 0 &&
      !el.closest("[inert]"),
  );
  if (!controls.length) return;
  const first = /** @type {HTMLElement} */ (controls[0]);
  const last = /** @type {HTMLElement} */ (controls[controls.length - 1]);
  const at = document.activeElement;
  const inside = at instanceof Node && box.contains(at);
  if (!inside || (event.shiftKey && at === first) || (!event.shiftKey && at === last)) {
    event.preventDefault();
    (event.shiftKey ? last : first).focus();
  }
}
