/**
 * The one error type for HTTP errors. Anything thrown that is not an HttpError (nor a
 * recognised body-parser or Postgres error) becomes a 500 `internal_error`.
 */
export type ErrorDetails = Record<string, unknown>;

export class HttpError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: ErrorDetails;
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    code: string,
    message: string,
    details: ErrorDetails = {},
    headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "HttpError";
    this.status = status;
    this.code = code;
    this.details = details;
    this.headers = headers;
  }
}

/** A field-level problem, as listed in `details.fields` of a 400 `invalid_parameter`. */
export interface FieldIssue {
  /** where: `body.name`, `query.limit`, `path.project_id` */
  field: string;
  code: string;
  message: string;
}

export function invalidParameter(fields: FieldIssue[], message?: string): HttpError {
  const summary = message ?? `invalid ${fields.map((f) => f.field).join(", ")}`;
  return new HttpError(400, "invalid_parameter", summary, { fields });
}

export function notFound(what: string, id: string): HttpError {
  return new HttpError(404, "not_found", `${what} ${id} does not exist`, { resource: what, id });
}

/**
 * 429 in the spec's form (code validation_error, the limit named in the message,
 * details.retry_after_seconds, Retry-After) for every limit: per key, per route, per address.
 */
export function rateLimitExceeded(
  message: string,
  limit: { retryAfterSeconds: number; limit: number; windowSeconds: number; bucket: string },
): HttpError {
  return new HttpError(
    429,
    "validation_error",
    message,
    {
      retry_after_seconds: limit.retryAfterSeconds,
      limit: limit.limit,
      window_seconds: limit.windowSeconds,
      bucket: limit.bucket,
    },
    { "Retry-After": String(limit.retryAfterSeconds) },
  );
}
