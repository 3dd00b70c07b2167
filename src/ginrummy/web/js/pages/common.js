// The commands every page has: the settings of the top bar (render.js renderTopbar): the
// four-colour deck, large cards, the turn's sound, the language; the account dialog
// (account.js); and the dialog that reports or blocks a player (civility.js), opened
// from any page's "peer" buttons.
import { COLOUR_KEY, LARGE_KEY, SOUND_KEY, remember } from "../prefs.js";
import { catalogPath, loadLanguage, rememberLanguage, t } from "../i18n.js";
import { keepFile } from "../offline.js";

/** @typedef {import("../pages.js").Command} Command */

/**
 * @param {{store: import("../store.js").Store, say: (text: string) => void}} app
 * @returns {Record<string, Command>}
 */
export function commonCommands({ store, say }) {
  return {
    lang: async (code) => {
      try {
        await loadLanguage(code);
      } catch {
        say(t("error.network")); // offline, and that language was never used here
        return;
      }
      rememberLanguage(code);
      keepFile(catalogPath(code));
      store.update((s) => ({ ...s, lang: code }));
    },
    "four-colour": () => {
      store.update((s) => ({ ...s, fourColour: !s.fourColour }));
      remember(COLOUR_KEY, store.get().fourColour ? "1" : "0");
    },
    "large-cards": () => {
      store.update((s) => ({ ...s, largeCards: !s.largeCards }));
      remember(LARGE_KEY, store.get().largeCards ? "1" : "0");
    },
    "turn-sound": async () => {
      store.update((s) => ({ ...s, turnSound: !s.turnSound }));
      remember(SOUND_KEY, store.get().turnSound ? "1" : "0");
      if (store.get().turnSound) (await import("../follow.js")).chime(); // how it sounds
    },
    settings: () => store.update((s) => ({ ...s, settingsOpen: !s.settingsOpen })),
    // The account dialog (docs/accounts.md), from any page: a guest's way to rated play
    // (lobby.js accountNeeded); its module loads on the first click.
    account: () => import("../account.js").then((m) => m.openAccount()),
    // Report or block a player (civility.js): from a table, a chat line, a player page.
    peer: async (player, el) => {
      const { openPeer } = await import("../civility.js");
      const { name = "", place = "player", room = "" } = el.dataset;
      await openPeer({ player, name, place, room: room || null }, () =>
        store.update((s) => ({ ...s })),
      );
    },
  };
}
