// The page takes its limits and quick phrases from GET /api/config, not from copies:
// a served config that differs from today's changes what the page says and offers.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { setCatalog } from "../../src/ginrummy/web/js/i18n.js";
import { initialState, nicknameProblem } from "../../src/ginrummy/web/js/store.js";
import { phraseText } from "../../src/ginrummy/web/js/chat.js";
import { nameProblemText } from "../../src/ginrummy/web/js/lobby.js";

const catalog = (lang) =>
  JSON.parse(
    readFileSync(
      new URL(`../../src/ginrummy/web/js/i18n/${lang}.json`, import.meta.url),
      "utf8",
    ),
  );

const SERVED = {
  limits: {
    name: { min: 3, max: 6, pattern: "^[a-z#]+$", punctuation: " #" },
    chat: { max: 10 },
  },
  phrases: [{ key: "wp", text: { de: "Gut gespielt!", en: "Well played!" } }],
};

test("quick phrases are the served ones, in the page language", () => {
  const state = { ...initialState(), config: SERVED };
  setCatalog("en", catalog("en"));
  assert.equal(phraseText(state, "wp"), "Well played!");
  setCatalog("de", catalog("de"));
  assert.equal(phraseText(state, "wp"), "Gut gespielt!");
  // Today's phrases are not built in: unknown to this config, they have no text.
  assert.equal(phraseText(state, "gg"), "");
  assert.equal(phraseText({ ...state, config: null }, "wp"), "");
});

test("the name rule's words come from the served limits", () => {
  setCatalog("en", catalog("en"));
  const limits = SERVED.limits;
  assert.equal(
    nameProblemText(nicknameProblem("ab", limits), limits),
    "The nickname needs at least 3 characters.",
  );
  assert.equal(
    nameProblemText(nicknameProblem("abcdefg", limits), limits),
    "The nickname may have at most 6 characters.",
  );
  assert.equal(
    nameProblemText(nicknameProblem("Abc", limits), limits),
    "Only letters, digits and these characters are allowed: space #",
  );
  assert.equal(nicknameProblem("ab#c", limits), null);
});

test("the refusal of a name's characters does not end in two periods", () => {
  // Today's rule ends its list of marks with the period: "space - _ ." must not
  // be followed by the sentence's own period ("… _ ..").
  const limits = {
    name: { min: 2, max: 20, pattern: "^[\\p{L}\\p{N} \\-_.]+$", punctuation: " -_." },
    chat: { max: 200 },
  };
  for (const lang of ["en", "de"]) {
    setCatalog(lang, catalog(lang));
    const text = nameProblemText(nicknameProblem("Bad<>Name", limits), limits);
    assert.match(text, /- _ \.$/, `${lang}: the marks are listed, the period last`);
    assert.doesNotMatch(text, /\.\./, `${lang}: ${text}`);
  }
});
