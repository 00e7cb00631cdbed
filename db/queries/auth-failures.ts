/** Failed key attempts per client address (sql: app_public.record_auth_failure, 000010). */
import type { Queryable } from "../request-transaction.ts";

export interface AuthFailureCount {
  failures: number;
  /** set when the address is at its limit: whole seconds until it is under again */
  retry_after_seconds: number | null;
}

export async function recordAuthFailure(
  db: Queryable,
  address: string,
  limit: number,
  windowSeconds: number,
): Promise<AuthFailureCount> {
  const { rows } = await db.query<AuthFailureCount>({
    name: "record_auth_failure",
    text: "select failures, retry_after_seconds from app_public.record_auth_failure($1, $2, $3)",
    values: [address, limit, windowSeconds],
  });
  return rows[0] ?? { failures: 0, retry_after_seconds: null };
}
