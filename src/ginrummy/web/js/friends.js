// Friends (docs/accounts.md, "Friends"): the Friends dialog of the start page (add by
// name, requests to answer, the friends with where they are, a challenge with rules and
// target, the privacy switches) and, on every page of an account, the feed socket that
// shows an incoming challenge with Accept and Decline and takes both players to the room
// of an accepted one. Its own <dialog>s, outside the page the renderer draws.
import { api, ApiError, storedToken } from "./api.js";
import { t } from "./i18n.js";
import { LobbySocket } from "./socket.js";
import { actionButton as button, h as el } from "./dom.js";

const PRESETS = ["standard", "oklahoma", "classic", "first-to-knock"];
const TARGETS = ["50", "100", "200"];

/**
 * @typedef {{id: string, name: string}} Person
 * @typedef {{id: string, from: Person, to: Person, preset: string,
 *   target_score: number|null, state: string, room: string|null, expires: number}} Challenge
 * @typedef {Person & {online: boolean, where: string|null, room: string|null}} Friend
 * @typedef {{me: Person, friends: Friend[], incoming: Person[], outgoing: Person[],
 *   challenges: Challenge[], settings: {hide_whereabouts: boolean, friends_only: boolean}}} Listing
 */

/** @param {unknown} err */
function problem(err) {
  if (err instanceof ApiError && err.code) {
    const key = `friends.error.${err.code}`;
    if (t(key) !== key) return t(key);
    return err.message || err.code;
  }
  return String(err);
}

/**
 * A select with its label.
 * @param {string} id
 * @param {string} label
 * @param {[string, string][]} options
 * @param {string} chosen
 */
function choice(id, label, options, chosen) {
  const select = /** @type {HTMLSelectElement} */ (el("select", { id }));
  for (const [value, text] of options) {
    const option = /** @type {HTMLOptionElement} */ (el("option", { value }, text));
    option.selected = value === chosen;
    select.append(option);
  }
  return { label: el("label", { for: id }, label), select };
}

/** @param {Friend} f */
function whereText(f) {
  if (!f.online) return t("friends.offline");
  if (!f.where) return t("friends.online");
  return t(`friends.where.${f.where}`);
}

/** The room of a challenge: the page goes there (seated, like an opened room). @param {string} room */
function goToRoom(room) {
  location.assign(`/r/${encodeURIComponent(room)}`);
}

/** @type {(() => Promise<void>)|null} */
let redraw = null;

