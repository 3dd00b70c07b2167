// The page's router (docs/architecture.md, "The browser client"): a path is routed to its
// page module in the registration table (pages.js), which the router starts, stops, draws
// and hands the page's input to. What pages share (the store, the drawing, the top bar's
// settings, who this browser is, the table's parts) is made here once.
import { initialState, createStore, applyMessage } from "./store.js";
import { render } from "./render.js";
import { keepingFocus } from "./dom.js";
import { settleDialogs, keepTabInside } from "./dialogs.js";
import { normaliseLevels } from "./home.js";
import { levelsKnown, setLevels, t } from "./i18n.js";
import { seatName } from "./status.js";
import { attachInput } from "./input.js";
import { pageOf, routeOf } from "./routes.js";
import { api } from "./api.js";
import { keepFile, knownLevels, needsConnection, watchNetwork } from "./offline.js";
import { startPage } from "./startup.js";
import { wasSignedOut } from "./socket.js";
import { identity } from "./me.js";
import { PAGES } from "./pages.js";
import { tableParts } from "./pages/tableparts.js";
import { useSheet } from "./table.js";
import { commonCommands } from "./pages/common.js";

/** @typedef {import("./types.js").State} State */
/** @typedef {import("./types.js").Route} Route */
/** @typedef {import("./pages.js").Page} Page */
/** @typedef {import("./pages.js").PageModule} PageModule */
/** @typedef {import("./pages.js").App} App */

/**
 * An element index.html has, by id.
 * @param {string} id
 */
function pagePart(id) {
  const el = document.getElementById(id);
  if (!el) throw new Error(`index.html has no #${id}`);
  return el;
}

const topbar = pagePart("topbar");
const main = pagePart("main");
const announcer = pagePart("announcer");
const skip = pagePart("skip");
// A large text (150% of the usual 16 px or more) lets the top bar wrap; its height as
// drawn is what the table's screen leaves it (css/app.css, large-text, --topbar-used).
new ResizeObserver(() => {
  const large = parseFloat(getComputedStyle(document.documentElement).fontSize) >= 24;
  document.documentElement.classList.toggle("large-text", large);
  document.body.style.setProperty("--topbar-used", `${topbar.offsetHeight}px`);
}).observe(topbar);
const store = createStore(initialState());
setLevels(normaliseLevels(knownLevels(null))); // the remembered ones, until the server's
/** The page shown (null: its module is still loading). @type {Page|null} */
let current = null;

// ---------------------------------------------------------------- rendering

/** Moves shown moving, the title and the sound of a turn (web/js/follow.js), once a table
 * is drawn: after the drawing, purely visual. The score sheet (web/js/sheet.js) comes with it. @type {((state: State) => void)|null} */
let follow = null;
let followLoading = false;

/**
 * @param {State} state
 */
function draw(state) {
  keepingFocus(() => {
    render(state, {
      topbar,
      main,
      now: performance.now(),
      content: current?.render ?? null,
      table: current?.table ?? null,
    });
    announcer.setAttribute("aria-label", t("ann.label"));
    if (skip.textContent !== t("skip")) skip.textContent = t("skip"); // kept, as the rest (dom.js morphChildren)
  });
  settleDialogs(main);
  if (follow) follow(state);
  else if (state.view && !followLoading) {
    followLoading = true;
    // Kept by the worker once loaded, for visits offline (a first visit's page names them:
    // no worker serves it yet). Offline before they were ever loaded (docs/offline.md),
    // the table shows its moves without motion and has no score sheet.
    import("./follow.js").then(
      (m) => {
        follow = m.follower(() => draw(store.get()));
        keepModule("./follow.js");
      },
      () => {},
    );
    import("./sheet.js").then(
      (m) => {
        useSheet(m.renderSheetParts);
        draw(store.get());
        keepModule("./sheet.js");
      },
      () => {},
    );
  }
}

/**
 * Ask the service worker to keep a module of this directory loaded after the first paint.
 * @param {string} path  relative to this module
 */
function keepModule(path) {
  keepFile(new URL(path, import.meta.url).pathname);
}

/**
 * @param {string} text
 */
function say(text) {
  if (!text) return;
  const line = document.createElement("p");
  line.textContent = text;
  announcer.append(line);
  while (announcer.childElementCount > 30) announcer.firstElementChild?.remove();
}

/** `drawingOnce` calls running: the state's changes are drawn once at their end. */
let held = 0;
/** A pointer is pressed: a render now would replace the pressed button before its release,
 * and the click would be lost (it goes to the button's old parent, not to any button). The
 * state's changes are drawn right after the click instead; at most PRESS_HOLD_MS later, so
 * that a release the page never hears of (outside the window) cannot freeze the table. */
