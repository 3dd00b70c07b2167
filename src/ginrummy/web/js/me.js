// Who this browser is (docs/protocol.md, "Public play"): its player summary, asked of the
// server, and the nickname a name typed for a seat gives it. Every page but the start page
// asks (main.js); the lobby renames (pages/public.js).
import { api, ensureToken, storedToken } from "./api.js";
import { nicknameProblem } from "./store.js";

/**
 * @typedef {object} Me
 * @property {() => Promise<void>} load   ask who this browser is (when it has an identity, or in the lobby)
 * @property {(name: string) => Promise<void>} adopt   a name typed for a seat becomes the nickname, when valid
 * @property {() => void} supersede   an answer to an earlier `load` is older than what follows (a rename)
 */

/**
 * @param {{store: import("./store.js").Store, limits: () => import("./types.js").Limits}} app
 * @returns {Me}
 */
export function identity({ store, limits }) {
  let asked = 0;

  async function load() {
    if (!storedToken() && store.get().route.name !== "lobby") return;
    const mine = ++asked;
    try {
      if (store.get().route.name === "lobby") await ensureToken();
      const me = await api.me();
      // A rename meanwhile knows better than this (older) answer.
      // `account`: rated play counts accounts only (issue 22), the lobby's form knows
      const player = me.player && { ...me.player, account: Boolean(me.account) };
      if (player && mine === asked) store.update((s) => ({ ...s, me: player }));
    } catch {
      /* shown as "connecting" */
    }
  }

  /** @param {string} name */
  async function adopt(name) {
    if (nicknameProblem(name, limits())) return;
    try {
      await ensureToken();
      const answer = await api.rename(name.trim());
      if (answer?.player)
        store.update((s) => ({ ...s, me: answer.player }), { silent: true });
    } catch {
      /* the seat keeps the typed name; the nickname stays as it was */
    }
  }

  return {
    load,
    adopt,
    supersede: () => {
      asked += 1;
    },
  };
}
