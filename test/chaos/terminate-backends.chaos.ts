/**
 * Chaos: an operator ends every session of the workers and of the API with
 * pg_terminate_backend, five times over, while plans, tasks, webhooks and requests are under
 * way: graphile-worker's LISTEN connection, idle pooled connections and statements in flight.
 * Work continues: every task ends in success, both kinds of process keep running, a request
 * meets at most a well-formed 503 (a statement of it was in flight) and the next ones are served.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { after, before, describe, it } from "node:test";
import type { TestApi } from "../support/api.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { PLAN_OPTIONS, planningProject } from "../support/planning.ts";
import { insertTaskRecord, waitFor } from "../support/task-records.ts";
import { createTestUser, type TestUser } from "../support/users.ts";
import { startReceiver, type TestReceiver } from "../support/webhook-receiver.ts";
import { assertInvariants, assertReceivedOnce, terminalTasks } from "./invariants.ts";
import {
  loop,
  ProcessSet,
  remoteTestApi,
  seconds,
  spawnApi,
  spawnWorker,
  STALE_SECONDS,
  unavailableProblem,
  type ApiHandle,
  type Reply,
  type WorkerHandle,
} from "./support.ts";

const ROUNDS = 5;
const ROUND_MS = 2000;
const PLAN_MS = 6000;
const NAP_MS = 2000;
/** the application names our processes connect with (workers/runner.ts, test/support/api-process.ts) */
const OUR_SESSIONS = ["swarf-worker", "swarf-test-api"];

let db: TestDatabase;
let api: ApiHandle;
let client: TestApi;
let receiver: TestReceiver;
const processes = new ProcessSet();

before(async () => {
  db = await createTestDatabase();
  api = await spawnApi(processes, db.appUrl);
  client = remoteTestApi(api.origin, db.appUrl);
  receiver = await startReceiver();
});
after(async () => {
  await processes.stopAll();
  await receiver?.close();
  await client?.close();
  await db?.drop();
});

async function startPlanning(user: TestUser): Promise<string> {
  const endpoint = await client.request("POST", "/webhooks", {
    key: user.key,
    body: { url: receiver.url, event_types: [] },
  });
  assert.equal(endpoint.status, 201, endpoint.text);
  const projectId = await planningProject(client, user, { library: [`fake:sleep:${PLAN_MS}`] });
  const started = await client.request<{ task_id: string }>("POST", `/projects/${projectId}/automation/cam-planning`, {
    key: user.key,
    body: PLAN_OPTIONS,
  });
  assert.equal(started.status, 202, started.text);
  return started.body.task_id;
}

/** Ends every session of our processes on this database; how many it ended. */
async function terminateOurSessions(): Promise<number> {
  const { rows } = await db.owner.query<{ n: number }>(
    `select count(*) filter (where ended)::int as n from (
       select pg_terminate_backend(pid, 5000) as ended from pg_stat_activity
        where datname = current_database() and application_name = any($1::text[]) and pid <> pg_backend_pid()) as t`,
    [OUR_SESSIONS],
  );
  return rows[0]!.n;
}

describe("chaos: every worker and API session terminated", () => {
  it("goes on planning, running tasks, delivering webhooks and answering requests, five times over", async (t) => {
    const workers: WorkerHandle[] = [];
    for (const label of ["worker-1", "worker-2"]) {
      workers.push(
        await spawnWorker(processes, label, db.ownerUrl, {
          tasks: ["plan_cam", "deliver_webhook", "test_nap"],
          concurrency: 2,
        }),
      );
    }
    const users = [await createTestUser(db.owner, "term-a"), await createTestUser(db.owner, "term-b")];
    const plans = [await startPlanning(users[0]!), await startPlanning(users[1]!)];
    const naps: string[] = [];
    // a nap whose progress write is in flight when its session ends loses that attempt (an
    // attempt is an attempt, whatever ended it); five rounds can cost one nap several
    for (let i = 0; i < 8; i++) {
      naps.push(
        await insertTaskRecord(db.owner, {
          userId: users[i % 2]!.id,
          workerTask: "test_nap",
          payload: { ms: NAP_MS },
          maxAttempts: ROUNDS + 1,
        }),
      );
    }

    const key = users[0]!.key;
    const clients = [
      loop(() => api.request("GET", "/projects?limit=5", { key })),
      loop(() =>
        api.request("POST", "/projects", { key, body: { name: `Load ${randomUUID().slice(0, 8)}`, customer: "ACME" } }),
      ),
    ];
    const terminated: number[] = [];
    let lastRoundAt = 0;
    let sent: Reply[] = [];
    try {
      for (let round = 0; round < ROUNDS; round++) {
        await sleep(ROUND_MS);
        terminated.push(await terminateOurSessions());
        lastRoundAt = Date.now();
      }
      await sleep(1000);
    } finally {
      sent = (await Promise.all(clients.map((c) => c.stop()))).flat();
    }
    t.diagnostic(`sessions terminated per round: ${terminated.join(", ")}`);
    assert.ok(
      terminated.every((n) => n >= 3),
      "every round ended sessions of the workers and the API",
    );

    const problems = sent.flatMap((r) =>
      r.status === 200 || r.status === 201 ? [] : [unavailableProblem(r) ?? null].filter((p) => p !== null),
    );
    assert.equal(
      problems.length,
      0,
      `answers other than 2xx or a well-formed 503:\n${problems.slice(0, 20).join("\n")}`,
    );
    const unavailable = sent.filter((r) => r.status === 503).length;
    t.diagnostic(
      `${sent.length} requests: ${sent.length - unavailable} 2xx, ${unavailable} 503 database_unavailable; slowest ${Math.round(Math.max(...sent.map((r) => r.ms)))} ms`,
    );
    // a pooled connection that was cut is replaced without the request noticing
    for (let i = 0; i < 20; i++) {
      const reply = await api.request("GET", "/projects?limit=1", { key });
      assert.equal(reply.status, 200, `request ${i} after the last round: ${reply.status} ${reply.text}`);
    }

    const all = [...plans, ...naps];
    const ended = await waitFor(
      "every task to end",
      async () => {
        const tasks = await terminalTasks(db.owner, all);
        return tasks.size === all.length ? tasks : null;
      },
      { timeoutMs: 120_000, intervalMs: 200 },
    );
    const endedAt = Date.now();
    for (const [id, task] of ended) assert.equal(task.status, "success", `${id}: ${JSON.stringify(task.error)}`);
    t.diagnostic(
      `every task done ${seconds(endedAt - lastRoundAt)} s after the last round; attempts: plans ${plans.map((id) => ended.get(id)!.attempts).join(", ")}; naps ${naps.map((id) => ended.get(id)!.attempts).join(", ")}`,
    );
    for (const worker of workers) assert.ok(worker.alive(), `${worker.label} exited: ${worker.stderr()}`);
    assert.ok(api.alive(), `the API exited: ${api.stderr()}`);

    await waitFor(
      "quote.ready of both plannings",
      async () =>
        plans.every((id) => receiver.received.some((r) => r.body.type === "quote.ready" && r.body.data.task_id === id)),
      { timeoutMs: 60_000, intervalMs: 200 },
    );
    const received = assertReceivedOnce(receiver.received);
    t.diagnostic(
      `webhooks: ${received.deliveries} deliveries in ${received.requests} requests (${received.retried} sent again with the same id)`,
    );
    await assertInvariants(db.owner, { staleSeconds: STALE_SECONDS });
  });
});
