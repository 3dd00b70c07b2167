// The privacy page (/privacy, docs/accounts.md "Your data"): what the site keeps about a
// person, why, for how long, and how to take it away or delete it. Its text is the
// catalogs' (`privacy.*`, de and en); it must stay true to the server's code. Loaded the
// first time it is shown.
import { h } from "../dom.js";
import { t } from "../i18n.js";

/** @typedef {import("../pages.js").App} App */
/** @typedef {import("../pages.js").Page} Page */

/** Its sections: a heading and its paragraphs, each a catalog key. */
const SECTIONS = [
  {
    title: "privacy.kept.title",
    items: [
      "identity",
      "name",
      "account",
      "devices",
      "passkeys",
      "games",
      "ratings",
      "chat",
      "civility",
      "friends",
      "addresses",
    ],
  },
  { title: "privacy.why.title", paragraphs: ["privacy.why.text"] },
  { title: "privacy.how_long.title", paragraphs: ["privacy.how_long.text"] },
  {
    title: "privacy.yours.title",
    paragraphs: ["privacy.yours.export", "privacy.yours.delete"],
  },
];

/** @returns {HTMLElement[]} */
export function renderPrivacy() {
  return [
    h(
      "section",
      { class: "panel privacy", "aria-labelledby": "privacy-h" },
      h("h1", { id: "privacy-h" }, t("privacy.title")),
      h("p", {}, t("privacy.intro")),
      ...SECTIONS.map((s) => [
        h("h2", {}, t(s.title)),
        s.items
          ? h("ul", {}, ...s.items.map((item) => h("li", {}, t(`privacy.kept.${item}`))))
          : null,
        ...(s.paragraphs ?? []).map((key) => h("p", {}, t(key))),
      ]),
      h("p", {}, h("a", { href: "/", dataset: { nav: "/" } }, t("privacy.back"))),
    ),
  ];
}

/**
 * @param {App} _app
 * @returns {Page}
 */
export function init(_app) {
  return { enter: () => undefined, render: renderPrivacy };
}
