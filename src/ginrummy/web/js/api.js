// The HTTP part of the protocol (docs/protocol.md): identity, rooms, levels, own games,
// and public play (player, lobby, quick match, statistics, leaderboard).
const TOKEN_KEY = "ginrummy.token";

export class ApiError extends Error {
  /**
   * @param {number} status   the HTTP status (0: no answer)
   * @param {string} code     the error code of docs/protocol.md
   * @param {string} message
   */
  constructor(status, code, message) {
    super(message || code);
    this.status = status;
    this.code = code;
  }
}

export function storedToken() {
  try {
    return localStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

/**
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @param {string|null} [token]
 * @returns {Promise<any>} the JSON answer (shapes in docs/protocol.md)
 */
async function request(method, path, body, token) {
  /** @type {Record<string, string>} */
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (err) {
    throw new ApiError(0, "network", String(err));
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const error = data?.error ?? {};
    throw new ApiError(
      response.status,
      error.code ?? `http_${response.status}`,
      error.message ?? "",
    );
  }
  return data;
}

/**
 * Keep a device token the server gave on a sign-in: this browser is the account's now.
 * @param {string} token
 */
export function adoptToken(token) {
  try {
    localStorage.setItem(TOKEN_KEY, token);
  } catch {
    /* kept for this page only */
  }
}

/** Forget this browser's token (its identity was deleted): the next call makes a new one. */
export function forgetToken() {
  try {
    localStorage.removeItem(TOKEN_KEY);
  } catch {
    /* nothing kept */
  }
}

/** @type {Promise<string>|null} */
let creating = null;

/**
 * This browser's identity token, created once and kept in localStorage.
 * @returns {Promise<string>}
 */
export async function ensureToken() {
  const existing = storedToken();
  if (existing) return existing;
  // One identity per browser, even when several callers ask at once.
  creating ??= request("POST", "/api/identity", {})
    .then((data) => {
      try {
        localStorage.setItem(TOKEN_KEY, data.token);
      } catch {
        /* kept for this page only */
      }
      return data.token;
    })
    .finally(() => {
      creating = null;
    });
  return creating;
}

/**
 * Run `fn(token)`; if the server no longer knows the token, make a new one once.
 * @template T
 * @param {(token: string) => Promise<T>} fn
 * @returns {Promise<T>}
 */
async function withToken(fn) {
  const token = await ensureToken();
  try {
    return await fn(token);
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) {
      // Only forget the token that failed: another caller may already have a fresh one.
      if (storedToken() === token) {
        try {
          localStorage.removeItem(TOKEN_KEY);
        } catch {
          /* ignore */
        }
      }
      return fn(await ensureToken());
    }
    throw err;
  }
}

export const api = {
  levels: () => request("GET", "/api/levels"),
  config: () => request("GET", "/api/config"),
  me: () => withToken((token) => request("GET", "/api/me", undefined, token)),
  createRoom: (/** @type {Record<string, unknown>} */ body) =>
    withToken((token) => request("POST", "/api/rooms", body, token)),
  room: (/** @type {string} */ id) => {
    const token = storedToken();
    return request("GET", `/api/rooms/${encodeURIComponent(id)}`, undefined, token);
  },
  join: (/** @type {string} */ id, /** @type {string} */ name) =>
    withToken((token) =>
      request("POST", `/api/rooms/${encodeURIComponent(id)}/join`, { name }, token),
    ),
  rename: (/** @type {string} */ name) =>
    withToken((token) => request("PUT", "/api/me", { name }, token)),
  lobby: () => request("GET", "/api/lobby"),
  quick: (/** @type {Record<string, unknown>} */ body) =>
    withToken((token) => request("POST", "/api/quick", body, token)),
  leaveQuick: () =>
    withToken((token) => request("DELETE", "/api/quick", undefined, token)),
  player: (/** @type {string} */ id) =>
    request("GET", `/api/players/${encodeURIComponent(id)}`),
  leaderboard: () => request("GET", "/api/leaderboard"),
  tournament: (/** @type {string} */ id) =>
    request("GET", `/api/tournaments/${encodeURIComponent(id)}`),
  createTournament: (/** @type {Record<string, unknown>} */ body) =>
    withToken((token) => request("POST", "/api/tournaments", body, token)),
  tournamentCommand: (/** @type {string} */ id, /** @type {string} */ what) =>
    withToken((token) =>
      request("POST", `/api/tournaments/${encodeURIComponent(id)}/${what}`, {}, token),
    ),
  // Chouette rooms (docs/protocol.md, "Chouette rooms").
  createChouette: (/** @type {Record<string, unknown>} */ body) =>
    withToken((token) => request("POST", "/api/chouette", body, token)),
  chouette: (/** @type {string} */ id) =>
    request("GET", `/api/chouette/${encodeURIComponent(id)}`, undefined, storedToken()),
  joinChouette: (/** @type {string} */ id, /** @type {string} */ name) =>
    withToken((token) =>
      request("POST", `/api/chouette/${encodeURIComponent(id)}/join`, { name }, token),
    ),
  // Accounts (docs/accounts.md): passkeys, devices, one-time codes.
  account: () => withToken((token) => request("GET", "/api/account", undefined, token)),
  passkeyOptions: (
    /** @type {string|null} */ name,
    /** @type {unknown} */ confirm = null,
  ) =>
    withToken((token) =>
      request(
        "POST",
        "/api/account/passkeys/options",
        name ? { name } : confirm ? { confirm } : {},
        token,
      ),
    ),
  confirmOptions: () =>
    withToken((token) => request("POST", "/api/account/confirm/options", {}, token)),
  registerPasskey: (/** @type {unknown} */ credential) =>
    withToken((token) => request("POST", "/api/account/passkeys", { credential }, token)),
  signInOptions: () => request("POST", "/api/account/sign-in/options", {}),
  signIn: (/** @type {unknown} */ credential) =>
    request("POST", "/api/account/sign-in", { credential }),
  newCode: () => withToken((token) => request("POST", "/api/account/codes", {}, token)),
  signInByCode: (/** @type {string} */ code) =>
    request("POST", "/api/account/sign-in/code", { code }),
  signOut: (/** @type {string} */ id, /** @type {unknown} */ confirm = null) =>
    withToken((token) =>
      request(
        "DELETE",
        `/api/account/devices/${encodeURIComponent(id)}`,
        confirm ? { confirm } : undefined,
        token,
      ),
    ),
  // Civility (docs/protocol.md, "Civility"): reports, blocks, one's conduct.
  report: (/** @type {Record<string, unknown>} */ body) =>
    withToken((token) => request("POST", "/api/reports", body, token)),
  blocks: () => withToken((token) => request("GET", "/api/me/blocks", undefined, token)),
  block: (/** @type {string} */ id) =>
    withToken((token) =>
      request("PUT", `/api/me/blocks/${encodeURIComponent(id)}`, undefined, token),
    ),
  unblock: (/** @type {string} */ id) =>
    withToken((token) =>
      request("DELETE", `/api/me/blocks/${encodeURIComponent(id)}`, undefined, token),
    ),
  conduct: () =>
    withToken((token) => request("GET", "/api/me/conduct", undefined, token)),
  // The operators' console (docs/operations.md): every route refuses anyone else.
  admin: (/** @type {string} */ path) =>
    withToken((token) => request("GET", `/api/admin${path}`, undefined, token)),
  adminAct: (/** @type {Record<string, unknown>} */ body) =>
    withToken((token) => request("POST", "/api/admin/actions", body, token)),
  // Your data (docs/accounts.md): the export, and the deletion of this identity.
  exportData: () =>
    withToken((token) => request("GET", "/api/me/export", undefined, token)),
  deleteMe: () =>
    withToken((token) => request("POST", "/api/me/delete", { confirm: true }, token)),
  // Friends and challenges (docs/accounts.md, "Friends").
  friends: () => withToken((token) => request("GET", "/api/friends", undefined, token)),
  befriend: (/** @type {{name?: string, player?: string}} */ who) =>
    withToken((token) => request("POST", "/api/friends", who, token)),
  unfriend: (/** @type {string} */ player) =>
    withToken((token) =>
      request("DELETE", `/api/friends/${encodeURIComponent(player)}`, undefined, token),
    ),
  friendSettings: (/** @type {Record<string, boolean>} */ body) =>
    withToken((token) => request("PUT", "/api/friends/settings", body, token)),
  challenge: (/** @type {Record<string, unknown>} */ body) =>
    withToken((token) => request("POST", "/api/challenges", body, token)),
  acceptChallenge: (/** @type {string} */ id) =>
    withToken((token) =>
      request("POST", `/api/challenges/${encodeURIComponent(id)}/accept`, {}, token),
    ),
  declineChallenge: (/** @type {string} */ id) =>
    withToken((token) =>
      request("POST", `/api/challenges/${encodeURIComponent(id)}/decline`, {}, token),
    ),
  withdrawChallenge: (/** @type {string} */ id) =>
    withToken((token) =>
      request("DELETE", `/api/challenges/${encodeURIComponent(id)}`, undefined, token),
    ),
  // Starts the review job (POST), then polls it (GET): docs/protocol.md, "Reviews".
  review: (/** @type {string} */ id, /** @type {string} */ seat, start = false) =>
    request(
      start ? "POST" : "GET",
      `/api/rooms/${encodeURIComponent(id)}/review?seat=${seat}`,
      undefined,
      storedToken(),
    ),
};

/** GET /api/config, retried until the server answers: every page uses its limits. */
export async function configUntilAnswered() {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await api.config();
    } catch (err) {
      console.warn("GET /api/config failed, retrying", err);
      await new Promise((resolve) =>
        setTimeout(resolve, Math.min(10000, 500 * 2 ** attempt)),
      );
    }
  }
}
