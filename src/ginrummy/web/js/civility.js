// Civility in the page (docs/accounts.md, "Civility"): report or block a player from the
// table, a chat line's author or their player page (one dialog, its own <dialog> outside
// the page the renderer draws, as the account's), the list of the people one blocks (the
// account dialog), and the words of a play ban or a warning (the lobby's quick match).
// The server gathers a report's evidence and filters a blocked person's chat; the page
// only hides the lines it already shows.
import { api, ApiError } from "./api.js";
import { t, tn } from "./i18n.js";
import { hideChatOf } from "./chat.js";
import { actionButton as button, h as el } from "./dom.js";

/** The reasons of a report, as the server names them (POST /api/reports). */
export const REASONS = ["chat", "stalling", "abandoning", "cheating", "name"];

/**
 * Whom the dialog is about, and where it was opened.
 * @typedef {object} Peer
 * @property {string} player   the player's id
 * @property {string} name     how the page shows them
 * @property {string} place    "table" | "chat" | "player"
 * @property {string|null} [room]
 */

/**
 * A time left in words: "3 minutes", "1 hour 5 minutes", "2 days 4 hours".
 * @param {number} seconds
 */
export function duration(seconds) {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const mins = minutes % 60;
  /** @type {string[]} */
  const parts = [];
  if (days) parts.push(tn("civility.days", days, { n: days }));
  if (hours) parts.push(tn("civility.hours", hours, { n: hours }));
  if (mins && !days) parts.push(tn("civility.minutes", mins, { n: mins }));
  return parts.join(" ");
}

/**
 * A refusal of a civility route in words.
 * @param {unknown} err
 */
export function problem(err) {
  if (err instanceof ApiError) {
    const key = `civility.error.${err.code}`;
    if (t(key) !== key) return t(key);
    if (err.status) return t("error.generic", { message: err.message || err.code });
  }
  return t("error.network");
}

/**
 * What the lobby says of a person's conduct (GET /api/me/conduct): the play ban with its
 * reason and the time left, else a warning, else null.
 * @param {any} conduct
 * @returns {{text: string, banned: boolean}|null}
 */
export function conductNotice(conduct) {
  const play = conduct?.play;
  if (play) {
    const reason = play.reason || t("civility.no_reason");
    const text =
      play.seconds_left == null
        ? t("civility.banned_for_good", { reason })
        : t("civility.banned", { reason, left: duration(play.seconds_left) });
    return { text, banned: true };
  }
  const warnings = conduct?.warnings ?? [];
  if (warnings.length)
    return {
      text: t("civility.warned_by_operator", {
        reason: warnings[warnings.length - 1].reason,
      }),
      banned: false,
    };
  if (conduct?.warned)
    return {
      text: tn("civility.warned", conduct.offences, { n: conduct.offences }),
      banned: false,
    };
  return null;
}

/**
 * Block or unblock a player; the page hides or shows their lines at once.
 * @param {string} player
 * @param {boolean} block
 */
async function setBlock(player, block) {
  await (block ? api.block(player) : api.unblock(player));
  hideChatOf(player, block);
}

/**
 * The dialog about one player: report them (a reason, a note), block or unblock them.
 * @param {Peer} peer
 * @param {() => void} [changed]   a block made or lifted (the page draws again)
 */
