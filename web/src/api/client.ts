/**
 * JSON over fetch to the public API and the app routes, with the session's cookie and, on
 * every state-changing request, its CSRF token. A non-2xx answer throws ApiError carrying the
 * error envelope ({detail:{code,message,details,request_id}}) so a form can show it.
 */
export interface FieldIssue {
  field: string;
  code?: string;
  message: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown>,
    readonly requestId: string | undefined,
  ) {
    super(message);
  }

  /** the problems the API named per field: `body.url` is reported as `url` */
  fieldIssues(): FieldIssue[] {
    const fields = this.details.fields;
    if (!Array.isArray(fields)) return [];
    return fields.flatMap((entry: unknown) => {
      if (typeof entry !== "object" || entry === null) return [];
      const { field, code, message } = entry as Record<string, unknown>;
      if (typeof field !== "string" || typeof message !== "string") return [];
      return [{ field: field.replace(/^body\./, ""), message, ...(typeof code === "string" ? { code } : {}) }];
    });
  }
}

let csrfToken: string | null = null;

/** set when the session is read or made; cleared at sign-out */
export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

let onSignedOut: () => void = () => undefined;

/** called when the API says the session is gone (expired, or ended elsewhere) */
export function whenSignedOut(handler: () => void): void {
  onSignedOut = handler;
}

/** the codes of a request that carried no live session (the sign-in routes' own 401s are not these) */
const SESSION_GONE = new Set(["not_signed_in", "api_key_missing"]);

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** the API's error envelope read from an answer's body text; an answer without one keeps its status */
function envelopeError(status: number, text: string): ApiError {
  try {
    const body = JSON.parse(text) as { detail?: Record<string, unknown> };
    const detail = body.detail ?? {};
    return new ApiError(
      status,
      typeof detail.code === "string" ? detail.code : "http_error",
      typeof detail.message === "string" ? detail.message : `HTTP ${status}`,
      typeof detail.details === "object" && detail.details !== null ? (detail.details as Record<string, unknown>) : {},
      typeof detail.request_id === "string" ? detail.request_id : undefined,
    );
  } catch {
    return new ApiError(status, "http_error", `HTTP ${status}`, {}, undefined);
  }
}

/**
 * The error of a refused request to `url`, from its status and body text; a 401 saying the
 * session is gone also tells the app (whenSignedOut). Every way of calling the API ends here.
 */
export function refusal(url: string, status: number, text: string): ApiError {
  const error = envelopeError(status, text);
  if (error.status === 401 && SESSION_GONE.has(error.code) && !url.endsWith("/app/session")) onSignedOut();
  return error;
}

/** the CSRF header a request of this method must carry, if any */
export function csrfHeader(method: string): Record<string, string> {
  return !SAFE_METHODS.has(method) && csrfToken ? { "X-CSRF-Token": csrfToken } : {};
}

export async function request<T>(method: string, url: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { Accept: "application/json", ...csrfHeader(method) };
  // a FormData body (a file upload) sets its own multipart Content-Type
  const form = body instanceof FormData;
  if (body !== undefined && !form) headers["Content-Type"] = "application/json";
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers,
      credentials: "same-origin",
      ...(body !== undefined ? { body: form ? body : JSON.stringify(body) } : {}),
    });
  } catch {
    throw new ApiError(0, "network_error", "", {}, undefined);
  }
  if (!response.ok) throw refusal(url, response.status, await response.text());
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}
