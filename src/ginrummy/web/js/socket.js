// One WebSocket per seat or spectator (GameSocket), or for the lobby's feed (LobbySocket):
// hello on every (re)connect, reconnect with backoff and jitter (retryDelay below; after a
// server's 1012 "restarting" too, which lands on another server), versioned messages
// (duplicates dropped, a gap triggers a resync), keep-alive pings.

import { forgetToken, storedToken } from "./api.js";

const PING_MS = 20000;
/** The close code of a server that restarts (docs/protocol.md): reconnect, nothing is wrong. */
export const SERVICE_RESTART = 1012;
/** The close code of a socket whose token was signed out (docs/protocol.md): this device
 * was signed out, its account closed or its identity deleted. No reconnect. */
export const SIGNED_OUT = 4401;
const SIGNED_OUT_NOTE = "ginrummy.signedOut";

/**
 * This page's token was signed out: forget it (unless another tab took a new one
 * meanwhile), leave a note for the reloaded page, and reload it as a guest.
 * @param {string|null} token   the token the socket said hello with
 */
function signedOut(token) {
  if (token && storedToken() === token) forgetToken();
  try {
    sessionStorage.setItem(SIGNED_OUT_NOTE, "1");
  } catch {
    /* storage refused: the reload's first call finds the token refused (401) */
  }
  location.reload();
}

/** Whether this page was reloaded because its device was signed out (read once). */
export function wasSignedOut() {
  try {
    const note = sessionStorage.getItem(SIGNED_OUT_NOTE);
    sessionStorage.removeItem(SIGNED_OUT_NOTE);
    return note === "1";
  } catch {
    return false;
  }
}

/** @typedef {import("./types.js").ServerMessage} ServerMessage */
/** @typedef {{connected: boolean, retryIn?: number, attempt?: number, restart?: boolean}} Connection */
/**
 * @typedef {object} SocketOptions
 * @property {string|null} room
 * @property {() => string|null} token  the seat token, or null for a spectator
 * @property {(msg: ServerMessage) => void} onMessage  messages that passed the version checks
 * @property {(state: Connection) => void} onConnection
 * @property {string} [url]
 */

export class GameSocket {
  /** @param {SocketOptions} options */
  constructor({ room, token, onMessage, onConnection, url = defaultUrl() }) {
    this.room = room;
    this.token = token;
    this.onMessage = onMessage;
    this.onConnection = onConnection;
    this.url = url;
    /** @type {number|null} the version of the last view */
    this.version = null;
    this.attempt = 0;
    /** @type {WebSocket|null} */
    this.ws = null;
    this.closed = false;
    /** @type {ReturnType<typeof setTimeout>|undefined} */
    this.timer = undefined;
    /** @type {ReturnType<typeof setInterval>|undefined} */
    this.pinger = undefined;
  }

  open() {
    this.closed = false;
    this.connect();
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    clearInterval(this.pinger);
    if (this.ws) this.ws.close(1000);
  }

  /**
   * Send a client message; false when the socket is not open (nothing was sent).
   * @param {Record<string, unknown>} message
   */
  send(message) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(message));
      return true;
    }
    return false;
  }

  connect() {
    let ws;
    try {
      ws = new WebSocket(this.url);
    } catch {
      this.retry();
      return;
    }
    this.ws = ws;
    ws.addEventListener("open", () => ws.send(JSON.stringify(this.hello())));
    ws.addEventListener("message", (event) => this.receive(event.data));
    ws.addEventListener("close", (event) => {
      clearInterval(this.pinger);
      if (this.ws === ws) this.ws = null;
      if (event.code === SIGNED_OUT && !this.closed) {
        this.closed = true;
        signedOut(this.token());
        return;
      }
      if (!this.closed) this.retry(event.code === SERVICE_RESTART);
    });
    ws.addEventListener("error", () => {
      /* the close event follows and retries */
    });
  }

  /** @returns {Record<string, unknown>} */
  hello() {
    /** @type {Record<string, unknown>} */
    const hello = { type: "hello", room: this.room };
    const token = this.token();
    if (token) hello.token = token;
    if (Number.isInteger(this.version)) hello.version = this.version;
    return hello;
  }

  /** @param {boolean} [restart] the server closed the socket because it restarts (1012) */
  retry(restart = false) {
    const delay = retryDelay(this.attempt);
    this.attempt += 1;
    /** @type {Connection} */
    const state = { connected: false, retryIn: delay, attempt: this.attempt };
    if (restart) state.restart = true;
    this.onConnection(state);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), delay);
  }

  /** @param {string} raw */
  receive(raw) {
    /** @type {ServerMessage} */
    let msg;
    try {
      msg = JSON.parse(raw);
    } catch {
      return;
    }
    if (!msg || typeof msg !== "object") return;
    if (msg.type === "welcome") {
      this.attempt = 0;
      this.onConnection({ connected: true });
      clearInterval(this.pinger);
      this.pinger = setInterval(
        () => this.send({ type: "ping", t: Date.now() }),
        PING_MS,
      );
    }
    const known = this.version;
    if (msg.type === "view") {
      // A view is the whole state: anything not newer than what we have is a duplicate.
      if (known !== null && msg.version <= known) return;
      this.version = msg.version;
    } else if (msg.type === "event") {
      if (known !== null && msg.version <= known) return;
      // A gap: something was missed; still show this event, and ask for the full view.
      if (known !== null && msg.version > known + 1) this.send({ type: "resync" });
    }
    this.onMessage(msg);
  }
}

/** @param {Pick<Location, "protocol"|"host">} [loc] */
export function defaultUrl(loc = globalThis.location) {
  const scheme = loc.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${loc.host}/ws`;
}

/**
 * The lobby's live feed: `hello_lobby` on every (re)connect, then `lobby` snapshots and,
 * for a browser waiting for a quick match, `matched`. Same reconnect and keep-alive.
 */
export class LobbySocket extends GameSocket {
  /** @param {Omit<SocketOptions, "room">} options */
  constructor({ token, onMessage, onConnection, url = defaultUrl() }) {
    super({ room: null, token, onMessage, onConnection, url });
    this.live = false;
  }

  hello() {
    this.live = false;
    return { type: "hello_lobby", token: this.token() ?? null };
  }

  /** @param {string} raw */
  receive(raw) {
    /** @type {ServerMessage} */
    let msg;
    try {
      msg = JSON.parse(raw);
    } catch {
      return;
    }
    if (!msg || typeof msg !== "object") return;
    if (!this.live) {
      this.live = true;
      this.attempt = 0;
      this.onConnection({ connected: true });
      clearInterval(this.pinger);
      this.pinger = setInterval(
        () => this.send({ type: "ping", t: Date.now() }),
        PING_MS,
      );
    }
    this.onMessage(msg);
  }
}

// The reconnect schedule of the page's sockets: exponential, half of each wait random, so
// that the sockets of a restarting server (close code 1012, docs/protocol.md) or of a
// dropped network do not all come back in the same instant.

export const BACKOFF_BASE_MS = 500;
export const BACKOFF_MAX_MS = 15000;

/**
 * Milliseconds to wait before reconnect attempt `attempt` (0: the first after a drop):
 * between half and all of min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2^attempt).
 * @param {number} attempt
 * @param {() => number} [random]  a number in [0, 1)
 * @returns {number}
 */
export function retryDelay(attempt, random = Math.random) {
  const cap = Math.min(
    BACKOFF_MAX_MS,
    BACKOFF_BASE_MS * 2 ** Math.max(0, Math.min(attempt, 30)),
  );
  return Math.round(cap / 2 + (random() * cap) / 2);
}
