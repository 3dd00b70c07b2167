// A chouette table's chats (docs/protocol.md, "Chouette rooms"), one column beside the
// table: the room's, where messages are told apart by position, and the team's for team
// members (the box is never sent it). Both are the shared chat panels (chat.js).
import { h } from "../dom.js";
import { renderChat, chatPanel } from "../chat.js";

/** @typedef {import("../types.js").State} State */

/** The team's chat. @type {import("../chat.js").ChatKind} */
const TEAM_CHAT = {
  id: "team-chat",
  title: "chouette.team_chat",
  field: "teamDraft",
  send: "send-team-chat",
  phrase: "team-phrase",
};

/** The column, kept across renders as its panels are. @type {HTMLElement|null} */
let column = null;

/**
 * The chats beside the table: the same column each render, its panels reconciled.
 * @param {State} state
 * @returns {HTMLElement}
 */
export function chouetteChats(state) {
  column ??= h("div", { class: "side-panels" });
  const c = state.chouette;
  // A chat message's `from.seat` is its author's position, as text.
  const author = c && c.position !== null ? String(c.position) : null;
  const panels = [renderChat(state, { author, mutes: false })];
  if (c?.info && c.position !== null && c.position !== c.info.box) {
    panels.push(
      chatPanel(state, TEAM_CHAT, {
        messages: c.team.messages,
        draft: c.team.draft,
        writable: true,
        mutes: [],
        author,
      }),
    );
  }
  const side = column;
  for (const el of [...side.children])
    if (!panels.includes(/** @type {HTMLElement} */ (el))) el.remove();
  panels.forEach((panel, i) => {
    if (side.children[i] !== panel) side.insertBefore(panel, side.children[i] ?? null);
  });
  return side;
}
