/**
 * Chaos: a webhook receiver that accepts the connection and never answers. The attempt must
 * end at WEBHOOK_TIMEOUT_MS as a retryable failure, the next attempt be scheduled per the
 * spec (after 1 min ± 20 %) and sent with the same X-Service-Delivery-Id and body, and while
 * the attempt hangs the same worker must go on running tasks and delivering to other endpoints
 * (deliveries to one endpoint are one named queue: a hanging receiver holds one job slot).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startTestApi, type TestApi } from "../support/api.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { insertTaskRecord, readJob, waitFor } from "../support/task-records.ts";
import { createTestUser, type TestUser } from "../support/users.ts";
import {
  startHangingReceiver,
  startReceiver,
  type HangingReceiver,
  type TestReceiver,
} from "../support/webhook-receiver.ts";
import { assertInvariants, assertReceivedOnce, terminalTasks } from "./invariants.ts";
import { ProcessSet, seconds, spawnWorker, STALE_SECONDS } from "./support.ts";

const TIMEOUT_MS = 10_000; // the default
const NAP_MS = 300;

let db: TestDatabase;
let api: TestApi;
let healthy: TestReceiver;
let hanging: HangingReceiver;
const processes = new ProcessSet();

before(async () => {
  db = await createTestDatabase();
  api = await startTestApi(db, { env: { RATE_LIMIT_PER_MINUTE: "100000" } });
  healthy = await startReceiver();
  hanging = await startHangingReceiver();
});
after(async () => {
  await processes.stopAll();
  await hanging?.close();
  await healthy?.close();
  await api?.close();
  await db?.drop();
});

async function register(user: TestUser, url: string): Promise<string> {
  const res = await api.request<{ id: string }>("POST", "/webhooks", { key: user.key, body: { url, event_types: [] } });
  assert.equal(res.status, 201, res.text);
  return res.body.id;
}

interface AttemptRow {
  delivery_id: string;
  attempt: number;
  attempted_at: Date;
  duration_ms: number;
  error: string | null;
  outcome: string;
  next_attempt_at: Date | null;
}

async function attemptsTo(endpointId: string): Promise<AttemptRow[]> {
  const { rows } = await db.owner.query<AttemptRow>(
    `select a.delivery_id, a.attempt, a.attempted_at, a.duration_ms, a.error, a.outcome, a.next_attempt_at
       from app_public.webhook_delivery_attempts a join app_public.webhook_deliveries d on d.id = a.delivery_id
      where d.endpoint_id = $1 order by a.id`,
    [endpointId],
  );
  return rows;
}

describe("chaos: a webhook receiver that never answers", () => {
  it("times the attempt out, schedules the retry per the spec with the same delivery id, and meanwhile runs tasks and delivers elsewhere", async (t) => {
    const worker = await spawnWorker(processes, "worker", db.ownerUrl, {
      tasks: ["deliver_webhook", "test_nap"],
      concurrency: 2,
      env: { WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS) },
    });
    // one user with both endpoints; another whose tasks only the healthy receiver hears of
    const user = await createTestUser(db.owner, "hang");
    const other = await createTestUser(db.owner, "hang-other");
    const hangingId = await register(user, hanging.url);
    await register(user, healthy.url);
    await register(other, healthy.url);

    // the first task's first event goes to both endpoints; the hanging one takes it and says nothing
    const first = await insertTaskRecord(db.owner, {
      userId: user.id,
      workerTask: "test_nap",
      payload: { ms: NAP_MS },
    });
    await waitFor("the hanging receiver to be sent an event", async () => hanging.requests.length > 0, {
      timeoutMs: 30_000,
      intervalMs: 50,
    });
    const hungAt = hanging.requests[0]!.at;

    // while that attempt hangs: more tasks run, and every event reaches the healthy endpoint
    const more = [
      await insertTaskRecord(db.owner, { userId: other.id, workerTask: "test_nap", payload: { ms: NAP_MS } }),
      await insertTaskRecord(db.owner, { userId: other.id, workerTask: "test_nap", payload: { ms: NAP_MS } }),
    ];
    const tasks = [first, ...more];
    await waitFor(
      "every task done and its task.succeeded delivered to the healthy endpoint",
      async () => {
        const ended = await terminalTasks(db.owner, tasks);
        return (
          ended.size === tasks.length &&
          tasks.every((id) =>
            healthy.received.some((r) => r.body.type === "task.succeeded" && r.body.data.task_id === id),
          )
        );
      },
      { timeoutMs: 60_000, intervalMs: 50 },
    );
    const doneAt = Date.now();
    const attemptsSoFar = await attemptsTo(hangingId);
    const latencies = healthy.received.map((r) => r.at - Date.parse(r.body.created_at));
    t.diagnostic(
      `while the hanging attempt was open: ${tasks.length} tasks done and ${healthy.received.length} events delivered elsewhere within ` +
        `${seconds(doneAt - hungAt)} s of it starting (slowest delivery ${Math.round(Math.max(...latencies))} ms after its event)`,
    );
    assert.equal(attemptsSoFar.length, 0, "all of that before the hanging attempt timed out");
    assert.ok(doneAt - hungAt < TIMEOUT_MS, `${doneAt - hungAt} ms`);
    for (const [id, task] of await terminalTasks(db.owner, tasks)) assert.equal(task.status, "success", id);

    // the hanging attempt ends at the timeout, retryable, the next one in a minute ± 20 %
    const [attempt] = await waitFor(
      "the hanging attempt to be recorded",
      async () => {
        const rows = await attemptsTo(hangingId);
        return rows.length > 0 ? rows : null;
      },
      { timeoutMs: TIMEOUT_MS + 30_000, intervalMs: 100 },
    );
    assert.equal(attempt!.attempt, 1);
    assert.equal(attempt!.outcome, "retrying");
    assert.equal(attempt!.error, `timed out after ${TIMEOUT_MS} ms`);
    assert.ok(
      attempt!.duration_ms >= TIMEOUT_MS - 50 && attempt!.duration_ms < TIMEOUT_MS + 3000,
      `attempt took ${attempt!.duration_ms} ms`,
    );
    // the schedule counts from the attempt's end: 60 s x (0.8 .. 1.2)
    const delay = (attempt!.next_attempt_at!.getTime() - attempt!.attempted_at.getTime() - attempt!.duration_ms) / 1000;
    assert.ok(delay >= 47.5 && delay <= 72.5, `next attempt ${delay} s after the attempt ended`);
    const deliveryId = attempt!.delivery_id;
    assert.equal(hanging.requests[0]!.headers["x-service-delivery-id"], deliveryId);
    const retryJob = await readJob(db.owner, `webhook_delivery:${deliveryId}`);
    assert.ok(retryJob, "the retry is queued");
    assert.ok(
      Math.abs(retryJob.run_at.getTime() - attempt!.next_attempt_at!.getTime()) < 1000,
      "at the scheduled time",
    );
    t.diagnostic(
      `the hanging attempt ended after ${attempt!.duration_ms} ms (WEBHOOK_TIMEOUT_MS ${TIMEOUT_MS}); next attempt scheduled ${delay.toFixed(1)} s after it ended`,
    );

    // the minute passes (the job's time is moved, not waited for): the retry goes out with the same id and body
    await db.owner.query("update graphile_worker._private_jobs set run_at = now() where key = $1", [
      `webhook_delivery:${deliveryId}`,
    ]);
    await waitFor(
      "the retry to reach the hanging receiver",
      async () => hanging.requests.filter((r) => r.headers["x-service-delivery-id"] === deliveryId).length >= 2,
      { timeoutMs: 3 * TIMEOUT_MS + 30_000, intervalMs: 100 },
    );
    const copies = hanging.requests.filter((r) => r.headers["x-service-delivery-id"] === deliveryId);
    assert.equal(copies[1]!.raw, copies[0]!.raw, "the same body");
    assertReceivedOnce(hanging.requests);
    assertReceivedOnce(healthy.received);
    assert.ok(worker.alive(), worker.stderr());

    // a worker that stops leaves nothing locked; every task ended; nothing lost or orphaned
    assert.equal(await worker.stop(), 0, worker.stderr());
    await assertInvariants(db.owner, { staleSeconds: STALE_SECONDS });
    const { rows } = await db.owner.query<{ n: number }>(
      "select count(*)::int as n from graphile_worker.jobs where locked_by is not null",
    );
    assert.equal(rows[0]!.n, 0, "no job locked after the worker stopped");
  });
});
