// The review of a finished match (docs/review.md), by its link /r/<id>/review/<seat>: the
// server's review job followed, then stepped through by button or arrow key. Loaded the
// first time one is shown.
import { reviewJob } from "../reviewjob.js";
import { renderReview } from "../review.js";

/** @typedef {import("../pages.js").App} App */
/** @typedef {import("../pages.js").Page} Page */

/**
 * @param {App} app
 * @returns {Page}
 */
export function init(app) {
  const reviews = reviewJob({ store: app.store });
  return {
    enter: (route) => route.room && route.seat && reviews.enter(route.room, route.seat),
    leave: () => reviews.stop(),
    render: renderReview,
    commands: { "review-step": (delta) => reviews.step(Number(delta)) },
    key: (event) => reviews.key(event),
  };
}
