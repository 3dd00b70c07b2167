// The sign-in link's page (/signin#code=..., docs/accounts.md "Signing in on another
// device"): a signed-in device shows a one-time code and this link; opening the link
// on another browser redeems the code as typing it would (POST
// /api/account/sign-in/code: the same route and limits), keeps the new device token
// and goes to the start page. The code travels in the fragment, so it reaches neither
// the server's logs nor a Referer. A used, expired or mistyped code is said in words.
import { api, adoptToken, ApiError } from "../api.js";
import { h } from "../dom.js";
import { t } from "../i18n.js";

/** @typedef {import("../pages.js").App} App */
/** @typedef {import("../pages.js").Page} Page */

/** The fragment's name for the code: `/signin#code=K7QM-2XWA-9RTD`. */
export const CODE_PARAM = "code";

/**
 * The link that signs another browser in with `code` (as the server showed it: its
 * format is the server's, server/accounts/codes.py; nothing here knows its length).
 * @param {string} code
 * @param {string} [origin]
 */
export function signInLink(code, origin = location.origin) {
  return `${origin}/signin#${CODE_PARAM}=${encodeURIComponent(code)}`;
}

/**
 * The code a link's fragment carries, or null.
 * @param {string} hash   `location.hash`, with or without its "#"
 * @returns {string|null}
 */
export function codeOfHash(hash) {
  const code = new URLSearchParams(hash.replace(/^#/, "")).get(CODE_PARAM);
  return code && code.trim() ? code.trim() : null;
}

/** @param {unknown} err */
function problem(err) {
  if (err instanceof ApiError && (err.code === "bad_code" || err.status === 400))
    return t("signin.used_or_expired");
  if (err instanceof ApiError && err.code === "rate_limited")
    return t("account.error.rate_limited");
  if (err instanceof ApiError && err.code === "codes_paused")
    return t("account.error.codes_paused");
  return t("signin.failed");
}

/**
 * @param {App} app
 * @returns {Page}
 */
export function init(app) {
  const title = h("h1", { id: "signin-h" }, t("signin.title"));
  const status = h("p", { role: "status", class: "notice" });
  const back = h("p", {}, h("a", { href: "/", dataset: { nav: "/" } }, t("signin.home")));
  const root = h(
    "section",
    { class: "panel signin", "aria-labelledby": "signin-h" },
    title,
    status,
    back,
  );

  async function enter() {
    const code = codeOfHash(location.hash);
    // The code leaves the address bar (and the history) at once: it is used now.
    history.replaceState(history.state, "", location.pathname);
    if (!code) {
      status.textContent = t("signin.no_code");
      return;
    }
    status.textContent = t("signin.signing_in");
    try {
      const answer = await api.signInByCode(code);
      adoptToken(answer.token);
      status.textContent = t("signin.done");
      location.assign("/"); // the start page, loaded anew as the account's device
    } catch (err) {
      status.textContent = problem(err);
    }
  }

  return {
    enter: () => {
      title.textContent = t("signin.title");
      return enter();
    },
    render: () => [root],
  };
}
