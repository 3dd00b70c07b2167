// The chat's intents (chat.js chatIntents): what is sent, when the draft is cleared, and
// muting an author, announced and remembered.
import { test } from "node:test";
import assert from "node:assert/strict";
import { setCatalog } from "../../src/ginrummy/web/js/i18n.js";
import { chatIntents } from "../../src/ginrummy/web/js/chat.js";
import { createStore, initialState } from "../../src/ginrummy/web/js/store.js";
import { EN } from "./catalogs.mjs";

setCatalog("en", EN);
const LIMITS = {
  name: { min: 2, max: 20, pattern: "^[\\p{L}\\p{N} \\-_.]+$", punctuation: " -_." },
  chat: { max: 200 },
};

/** A page with a chat draft: the store, what was said, what was sent. */
function page(draft, sends = true) {
  const store = createStore({
    ...initialState(),
    chat: { ...initialState().chat, draft },
  });
  const said = [];
  const sent = [];
  const chat = chatIntents({
    store,
    say: (text) => said.push(text),
    limits: () => LIMITS,
    send: (msg) => {
      sent.push(msg);
      return sends;
    },
  });
  return { store, said, sent, chat };
}

test("the draft is sent cleaned and cleared once the socket took it", () => {
  const { store, sent, chat } = page("  hello \n there ");
  chat.send();
  assert.deepEqual(sent, [{ type: "chat", text: "hello there" }]);
  assert.equal(store.get().chat.draft, "");
});

test("a draft the socket did not take stays; an empty or too long one is not sent", () => {
  const offline = page("hello", false);
  offline.chat.send();
  assert.equal(offline.sent.length, 1);
  assert.equal(offline.store.get().chat.draft, "hello");
  for (const draft of ["   ", "x".repeat(LIMITS.chat.max + 1)]) {
    const p = page(draft);
    p.chat.send();
    assert.deepEqual(p.sent, []);
    assert.equal(p.store.get().chat.draft, draft);
  }
});

test("muting an author hides them, says so, and a second toggle brings them back", () => {
  const { store, said, chat } = page("");
  chat.toggleMute("p_b#x");
  assert.deepEqual(store.get().muted, ["p_b#x"]);
  chat.toggleMute("p_c#y");
  chat.toggleMute("p_b#x");
  assert.deepEqual(store.get().muted, ["p_c#y"]);
  assert.deepEqual(said, [EN["chat.muted"], EN["chat.muted"], EN["chat.unmuted"]]);
});
