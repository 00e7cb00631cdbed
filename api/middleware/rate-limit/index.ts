/**
 * Per-key sliding-window rate limits, counted in Postgres so every API process shares them.
 *
 * Every route counts against the `default` bucket (RATE_LIMIT_PER_MINUTE per 60 s); a route
 * may add its own (cam-planning: 30 per hour). The X-RateLimit-* headers describe the bucket
 * closest to its limit. X-RateLimit-Reset is when that bucket's window is entirely clear
 * again; Retry-After on a 429 is the sooner moment one more request fits. Keys with high
 * limits are counted in leased batches (leases.ts).
 */
import type { RequestHandler } from "express";
import type pg from "pg";
import { hitRateLimits, type BucketState, type RateBucket } from "../../../db/queries/rate-limits.ts";
import { rateLimitExceeded } from "../../../http/errors/index.ts";
import { LeaseBook } from "./leases.ts";

export type { RateBucket } from "../../../db/queries/rate-limits.ts";

function describe(bucket: BucketState, windowSeconds: number): string {
  const per = windowSeconds === 60 ? "minute" : windowSeconds === 3600 ? "hour" : `${windowSeconds} s`;
  return `${bucket.rate_limit} requests per ${per}${bucket.bucket === "default" ? "" : ` for ${bucket.bucket}`}`;
}

export function rateLimit(pool: pg.Pool, buckets: readonly RateBucket[], leases = new LeaseBook()): RequestHandler {
  const windows = new Map(buckets.map((b) => [b.name, b.windowSeconds]));
  const bucketSet = buckets.map((b) => b.name).join("+");
  return async (_req, res, next) => {
    const auth = res.locals.auth;
    if (!auth) throw new Error("rateLimit needs an authenticated key");
    const leaseId = `${auth.keyId}:${bucketSet}`;
    let states = leases.take(leaseId);
    if (!states) {
      const grant = await hitRateLimits(pool, auth.keyId, buckets, leases.batchFor(leaseId));
      states = grant.granted > 0 ? leases.grant(leaseId, grant.granted, grant.buckets) : grant.buckets;
    }
    // a request fits again only when every bucket has room: the longest wait is the one to report
    const blocked = states
      .filter((s) => s.retry_after_seconds !== null)
      .reduce<BucketState | undefined>(
        (a, b) => (a && (a.retry_after_seconds ?? 0) >= (b.retry_after_seconds ?? 0) ? a : b),
        undefined,
      );
    const shown = blocked ?? states.reduce((a, b) => (b.remaining < a.remaining ? b : a));
    res.setHeader("X-RateLimit-Limit", String(shown.rate_limit));
    res.setHeader("X-RateLimit-Remaining", String(shown.remaining));
    res.setHeader("X-RateLimit-Reset", String(shown.reset_at));
    if (blocked) {
      const retryAfter = blocked.retry_after_seconds ?? 1;
      const window = windows.get(blocked.bucket) ?? 60;
      throw rateLimitExceeded(`rate limit exceeded: ${describe(blocked, window)}`, {
        retryAfterSeconds: retryAfter,
        limit: blocked.rate_limit,
        windowSeconds: window,
        bucket: blocked.bucket,
      });
    }
    next();
  };
}
