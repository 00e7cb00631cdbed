/**
 * Chaos: a worker process SIGKILLed in the middle of CAM planning. Two worker processes plan
 * (the stand-in planner, test/support/plan-test-thread.ts) and deliver webhooks; two users each
 * start a planning; the worker planning the first is killed. The other worker must finish it
 * within 60 s (lease recovery: workers/leases.ts), save one plan per task, and the webhooks must
 * stay within the spec: task.started at most once per task, a delivery's id the same on every
 * retry.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startTestApi, type TestApi } from "../support/api.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { PLAN_OPTIONS, planningProject } from "../support/planning.ts";
import { readTaskRecord, waitFor } from "../support/task-records.ts";
import { createTestUser, type TestUser } from "../support/users.ts";
import { startReceiver, type TestReceiver } from "../support/webhook-receiver.ts";
import { assertInvariants, assertReceivedOnce } from "./invariants.ts";
import { ProcessSet, seconds, spawnWorker, STALE_SECONDS, type WorkerHandle } from "./support.ts";

const PLAN_MS = 8000;

let db: TestDatabase;
let api: TestApi;
let receiver: TestReceiver;
const processes = new ProcessSet();

before(async () => {
  db = await createTestDatabase();
  api = await startTestApi(db, { env: { RATE_LIMIT_PER_MINUTE: "100000", CAM_PLANNING_RATE_LIMIT_PER_HOUR: "10000" } });
  receiver = await startReceiver();
});
after(async () => {
  await processes.stopAll();
  await receiver?.close();
  await api?.close();
  await db?.drop();
});

async function startPlanning(user: TestUser): Promise<string> {
  const endpoint = await api.request("POST", "/webhooks", {
    key: user.key,
    body: { url: receiver.url, event_types: [] },
  });
  assert.equal(endpoint.status, 201, endpoint.text);
  const projectId = await planningProject(api, user, { library: [`fake:sleep:${PLAN_MS}`] });
  const started = await api.request<{ task_id: string }>("POST", `/projects/${projectId}/automation/cam-planning`, {
    key: user.key,
    body: PLAN_OPTIONS,
  });
  assert.equal(started.status, 202, started.text);
  return started.body.task_id;
}

describe("chaos: a worker SIGKILLed mid-plan", () => {
  it("finishes the plan on another worker within 60 s, saves one plan per task, and sends task.started once per task under one delivery id", async (t) => {
    const workers: WorkerHandle[] = [];
    for (const label of ["worker-1", "worker-2"]) {
      workers.push(
        await spawnWorker(processes, label, db.ownerUrl, { tasks: ["plan_cam", "deliver_webhook"], concurrency: 2 }),
      );
    }
    const users = [await createTestUser(db.owner, "kill-a"), await createTestUser(db.owner, "kill-b")];
    const taskIds = [await startPlanning(users[0]!), await startPlanning(users[1]!)];

    // the first planning runs (the stand-in reports its first progress at once, then sleeps)
    const running = await waitFor(
      "the first planning to run",
      async () => {
        const task = await readTaskRecord(db.owner, taskIds[0]!);
        return task.status === "running" && task.progress > 0.3 ? task : null;
      },
      { timeoutMs: 60_000, intervalMs: 100 },
    );
    const victim = workers.find((w) => w.poolId === running.locked_by);
    assert.ok(victim, `the planning runs on a worker of ours (${running.locked_by})`);
    const survivor = workers.find((w) => w !== victim)!;
    // and the second one, wherever it runs (a worker plans one at a time)
    await waitFor(
      "the second planning to be picked up",
      async () => (await readTaskRecord(db.owner, taskIds[1]!)).status !== "queued",
      {
        timeoutMs: 60_000,
        intervalMs: 100,
      },
    );

    await victim.kill();
    const killedAt = Date.now();
    t.diagnostic(`SIGKILLed ${victim.label} (${victim.poolId}) at progress ${running.progress.toFixed(2)}`);

    const repicked = await waitFor(
      "the killed planning to start again",
      async () => {
        const task = await readTaskRecord(db.owner, taskIds[0]!);
        return task.attempts >= 2 ? Date.now() : null;
      },
      { timeoutMs: 60_000, intervalMs: 100 },
    );
    const done = await waitFor(
      "both plannings to end",
      async () => {
        const tasks = await Promise.all(taskIds.map((id) => readTaskRecord(db.owner, id)));
        return tasks.every((task) => ["success", "failed", "cancelled"].includes(task.status)) ? tasks : null;
      },
      { timeoutMs: 60_000 - (Date.now() - killedAt), intervalMs: 100 },
    );
    const finishedAt = Date.now();
    t.diagnostic(
      `killed planning started again ${seconds(repicked - killedAt)} s after the SIGKILL (stale interval ${STALE_SECONDS} s), ` +
        `both finished ${seconds(finishedAt - killedAt)} s after it (each plan sleeps ${PLAN_MS / 1000} s)`,
    );
    for (const task of done) {
      assert.equal(task.status, "success", `${task.id}: ${JSON.stringify(task.error)}`);
      assert.equal(task.locked_by, null);
    }
    assert.equal(done[0]!.attempts, 2, "the killed planning ran a second attempt");
    assert.ok(finishedAt - killedAt < 60_000);
    assert.ok(survivor.alive(), `the other worker runs on: ${survivor.stderr()}`);

    // every event reaches the receiver: task.started, the buckets, task.succeeded, quote.ready
    await waitFor(
      "quote.ready of both plannings",
      async () =>
        taskIds.every((id) =>
          receiver.received.some((r) => r.body.type === "quote.ready" && r.body.data.task_id === id),
        ),
      { timeoutMs: 30_000, intervalMs: 100 },
    );
    const received = assertReceivedOnce(receiver.received);
    for (const id of taskIds) {
      const types = receiver.received.filter((r) => r.body.data.task_id === id).map((r) => r.body.type);
      assert.equal(types.filter((type) => type === "task.started").length >= 1, true, `${id}: task.started`);
      assert.ok(types.includes("task.succeeded"), `${id}: task.succeeded`);
    }
    t.diagnostic(
      `webhooks: ${received.deliveries} deliveries in ${received.requests} requests (${received.retried} sent again with the same id)`,
    );

    // the dead worker's lease and locks are gone, and nothing else is left behind
    await waitFor(
      "the dead worker's lease to be dropped",
      async () =>
        (await db.owner.query("select 1 from app_private.worker_leases where pool_id = $1", [victim.poolId]))
          .rowCount === 0,
      { timeoutMs: 30_000, intervalMs: 200 },
    );
    await assertInvariants(db.owner, { staleSeconds: STALE_SECONDS });
    const deliveries = await db.owner.query<{ status: string; n: number }>(
      "select status, count(*)::int as n from app_public.webhook_deliveries group by status order by status",
    );
    assert.deepEqual(
      deliveries.rows.filter((row) => row.status !== "delivered"),
      [],
      "every delivery delivered",
    );
  });
});
