/**
 * Throttles key guessing per client address. Every unknown or malformed key is counted in
 * Postgres (shared by the fleet's API processes); an address that reaches the limit within
 * the window is refused with 429 until enough of its failures leave the window. A missing key
 * is not counted (nothing is guessed), and a valid key still passes (clients behind the same
 * address as a guesser keep working: the authenticator looks a well-formed key up before it
 * asks here).
 *
 * Each process learns that an address is blocked from its own counting call, so a fleet of N
 * processes admits at most N - 1 guesses beyond the limit. The address is Express's req.ip:
 * behind a reverse proxy set TRUST_PROXY, or every client is the proxy.
 */
import type pg from "pg";
import { recordAuthFailure } from "../../../db/queries/auth-failures.ts";
import { rateLimitExceeded, type HttpError } from "../../../http/errors/index.ts";

export interface FailedAttemptLimit {
  limit: number;
  windowSeconds: number;
}

/** bound on remembered blocked addresses; the oldest goes first */
const MAX_BLOCKED = 10_000;

export class FailedAttempts {
  private readonly blockedUntil = new Map<string, number>();

  constructor(
    private readonly pool: pg.Pool,
    private readonly limits: FailedAttemptLimit,
    private readonly now: () => number = Date.now,
  ) {}

  /** 429 while the address is blocked */
  check(address: string): void {
    const until = this.blockedUntil.get(address);
    if (until === undefined) return;
    const left = until - this.now();
    if (left <= 0) {
      this.blockedUntil.delete(address);
      return;
    }
    throw this.refusal(Math.ceil(left / 1000));
  }

  /** counts a failure of the address; a failure that reaches the limit blocks the ones after it */
  async record(address: string): Promise<void> {
    const count = await recordAuthFailure(this.pool, address, this.limits.limit, this.limits.windowSeconds);
    if (count.retry_after_seconds === null) return;
    this.blockedUntil.delete(address);
    this.blockedUntil.set(address, this.now() + count.retry_after_seconds * 1000);
    if (this.blockedUntil.size > MAX_BLOCKED) {
      const oldest = this.blockedUntil.keys().next().value;
      if (oldest !== undefined) this.blockedUntil.delete(oldest);
    }
  }

  private refusal(retryAfter: number): HttpError {
    const { limit, windowSeconds } = this.limits;
    const per =
      windowSeconds % 60 === 0
        ? `${windowSeconds / 60} minute${windowSeconds === 60 ? "" : "s"}`
        : `${windowSeconds} s`;
    return rateLimitExceeded(`rate limit exceeded: ${limit} failed API key attempts per ${per} from one address`, {
      retryAfterSeconds: retryAfter,
      limit,
      windowSeconds,
      bucket: "failed_authentications",
    });
  }
}
