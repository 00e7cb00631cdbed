/** Sliding-window rate limits (sql: app_public.rate_limit_hit). */
import type { Queryable } from "../request-transaction.ts";

export interface RateBucket {
  name: string;
  limit: number;
  windowSeconds: number;
}

export interface BucketState {
  bucket: string;
  rate_limit: number;
  /** requests left in the window after the granted ones */
  remaining: number;
  reset_at: number;
  retry_after_seconds: number | null;
}

export interface RateLimitGrant {
  /** hits counted for the caller: 1..want, or 0 when a bucket is full */
  granted: number;
  buckets: BucketState[];
}

export async function hitRateLimits(
  db: Queryable,
  keyId: string,
  buckets: readonly RateBucket[],
  want: number,
): Promise<RateLimitGrant> {
  const { rows } = await db.query<BucketState & { granted: number }>({
    name: "rate_limit_hit",
    text: `select bucket, rate_limit, remaining, reset_at, retry_after_seconds, granted
             from app_public.rate_limit_hit($1, $2, $3, $4, $5)`,
    values: [keyId, buckets.map((b) => b.name), buckets.map((b) => b.limit), buckets.map((b) => b.windowSeconds), want],
  });
  return {
    granted: rows[0]?.granted ?? 0,
    buckets: rows.map(({ granted: _granted, ...state }) => state),
  };
}

export async function pruneRateLimitSlots(db: Queryable, longestWindowSeconds: number): Promise<number> {
  const { rows } = await db.query<{ pruned: number }>(
    "select app_private.prune_rate_limit_slots(make_interval(secs => $1)) as pruned",
    [longestWindowSeconds],
  );
  return rows[0]?.pruned ?? 0;
}
