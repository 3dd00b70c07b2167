// Moves you can follow (issue 19, item 3; docs/accessibility.md): what the other side
// does moves on the table (a card drawn from the stock or taken from the discard flies to
// its row, a discard to the pile, a knock lays the melds out, a layoff flies onto its
// meld), each in at most MOVE_MS and never with `prefers-reduced-motion: reduce`; and when
// it becomes the person's turn with the page in the background, the title says so and,
// if wished, a short sound (Web Audio, no file). Purely visual: main.js draws the state
// and its controls first, then calls the follower, which only reads boxes and starts
// animations (transforms and opacity). Loaded at the first table (main.js draw).
import { t } from "./i18n.js";
import { splitAction } from "./store.js";
import { lastResult } from "./words.js";
import { atTable } from "./routes.js";

/** @typedef {import("./types.js").State} State */
/** @typedef {import("./types.js").Seat} Seat */
/** @typedef {{x: number, y: number, w: number, h: number}} Box */

/** The longest a move is shown moving, delays included (ms). */
export const MOVE_MS = 300;
const FLY_MS = 250;
/** The id of the animations `run` starts. */
const FLIGHT = "follow";

/**
 * A move shown moving: a card from `from` to `to` (`hand` is the row of `seat`), or the
 * melds laid out at the end of the round (`to` "melds").
 * @typedef {object} Motion
 * @property {"stock"|"discard"|"hand"} from
 * @property {"hand"|"discard"|"melds"} to
 * @property {Seat|null} seat
 * @property {string|null} card  the card that moves, when it is known
 */

/**
 * The motion an event shows, or null: the other side's draws and discards, anyone's knock
 * or gin (the melds, the layoffs), nothing for a pass or for this page's own moves (the
 * person made those; they are drawn at once).
 * @param {State["animation"]} event  `top`: the discard pile's top card before it
 * @param {Seat|null} mine  the seat this page plays (null: a spectator)
 * @returns {Motion|null}
 */
export function motionOf(event, mine) {
  if (!event || event.kind !== "action" || !event.action || !event.seat) return null;
  const [verb, card] = splitAction(event.action);
  const seat = event.seat;
  if (verb === "knock" || verb === "gin" || verb === "big gin")
    return { from: "hand", to: "melds", seat, card: null };
  if (seat === mine) return null;
  if (verb === "draw stock") return { from: "stock", to: "hand", seat, card: null };
  if (verb === "draw discard" || verb === "take")
    return { from: "discard", to: "hand", seat, card: event.top ?? null };
  if (verb === "discard" && card) return { from: "hand", to: "discard", seat, card };
  return null;
}

/**
 * Keyframes that bring an element from box `from` to its place `to` (FLIP: it is drawn
 * at its place; the transform takes it back to where it came from, then to none).
 * @param {Box} from
 * @param {Box} to
 * @returns {Keyframe[]}
 */
export function flight(from, to) {
  const dx = from.x + from.w / 2 - (to.x + to.w / 2);
  const dy = from.y + from.h / 2 - (to.y + to.h / 2);
  const scale = to.w > 0 && from.w > 0 ? Math.min(2, Math.max(0.5, from.w / to.w)) : 1;
  return [
    {
      transform: `translate(${Math.round(dx)}px, ${Math.round(dy)}px) scale(${scale.toFixed(2)})`,
    },
    { transform: "none" },
  ];
}

/**
 * What the person's turn changes, from one drawing of the page to the next: whether the
 * title says it is their turn (`alerted`: the turn came while the page was in the
 * background; it goes when the page is seen again, the person acts or the turn is over)
 * and whether the sound plays (the turn has just come, the sound is wished and the page
 * is hidden or another window has focus).
 * @param {{was: boolean, now: boolean, acted: boolean, hidden: boolean, focused: boolean, alerted: boolean, sound: boolean}} s
 * @returns {{alerted: boolean, beep: boolean}}
 */
export function turnCall({ was, now, acted, hidden, focused, alerted, sound }) {
  const comes = now && !was;
  return {
    alerted: now && hidden && !acted && (alerted || comes),
    beep: comes && sound && (hidden || !focused),
  };
}

/**
 * Whether the person is to act at this table now (from the other side's last move to
 * their own last; a draw and the discard after it are one turn).
 * @param {State} state
 */
export function personsTurn(state) {
  const view = state.view;
  return Boolean(
    state.seat &&
    view &&
    view.table.turn === state.seat &&
    view.legal_actions.length &&
    atTable(state.route),
  );
}

/** @param {Element} el @returns {Box} */
function box(el) {
  const r = el.getBoundingClientRect();
  return { x: r.left, y: r.top, w: r.width, h: r.height };
}

/**
 * @param {Element} el
 * @param {Keyframe[]} frames
 * @param {number} elapsed  ms already shown (a render in between may have drawn the
 *   element anew; one it kept (dom.js morphChildren) has its flight replaced, not doubled)
 * @param {KeyframeAnimationOptions} [options]
 */
function run(el, frames, elapsed, options = {}) {
  for (const before of el.getAnimations()) {
    if (before.id !== FLIGHT) continue;
    before.onfinish = null; // its end must not take the class from the new flight
    before.oncancel = null;
    before.cancel();
  }
  el.classList.add("moving");
  const animation = el.animate(frames, {
    duration: FLY_MS,
    easing: "ease-out",
    ...options,
    id: FLIGHT,
  });
  animation.currentTime = elapsed;
  const done = () => el.classList.remove("moving");
  animation.onfinish = done;
  animation.oncancel = done;
}

