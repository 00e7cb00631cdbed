/**
 * Quota leases. A key whose limit is high enough that counting every request in Postgres is
 * the bottleneck has this process take a batch of hits from the shared window at once and
 * spend them here within LEASE_MS. Hits are counted before they are used, so a fleet never
 * admits more than the limit; a lease that expires half-spent only admits fewer (at most a
 * batch less per process and second). The batch is a hundredth of the key's smallest limit,
 * at most 100: a key at the default 120 a minute leases one at a time, i.e. is counted exactly
 * per request, as are the 30-an-hour cam-planning runs.
 */
import type { BucketState } from "../../../db/queries/rate-limits.ts";

const LEASE_MS = 1000;
const MAX_BATCH = 100;
const BATCH_FRACTION = 100;
/** entries not touched for this long are dropped when the book grows */
const FORGET_MS = 60_000;
const SWEEP_ABOVE = 10_000;

interface Lease {
  tokens: number;
  expiresAt: number;
  /** the buckets as the grant left them */
  buckets: BucketState[];
  /** what to ask for next time */
  batch: number;
  touchedAt: number;
}

export class LeaseBook {
  private readonly leases = new Map<string, Lease>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Spends a leased hit: the buckets as a client should see them, or null (ask Postgres). */
  take(id: string): BucketState[] | null {
    const lease = this.leases.get(id);
    const now = this.now();
    if (!lease || lease.tokens <= 0 || lease.expiresAt <= now) return null;
    lease.tokens -= 1;
    lease.touchedAt = now;
    return view(lease);
  }

  /** How many hits to ask Postgres for on this key's next call. */
  batchFor(id: string): number {
    return this.leases.get(id)?.batch ?? 1;
  }

  /** Records a grant of which this request spends one; returns what the client should see. */
  grant(id: string, granted: number, buckets: BucketState[]): BucketState[] {
    const now = this.now();
    const smallest = Math.min(...buckets.map((b) => b.rate_limit));
    const batch = Math.max(1, Math.min(MAX_BATCH, Math.floor(smallest / BATCH_FRACTION)));
    const live = this.leases.get(id);
    const carried = live && live.expiresAt > now ? live.tokens : 0;
    const lease = {
      tokens: carried + Math.max(0, granted - 1),
      expiresAt: now + LEASE_MS,
      buckets,
      batch,
      touchedAt: now,
    };
    this.leases.set(id, lease);
    if (this.leases.size > SWEEP_ABOVE) this.sweep(now);
    return view(lease);
  }

  private sweep(now: number): void {
    for (const [id, lease] of this.leases) {
      if (lease.touchedAt < now - FORGET_MS) this.leases.delete(id);
    }
  }
}

/** Counted hits not yet spent here are still the client's to use. */
function view(lease: Lease): BucketState[] {
  return lease.buckets.map((b) => ({ ...b, remaining: b.remaining + lease.tokens }));
}
