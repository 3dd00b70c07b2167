// Input: turns clicks, keys and drags into intents for main.js. Only elements the renderer
// marked with a legal action (data-act) can act; everything else is presentation.

const DRAG_THRESHOLD = 8;

/**
 * @param {HTMLElement} root  the element holding the page (events are delegated)
 * @param {object} on  callbacks: act(action), cmd(name, arg, el), field(name, value),
 *   navigate(path), move(card, delta), place(card, target, after)
 */
export function attachInput(root, on) {
  let drag = null;
  let suppressClick = false;

  root.addEventListener("click", (event) => {
    if (suppressClick) {
      suppressClick = false;
      event.preventDefault();
      event.stopPropagation();
      return;
    }
    const nav = event.target.closest("a[data-nav]");
    if (nav && !event.ctrlKey && !event.metaKey && !event.shiftKey && event.button === 0) {
      event.preventDefault();
      on.navigate(nav.dataset.nav);
      return;
    }
    const actEl = event.target.closest("[data-act]");
    if (actEl && actEl.getAttribute("aria-disabled") !== "true" && !actEl.disabled) {
      on.act(actEl.dataset.act);
      return;
    }
    const cmdEl = event.target.closest("[data-cmd]");
    if (cmdEl && !cmdEl.disabled) on.cmd(cmdEl.dataset.cmd, cmdEl.dataset.arg ?? "", cmdEl);
  });

  const onField = (event) => {
    const el = event.target.closest("[data-field]");
    if (el) on.field(el.dataset.field, el.value, el);
  };
  root.addEventListener("input", onField);
  root.addEventListener("change", onField);

  root.addEventListener("keydown", (event) => {
    const card = event.target.closest?.("[data-drag='card']");
    if (card && event.altKey && (event.key === "ArrowLeft" || event.key === "ArrowRight")) {
      event.preventDefault();
      on.move(card.dataset.card, event.key === "ArrowLeft" ? -1 : 1);
      return;
    }
    const enterCommands = { joinName: "join", chatDraft: "send-chat", nickname: "rename" };
    const field = event.target.dataset?.field;
    if (event.key === "Enter" && event.target.matches?.("input[type='text']") && enterCommands[field]) {
      event.preventDefault();
      on.cmd(enterCommands[field], "", event.target);
    }
  });

  root.addEventListener("pointerdown", (event) => {
    if (event.button !== 0) return;
    const source = event.target.closest("[data-drag]");
    if (!source) return;
    drag = {
      kind: source.dataset.drag,
      card: source.dataset.card ?? null,
      act: source.getAttribute("aria-disabled") === "true" ? null : source.dataset.act ?? null,
      x: event.clientX,
      y: event.clientY,
      ghost: null,
      source,
    };
  });

  window.addEventListener("pointermove", (event) => {
    if (!drag) return;
    if (!drag.ghost) {
      if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < DRAG_THRESHOLD) return;
      if (drag.kind === "pile" && !drag.act) { drag = null; return; }
      drag.ghost = startGhost(drag.source);
      document.body.classList.add("dragging");
    }
    event.preventDefault();
    drag.ghost.style.transform = `translate(${event.clientX - drag.ghost.offsetWidth / 2}px, ${event.clientY - drag.ghost.offsetHeight / 2}px)`;
    highlightDrop(root, event.clientX, event.clientY, drag);
  }, { passive: false });

  const finish = (event) => {
    if (!drag) return;
    const current = drag;
    drag = null;
    if (!current.ghost) return;
    current.ghost.remove();
    document.body.classList.remove("dragging");
    clearDropHighlight(root);
    suppressClick = true;
    setTimeout(() => { suppressClick = false; }, 0);
    if (event.type === "pointercancel") return;
    const target = document.elementFromPoint(event.clientX, event.clientY);
    if (!target) return;
    if (current.kind === "card") {
      const discard = target.closest("[data-drop='discard']");
      if (discard && current.act && current.act.startsWith("discard ")) {
        on.act(current.act);
        return;
      }
      const other = target.closest("[data-drag='card']");
      if (other && other.dataset.card !== current.card) {
        const rect = other.getBoundingClientRect();
        on.place(current.card, other.dataset.card, event.clientX > rect.left + rect.width / 2);
        return;
      }
      if (target.closest("[data-drop='hand']")) on.place(current.card, null, true);
    } else if (current.kind === "pile" && current.act && target.closest("[data-drop='hand']")) {
      on.act(current.act);
    }
  };
  window.addEventListener("pointerup", finish);
  window.addEventListener("pointercancel", finish);
}

function startGhost(source) {
  const art = source.querySelector(".card") ?? source;
  const ghost = art.cloneNode(true);
  ghost.classList.add("drag-ghost");
  ghost.setAttribute("aria-hidden", "true");
  const rect = art.getBoundingClientRect();
  ghost.style.width = `${rect.width}px`;
  ghost.style.height = `${rect.height}px`;
  document.body.append(ghost);
  return ghost;
}

function highlightDrop(root, x, y, drag) {
  clearDropHighlight(root);
  const target = document.elementFromPoint(x, y);
  const zone = target?.closest(drag.kind === "card" ? "[data-drop='discard'], [data-drag='card']" : "[data-drop='hand']");
  if (zone && !(zone.dataset.drop === "discard" && !(drag.act ?? "").startsWith("discard "))) zone.classList.add("drop-over");
}

function clearDropHighlight(root) {
  for (const el of root.querySelectorAll(".drop-over")) el.classList.remove("drop-over");
}