/**
 * Show `motion` on the page as drawn, `elapsed` ms into it. All boxes are read first, then
 * the animations start (one layout, no thrashing).
 * @param {Motion} motion
 * @param {State} state
 * @param {number} elapsed
 * @param {boolean} ghosts  whether layoffs fly (once: their copies outlive a render)
 */
function show(motion, state, elapsed, ghosts) {
  const main = document.querySelector("main");
  if (!main) return;
  if (motion.to === "melds") {
    layOut(main, state, elapsed, ghosts);
    return;
  }
  const row = main.querySelector(`.felt > .opponent[data-seat="${motion.seat}"] .fan`);
  const pile = main.querySelector(
    `.felt .pile.${motion.from === "stock" ? "stock" : "discard"} .pile-stack`,
  );
  const backs = row ? [...row.querySelectorAll(".card.back")] : [];
  const inRow = motion.card
    ? row?.querySelector(`[data-card="${motion.card}"]`)
    : backs.at(-1);
  const el =
    motion.to === "hand"
      ? inRow
      : main.querySelector(`.felt .pile.discard [data-card="${motion.card}"]`);
  const from = motion.to === "hand" ? pile : (backs.at(-1) ?? row);
  if (!el || !from) return;
  run(el, flight(box(from), box(el)), elapsed);
}

/**
 * A knock or gin: the melds of the round's result laid out one after another, and each
 * layoff's card flying onto the meld it joins.
 * @param {Element} main
 * @param {State} state
 * @param {number} elapsed
 * @param {boolean} ghosts
 */
function layOut(main, state, elapsed, ghosts) {
  const end = main.querySelector(".round-end");
  if (!end) return;
  const rows = [...end.querySelectorAll(".melds .card-row")];
  const layoffs = ghosts ? (lastResult(state.view)?.showdown?.layoffs ?? []) : [];
  const flights = layoffs.flatMap(({ card, onto }) => {
    const el = end.querySelector(`.layoff [data-card="${card}"]`);
    const meld = rows.find((row) => row.querySelector(`[data-card="${onto[0]}"]`));
    if (!el || !meld) return [];
    const to = box(meld);
    return [{ el, from: box(el), to: { ...to, x: to.x + to.w - 10, w: 0 } }];
  });
  rows.forEach((row, i) =>
    run(
      row,
      [
        { opacity: 0, transform: "translateY(-14px)" },
        { opacity: 1, transform: "none" },
      ],
      elapsed,
      { duration: 200, delay: Math.min(i * 25, 100), fill: "backwards" },
    ),
  );
  for (const { el, from, to } of flights) {
    const ghost = /** @type {HTMLElement} */ (el.cloneNode(true));
    ghost.classList.add("drag-ghost");
    ghost.style.width = `${from.w}px`;
    ghost.style.height = `${from.h}px`;
    document.body.append(ghost);
    const at = (/** @type {Box} */ b) => ({
      transform: `translate(${Math.round(b.x)}px, ${Math.round(b.y)}px)`,
    });
    const animation = ghost.animate([at(from), { ...at(to), opacity: 0.6 }], {
      duration: FLY_MS,
      delay: 50,
      easing: "ease-in-out",
      fill: "backwards",
    });
    animation.onfinish = () => ghost.remove();
    animation.oncancel = () => ghost.remove();
  }
}

/** @type {AudioContext|null} */
let audio = null;

/** A short rising two-note chime, generated (no file to download). */
export function chime() {
  try {
    audio ??= new AudioContext();
    const start = audio.currentTime;
    [660, 880].forEach((hz, i) => {
      const ctx = /** @type {AudioContext} */ (audio);
      const at = start + i * 0.12;
      const tone = ctx.createOscillator();
      const gain = ctx.createGain();
      tone.frequency.value = hz;
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(0.15, at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.18);
      tone.connect(gain).connect(ctx.destination);
      tone.start(at);
      tone.stop(at + 0.2);
    });
  } catch {
    /* no audio here */
  }
}

/**
 * The follower main.js calls after each drawing of the page: shows the newest move of
 * the other side, keeps a move in flight over a render, and calls the person when the
 * turn comes. `redraw` draws the page again (the page was seen again: the title's mark
 * goes).
 * @param {() => void} redraw
 * @returns {(state: State) => void}
 */
export function follower(redraw) {
  /** @type {{motion: Motion, at: number, ghosts: boolean}|null} */
  let shown = null;
  /** @type {number|null} the event last looked at */
  let seen = null;
  let was = false;
  let alerted = false;
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState !== "hidden" && alerted) {
      alerted = false;
      redraw();
    }
  });
  return (state) => {
    const now = performance.now();
    const event = state.animation;
    let acted = false;
    // The event is drawn with its view (an event comes right before the view of its version).
    if (event && event.version === state.version && event.version !== seen) {
      seen = event.version;
      acted = event.kind === "action" && event.seat === state.seat;
      const motion = motionOf(event, state.seat);
      if (motion) shown = { motion, at: now, ghosts: true };
    }
    if (
      shown &&
      now - shown.at < MOVE_MS &&
      !matchMedia("(prefers-reduced-motion: reduce)").matches
    ) {
      show(shown.motion, state, now - shown.at, shown.ghosts);
      shown.ghosts = false;
    }
    const mine = personsTurn(state);
    const call = turnCall({
      was,
      now: mine,
      acted,
      hidden: document.visibilityState === "hidden",
      focused: document.hasFocus(),
      alerted,
      sound: state.turnSound,
    });
    was = mine;
    alerted = call.alerted;
    if (call.beep) chime();
    if (alerted) document.title = t("title.your_turn");
  };
}
