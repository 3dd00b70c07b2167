// Input: turns clicks, keys and drags into intents for main.js. Only elements the renderer
// marked with a legal action (data-act) can act; everything else is presentation.

const DRAG_THRESHOLD = 8;

/**
 * What input asks of the composition root.
 * @typedef {object} Intents
 * @property {(action: string) => void} act                    play a legal action
 * @property {(name: string, arg: string, el: HTMLElement) => void} cmd  a page command
 * @property {(name: string, value: string, el: HTMLElement) => void} field  a form field changed
 * @property {(path: string) => void} navigate
 * @property {(card: string, delta: number) => void} move       move a card in the hand
 * @property {(card: string, target: string|null, after: boolean) => void} place
 */

/**
 * A drag in progress.
 * @typedef {object} Drag
 * @property {string} kind           "card" or "pile"
 * @property {string|null} card
 * @property {string|null} act       the legal action of the dragged element, if any
 * @property {number} x
 * @property {number} y
 * @property {HTMLElement|null} ghost
 * @property {HTMLElement} source
 */

/**
 * The element at or above `target` that matches `selector`.
 * @param {EventTarget|Element|null} target
 * @param {string} selector
 * @returns {HTMLElement|null}
 */
function closest(target, selector) {
  return target instanceof Element
    ? /** @type {HTMLElement|null} */ (target.closest(selector))
    : null;
}

/** @param {Element} el */
function disabled(el) {
  return el.matches(":disabled");
}

/** @type {Record<string, string>} the command Enter runs in a text field */
const ENTER_COMMANDS = {
  joinName: "join",
  chatDraft: "send-chat",
  teamDraft: "send-team-chat",
  nickname: "rename",
};

/**
 * @param {HTMLElement} root  the element holding the page (events are delegated)
 * @param {Intents} on
 */
export function attachInput(root, on) {
  // A drag ends with a click on what it was dropped on: that click is not a command.
  const gate = { suppressClick: false };

  root.addEventListener("click", (event) => {
    if (gate.suppressClick) {
      gate.suppressClick = false;
      event.preventDefault();
      event.stopPropagation();
      return;
    }
    const nav = closest(event.target, "a[data-nav]");
    if (
      nav?.dataset.nav &&
      !event.ctrlKey &&
      !event.metaKey &&
      !event.shiftKey &&
      event.button === 0
    ) {
      event.preventDefault();
      on.navigate(nav.dataset.nav);
      return;
    }
    const actEl = closest(event.target, "[data-act]");
    if (
      actEl?.dataset.act &&
      actEl.getAttribute("aria-disabled") !== "true" &&
      !disabled(actEl)
    ) {
      on.act(actEl.dataset.act);
      return;
    }
    const cmdEl = closest(event.target, "[data-cmd]");
    if (cmdEl?.dataset.cmd && !disabled(cmdEl))
      on.cmd(cmdEl.dataset.cmd, cmdEl.dataset.arg ?? "", cmdEl);
  });

  const onField = (/** @type {Event} */ event) => {
    const el = closest(event.target, "[data-field]");
    if (el?.dataset.field)
      on.field(el.dataset.field, "value" in el ? String(el.value) : "", el);
  };
  root.addEventListener("input", onField);
  root.addEventListener("change", onField);

  root.addEventListener("keydown", (event) => {
    const card = closest(event.target, "[data-drag='card']");
    if (
      card?.dataset.card &&
      event.altKey &&
      (event.key === "ArrowLeft" || event.key === "ArrowRight")
    ) {
      event.preventDefault();
      on.move(card.dataset.card, event.key === "ArrowLeft" ? -1 : 1);
      return;
    }
    const input =
      event.target instanceof HTMLInputElement && event.target.type === "text"
        ? event.target
        : null;
    const command = input?.dataset.field
      ? ENTER_COMMANDS[input.dataset.field]
      : undefined;
    if (event.key === "Enter" && input && command) {
      event.preventDefault();
      on.cmd(command, "", input);
    }
  });

  attachDrag(root, on, gate);
}

/**
 * Dragging a card within the hand or onto the discard pile, and a pile onto the hand;
 * what a drop does is an action the renderer marked legal (data-act), or a new order.
 * @param {HTMLElement} root
 * @param {Intents} on
 * @param {{suppressClick: boolean}} gate
 */
