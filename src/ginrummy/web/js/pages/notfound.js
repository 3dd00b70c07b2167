// The page of a path that names no page (web/js/routes.js; the server answers such a
// path with the page and 404): it says so, under the site's top bar, with the way back to
// the start page. Loaded the first time it is shown.
import { t } from "../i18n.js";
import { messagePanel } from "../links.js";

/** @typedef {import("../pages.js").App} App */
/** @typedef {import("../pages.js").Page} Page */

/** @returns {HTMLElement[]} */
export function renderNotFound() {
  return [messagePanel(t("notfound.text"), t("notfound.title"))];
}

/**
 * @param {App} _app
 * @returns {Page}
 */
export function init(_app) {
  return { enter: () => undefined, render: renderNotFound };
}
