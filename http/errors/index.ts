/**
 * Error responses in the spec's envelope, for everything: our HttpErrors, body-parser
 * failures, Postgres errors a request can cause, a database that is unreachable (503
 * database_unavailable with Retry-After), unknown routes, and the unexpected (500, logged with
 * the request id, never with the cause in the body).
 *
 *   { "detail": { "code", "message", "details", "request_id" } }
 */
import type { ErrorRequestHandler, Request, Response } from "express";
import { log } from "../../config/logger.ts";
import { readRestAfterAnswer } from "../refused-body/index.ts";
import { httpErrorFromPostgres } from "./from-postgres.ts";
import { HttpError, invalidParameter } from "./http-error.ts";

export { HttpError, invalidParameter, notFound, rateLimitExceeded, type FieldIssue } from "./http-error.ts";

function sendError(req: Request, res: Response, error: HttpError): void {
  readRestAfterAnswer(req, res);
  for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
  res.status(error.status).json({
    detail: {
      code: error.code,
      message: error.message,
      details: error.details,
      request_id: res.locals.requestId ?? "",
    },
  });
}

interface BodyParserError {
  type: string;
  status?: number;
  limit?: number;
}

function isBodyParserError(error: unknown): error is BodyParserError {
  return (
    typeof error === "object" &&
    error !== null &&
    typeof (error as { type?: unknown }).type === "string" &&
    typeof (error as { status?: unknown }).status === "number"
  );
}

function httpErrorFromBodyParser(error: unknown): HttpError | null {
  if (!isBodyParserError(error)) return null;
  switch (error.type) {
    case "entity.too.large":
      return new HttpError(413, "payload_too_large", `the request body exceeds ${error.limit} bytes`, {
        limit_bytes: error.limit,
      });
    case "entity.parse.failed":
      return new HttpError(400, "malformed_json", "the request body is not valid JSON");
    case "encoding.unsupported":
    case "charset.unsupported":
      return new HttpError(415, "unsupported_media_type", "the request body's encoding or charset is not supported");
    case "request.aborted":
      return new HttpError(400, "request_aborted", "the client aborted the request");
    default:
      return new HttpError(400, "bad_request", "the request body could not be read");
  }
}

/**
 * Express's router percent-decodes path parameters before any route runs; a parameter that is
 * not valid percent-encoded UTF-8 (`%`, `%zz`, `%E0%A4%A`) fails there with a URIError it marks
 * 400, which is the client's and was answered 500.
 */
function httpErrorFromRouter(error: unknown): HttpError | null {
  if (!(error instanceof URIError) || (error as { status?: unknown }).status !== 400) return null;
  return invalidParameter(
    [{ field: "path", code: "invalid_encoding", message: "a path parameter is not valid percent-encoded UTF-8" }],
    "a path parameter is not valid percent-encoded UTF-8",
  );
}

function toHttpError(error: unknown): HttpError | null {
  if (error instanceof HttpError) return error;
  return httpErrorFromBodyParser(error) ?? httpErrorFromRouter(error) ?? httpErrorFromPostgres(error);
}

export const errorHandler: ErrorRequestHandler = (error, req, res, _next) => {
  const known = toHttpError(error);
  if (res.headersSent) {
    log.error({ err: error, requestId: res.locals.requestId }, "error after the response started");
    res.destroy();
    return;
  }
  if (known) {
    // a 503 is the service's fault, if a passing one (database_unavailable): the operator hears of it
    if (known.status >= 500) {
      log.warn(
        {
          requestId: res.locals.requestId,
          code: known.code,
          cause: error instanceof Error ? error.message : String(error),
        },
        "request failed: service unavailable",
      );
    }
    sendError(req, res, known);
    return;
  }
  log.error({ err: error, requestId: res.locals.requestId, method: req.method, path: req.path }, "unhandled error");
  sendError(req, res, new HttpError(500, "internal_error", "the server failed to handle this request"));
};
