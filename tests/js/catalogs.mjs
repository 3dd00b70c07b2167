// The page's English and German catalogues (web/js/i18n), read once for the Node tests.
import { readFileSync } from "node:fs";

/** @param {string} lang */
const catalogue = (lang) =>
  JSON.parse(
    readFileSync(
      new URL(`../../src/ginrummy/web/js/i18n/${lang}.json`, import.meta.url),
      "utf8",
    ),
  );

export const EN = catalogue("en");
export const DE = catalogue("de");
