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
  const cap = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, Math.min(attempt, 30)));
  return Math.round(cap / 2 + (random() * cap) / 2);
}
