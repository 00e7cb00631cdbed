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

async function errorFrom(response: Response): Promise<ApiError> {
  const text = await response.text();
  try {
    const body = JSON.parse(text) as { detail?: Record<string, unknown> };
    const detail = body.detail ?? {};
    return new ApiError(
      response.status,
      typeof detail.code === "string" ? detail.code : "http_error",
      typeof detail.message === "string" ? detail.message : `HTTP ${response.status}`,
      typeof detail.details === "object" && detail.details !== null ? (detail.details as Record<string, unknown>) : {},
      typeof detail.request_id === "string" ? detail.request_id : undefined,
    );
  } catch {
    return new ApiError(response.status, "http_error", `HTTP ${response.status}`, {}, undefined);
  }
}

export async function request<T>(method: string, url: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { Accept: "application/json" };
  // a FormData body (a file upload) sets its own multipart Content-Type
  const form = body instanceof FormData;
  if (body !== undefined && !form) headers["Content-Type"] = "application/json";
  if (!SAFE_METHODS.has(method) && csrfToken) headers["X-CSRF-Token"] = csrfToken;
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
  if (!response.ok) {
    const error = await errorFrom(response);
    if (error.status === 401 && SESSION_GONE.has(error.code) && !url.endsWith("/app/session")) onSignedOut();
    throw error;
  }
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}
