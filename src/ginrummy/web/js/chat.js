// The chat panel of a room. It is kept across renders (so the log keeps its scroll
// position, the draft its caret and a screen reader hears only new lines); each render
// reconciles it with the state. Messages are always set as text, never parsed as markup.
import { h } from "./dom.js";
import { t, language } from "./i18n.js";
import { visibleChat, authorKey } from "./store.js";
import { SEATS } from "./status.js";

/** @typedef {import("./types.js").State} State */
/** @typedef {import("./types.js").ChatMessage} ChatMessage */
/**
 * The panel kept across renders.
 * @typedef {object} Panel
 * @property {HTMLElement} el
 * @property {HTMLElement} log
 * @property {HTMLInputElement} input
 * @property {HTMLElement} writer
 * @property {HTMLElement} mutes
 * @property {HTMLElement} readonly   the note that watchers cannot write
 * @property {ChatMessage[]} shown
 * @property {string} key
 * @property {string|null} room
 * @property {string} lang
 */

/** @type {Panel|null} */
let panel = null;

/**
 * A quick phrase in the page's language, from the served list (GET /api/config).
 * @param {State} state
 * @param {string|null|undefined} key
 */
export function phraseText(state, key) {
  const phrase = (state.config?.phrases ?? []).find((p) => p.key === key);
  if (!phrase) return "";
  const lang = language();
  return phrase.text[lang] ?? phrase.text.en ?? key ?? "";
}

/**
 * Whether this socket may write: players always, watchers only if the room allows it.
 * @param {State} state
 */
export function canChat(state) {
  if (state.seat) return true;
  const info = state.info ?? state.room.info;
  return Boolean(info?.spectator_chat);
}

/**
 * @param {State} state
 * @param {ChatMessage} message
 */
function line(state, message) {
  const from = message.from ?? {};
  const own = state.seat && from.seat === state.seat;
  const who = own ? t("name.you") : from.tag ?? t("name.player");
  const text = message.text ?? phraseText(state, message.phrase);
  return h("p", { class: `chat-line${own ? " own" : ""}${from.seat ? "" : " watcher"}` },
    h("span", { class: "chat-from" }, who, from.seat ? "" : ` (${t("chat.watcher")})`, ": "),
    h("span", { class: "chat-text" }, text));
}

/**
 * @param {State} state
 * @returns {Omit<Panel, "room"|"lang">}
 */
function build(state) {
  const log = h("div", { class: "chat-log", role: "log", "aria-label": t("chat.title"), "aria-live": "polite", tabindex: "0" });
  const input = h("input", {
    id: "chat-input", type: "text", maxlength: state.config ? String(state.config.limits.chat.max) : null, autocomplete: "off",
    dataset: { field: "chatDraft", key: "chat-input" },
  });
  const writer = h("div", { class: "chat-write" },
    h("div", { class: "phrases", role: "group", "aria-label": t("chat.phrases") },
      ...(state.config?.phrases ?? []).map((p) => h("button", {
        type: "button", class: "chip phrase", dataset: { cmd: "phrase", arg: p.key, key: `phrase-${p.key}` },
      }, phraseText(state, p.key)))),
    h("div", { class: "chat-row" },
      h("label", { for: "chat-input", class: "visually-hidden" }, t("chat.message")),
      input,
      h("button", { type: "button", class: "button primary", dataset: { cmd: "send-chat", key: "send-chat" } }, t("chat.send"))));
  const mutes = h("div", { class: "mutes" });
  const readonly = h("p", { class: "hint readonly" }, t("chat.watchers_cannot"));
  const el = h("section", { class: "panel chat", "aria-labelledby": "chat-h" },
    h("h2", { id: "chat-h" }, t("chat.title")), log, mutes, writer, readonly);
  return { el, log, input, writer, mutes, readonly, shown: [], key: "" };
}

/** @param {State} state */
function muteButtons(state) {
  const out = [];
  for (const seat of SEATS) {
    if (seat === state.seat) continue;
    const p = state.players?.[seat];
    if (!p || p.bot) continue;
    const player = p.player ?? state.info?.seats?.[seat]?.player;
    const key = authorKey(state, { seat, tag: player?.tag });
    if (!key) continue;
    const muted = state.muted.includes(key);
    out.push(h("button", {
      type: "button", class: "chip mute", "aria-pressed": String(muted),
      dataset: { cmd: "mute", arg: key, key: `mute-${seat}` },
    }, t("chat.mute", { name: player?.tag ?? p.name ?? t("name.player") })));
  }
  return out;
}

/**
 * The chat panel for `state` (the same element each time while the room stays).
 * @param {State} state
 */
export function renderChat(state) {
  const room = state.route.room;
  const key = `${room}|${language()}|${state.seat}|${state.muted.join(",")}`;
  if (!panel || panel.room !== room || panel.lang !== language()) {
    panel = { ...build(state), room, lang: language() };
  }
  const messages = visibleChat(state);
  const sameStart = panel.key === key && panel.shown.length <= messages.length
    && panel.shown.every((m, i) => m === messages[i]);
  const atBottom = panel.log.scrollHeight - panel.log.scrollTop - panel.log.clientHeight < 40;
  if (sameStart) {
    for (const m of messages.slice(panel.shown.length)) panel.log.append(line(state, m));
  } else {
    panel.log.replaceChildren(...messages.map((m) => line(state, m)));
  }
  panel.shown = messages;
  panel.key = key;
  if (atBottom || !sameStart) panel.log.scrollTop = panel.log.scrollHeight;
  panel.mutes.replaceChildren(...muteButtons(state));
  const writable = canChat(state);
  panel.writer.hidden = !writable;
  panel.readonly.hidden = writable;
  if (state.chat.draft === "" && panel.input.value !== "") panel.input.value = "";
  return panel.el;
}

/** Forget the panel (leaving the room). */
export function resetChat() {
  panel = null;
}