function attachDrag(root, on, gate) {
  /** @type {Drag|null} */
  let drag = null;

  root.addEventListener("pointerdown", (event) => {
    if (event.button !== 0) return;
    const source = closest(event.target, "[data-drag]");
    if (!source?.dataset.drag) return;
    drag = {
      kind: source.dataset.drag,
      card: source.dataset.card ?? null,
      act:
        source.getAttribute("aria-disabled") === "true"
          ? null
          : (source.dataset.act ?? null),
      x: event.clientX,
      y: event.clientY,
      ghost: null,
      source,
    };
  });

  window.addEventListener(
    "pointermove",
    (event) => {
      if (!drag) return;
      if (!drag.ghost) {
        if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < DRAG_THRESHOLD)
          return;
        if (drag.kind === "pile" && !drag.act) {
          drag = null;
          return;
        }
        drag.ghost = startGhost(drag.source);
        document.body.classList.add("dragging");
      }
      event.preventDefault();
      if (!drag) return;
      drag.ghost.style.transform = `translate(${event.clientX - drag.ghost.offsetWidth / 2}px, ${event.clientY - drag.ghost.offsetHeight / 2}px)`;
      highlightDrop(root, event.clientX, event.clientY, drag);
    },
    { passive: false },
  );

  const finish = (/** @type {PointerEvent} */ event) => {
    if (!drag) return;
    const current = drag;
    drag = null;
    if (!current.ghost) return;
    current.ghost.remove();
    document.body.classList.remove("dragging");
    clearDropHighlight(root);
    gate.suppressClick = true;
    setTimeout(() => {
      gate.suppressClick = false;
    }, 0);
    if (event.type === "pointercancel") return;
    const target = document.elementFromPoint(event.clientX, event.clientY);
    if (target) drop(current, target, event.clientX, on);
  };
  window.addEventListener("pointerup", finish);
  window.addEventListener("pointercancel", finish);
}

/**
 * What a drop on `target` (at x = `x`) means: discard the card, move it in the hand, or
 * take the dragged pile's card.
 * @param {Drag} current
 * @param {Element} target
 * @param {number} x
 * @param {Intents} on
 */
function drop(current, target, x, on) {
  if (current.kind === "card" && current.card) {
    const discard = target.closest("[data-drop='discard']");
    if (discard && current.act && current.act.startsWith("discard ")) {
      on.act(current.act);
      return;
    }
    const other = closest(target, "[data-drag='card']");
    if (other?.dataset.card && other.dataset.card !== current.card) {
      const rect = other.getBoundingClientRect();
      on.place(current.card, other.dataset.card, x > rect.left + rect.width / 2);
      return;
    }
    if (target.closest("[data-drop='hand']")) on.place(current.card, null, true);
  } else if (
    current.kind === "pile" &&
    current.act &&
    target.closest("[data-drop='hand']")
  ) {
    on.act(current.act);
  }
}

/**
 * A copy of the dragged card that follows the pointer.
 * @param {HTMLElement} source
 */
function startGhost(source) {
  const art = source.querySelector(".card") ?? source;
  const ghost = /** @type {HTMLElement} */ (art.cloneNode(true));
  ghost.classList.add("drag-ghost");
  ghost.setAttribute("aria-hidden", "true");
  const rect = art.getBoundingClientRect();
  ghost.style.width = `${rect.width}px`;
  ghost.style.height = `${rect.height}px`;
  document.body.append(ghost);
  return ghost;
}

/**
 * @param {HTMLElement} root
 * @param {number} x
 * @param {number} y
 * @param {Drag} drag
 */
function highlightDrop(root, x, y, drag) {
  clearDropHighlight(root);
  const target = document.elementFromPoint(x, y);
  const zone = closest(
    target,
    drag.kind === "card"
      ? "[data-drop='discard'], [data-drag='card']"
      : "[data-drop='hand']",
  );
  if (
    zone &&
    !(zone.dataset.drop === "discard" && !(drag.act ?? "").startsWith("discard "))
  )
    zone.classList.add("drop-over");
}

/** @param {HTMLElement} root */
function clearDropHighlight(root) {
  for (const el of root.querySelectorAll(".drop-over")) el.classList.remove("drop-over");
}