let pressed = false;
/** A render waits for the release. */
let owed = false;
const PRESS_HOLD_MS = 1000;
/** @type {ReturnType<typeof setTimeout>|undefined} */
let pressTimer;
store.subscribe((state) => {
  if (held) return;
  if (pressed) owed = true;
  else draw(state);
});
function released() {
  if (!pressed) return;
  pressed = false;
  clearTimeout(pressTimer);
  // After the click that follows the release (same task): then draw what waited.
  setTimeout(() => {
    if (owed && !pressed && !held) draw(store.get());
    if (!pressed) owed = false;
  }, 0);
}
window.addEventListener(
  "pointerdown",
  (event) => {
    if (event.button !== 0) return;
    pressed = true;
    clearTimeout(pressTimer);
    pressTimer = setTimeout(released, PRESS_HOLD_MS);
  },
  true,
);
for (const type of ["pointerup", "pointercancel", "blur"])
  window.addEventListener(type, released, true);

/**
 * Run `work`, which changes the state several times in a row (the first frames of a
 * device game), and draw the page once at the end rather than after every change.
 * @param {() => void} work
 */
function drawingOnce(work) {
  held += 1;
  try {
    work();
  } finally {
    held -= 1;
    if (!held && pressed) owed = true;
    else if (!held) draw(store.get());
  }
}

function limits() {
  const config = store.get().config;
  if (!config) throw new Error("the server's configuration is not loaded yet");
  return config.limits;
}

// ---------------------------------------------------------------- pages

/**
 * @param {string} path
 * @param {{replace?: boolean}} [options]
 */
function navigate(path, { replace = false } = {}) {
  if (replace) history.replaceState(null, "", path);
  else history.pushState(null, "", path);
  enter(routeOf(new URL(path, location.href).pathname));
}

const me = identity({ store, limits });
const table = tableParts({
  store,
  say,
  navigate,
  limits,
  me,
  enter: (route) => enter(route),
  fold: (state, msg) => (current?.fold ?? applyMessage)(state, msg),
});
/** @type {App} */
const app = {
  store,
  say,
  navigate,
  limits,
  main,
  me,
  table,
  drawingOnce,
  page: (name) => started(PAGES[name]),
};
const common = commonCommands({ store, say });

/** Each page module's page, once started (the lobby, the leaderboard and a player's page
 * share one). @type {Map<PageModule, Page>} */
const pages = new Map();

/**
 * The page of a module, started the first time.
 * @param {PageModule} module
 */
function startedModule(module) {
  let page = pages.get(module);
  if (!page) {
    page = module.init(app);
    pages.set(module, page);
  }
  return page;
}

/**
 * A registered page, its module loaded (when it is not in the page from the start) and started.
 * @param {import("./pages.js").Registered} registered
 */
async function started(registered) {
  return startedModule(
    "module" in registered ? registered.module : await registered.load(),
  );
}

/** How long a page module that did not load waits before it is asked again. */
const RELOAD_MS = [250, 1000, 3000];

/**
 * A registered page, started; its module asked again while it does not load (the network
 * just back, the service worker not yet seeing it) and the page is still `wanted`. Null
 * when it never loaded: the page says the server cannot be reached.
 * @param {import("./pages.js").Registered} registered
 * @param {() => boolean} wanted
 * @returns {Promise<Page|null>}
 */
async function loaded(registered, wanted) {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await started(registered);
    } catch (err) {
      if (attempt >= RELOAD_MS.length || !wanted()) {
        console.warn("a page's module did not load", err);
        if (wanted()) say(t("error.network"));
        return null;
      }
      await new Promise((resolve) => setTimeout(resolve, RELOAD_MS[attempt]));
    }
  }
}

/** The start page's last entry: done once the page shows and the computer players are
 * loaded (startup.js waits for it). @type {Promise<unknown>} */
let homeEntry = Promise.resolve();

/**
 * Show the page of `route`: the page shown before is left, the state is fresh but for
 * what outlives a page (the settings, who this is, the forms), the new page entered.
 * @param {Route} route
 */
