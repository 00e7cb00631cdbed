/**
 * Errors that mean "the database is not there right now", as opposed to "the database refused
 * this statement": the server is stopped, starting, shutting down or restarting, an operator
 * ended the session (pg_terminate_backend), the socket broke, or no connection could be had in
 * time. The API answers them 503 database_unavailable (http/errors); the workers wait
 * them out (workers/runner.ts). Nothing of the statement that met one is known to have happened
 * unless its transaction's COMMIT came back.
 */

/** SQLSTATEs of a lost or refused connection. */
const CONNECTION_SQLSTATES = new Set([
  "57P01", // admin_shutdown: fast shutdown, or pg_terminate_backend
  "57P02", // crash_shutdown: another backend crashed, the server resets every session
  "57P03", // cannot_connect_now: the server is starting up or shutting down
  "53300", // too_many_connections
]);

/** Node socket errors (code) met while connecting to or talking with the server. */
const SOCKET_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
]);

/** What node-postgres throws, without a code, when its connection is gone or never came. */
const PG_CLIENT_MESSAGES = [
  /^Connection terminated/, // "Connection terminated unexpectedly", "... due to connection timeout"
  /^Client has encountered a connection error and is not queryable$/,
  /^Client was closed and is not queryable$/,
  /^timeout exceeded when trying to connect$/,
];

interface ErrorLike {
  code?: unknown;
  syscall?: unknown;
  message?: unknown;
}

export function isConnectionError(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const { code, syscall, message } = error as ErrorLike;
  if (typeof code === "string") {
    // class 08: connection exception (08000, 08001, 08003, 08004, 08006, 08P01)
    if (/^08[0-9A-Z]{3}$/.test(code) || CONNECTION_SQLSTATES.has(code)) return true;
    if (SOCKET_CODES.has(code)) return true;
    // a Unix socket that is not there: the server is stopped (it removes its socket file)
    if (code === "ENOENT" && syscall === "connect") return true;
  }
  return typeof message === "string" && PG_CLIENT_MESSAGES.some((pattern) => pattern.test(message));
}
