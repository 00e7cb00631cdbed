/** Idempotency records (sql: app_public.idempotency_*). */
import type { KeyCredential, Queryable } from "../request-transaction.ts";

export type ClaimOutcome =
  | { outcome: "claimed"; claimToken: string }
  | { outcome: "replay"; status: number; headers: Record<string, string>; body: Buffer | null }
  | { outcome: "in_flight" }
  | { outcome: "mismatch" };

interface ClaimRow {
  outcome: "claimed" | "replay" | "in_flight" | "mismatch";
  claim_token: string | null;
  response_status: number | null;
  response_headers: Record<string, string> | null;
  response_body: Buffer | null;
}

export async function claimIdempotencyKey(
  db: Queryable,
  credential: KeyCredential,
  request: { key: string; method: string; path: string; hash: Buffer; lockSeconds: number },
): Promise<ClaimOutcome> {
  const { rows } = await db.query<ClaimRow>("select * from app_public.idempotency_claim($1, $2, $3, $4, $5, $6, $7)", [
    credential.prefix,
    credential.hash,
    request.key,
    request.method,
    request.path,
    request.hash,
    request.lockSeconds,
  ]);
  const row = rows[0]!;
  switch (row.outcome) {
    case "claimed":
      return { outcome: "claimed", claimToken: row.claim_token! };
    case "replay":
      return {
        outcome: "replay",
        status: row.response_status!,
        headers: row.response_headers ?? {},
        body: row.response_body,
      };
    default:
      return { outcome: row.outcome };
  }
}

export async function completeIdempotencyKey(
  db: Queryable,
  credential: KeyCredential,
  key: string,
  claimToken: string,
  response: { status: number; headers: Record<string, string>; body: Buffer | null },
): Promise<void> {
  await db.query("select app_public.idempotency_complete($1, $2, $3, $4, $5, $6, $7)", [
    credential.prefix,
    credential.hash,
    key,
    claimToken,
    response.status,
    JSON.stringify(response.headers),
    response.body,
  ]);
}

export async function releaseIdempotencyKey(
  db: Queryable,
  credential: KeyCredential,
  key: string,
  claimToken: string,
): Promise<void> {
  await db.query("select app_public.idempotency_release($1, $2, $3, $4)", [
    credential.prefix,
    credential.hash,
    key,
    claimToken,
  ]);
}

/** Extends a claim's lock while its request runs; false once the claim is lost. */
export async function renewIdempotencyKey(
  db: Queryable,
  credential: KeyCredential,
  key: string,
  claimToken: string,
  lockSeconds: number,
): Promise<boolean> {
  const { rows } = await db.query<{ renewed: boolean }>(
    "select app_public.idempotency_renew($1, $2, $3, $4, $5) as renewed",
    [credential.prefix, credential.hash, key, claimToken, lockSeconds],
  );
  return rows[0]?.renewed === true;
}

/** Seconds until the claim in flight on this key may be taken over; null when none is. */
export async function idempotencyRetryAfter(
  db: Queryable,
  credential: KeyCredential,
  key: string,
): Promise<number | null> {
  const { rows } = await db.query<{ seconds: number | null }>(
    "select app_public.idempotency_retry_after($1, $2, $3) as seconds",
    [credential.prefix, credential.hash, key],
  );
  return rows[0]?.seconds ?? null;
}

export async function expireIdempotencyRecords(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ expired: number }>("select app_private.expire_idempotency_records() as expired");
  return rows[0]?.expired ?? 0;
}
