/**
 * The API's error envelope on a form: a message above it (with the request id, for support),
 * and each field's problem beside that field (details.fields names it).
 */
import { ApiError } from "../api/client.ts";
import { fill, useI18n } from "../i18n/index.ts";

export function errorMessage(error: unknown, t: ReturnType<typeof useI18n>["t"]): string {
  if (error instanceof ApiError) {
    if (error.code === "network_error") return t.networkError;
    const retry = error.details.retry_after_seconds;
    if (error.status === 429 && typeof retry === "number")
      return `${error.message} ${fill(t.signIn.retryAfter, { seconds: retry })}`;
    return error.message;
  }
  return error instanceof Error ? error.message : String(error);
}

/** the problem the API named for one field, if any */
export function fieldError(error: unknown, field: string): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  return error.fieldIssues().find((issue) => issue.field === field)?.message;
}

export function FormError({ error, id }: { error: unknown; id?: string }) {
  const { t } = useI18n();
  if (error === null || error === undefined) return null;
  const requestId = error instanceof ApiError ? error.requestId : undefined;
  return (
    <div class="form-error" role="alert" id={id}>
      <p>{errorMessage(error, t)}</p>
      {requestId ? (
        <p class="muted small">
          {t.requestId}: <code>{requestId}</code>
        </p>
      ) : null}
    </div>
  );
}

export function FieldError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p class="field-error" id={id}>
      {message}
    </p>
  );
}
