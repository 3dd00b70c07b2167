// Public play's pages (docs/protocol.md, "Public play"): the lobby (nickname, quick match,
// tables, running matches and tournaments, a tournament created), the leaderboard and a
// player's statistics. Loaded the first time one of them is shown.
import { api } from "../api.js";
import { publicPlay } from "../publicplay.js";
import { tournamentPlay } from "../tournamentplay.js";
import { renderLobby } from "../lobby.js";
import { renderPlayer, renderLeaderboard } from "../stats.js";
import { renderTournamentsSection } from "../tournament.js";

/** @typedef {import("../pages.js").App} App */
/** @typedef {import("../pages.js").Page} Page */
/** @typedef {import("../types.js").State} State */

/** @type {Record<string, (state: State) => (HTMLElement|null)[]>} */
const RENDER = {
  lobby: (state) => [...renderLobby(state), renderTournamentsSection(state)],
  leaderboard: renderLeaderboard,
  player: renderPlayer,
};

/**
 * @param {App} app
 * @returns {Page}
 */
export function init(app) {
  const { store } = app;
  const navigate = (/** @type {string} */ path) => app.navigate(path);
  const play = publicPlay({
    store,
    say: app.say,
    navigate,
    limits: app.limits,
    me: app.me,
  });
  // The lobby's form for a new tournament (tournamentplay.js).
  const tournaments = tournamentPlay({ store, say: app.say, navigate });

  return {
    enter: (route) => {
      if (route.name === "lobby") return play.enterLobby();
      const player = route.player;
      if (route.name === "player" && player)
        return play.enterPage(() => api.player(player));
      return play.enterPage(() => api.leaderboard());
    },
    leave: () => play.closeLobby(),
    render: (state) => (RENDER[state.route.name] ?? RENDER.leaderboard)(state),
    commands: {
      rename: () => play.rename(),
      quick: () => play.quickMatch(),
      "quick-cancel": () => play.cancelQuick(),
      "quick-computer": () => play.quickComputer(),
      "create-table": () => play.createTable(),
      "join-table": (room) => play.joinTable(room),
      "t-create": () => tournaments.create(),
      // Friends (docs/accounts.md): ask from a player page, then show the Friends dialog.
      befriend: (player) =>
        import("../friends.js").then((m) => m.befriendFromPage(player ?? "")),
    },
    field: (name, value, el) => {
      if (name === "nickname")
        store.update(
          (s) => ({ ...s, lobby: { ...s.lobby, nickname: value, nicknameSaved: false } }),
          { silent: true },
        );
      else if (name.startsWith("tform."))
        tournaments.field(name.slice("tform.".length), value, el);
      else if (name.includes(".")) play.lobbyField(name, value, el);
      else return false;
      return true;
    },
    tick: (now) => play.tickQuick(now),
  };
}
