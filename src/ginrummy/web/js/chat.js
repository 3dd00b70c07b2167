// The chat panels of a room: the room's chat, and any other a kind of table adds with its
// own kind of panel (chatPanel). Each is kept across renders (so the log keeps its scroll
// position, the draft its caret and a screen reader hears only new lines); each render
// reconciles it with the state. Messages are always set as text, never parsed as markup.
import { storedToken } from "./api.js";
import { h } from "./dom.js";
import { t, language } from "./i18n.js";
import { visibleChat, authorKey, chatText } from "./store.js";
import { MUTED_KEY, remember } from "./prefs.js";
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

/**
 * What tells one chat panel from the other: its element ids, field and commands.
 * @typedef {object} ChatKind
 * @property {string} id        the prefix of its element ids ("chat", "team-chat")
 * @property {string} title     catalogue key of its heading
 * @property {string} field     the draft's data-field
 * @property {string} send      the send command
 * @property {string} phrase    the quick-phrase command
 */

/** The room's chat. @type {ChatKind} */
const ROOM_CHAT = {
  id: "chat",
  title: "chat.title",
  field: "chatDraft",
  send: "send-chat",
  phrase: "phrase",
};

/**
 * Whose messages are this page's own: the `from.seat` they carry (the seat, or at a table
 * of more than two people the position as text); null: none (watching).
 * @typedef {string|null} Author
 */

/** @type {Map<string, Panel>} */
const panels = new Map();

/** The players this page blocked since it loaded: their lines already shown go (the
 * server sends none after a block). @type {Set<string>} */
const hidden = new Set();

/**
 * Hide (or show again) a player's lines in every chat panel of the page.
 * @param {string} player
 * @param {boolean} hide
 */
export function hideChatOf(player, hide) {
  if (hide) hidden.add(player);
  else hidden.delete(player);
}

/**
 * A button that opens the report-and-block dialog about a player (civility.js, through
 * the page's "peer" command): its data names the player, how the page shows them, the
 * place and the room.
 * @param {{player: string, name: string, place: string, room: string|null, key: string,
 *   label?: string}} peer
 */