function enter(route) {
  current?.leave?.();
  const registered = PAGES[pageOf(route)];
  // A page in the page from the start is drawn at once; another is drawn loading until its module is in.
  current = "module" in registered ? startedModule(registered.module) : null;
  const fresh = initialState();
  store.update((s) => ({
    ...fresh,
    lang: s.lang,
    fourColour: s.fourColour,
    largeCards: s.largeCards,
    turnSound: s.turnSound,
    deviceNoteHidden: s.deviceNoteHidden,
    home: { ...s.home, busy: false, error: null },
    me: s.me,
    muted: s.muted,
    lobby: {
      ...fresh.lobby,
      form: s.lobby.form,
      quickForm: s.lobby.quickForm,
      data: s.lobby.data,
    },
    config: s.config,
    online: s.online,
    route,
  }));
  // Offline, a page that needs the server says so; it is entered again when the network is back.
  if (needsConnection(store.get())) return;
  const entered = store.get().route;
  if (current) {
    const result = current.enter(route);
    if (route.name === "home") homeEntry = Promise.resolve(result);
  } else {
    loaded(registered, () => store.get().route === entered).then((page) => {
      if (!page || store.get().route !== entered) return; // another page meanwhile
      current = page;
      page.enter(route);
      store.update((s) => ({ ...s })); // drawn now that it is in
    });
  }
  if (route.name !== "home" && !route.device) me.load();
  if (route.name !== "home" && !levelsKnown()) loadLevels();
  main.focus({ preventScroll: true });
  window.scrollTo(0, 0);
}

// One clock for everything that counts down between server messages.
setInterval(() => current?.tick?.(performance.now()), 250);

/** The computer levels, whose names are the computer players' (i18n.js): asked once
 * where no page of this browser had them yet, then drawn again. */
function loadLevels() {
  api
    .levels()
    .then((data) => {
      setLevels(normaliseLevels(knownLevels(data)));
      store.update((s) => ({ ...s }));
    })
    .catch(() => {
      /* offline: the level keys are shown */
    });
}

// ---------------------------------------------------------------- input

attachInput(document.body, {
  act: (action) => table.act(action),
  cmd: (name, arg, el) => (current?.commands?.[name] ?? common[name])?.(arg, el),
  navigate: (path) => navigate(path),
  field: (name, value, el) => {
    current?.field?.(name, value, el);
  },
  move: (card, delta) => table.move(card, delta),
  place: (card, target, after) => table.place(card, target, after),
});

window.addEventListener("popstate", () => enter(routeOf(location.pathname)));
// The settings menu (render.js renderTopbar) closes with Escape, the focus back on its
// button, and with a press anywhere outside it. One Escape closes one thing: a modal
// dialog that came up over the open menu (a result) takes it, and the menu stays.
document.addEventListener("keydown", (event) => {
  if (event.key !== "Escape" || !store.get().settingsOpen) return;
  if (document.querySelector("dialog:modal")) return;
  store.update((s) => ({ ...s, settingsOpen: false }));
  const toggle = document.querySelector("button[data-key='settings']");
  if (toggle instanceof HTMLElement) toggle.focus();
});
document.addEventListener(
  "pointerdown",
  (event) => {
    const inside =
      event.target instanceof Element && event.target.closest(".top-controls");
    if (!inside && store.get().settingsOpen)
      store.update((s) => ({ ...s, settingsOpen: false }));
  },
  true,
);
document.addEventListener("keydown", (event) => current?.key?.(event));
document.addEventListener("keydown", keepTabInside);
// A dialog closed by Escape (the browser closes it): a result stays closed until the next
// result; the score sheet until it is asked for again.
document.addEventListener(
  "close",
  (event) => {
    const dialog = event.target;
    if (!(dialog instanceof HTMLDialogElement) || !dialog.isConnected) return;
    const key = dialog.dataset.result ?? null;
    if (dialog.dataset.modal === "result" && key && store.get().resultClosed !== key)
      store.update((s) => ({ ...s, resultClosed: key }));
    if (dialog.dataset.modal === "sheet" && store.get().sheetOpen)
      store.update((s) => ({ ...s, sheetOpen: false }));
  },
  true,
);

watchNetwork((online) => {
  const waiting = needsConnection(store.get());
  store.update((s) => ({ ...s, online }));
  if (online && (waiting || store.get().route.name === "home"))
    enter(routeOf(location.pathname));
});

// ---------------------------------------------------------------- boot

// Exposed for debugging in the console only; nothing depends on it.
Object.assign(globalThis, {
  ginrummy: {
    store,
    seatName: (/** @type {import("./types.js").Seat} */ seat) =>
      seatName(store.get(), seat),
  },
});

void startPage({ store, enter, homeEntry: () => homeEntry.then(() => {}) }).then(() => {
  // Reloaded because a socket was closed with 4401 (socket.js): say so, seen and heard.
  if (!wasSignedOut()) return;
  const note = document.createElement("p");
  note.className = "notice signed-out";
  note.setAttribute("role", "alert");
  note.textContent = t("account.signed_out_here");
  document.body.prepend(note);
});
// An account's challenges reach every page (docs/accounts.md, "Friends").
void import("./friends.js").then((m) => m.watchFriends());
