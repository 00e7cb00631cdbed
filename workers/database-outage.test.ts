/**
 * A worker while its database is away (a proxy in front of the test database refuses and cuts
 * connections, as a stopped server does): it waits instead of failing, keeps running, and
 * records what finished meanwhile once the database is back. graphile-worker does not await a
 * job's completion: before workers/waiting-pool.ts a job that finished during an outage ended
 * the process with an unhandled rejection, which here would fail this file.
 */
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { after, before, describe, it } from "node:test";
import { createTestDatabase, type TestDatabase } from "../test/support/database.ts";
import { startDbProxy, type DbProxy } from "../test/support/db-proxy.ts";
import { gate, readJob, waitFor } from "../test/support/task-records.ts";
import { startWorkerRunner, type WorkerRunner } from "./runner.ts";
import { WaitingPool } from "./waiting-pool.ts";

let db: TestDatabase;
let proxy: DbProxy;

before(async () => {
  db = await createTestDatabase();
  proxy = await startDbProxy(db.ownerUrl);
});
after(async () => {
  await proxy?.close();
  await db?.drop();
});

async function addJob(task: string, key: string): Promise<void> {
  await db.owner.query("select graphile_worker.add_job($1, '{}'::json, job_key := $2)", [task, key]);
}

describe("a worker during a database outage", () => {
  it("waits for connections while the database refuses them, and connects once it is back", async () => {
    const pool = new WaitingPool({ connectionString: proxy.url, max: 2 }, { minDelayMs: 50, maxDelayMs: 200 });
    try {
      await proxy.down();
      let connected = false;
      const pending = pool.connect().then((client) => {
        connected = true;
        return client;
      });
      await sleep(1000);
      assert.equal(connected, false, "still waiting");
      assert.ok(pool.unreachableForMs() > 500);
      await proxy.up();
      const client = await pending;
      assert.equal((await client.query("select 1 as one")).rows[0].one, 1);
      client.release();
      assert.equal(pool.unreachableForMs(), 0);

      // once the process stops, a waiting connect gives up with the connection error
      await proxy.down();
      await waitFor("the pool to drop its cut connection", async () => pool.totalCount === 0, { timeoutMs: 5000 });
      const givenUp = pool.connect().then(
        (late) => {
          late.release();
          return "connected";
        },
        (error: unknown) => (error as { code?: string }).code ?? String(error),
      );
      await sleep(300);
      pool.stopWaiting();
      assert.equal(await givenUp, "ECONNREFUSED");
    } finally {
      await proxy.up().catch(() => {});
      await pool.end();
    }
  });

  it("keeps running when a job finishes while the database is down, and completes the job when it is back", async () => {
    const started = gate();
    const release = gate();
    const ran: string[] = [];
    let runner: WorkerRunner | undefined;
    try {
      runner = await startWorkerRunner({
        ownerUrl: proxy.url,
        taskNames: ["test_outage"],
        extraTasks: {
          test_outage: async (_payload, helpers) => {
            ran.push(helpers.job.key ?? "");
            if (helpers.job.key === "first") {
              started.open();
              await release.promise;
            }
          },
        },
        concurrency: 2,
        heartbeatSeconds: 1,
        leaseStaleSeconds: 30,
        pollIntervalMs: 200,
      });
      await addJob("test_outage", "first");
      await started.promise;
      await proxy.down();
      release.open(); // the job ends while no connection can be had
      await sleep(1500);
      assert.ok((await readJob(db.owner, "first"))?.locked_by, "its completion waits for the database");
      assert.equal(runner.health(), "ok");

      await proxy.up();
      await waitFor("the job's completion recorded", async () => (await readJob(db.owner, "first")) === null, {
        timeoutMs: 15_000,
        intervalMs: 100,
      });
      // and the worker goes on taking jobs
      await addJob("test_outage", "second");
      await waitFor(
        "the next job done",
        async () => ran.includes("second") && (await readJob(db.owner, "second")) === null,
        {
          timeoutMs: 15_000,
          intervalMs: 100,
        },
      );
      assert.deepEqual(ran, ["first", "second"], "each job ran once");
    } finally {
      release.open();
      await proxy.up().catch(() => {});
      await runner?.stop();
    }
  });
});