export function peerButton({ player, name, place, room, key, label }) {
  return h(
    "button",
    {
      type: "button",
      class: "chip peer",
      "aria-label": t("civility.open", { name }),
      dataset: { cmd: "peer", arg: player, name, place, room: room ?? "", key },
    },
    label ?? t("civility.open", { name }),
  );
}

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
 * Whether this socket may write: players always; watchers where the room allows it and
 * the page has an identity (the server names each line's author: a nickname).
 * @param {State} state
 * @param {boolean} identified  this browser has an identity (a stored token)
 */
export function canChat(state, identified) {
  if (state.seat) return true;
  return watchersChat(state) && identified;
}

/** @param {State} state  whether the room lets its watchers chat */
function watchersChat(state) {
  const info = state.info ?? state.room.info;
  return Boolean(info?.spectator_chat);
}

/**
 * Whether a message is this page's own.
 * @param {Author} author
 * @param {ChatMessage["from"]} from
 */
export function ownMessage(author, from) {
  return Boolean(author && from?.seat === author);
}

/**
 * @param {State} state
 * @param {Author} author
 * @param {ChatMessage} message
 */
function line(state, author, message) {
  const from = message.from ?? {};
  const own = ownMessage(author, from);
  const who = own ? t("name.you") : (from.tag ?? t("name.player"));
  const text = message.text ?? phraseText(state, message.phrase);
  // Another person's line: the author's name opens the report-and-block dialog.
  const whoEl =
    !own && from.player && state.me?.id !== from.player
      ? peerButton({
          player: from.player,
          name: who,
          place: "chat",
          room: state.route.room,
          key: `peer-line-${message.id ?? ""}`,
          label: who,
        })
      : who;
  return h(
    "p",
    { class: `chat-line${own ? " own" : ""}${from.seat ? "" : " watcher"}` },
    h(
      "span",
      { class: "chat-from" },
      whoEl,
      from.seat ? "" : ` (${t("chat.watcher")})`,
      ": ",
    ),
    h("span", { class: "chat-text" }, text),
  );
}

/**
 * @param {State} state
 * @param {ChatKind} kind
 * @returns {Omit<Panel, "room"|"lang">}
 */
function build(state, kind) {
  const id = kind.id;
  const log = h("div", {
    class: "chat-log",
    role: "log",
    "aria-label": t(kind.title),
    "aria-live": "polite",
    tabindex: "0",
  });
  const input = h("input", {
    id: `${id}-input`,
    type: "text",
    maxlength: state.config ? String(state.config.limits.chat.max) : null,
    autocomplete: "off",
    dataset: { field: kind.field, key: `${id}-input` },
  });
  const writer = h(
    "div",
    { class: "chat-write" },
    h(
      "div",
      { class: "phrases", role: "group", "aria-label": t("chat.phrases") },
      ...(state.config?.phrases ?? []).map((p) =>
        h(
          "button",
          {
            type: "button",
            class: "chip phrase",
            dataset: { cmd: kind.phrase, arg: p.key, key: `${id}-phrase-${p.key}` },
          },
          phraseText(state, p.key),
        ),
      ),
    ),
    h(
      "div",
      { class: "chat-row" },
      h("label", { for: `${id}-input`, class: "visually-hidden" }, t("chat.message")),
      input,
      h(
        "button",
        {
          type: "button",
          class: "button primary",
          dataset: { cmd: kind.send, key: kind.send },
        },
        t("chat.send"),
      ),
    ),
  );
  const mutes = h("div", { class: "mutes" });
  const readonly = h("p", { class: "hint readonly" }, t("chat.watchers_cannot"));
  const el = h(
    "section",
    { class: `panel chat ${id}`, "aria-labelledby": `${id}-h` },
    h("h2", { id: `${id}-h` }, t(kind.title)),
    log,
    mutes,
    writer,
    readonly,
  );
  return { el, log, input, writer, mutes, readonly, shown: [], key: "" };
}

/**
 * A button for each person at a two-player table whose messages may be muted.
 * @param {State} state
 */
function muteButtons(state) {
  /** @type {HTMLElement[]} */
  const out = [];
  for (const seat of SEATS) {
    if (seat === state.seat) continue;
    const p = state.players?.[seat];
    if (!p || p.bot) continue;
    const player = p.player ?? state.info?.seats?.[seat]?.player;
    const key = authorKey(state, { seat, tag: player?.tag });
    if (!key) continue;
    const muted = state.muted.includes(key);
    if (player?.id)
      out.push(
        peerButton({
          player: player.id,
          name: player.tag ?? p.name ?? t("name.player"),
          place: "table",
          room: state.route.room,
          key: `peer-${seat}`,
        }),
      );
    out.push(
      h(
        "button",
        {
          type: "button",
          class: "chip mute",
          "aria-pressed": String(muted),
          dataset: { cmd: "mute", arg: key, key: `mute-${seat}` },
        },
        t("chat.mute", { name: player?.tag ?? p.name ?? t("name.player") }),
      ),
    );
  }
  return out;
}

/**
 * The room's chat panel for `state` (the same element each time while the room stays).
 * @param {State} state
 * @param {{author?: Author, mutes?: boolean}} [options]  whose messages are this page's
 *   own (by default its seat's), and whether its players may be muted (a two-player
 *   table's: by seat)
 */
export function renderChat(state, { author = state.seat, mutes = true } = {}) {
  const identified = storedToken() !== null;
  return chatPanel(state, ROOM_CHAT, {
    messages: visibleChat(state),
    draft: state.chat.draft,
    writable: canChat(state, identified),
    // Why a watcher cannot write: the table's rule, or no nickname yet.
    readonly: t(watchersChat(state) ? "chat.watchers_need_name" : "chat.watchers_cannot"),
    mutes: mutes ? muteButtons(state) : [],
    author,
  });
}

/**
 * A chat panel of the kind `kind` (the same element each time while the room stays),
 * reconciled with what it shows.
 * @param {State} state
 * @param {ChatKind} kind
 * @param {{messages: ChatMessage[], draft: string, writable: boolean, mutes: HTMLElement[],
 *   author: Author, readonly?: string}} shown  `readonly`: what a reader who cannot write
 *   is told (by default, that only the players chat)
 */
export function chatPanel(
  state,
  kind,
  { messages, draft, writable, mutes, author, readonly = t("chat.watchers_cannot") },
) {
  messages = messages.filter((m) => !hidden.has(m.from?.player ?? ""));
  const room = state.route.room;
  const key = `${room}|${language()}|${state.seat}|${author}|${state.muted.join(",")}|${[...hidden].join(",")}`;
  let panel = panels.get(kind.id);
  if (!panel || panel.room !== room || panel.lang !== language()) {
    panel = { ...build(state, kind), room, lang: language() };
    panels.set(kind.id, panel);
  }
  const sameStart =
    panel.key === key &&
    panel.shown.length <= messages.length &&
    panel.shown.every((m, i) => m === messages[i]);
  const atBottom =
    panel.log.scrollHeight - panel.log.scrollTop - panel.log.clientHeight < 40;
  if (sameStart) {
    for (const m of messages.slice(panel.shown.length))
      panel.log.append(line(state, author, m));
  } else {
    panel.log.replaceChildren(...messages.map((m) => line(state, author, m)));
  }
  panel.shown = messages;
  panel.key = key;
  if (atBottom || !sameStart) panel.log.scrollTop = panel.log.scrollHeight;
  panel.mutes.replaceChildren(...mutes);
  panel.writer.hidden = !writable;
  panel.readonly.hidden = writable;
  if (panel.readonly.textContent !== readonly) panel.readonly.textContent = readonly;
  if (draft === "" && panel.input.value !== "") panel.input.value = "";
  return panel.el;
}

/** Forget the panels (leaving the room). */
export function resetChat() {
  panels.clear();
}

/**
 * What the chat's intents need of the page.
 * @typedef {object} ChatApp
 * @property {import("./store.js").Store} store
 * @property {(text: string) => void} say  announce to a screen reader
 * @property {(msg: Record<string, unknown>) => boolean} send  false when not sent
 * @property {() => import("./types.js").Limits} limits  the served limits
 */

/**
 * The chat's intents, bound to the page: send the draft, mute or unmute an author.
 * @param {ChatApp} app
 */
export function chatIntents({ store, say, send, limits }) {
  return {
    send() {
      const text = chatText(store.get().chat.draft, limits());
      if (text && send({ type: "chat", text })) {
        store.update((s) => ({ ...s, chat: { ...s.chat, draft: "" } }));
      }
    },
    /** @param {string} key an author (authorKey) */
    toggleMute(key) {
      const state = store.get();
      const muted = state.muted.includes(key)
        ? state.muted.filter((k) => k !== key)
        : [...state.muted, key];
      store.update((s) => ({ ...s, muted }));
      remember(MUTED_KEY, JSON.stringify(muted));
      say(t(muted.includes(key) ? "chat.muted" : "chat.unmuted"));
    },
  };
}