/** Open the Friends dialog (made once, kept in the document's body). */
export async function openFriends() {
  let dialog = /** @type {HTMLDialogElement|null} */ (
    document.getElementById("friends-dialog")
  );
  if (!dialog) {
    dialog = /** @type {HTMLDialogElement} */ (
      el("dialog", {
        id: "friends-dialog",
        class: "dialog",
        "aria-labelledby": "friends-title",
      })
    );
    dialog.addEventListener("close", () => {
      redraw = null;
    });
    document.body.append(dialog);
  }
  const box = dialog;
  const status = el("p", { role: "status", class: "notice" });
  /** @param {unknown} err */
  const fail = (err) => {
    status.textContent = problem(err);
  };
  /** @param {() => Promise<unknown>} act */
  const then = (act) => async () => {
    try {
      await act();
      await draw();
    } catch (err) {
      fail(err);
    }
  };

  async function draw() {
    /** @type {HTMLElement[]} */
    const parts = [el("h2", { id: "friends-title" }, t("friends.title"))];
    /** @type {Listing|null} */
    let info = null;
    try {
      info = storedToken() ? await api.friends() : null;
    } catch (err) {
      if (!(err instanceof ApiError && err.code === "no_account")) throw err;
    }
    if (!info) {
      parts.push(
        el("p", {}, t("friends.need_account")),
        button(t("account.open"), async () => {
          box.close();
          const m = await import("./account.js");
          await m.openAccount();
        }),
        button(t("account.close"), async () => box.close()),
      );
      box.replaceChildren(...parts);
      return;
    }
    const listing = info;
    startFeed(listing.me);
    const name = /** @type {HTMLInputElement} */ (
      el("input", { id: "friends-name", maxlength: "20", autocomplete: "off" })
    );
    parts.push(
      el("label", { for: "friends-name" }, t("friends.add_name")),
      name,
      button(
        t("friends.add"),
        then(async () => {
          const answer = await api.befriend({ name: name.value });
          status.textContent = t(`friends.${answer.state}`, { name: answer.player.name });
        }),
      ),
    );
    if (listing.incoming.length) {
      parts.push(el("h3", {}, t("friends.requests")));
      const list = el("ul", { class: "friends-requests" });
      for (const p of listing.incoming)
        list.append(
          el(
            "li",
            {},
            t("friends.asks", { name: p.name }) + " ",
            button(
              t("friends.accept"),
              then(() => api.befriend({ player: p.id })),
              { "aria-label": t("friends.accept_who", { name: p.name }) },
            ),
            " ",
            button(
              t("friends.decline"),
              then(() => api.unfriend(p.id)),
              { "aria-label": t("friends.decline_who", { name: p.name }) },
            ),
          ),
        );
      parts.push(list);
    }
    parts.push(el("h3", {}, t("friends.list")));
    const list = el("ul", { class: "friends-list" });
    if (!listing.friends.length) list.append(el("li", {}, t("friends.none")));
    for (const f of listing.friends) {
      const item = el(
        "li",
        {},
        el("a", { href: `/p/${encodeURIComponent(f.id)}` }, f.name),
        `: ${whereText(f)} `,
      );
      if (f.room)
        item.append(
          el(
            "a",
            {
              href: `/r/${encodeURIComponent(f.room)}`,
              class: "button",
              "aria-label": t("friends.watch_who", { name: f.name }),
            },
            t("friends.watch"),
          ),
          " ",
        );
      item.append(
        button(t("friends.challenge"), async () => challengeForm(item, f), {
          "aria-label": t("friends.challenge_who", { name: f.name }),
        }),
        " ",
        button(
          t("friends.remove"),
          then(() => api.unfriend(f.id)),
          { "aria-label": t("friends.remove_who", { name: f.name }) },
        ),
      );
      list.append(item);
    }
    parts.push(list);
    for (const p of listing.outgoing)
      parts.push(
        el(
          "p",
          {},
          t("friends.waiting", { name: p.name }) + " ",
          button(
            t("friends.cancel"),
            then(() => api.unfriend(p.id)),
            { "aria-label": t("friends.cancel_who", { name: p.name }) },
          ),
        ),
      );
    for (const c of listing.challenges.filter((c) => c.from.id === listing.me.id))
      parts.push(
        el(
          "p",
          {},
          t("friends.challenge_sent", { name: c.to.name }) + " ",
          button(
            t("friends.withdraw"),
            then(() => api.withdrawChallenge(c.id)),
            { "aria-label": t("friends.withdraw_who", { name: c.to.name }) },
          ),
        ),
      );
    parts.push(el("h3", {}, t("friends.privacy")));
    for (const key of /** @type {const} */ (["hide_whereabouts", "friends_only"])) {
      const box = /** @type {HTMLInputElement} */ (
        el("input", { type: "checkbox", id: `friends-${key}` })
      );
      box.checked = listing.settings[key];
      box.addEventListener(
        "change",
        () => void then(() => api.friendSettings({ [key]: box.checked }))(),
      );
      parts.push(
        el(
          "p",
          {},
          box,
          " ",
          el("label", { for: `friends-${key}` }, t(`friends.${key}`)),
        ),
      );
    }
    parts.push(
      status,
      button(t("account.close"), async () => box.close()),
    );
    box.replaceChildren(...parts);
    for (const c of listing.challenges.filter((c) => c.to.id === listing.me.id))
      showChallenge(c);
  }

  /**
   * @param {HTMLElement} item
   * @param {Friend} f
   */
  function challengeForm(item, f) {
    item.querySelector(".challenge-form")?.remove();
    const preset = choice(
      `challenge-preset-${f.id}`,
      t("friends.rules"),
      PRESETS.map((p) => [p, t(`preset.short.${p}`)]),
      "standard",
    );
    const target = choice(
      `challenge-target-${f.id}`,
      t("friends.target"),
      TARGETS.map((n) => [n, n]),
      "100",
    );
    item.append(
      el(
        "div",
        {
          class: "challenge-form",
          role: "group",
          "aria-label": t("friends.challenge_who", { name: f.name }),
        },
        preset.label,
        preset.select,
        " ",
        target.label,
        target.select,
        " ",
        button(
          t("friends.send_challenge"),
          then(async () => {
            const body = { player: f.id, preset: preset.select.value };
            await api.challenge({ ...body, target_score: Number(target.select.value) });
            status.textContent = t("friends.challenge_sent", { name: f.name });
          }),
        ),
      ),
    );
    preset.select.focus();
  }

  redraw = draw;
  try {
    await draw();
  } catch (err) {
    fail(err);
    box.replaceChildren(
      status,
      button(t("account.close"), async () => box.close()),
    );
  }
  if (!box.open) box.showModal();
}

