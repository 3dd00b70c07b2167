// Tournaments' intents (docs/protocol.md, Tournaments): open a tournament's page and keep
// it live over a lobby socket, create one from the lobby's form, join, leave, start,
// withdraw. When a round is paired the server sends `matched`: the page takes the person
// to their table. Their page modules (pages/tournament.js, pages/public.js) wire them to commands.
import { api, ApiError, ensureToken, storedToken } from "./api.js";
import { LobbySocket } from "./socket.js";
import { t } from "./i18n.js";
import { createBody, tournamentForm } from "./tournament.js";

/**
 * The lobby socket of a tournament's page (its `tournament` frames and `matched`) or of
 * a tournament's table (`matched` only): neither gets the lobby's listings, and only
 * the page gets the tournament's frames, tens of kilobytes each for 64 players
 * (docs/protocol.md, Tournaments).
 */
export class TournamentSocket extends LobbySocket {
  /**
   * @param {ConstructorParameters<typeof LobbySocket>[0]} options
   * @param {string|null} tournament  the tournament whose frames it gets; null: none
   * @param {string|null} [table]  the tournament's table this page is at: on every
   *   (re)connect the server sends `matched` if the person's next table is open already
   */
  constructor(options, tournament, table = null) {
    super(options);
    this.tournament = tournament;
    this.table = table;
  }

  hello() {
    const at = this.table ? { table: this.table } : {};
    return { ...super.hello(), tournament: this.tournament, lobby: false, ...at };
  }
}

/**
 * The tournament a page should show: the one that came, unless the page shows a later
 * version of it. The page's answer from the API and the socket's frames race; an answer
 * asked for before the last frame must not put an older state back (which no frame would
 * then correct once the tournament is over).
 * @param {{id?: string, version?: number}|null|undefined} shown  what the page shows
 * @param {{id?: string, version?: number}} came
 * @returns {boolean}
 */
export function isNewer(shown, came) {
  return !shown || shown.id !== came.id || (came.version ?? 0) >= (shown.version ?? 0);
}

/**
 * @param {{store: import("./store.js").Store, say: (text: string) => void, navigate: (path: string) => void}} app
 */
export function tournamentPlay({ store, say, navigate }) {
  /** @type {LobbySocket|null} */
  let socket = null;

  /** @param {any} tournament */
  function show(tournament) {
    if (!isNewer(store.get().page.data?.tournament, tournament)) return;
    store.update((s) => ({
      ...s,
      page: { status: "ok", data: { tournament } },
      tournamentError: null,
    }));
  }

  /** @param {string} id */
  async function enter(id) {
    store.update((s) => ({
      ...s,
      page: { status: "loading", data: null },
      tournamentError: null,
    }));
    try {
      await ensureToken();
    } catch {
      /* reading needs none */
    }
    socket = new TournamentSocket(
      {
        token: () => storedToken(),
        onMessage: (msg) => {
          const m = /** @type {any} */ (msg);
          if (m.type === "tournament" && m.tournament?.id === id) show(m.tournament);
          else if (m.type === "matched" && m.room) {
            say(t("tournament.to_table"));
            navigate(`/r/${encodeURIComponent(m.room)}`);
          }
        },
        onConnection: () => {},
      },
      id,
    );
    socket.open();
    try {
      show((await api.tournament(id)).tournament);
    } catch (err) {
      const status = err instanceof ApiError && err.status === 404 ? "missing" : "error";
      store.update((s) => ({ ...s, page: { status, data: null } }));
    }
  }

  /**
   * At the table of a tournament's match: when the next round pairs this person, the
   * server sends `matched` for another room; the page takes them there.
   * @param {string} roomId  the room of this page
   */
  function follow(roomId) {
    close();
    socket = new TournamentSocket(
      {
        token: () => storedToken(),
        onMessage: (msg) => {
          const m = /** @type {any} */ (msg);
          if (m.type === "matched" && m.room && m.room !== roomId) {
            say(t("tournament.to_table"));
            navigate(`/r/${encodeURIComponent(m.room)}`);
          }
        },
        onConnection: () => {},
      },
      null,
      roomId,
    );
    socket.open();
  }

  function close() {
    if (socket) socket.close();
    socket = null;
  }

  /** @param {unknown} err */
  function failed(err) {
    const text =
      err instanceof ApiError && err.status
        ? t("error.generic", { message: err.message || err.code })
        : t("error.network");
    store.update((s) => ({ ...s, tournamentError: text }));
    say(text);
  }

  /**
   * @param {string} name  a field of the create form
   * @param {string} value
   * @param {HTMLElement} el
   */
  function field(name, value, el) {
    const v =
      el instanceof HTMLInputElement && el.type === "checkbox" ? el.checked : value;
    // The preset shows or hides the target score, "I will play" names the button.
    const shown = name === "preset" || name === "play";
    store.update((s) => ({ ...s, tournamentForm: { ...tournamentForm(s), [name]: v } }), {
      silent: !shown,
    });
  }

  async function create() {
    try {
      const state = store.get();
      const form = tournamentForm(state);
      // a guest's tournament is unrated: rated play counts accounts only (issue 22)
      if (!state.me?.account) form.rated = false;
      const body = createBody(form, Date.now() / 1000);
      const { tournament } = await api.createTournament(body);
      navigate(`/t/${encodeURIComponent(tournament.id)}`);
    } catch (err) {
      failed(err);
    }
  }

  /** @param {"join"|"leave"|"start"|"withdraw"} what */
  async function command(what) {
    const tour = store.get().page.data?.tournament;
    if (!tour) return;
    try {
      show((await api.tournamentCommand(tour.id, what)).tournament);
      say(t(`tournament.done.${what}`));
    } catch (err) {
      failed(err);
    }
  }

  return { enter, follow, close, field, create, command };
}
