/**
 * The frame of a benchmark that provisions a database and starts child processes. Ctrl-C or
 * SIGTERM aborts the session's signal (a second one kills everything: children.ts); however the
 * run ends, its children are stopped, what it deferred is released, the owner pool is ended and
 * the scratch database cleaned up. An interrupted run exits 130.
 */
import type pg from "pg";
import type { Env } from "../../config/env.ts";
import { createPool } from "../../db/pools.ts";
import { installSignalHandlers, type BenchChild } from "./children.ts";
import { provisionDatabase, type BenchDatabase } from "./database.ts";

export interface BenchSession {
  readonly signal: AbortSignal;
  /** provisions the scratch database and opens an owner pool of `poolSize` connections on it */
  openDatabase(env: Env, poolSize: number): Promise<{ database: BenchDatabase; owner: pg.Pool }>;
  /** a child the run started: stopped when the run ends */
  adopt(child: BenchChild): BenchChild;
  /** something else to let go of when the run ends, after the children */
  defer(release: () => void): void;
}

export async function runBenchSession(
  say: (line: string) => void,
  run: (session: BenchSession) => Promise<number>,
): Promise<number> {
  const abort = new AbortController();
  const disposeSignals = installSignalHandlers(abort, say);
  const children: BenchChild[] = [];
  const deferred: (() => void)[] = [];
  let database: BenchDatabase | undefined;
  let owner: pg.Pool | undefined;
  const session: BenchSession = {
    signal: abort.signal,
    async openDatabase(env, poolSize) {
      database = await provisionDatabase(env, say);
      say(`database: ${database.description}, PostgreSQL ${database.serverVersion}`);
      owner = createPool(database.ownerUrl, poolSize, "swarf-bench-owner");
      return { database, owner };
    },
    adopt(child) {
      children.push(child);
      return child;
    },
    defer(release) {
      deferred.push(release);
    },
  };
  try {
    return await run(session);
  } catch (error) {
    // Ctrl-C reaches the children as well: a server can drop the connection before this
    // process has handled its own SIGINT, so give the signal a moment before calling it a failure
    if (!abort.signal.aborted) await new Promise((resolve) => setTimeout(resolve, 250));
    if (abort.signal.aborted) {
      say("interrupted; cleaning up");
      return 130;
    }
    throw error;
  } finally {
    await Promise.all(children.map((child) => child.stop()));
    for (const release of deferred) release();
    await owner?.end().catch(() => {});
    await database?.close().catch((error: unknown) => say(`could not clean up the database: ${String(error)}`));
    disposeSignals();
  }
}
