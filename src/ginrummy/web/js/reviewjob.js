// The review page's traffic: start the server's review job, poll its progress until the
// review is there (GET /api/rooms/{id}/review, docs/protocol.md "Reviews"), then step
// through it by button or arrow key. The rendering is review.js's.
import { api, ApiError } from "./api.js";
import { steps, clampStep } from "./review.js";

/** @typedef {import("./types.js").State} State */
/** @typedef {import("./review.js").ReviewPage} ReviewPage */
/** @typedef {import("./review.js").Seat} Seat */

const POLL_MS = 500;

/**
 * @param {{store: {get: () => State, update: (fn: (s: State) => State) => void}}} deps
 */
export function reviewJob({ store }) {
  /** @type {ReturnType<typeof setTimeout>|null} */
  let timer = null;

  /** @param {(data: ReviewPage) => ReviewPage} fn */
  function patch(fn) {
    store.update((s) => ({ ...s, page: { ...s.page, data: fn(s.page.data) } }));
  }

  /**
   * @param {string} room
   * @param {Seat} seat
   */
  async function enter(room, seat) {
    stop();
    const route = store.get().route;
    /** @type {ReviewPage} */
    const data = { room, seat, done: 0, total: 0, review: null, step: 0, error: null };
    store.update((s) => ({ ...s, page: { status: "running", data } }));
    let first = true;
    const poll = async () => {
      timer = null;
      try {
        const job = await api.review(room, seat, first);
        first = false;
        if (store.get().route !== route) return;
        if (job.state === "done") {
          store.update((s) => ({
            ...s,
            page: {
              status: "ok",
              data: {
                ...s.page.data,
                review: job.review,
                done: job.total,
                total: job.total,
              },
            },
          }));
          return;
        }
        patch((d) => ({ ...d, done: job.done, total: job.total }));
        timer = setTimeout(poll, POLL_MS);
      } catch (err) {
        if (store.get().route !== route) return;
        const code = err instanceof ApiError ? err.code : "network";
        store.update((s) => ({
          ...s,
          page: { status: "error", data: { ...s.page.data, error: code } },
        }));
      }
    };
    await poll();
  }

  function stop() {
    if (timer !== null) clearTimeout(timer);
    timer = null;
  }

  /** @param {number} delta */
  function step(delta) {
    const page = store.get().page;
    /** @type {ReviewPage|null} */
    const data = page.data;
    if (page.status !== "ok" || !data?.review) return;
    const count = steps(data.review).length;
    const next = clampStep(data.step, delta, count);
    if (next !== data.step) patch((d) => ({ ...d, step: next }));
  }

  /**
   * The arrow keys step through the review (outside text fields).
   * @param {KeyboardEvent} event
   */
  function key(event) {
    if (
      store.get().route.name !== "review" ||
      event.altKey ||
      event.ctrlKey ||
      event.metaKey
    )
      return;
    const target = event.target;
    if (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement)
      return;
    const delta = { ArrowLeft: -1, ArrowRight: 1 }[event.key];
    if (delta === undefined) return;
    event.preventDefault();
    step(delta);
  }

  return { enter, stop, step, key };
}
