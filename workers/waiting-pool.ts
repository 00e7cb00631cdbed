/**
 * The worker's connection pool. Its connect() waits out a database that is away (stopped,
 * restarting, refusing connections while it starts: db/connection-errors.ts) instead of failing:
 * graphile-worker records a job's completion or failure without awaiting it, and a rejection
 * there used to end the whole worker process (an unhandled rejection) when a job finished
 * while the database was down. Waiting, the completion is written once the database is back,
 * and the tasks' own database calls (progress, the saved result) wait the same way.
 *
 * A connection is checked with a round trip before it is handed out, so one the server closed
 * while it sat in the pool is replaced rather than failing the caller's statement. A statement
 * on a connection that breaks after that check still fails at once: a job completion that meets
 * one (the server going down within that statement) still ends the process, whose jobs the
 * other workers then recover (workers/leases.ts). pool.query() with a callback (the lease
 * rounds) does not wait either: a round that fails is logged and skipped.
 */
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { log } from "../config/logger.ts";
import { isConnectionError } from "../db/connection-errors.ts";
import { survivingLostConnections } from "../db/pools.ts";

type ConnectCallback = (
  err: Error | undefined,
  client: pg.PoolClient | undefined,
  done: (release?: unknown) => void,
) => void;

export interface WaitOptions {
  /** first pause between attempts; it doubles up to maxDelayMs */
  minDelayMs: number;
  maxDelayMs: number;
}

const DEFAULT_WAIT: WaitOptions = { minDelayMs: 100, maxDelayMs: 2000 };

export class WaitingPool extends pg.Pool {
  private readonly giveUp = new AbortController();
  private readonly wait: WaitOptions;
  /** when this pool first failed to connect in the current outage; null while connected */
  private awaySince: number | null = null;
  private readonly logger = log.child({ component: "worker-pool" });

  constructor(config: pg.PoolConfig, wait: Partial<WaitOptions> = {}) {
    super(config);
    this.wait = { ...DEFAULT_WAIT, ...wait };
    survivingLostConnections(this);
  }

  override connect(): Promise<pg.PoolClient>;
  override connect(callback: ConnectCallback): void;
  override connect(callback?: ConnectCallback): Promise<pg.PoolClient> | undefined {
    if (callback) {
      super.connect(callback);
      return;
    }
    return this.connectWaiting();
  }

  /** Waiting connects fail with their last error from now on (the process is stopping). */
  stopWaiting(): void {
    this.giveUp.abort();
  }

  /** How long the database has been unreachable, in ms; 0 when it answers. */
  unreachableForMs(): number {
    return this.awaySince === null ? 0 : Date.now() - this.awaySince;
  }

  private async connectWaiting(): Promise<pg.PoolClient> {
    let delay = this.wait.minDelayMs;
    for (;;) {
      let client: pg.PoolClient | undefined;
      try {
        client = await super.connect();
        // A pooled connection the server closed while it sat idle (a restart, an operator's
        // pg_terminate_backend) looks alive until its close is read: found out here, by a
        // statement that is safe to send again, not by the caller's.
        await client.query("select 1");
        if (this.awaySince !== null) {
          this.logger.info({ unreachableMs: Date.now() - this.awaySince }, "the database answers again");
          this.awaySince = null;
        }
        return client;
      } catch (error) {
        client?.release(true);
        if (!isConnectionError(error) || this.giveUp.signal.aborted) throw error;
        if (this.awaySince === null) {
          this.awaySince = Date.now();
          this.logger.warn({ err: error }, "the database is unreachable; the worker waits for it");
        }
        await sleep(delay, undefined, { signal: this.giveUp.signal }).catch(() => {});
        delay = Math.min(this.wait.maxDelayMs, delay * 2);
      }
    }
  }
}
