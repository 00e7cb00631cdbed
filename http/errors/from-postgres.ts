/**
 * Postgres errors a request can legitimately cause, mapped to HTTP. Our own SQLSTATEs come
 * from sql/migrations (SWAUT, SWSES, SWSCP, SWIDL, SWREF); the others are constraint and input
 * errors that validation should have caught but the database enforces too.
 *
 * A database that is not there (stopped, restarting, the session ended by an operator, the
 * socket broken: db/connection-errors.ts) is 503 database_unavailable with Retry-After. The
 * request's transaction did not commit, unless the connection broke during its COMMIT: a POST
 * is safe to send again with the same Idempotency-Key.
 */
import { isConnectionError } from "../../db/connection-errors.ts";
import { HttpError, invalidParameter } from "./http-error.ts";

/** what a client is told to wait before retrying; a restart of the server takes a few seconds */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

export function databaseUnavailable(): HttpError {
  return new HttpError(
    503,
    "database_unavailable",
    "the database is unavailable right now; retry after Retry-After seconds (a POST with the same Idempotency-Key)",
    { retry_after_seconds: DATABASE_RETRY_AFTER_SECONDS },
    { "Retry-After": String(DATABASE_RETRY_AFTER_SECONDS) },
  );
}

interface PgError {
  code: string;
  message: string;
  detail?: string;
  hint?: string;
  constraint?: string;
  column?: string;
}

function isPgError(error: unknown): error is PgError {
  return (
    typeof error === "object" &&
    error !== null &&
    typeof (error as { code?: unknown }).code === "string" &&
    /^[0-9A-Z]{5}$/.test((error as { code: string }).code) &&
    "severity" in error
  );
}

export function httpErrorFromPostgres(error: unknown): HttpError | null {
  if (isConnectionError(error)) return databaseUnavailable();
  if (!isPgError(error)) return null;
  switch (error.code) {
    case "SWAUT":
      return new HttpError(401, "api_key_invalid", "the API key is unknown or has been revoked");
    case "SWSES":
      return new HttpError(401, "not_signed_in", "you are not signed in, or your session has ended: sign in again");
    case "SWSCP": {
      const missing = (error.detail ?? "").split(" ").filter(Boolean);
      return new HttpError(403, "insufficient_scope", `the API key lacks the scope ${missing.join(", ")}`, {
        missing_scopes: missing,
      });
    }
    case "SWIDL":
      return new HttpError(
        409,
        "idempotency_request_in_flight",
        "another request with this Idempotency-Key took over; retry to see its response",
      );
    case "SWREF":
      return invalidParameter([
        { field: `body.${error.hint ?? "id"}`, code: "unknown_reference", message: error.message },
      ]);
    case "22P02": // invalid text representation
    case "22003": // numeric out of range
    case "22007": // invalid datetime
    case "23514": // check constraint
    case "23502": // not null
      return invalidParameter(
        [
          {
            field: error.column ? `body.${error.column}` : (error.constraint ?? "body"),
            code: "rejected",
            message: error.message,
          },
        ],
        "the database rejected a value",
      );
    // U+0000 is a valid JSON and URL character that Postgres cannot store: in text it is
    // 22021 (an invalid byte sequence), in jsonb 22P05. It can arrive in any string a request
    // carries (a path parameter, a query value, a body field or a free-form JSON object), so
    // it is refused here, where all of them end up, instead of answering 500.
    case "22021": // character not in repertoire
    case "22P05": // untranslatable character
      return invalidParameter(
        [
          {
            field: "request",
            code: "invalid_character",
            message: "a value contains the character U+0000, which cannot be stored",
          },
        ],
        "a value contains the character U+0000, which cannot be stored",
      );
    case "23505":
      return new HttpError(409, "conflict", "a resource with these values exists already", {
        constraint: error.constraint ?? null,
      });
    case "42501": // RLS refused a row: the caller may not touch it
      return new HttpError(403, "forbidden", "this resource may not be changed with this key");
    case "55P03": // lock not available
    case "40001": // serialization failure
    case "40P01": // deadlock
      return new HttpError(409, "conflict", "the resource is being changed by another request; retry");
    default:
      return null;
  }
}
