/**
 * The lease keeper after a database outage (workers/leases.ts): every worker's lease ages while
 * the database is away, so the first worker back must not take the others for dead.
 */
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { after, before, describe, it } from "node:test";
import type { Queryable } from "../db/request-transaction.ts";
import { createTestDatabase, type TestDatabase } from "../test/support/database.ts";
import { insertTaskRecord, readJob, readTaskRecord, waitFor } from "../test/support/task-records.ts";
import { createTestUser, type TestUser } from "../test/support/users.ts";
import { keepLease, type LeaseKeeper } from "./leases.ts";

const STALE_SECONDS = 5;

let db: TestDatabase;
let user: TestUser;

before(async () => {
  db = await createTestDatabase();
  user = await createTestUser(db.owner, "leases");
});
after(async () => {
  await db?.drop();
});

/** The owner pool, or, while `down`, a database that refuses every connection. */
function flakyDatabase(): Queryable & { down: boolean } {
  const state = {
    down: false,
    query: ((...args: Parameters<Queryable["query"]>) => {
      if (state.down) {
        return Promise.reject(
          Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED", syscall: "connect" }),
        );
      }
      return (db.owner.query as (...a: Parameters<Queryable["query"]>) => ReturnType<Queryable["query"]>)(...args);
    }) as Queryable["query"],
  };
  return state;
}

/** A task running on pool `poolId` for an hour, whose lease was last renewed `silentSeconds` ago. */
async function runningElsewhere(poolId: string, silentSeconds: number): Promise<string> {
  const id = await insertTaskRecord(db.owner, { userId: user.id, workerTask: "test_elsewhere" });
  await db.owner.query(
    "update graphile_worker._private_jobs set locked_by = $2, locked_at = now() - interval '1 hour', attempts = 1 where key = $1",
    [id, poolId],
  );
  await db.owner.query(
    "update app_public.tasks set status = 'running', attempts = 1, locked_by = $2, started_at = now() where id = $1",
    [id, poolId],
  );
  await db.owner.query(
    `insert into app_private.worker_leases (pool_id, hostname, pid, task_names, heartbeat_at)
     values ($1, 'elsewhere', 1, '{test_elsewhere}', now() - make_interval(secs => $2))
     on conflict (pool_id) do update set heartbeat_at = excluded.heartbeat_at`,
    [poolId, silentSeconds],
  );
  return id;
}

const renewElsewhere = (poolId: string) =>
  db.owner.query("update app_private.worker_leases set heartbeat_at = now() where pool_id = $1", [poolId]);

describe("leases after a database outage", () => {
  it("recovers no other worker's jobs for a stale interval once the database is back, then recovers only the dead", async () => {
    const database = flakyDatabase();
    let keeper: LeaseKeeper | undefined;
    try {
      keeper = await keepLease(database, {
        poolId: "pool-here",
        taskNames: ["test_here"],
        heartbeatSeconds: 1,
        staleSeconds: STALE_SECONDS,
      });
      // the database goes away for longer than half the stale interval...
      database.down = true;
      await sleep(STALE_SECONDS * 600);
      // ...and every other worker's lease aged past the stale interval meanwhile
      const live = await runningElsewhere("pool-live", STALE_SECONDS + 5);
      const backAt = Date.now();
      database.down = false;
      await waitFor("this worker's lease renewed", async () => keeper!.renewedAt() >= backAt, {
        timeoutMs: 5000,
        intervalMs: 50,
      });

      // two more rounds: the live worker has not renewed yet, and is not taken for dead
      await sleep(2200);
      assert.equal((await readJob(db.owner, live))?.locked_by, "pool-live", "the live worker's job stays locked");
      assert.equal((await readTaskRecord(db.owner, live)).status, "running");
      // it renews as a live worker does; from then on it is never stale
      await renewElsewhere("pool-live");
      const keepRenewing = setInterval(() => void renewElsewhere("pool-live"), 500);
      try {
        // a worker that really died during the outage is recovered once the grace is over
        const dead = await runningElsewhere("pool-dead", STALE_SECONDS + 5);
        const recovered = await waitFor(
          "the dead worker's job recovered",
          async () => (await readJob(db.owner, dead))?.locked_by === null,
          {
            timeoutMs: STALE_SECONDS * 1000 + 10_000,
            intervalMs: 100,
          },
        );
        assert.ok(recovered);
        assert.ok(Date.now() - backAt >= STALE_SECONDS * 1000 - 1000, "not before a stale interval had passed");
        assert.equal((await readTaskRecord(db.owner, dead)).status, "queued");
        assert.equal((await readJob(db.owner, live))?.locked_by, "pool-live", "the live worker keeps its job");
        assert.equal((await readTaskRecord(db.owner, live)).attempts, 1);
      } finally {
        clearInterval(keepRenewing);
      }
    } finally {
      database.down = false;
      await keeper?.stop();
    }
  });
});