export async function openPeer(peer, changed = () => {}) {
  let dialog = /** @type {HTMLDialogElement|null} */ (
    document.getElementById("civility-dialog")
  );
  if (!dialog) {
    dialog = /** @type {HTMLDialogElement} */ (
      el("dialog", {
        id: "civility-dialog",
        class: "dialog",
        "aria-labelledby": "civility-title",
      })
    );
    document.body.append(dialog);
  }
  const box = dialog;
  const name = peer.name;
  const status = el("p", { role: "status", class: "notice" });
  /** @param {unknown} err */
  const fail = (err) => {
    status.textContent = problem(err);
  };

  // Report: the reasons as radio buttons, a note, send.
  const reasons = el(
    "fieldset",
    { class: "reasons" },
    el("legend", {}, t("civility.reason")),
    ...REASONS.map((reason, i) => {
      const id = `civility-reason-${reason}`;
      const input = el("input", {
        type: "radio",
        name: "civility-reason",
        id,
        value: reason,
        ...(i === 0 ? { checked: "" } : {}),
      });
      return el(
        "div",
        { class: "choice" },
        input,
        el("label", { for: id }, t(`civility.reason.${reason}`)),
      );
    }),
  );
  const note = /** @type {HTMLTextAreaElement} */ (
    el("textarea", { id: "civility-note", maxlength: "300", rows: "3" })
  );
  const report = el(
    "section",
    { class: "report", "aria-labelledby": "civility-report-h" },
    el("h3", { id: "civility-report-h" }, t("civility.report_title", { name })),
    reasons,
    el("label", { for: "civility-note" }, t("civility.note")),
    note,
    button(
      t("civility.send_report"),
      async () => {
        const chosen = /** @type {HTMLInputElement|null} */ (
          reasons.querySelector("input:checked")
        );
        try {
          await api.report({
            player: peer.player,
            reason: chosen?.value ?? REASONS[0],
            place: peer.place,
            ...(peer.room ? { room: peer.room } : {}),
            note: note.value.trim(),
          });
          report.replaceChildren(
            el("h3", { id: "civility-report-h" }, t("civility.report_title", { name })),
            el("p", { class: "notice" }, t("civility.reported", { name })),
          );
          status.textContent = t("civility.reported", { name });
        } catch (err) {
          fail(err);
        }
      },
      { class: "button primary" },
    ),
  );

  // Block: one button, as the server has it now.
  const blockPart = el("section", {
    class: "block",
    "aria-labelledby": "civility-block-h",
  });
  async function drawBlock() {
    let blocked = false;
    try {
      blocked = (await api.blocks()).blocked.includes(peer.player);
    } catch (err) {
      fail(err);
    }
    blockPart.replaceChildren(
      el("h3", { id: "civility-block-h" }, t("civility.block_title")),
      el("p", { class: "hint" }, t("civility.block_text")),
      button(t(blocked ? "civility.unblock" : "civility.block", { name }), async () => {
        try {
          await setBlock(peer.player, !blocked);
          status.textContent = t(blocked ? "civility.unblocked" : "civility.blocked", {
            name,
          });
          changed();
          await drawBlock();
        } catch (err) {
          fail(err);
        }
      }),
    );
  }
  await drawBlock();

  box.replaceChildren(
    el("h2", { id: "civility-title" }, t("civility.title", { name })),
    report,
    blockPart,
    status,
    button(t("civility.close"), () => box.close()),
  );
  if (!box.open) box.showModal();
}

/**
 * The account dialog's list of the people one blocks, each with Unblock.
 * @param {() => void} [changed]
 * @returns {Promise<HTMLElement>}
 */
export async function blockedList(changed = () => {}) {
  const part = el("section", { class: "blocked", "aria-labelledby": "blocked-h" });
  const status = el("p", { role: "status", class: "notice" });
  async function draw() {
    /** @type {{id: string, tag: string}[]} */
    let people = [];
    try {
      const ids = /** @type {string[]} */ ((await api.blocks()).blocked);
      people = await Promise.all(
        ids.map(async (id) => {
          try {
            const found = await api.player(id);
            return { id, tag: found.player?.tag ?? found.player?.name ?? id };
          } catch {
            return { id, tag: id };
          }
        }),
      );
    } catch (err) {
      status.textContent = problem(err);
    }
    const list = el("ul", { class: "blocked-list" });
    for (const p of people)
      list.append(
        el(
          "li",
          {},
          p.tag + " ",
          button(t("civility.unblock", { name: p.tag }), async () => {
            try {
              await setBlock(p.id, false);
              status.textContent = t("civility.unblocked", { name: p.tag });
              changed();
              await draw();
            } catch (err) {
              status.textContent = problem(err);
            }
          }),
        ),
      );
    part.replaceChildren(
      el("h3", { id: "blocked-h" }, t("civility.blocked_title")),
      people.length ? list : el("p", {}, t("civility.none_blocked")),
      status,
    );
  }
  await draw();
  return part;
}