/**
 * Ask the player of a player page to be friends, then show the Friends dialog (for a
 * guest: its invitation to create an account first).
 * @param {string} player
 */
export async function befriendFromPage(player) {
  /** @type {unknown} */
  let failure = null;
  try {
    if (storedToken()) await api.befriend({ player });
  } catch (err) {
    failure = err;
  }
  await openFriends();
  const status = document.querySelector("#friends-dialog [role=status]");
  if (
    failure &&
    status &&
    !(failure instanceof ApiError && failure.code === "no_account")
  )
    status.textContent = problem(failure);
}

/** Show an incoming challenge with Accept and Decline (one dialog per challenge). @param {Challenge} c */
function showChallenge(c) {
  const id = `challenge-${c.id}`;
  if (document.getElementById(id)) return;
  const dialog = /** @type {HTMLDialogElement} */ (
    el("dialog", { id, class: "dialog challenge", "aria-labelledby": `${id}-title` })
  );
  const status = el("p", { role: "status", class: "notice" });
  const target =
    c.target_score === null ? "" : t("friends.to_points", { n: String(c.target_score) });
  dialog.append(
    el("h2", { id: `${id}-title` }, t("friends.challenged_by", { name: c.from.name })),
    el("p", {}, t(`preset.short.${c.preset}`) + target),
    button(t("friends.accept"), async () => {
      try {
        const answer = await api.acceptChallenge(c.id);
        goToRoom(answer.room);
      } catch (err) {
        status.textContent = problem(err);
      }
    }),
    " ",
    button(t("friends.decline"), async () => {
      try {
        await api.declineChallenge(c.id);
      } catch {
        /* answered elsewhere or expired: nothing to decline */
      }
      dialog.close();
      dialog.remove();
    }),
    status,
  );
  document.body.append(dialog);
  dialog.showModal();
  // Gone when it expires unanswered (the server refuses a late answer anyway).
  setTimeout(() => dropChallenge(c), Math.max(0, c.expires * 1000 - Date.now()));
}

/** A challenge that is no longer open: its dialog goes. @param {Challenge} c */
function dropChallenge(c) {
  const dialog = document.getElementById(`challenge-${c.id}`);
  if (dialog instanceof HTMLDialogElement) {
    dialog.close();
    dialog.remove();
  }
}

class FeedSocket extends LobbySocket {
  hello() {
    return { ...super.hello(), feed: true };
  }
}

/** @type {FeedSocket|null} */
let feed = null;

/**
 * The page's feed of friends' news and challenges (an account's only): opened once.
 * @param {Person} me
 */
function startFeed(me) {
  if (feed) return;
  feed = new FeedSocket({
    token: storedToken,
    onConnection: () => {},
    onMessage: (/** @type {any} */ msg) => {
      if (msg.type === "friends") void redraw?.();
      if (msg.type !== "challenge") return;
      /** @type {Challenge} */
      const c = msg.challenge;
      if (c.state === "open" && c.to.id === me.id) showChallenge(c);
      else if (c.state !== "open") dropChallenge(c);
      if (c.state === "accepted" && c.room && c.from.id === me.id) goToRoom(c.room);
      void redraw?.();
    },
  });
  feed.open();
}

/** On every page: an account's browser opens its feed (a guest's does nothing). */
export async function watchFriends() {
  if (!storedToken()) return;
  try {
    const account = await api.account();
    if (!account.account) return;
    /** @type {Listing} */
    const listing = await api.friends();
    startFeed(listing.me);
    for (const c of listing.challenges.filter((c) => c.to.id === listing.me.id))
      showChallenge(c);
  } catch {
    /* offline or signed out: no feed on this page */
  }
}
