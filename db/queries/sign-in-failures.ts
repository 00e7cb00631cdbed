/** Failed sign-ins per subject, an address or an account (sql: app_public.sign_in_blocked, 000014). */
import type { Queryable } from "../request-transaction.ts";

export interface SignInLimit {
  subject: string;
  limit: number;
}

export interface Blocked {
  subject: string;
  retry_after_seconds: number;
}

/** the subjects at their limit, and for how long; empty when none is */
export async function signInBlocked(
  db: Queryable,
  limits: readonly SignInLimit[],
  windowSeconds: number,
): Promise<Blocked[]> {
  const { rows } = await db.query<Blocked>(
    "select subject, retry_after_seconds from app_public.sign_in_blocked($1, $2, $3)",
    [limits.map((l) => l.subject), limits.map((l) => l.limit), windowSeconds],
  );
  return rows;
}

export async function recordSignInFailure(
  db: Queryable,
  subjects: readonly string[],
  windowSeconds: number,
): Promise<void> {
  await db.query("select app_public.record_sign_in_failure($1, $2)", [subjects, windowSeconds]);
}
