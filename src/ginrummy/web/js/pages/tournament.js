// A tournament's page (docs/tournaments.md), by its link /t/<id>: its live state, joining,
// leaving, starting, withdrawing; at a tournament's table (pages/room.js) it follows the
// tournament to the table of the next round. Loaded the first time either is shown.
import { tournamentPlay } from "../tournamentplay.js";
import { renderTournament } from "../tournament.js";

/** @typedef {import("../pages.js").App} App */
/** @typedef {import("../pages.js").Page} Page */

/**
 * @param {App} app
 * @returns {Page}
 */
export function init(app) {
  const tournaments = tournamentPlay({
    store: app.store,
    say: app.say,
    navigate: (path) => app.navigate(path),
  });
  return {
    enter: (route) => route.tournament && tournaments.enter(route.tournament),
    leave: () => tournaments.close(),
    render: renderTournament,
    commands: {
      "t-join": () => tournaments.command("join"),
      "t-leave": () => tournaments.command("leave"),
      "t-start": () => tournaments.command("start"),
      "t-withdraw": () => tournaments.command("withdraw"),
      // At a tournament's table: the room's id (pages/room.js).
      follow: (room) => tournaments.follow(room),
    },
  };
}
