// The registration table of the page modules (docs/architecture.md, "The browser client"):
// which module shows which page. main.js routes a path to its page (routes.js pageOf) and
// runs the page's module; everything a page does is in its module:
//
// - `init(app)`, once, the first time the page is shown: binds the module to the page's
//   store and services (App, below) and returns the page (Page);
// - the page's `enter(route)` and `leave()`: what it loads and opens, and closes again;
// - its `fold`: a table's frames into the state (the two-player fold of store.js, or the
//   page's own, which keeps its own part of the state and folds what the shared parts
//   draw into the table's part);
// - its `render`: the page's content for a state (render.js draws the frame around it),
//   and a table page's `table`: how the shared parts draw its table (render.js TableLook);
// - its `commands` (the buttons' data-cmd), `field` (the form fields' changes), `tick`
//   (the page's clock) and `key` (its keys).
//
// The start page and the tables played on this device or joined by link are in the page
// from the start (the first view, and what must work offline: docs/offline.md); the others
// are loaded with `import()` the first time they are shown, so that a first visit fetches
// only what the start page shows (tests/browser/test_first_visit.py).
import * as home from "./pages/home.js";
import * as room from "./pages/room.js";
import * as device from "./pages/device.js";

/** @typedef {import("./types.js").State} State */
/** @typedef {import("./types.js").Route} Route */
/** @typedef {import("./types.js").ServerMessage} ServerMessage */
/** @typedef {import("./types.js").Announcement} Announcement */
/** @typedef {import("./routes.js").PageName} PageName */

/**
 * A button's command: its data-arg and the button.
 * @typedef {(arg: string, el: HTMLElement) => unknown} Command
 */

/**
 * What every page module gets of the page (main.js).
 * @typedef {object} App
 * @property {import("./store.js").Store} store
 * @property {(text: string) => void} say   announce to a screen reader
 * @property {(path: string, options?: {replace?: boolean}) => void} navigate
 * @property {() => import("./types.js").Limits} limits   the served limits
 * @property {HTMLElement} main   the page's <main>
 * @property {(work: () => void) => void} drawingOnce   run changes of the state, drawn once at the end
 * @property {import("./me.js").Me} me   who this browser is
 * @property {import("./pages/tableparts.js").TableParts} table   what every table shares
 * @property {(name: PageName) => Promise<Page>} page   another page, loaded and started
 */

/**
 * A page, as its module's `init` made it.
 * @typedef {object} Page
 * @property {(route: Route) => unknown} enter   show the page of `route` (its state is fresh)
 * @property {() => void} [leave]   close what `enter` opened
 * @property {(state: State) => (HTMLElement|null)[]} render   the page's content
 * @property {import("./render.js").TableLook} [table]   a table page's table, drawn
 *   with the shared parts
 * @property {(state: State, msg: ServerMessage) => {state: State, announce: Announcement[]}} [fold]
 *   a table's frame into the state
 * @property {Record<string, Command>} [commands]   the page's own commands (data-cmd)
 * @property {(name: string, value: string, el: HTMLElement) => boolean} [field]
 *   a form field of the page changed (false: not the page's)
 * @property {(now: number) => void} [tick]   the page's clock, four times a second
 * @property {(event: KeyboardEvent) => void} [key]   a key pressed on the page
 */

/**
 * A page module.
 * @typedef {{init: (app: App) => Page}} PageModule
 */

/**
 * A page in the table: its module when it is in the page from the start, else how to load it.
 * @typedef {{module: PageModule}|{load: () => Promise<PageModule>}} Registered
 */

/** @type {Record<PageName, Registered>} */
export const PAGES = {
  home: { module: home },
  room: { module: room },
  device: { module: device },
  chouette: { load: () => import("./pages/chouette.js") },
  lobby: { load: () => import("./pages/public.js") },
  leaderboard: { load: () => import("./pages/public.js") },
  player: { load: () => import("./pages/public.js") },
  tournament: { load: () => import("./pages/tournament.js") },
  review: { load: () => import("./pages/review.js") },
  admin: { load: () => import("./pages/admin.js") }, // the operators' page
  privacy: { load: () => import("./pages/privacy.js") }, // your data (issue 22, part 5)
  signin: { load: () => import("./pages/signin.js") }, // a sign-in link (issue 22, part 1)
  notfound: { load: () => import("./pages/notfound.js") }, // a path of no page
};
