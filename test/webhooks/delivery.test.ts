/**
 * Webhook events and their delivery against the real database and a real HTTP receiver on
 * loopback: what a task's state changes emit (a trigger on app_public.tasks), how a delivery
 * is signed, retried on its schedule (the clock injected: a day passes without sleeping),
 * disabled after 24 hours of failures, and that a revoked endpoint gets nothing more. The
 * planning task end to end (stand-in planner, real worker) is at the bottom.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { PLAN_CAM_TASK_NAME } from "../../contracts/tasks.ts";
import { planCamTask } from "../../tasks/automated_cam_planning.ts";
import { deliverWebhookTask } from "../../tasks/deliver_webhook.ts";
import type { WebhookPolicy } from "../../webhooks/address-policy.ts";
import { defaultDeliveryDeps, processDelivery, type DeliveryDeps } from "../../webhooks/delivery.ts";
import { RETRY_DELAYS_SECONDS } from "../../webhooks/schedule.ts";
import { verifySignature } from "../../webhooks/signature.ts";
import { createGeometryPool, type GeometryPool } from "../../geometry-pool/pool.ts";
import { startWorkerRunner, type WorkerRunner } from "../../workers/runner.ts";
import { startTestApi, type TestApi } from "../support/api.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { PLAN_OPTIONS, planningProject } from "../support/planning.ts";
import { insertTaskRecord, readJob, waitFor } from "../support/task-records.ts";
import { createTestUser, type TestUser } from "../support/users.ts";
import { deadUrl, startReceiver, type TestReceiver } from "../support/webhook-receiver.ts";

const POLICY: WebhookPolicy = { allowed: ["loopback"], requireHttps: false, timeoutMs: 2000 };

let db: TestDatabase;
let api: TestApi;
let receiver: TestReceiver;

before(async () => {
  db = await createTestDatabase();
  api = await startTestApi(db, { env: { RATE_LIMIT_PER_MINUTE: "100000", CAM_PLANNING_RATE_LIMIT_PER_HOUR: "1000" } });
  receiver = await startReceiver();
});
after(async () => {
  await receiver?.close();
  await api?.close();
  await db?.drop();
});

async function register(
  user: TestUser,
  url: string,
  eventTypes: string[] = [],
): Promise<{ id: string; secret: string }> {
  const res = await api.request<{ id: string; secret: string }>("POST", "/webhooks", {
    key: user.key,
    body: { url, event_types: eventTypes },
  });
  assert.equal(res.status, 201, res.text);
  return res.body;
}

async function newTask(user: TestUser, taskName = "test.webhooks"): Promise<string> {
  const project = await api.request<{ id: string }>("POST", "/projects", {
    key: user.key,
    body: { name: "Hooks", customer: "ACME" },
  });
  return insertTaskRecord(db.owner, { userId: user.id, projectId: project.body.id, workerTask: "test_idle", taskName });
}

const setTask = (taskId: string, status: string, progress: number) =>
  db.owner.query("update app_public.tasks set status = $2, progress = $3 where id = $1", [taskId, status, progress]);

async function deliveries(endpointId: string) {
  const { rows } = await db.owner.query<{
    id: string;
    event_type: string;
    status: string;
    attempts: number;
    body: string;
  }>(
    "select id, event_type, status, attempts, body from app_public.webhook_deliveries where endpoint_id = $1 order by event_seq",
    [endpointId],
  );
  return rows;
}

async function attempts(deliveryId: string) {
  const { rows } = await db.owner.query<{
    attempt: number;
    attempted_at: Date;
    next_attempt_at: Date | null;
    outcome: string;
    status_code: number | null;
    endpoint_disabled: boolean;
    error: string | null;
  }>(
    "select attempt, attempted_at, next_attempt_at, outcome, status_code, endpoint_disabled, error from app_public.webhook_delivery_attempts where delivery_id = $1 order by attempt",
    [deliveryId],
  );
  return rows;
}

function clockAt(start: Date): DeliveryDeps & { set(at: Date): void } {
  let now = start;
  return {
    ...defaultDeliveryDeps,
    now: () => now,
    random: () => 0.5,
    set: (at) => {
      now = at;
    },
  };
}

describe("task events", () => {
  it("emits task.started once, task.progress once per 10 % bucket, and the terminal event, in order", async () => {
    const user = await createTestUser(db.owner, "events");
    const endpoint = await register(user, receiver.url);
    const task = await newTask(user);
    await setTask(task, "running", 0);
    for (const p of [0.05, 0.12, 0.15, 0.35, 0.35, 0.36, 0.91]) await setTask(task, "running", p);
    await setTask(task, "queued", 0.91); // a retry after a crash: nothing is emitted again
    await setTask(task, "running", 0.95);
    await setTask(task, "failed", 0.95);
    const rows = await deliveries(endpoint.id);
    assert.deepEqual(
      rows.map(
        (r) =>
          `${r.event_type}${r.event_type === "task.progress" ? `:${(JSON.parse(r.body) as { data: { progress: number } }).data.progress}` : ""}`,
      ),
      ["task.started", "task.progress:0.12", "task.progress:0.35", "task.progress:0.91", "task.failed"],
    );
    const body = JSON.parse(rows[0]!.body) as {
      id: string;
      type: string;
      created_at: string;
      data: Record<string, unknown>;
    };
    assert.equal(body.id, rows[0]!.id);
    assert.equal(body.type, "task.started");
    assert.match(body.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.deepEqual(Object.keys(body.data).sort(), [
      "progress",
      "project_id",
      "result",
      "status",
      "task_id",
      "task_name",
    ]);
    assert.equal(body.data.task_id, task);
  });

  it("delivers only the subscribed types, to enabled endpoints of the task's user only", async () => {
    const user = await createTestUser(db.owner, "subscribed");
    const other = await createTestUser(db.owner, "other");
    const picky = await register(user, receiver.url, ["task.cancelled"]);
    const off = await register(user, receiver.url);
    await api.request("PATCH", `/webhooks/${off.id}`, { key: user.key, body: { enabled: false } });
    const foreign = await register(other, receiver.url);
    const task = await newTask(user);
    await setTask(task, "running", 0.5);
    await setTask(task, "cancelled", 0.5);
    assert.deepEqual(
      (await deliveries(picky.id)).map((r) => r.event_type),
      ["task.cancelled"],
    );
    assert.deepEqual(await deliveries(off.id), []);
    assert.deepEqual(await deliveries(foreign.id), []);
  });
});

describe("delivery", () => {
  it("signs the body with the endpoint's secret and sends the spec's headers; during a rotation both secrets sign", async () => {
    const user = await createTestUser(db.owner, "signed");
    const endpoint = await register(user, receiver.url);
    const task = await newTask(user);
    await setTask(task, "cancelled", 0);
    const [delivery] = await deliveries(endpoint.id);
    const before = receiver.received.length;
    const result = await processDelivery(db.owner, delivery!.id, POLICY);
    assert.equal(result.kind === "attempted" && result.outcome, "delivered");
    const got = receiver.received[before]!;
    assert.equal(got.headers["content-type"], "application/json");
    assert.equal(got.headers["x-service-event-type"], "task.cancelled");
    assert.equal(got.headers["x-service-delivery-id"], delivery!.id);
    assert.equal(got.body.id, delivery!.id);
    assert.equal(got.raw, delivery!.body);
    assert.match(String(got.headers["x-service-signature"]), /^t=\d+,v1=[0-9a-f]{64}$/);
    assert.deepEqual(verifySignature(String(got.headers["x-service-signature"]), got.raw, endpoint.secret).ok, true);
    assert.equal(verifySignature(String(got.headers["x-service-signature"]), got.raw, "whsec_wrong").ok, false);
    assert.equal(verifySignature(String(got.headers["x-service-signature"]), `${got.raw} `, endpoint.secret).ok, false);

    const rotated = await api.request<{ secret: string }>("POST", `/webhooks/${endpoint.id}/rotate-secret`, {
      key: user.key,
    });
    assert.equal(rotated.status, 200);
    const redelivered = await api.request("POST", `/webhooks/${endpoint.id}/deliveries/${delivery!.id}/redeliver`, {
      key: user.key,
    });
    assert.equal(redelivered.status, 202, redelivered.text);
    await processDelivery(db.owner, delivery!.id, POLICY);
    const again = receiver.received.at(-1)!;
    const header = String(again.headers["x-service-signature"]);
    assert.match(header, /^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    assert.equal(verifySignature(header, again.raw, endpoint.secret).ok, true, "the old secret, for 24 h");
    assert.equal(verifySignature(header, again.raw, rotated.body.secret).ok, true, "the new secret");
    assert.equal(again.headers["x-service-delivery-id"], delivery!.id);
  });

  it("retries a 500 and delivers on the 200 that follows, with the same delivery id and body", async () => {
    const user = await createTestUser(db.owner, "retry");
    const endpoint = await register(user, receiver.url);
    const task = await newTask(user);
    await setTask(task, "success", 1);
    const [delivery] = await deliveries(endpoint.id);
    receiver.script = [500];
    const start = receiver.received.length;
    const clock = clockAt(new Date());
    const first = await processDelivery(db.owner, delivery!.id, POLICY, clock);
    assert.deepEqual(first.kind === "attempted" && [first.outcome, first.statusCode], ["retrying", 500]);
    const job = await readJob(db.owner, `webhook_delivery:${delivery!.id}`);
    const [a1] = await attempts(delivery!.id);
    assert.equal(job?.run_at.getTime(), a1!.next_attempt_at!.getTime(), "the next job runs at the scheduled time");
    clock.set(a1!.next_attempt_at!);
    const second = await processDelivery(db.owner, delivery!.id, POLICY, clock);
    assert.deepEqual(second.kind === "attempted" && [second.outcome, second.statusCode], ["delivered", 200]);
    const got = receiver.received.slice(start);
    assert.equal(got.length, 2);
    assert.equal(got[0]!.headers["x-service-delivery-id"], got[1]!.headers["x-service-delivery-id"]);
    assert.equal(got[0]!.raw, got[1]!.raw);
    assert.deepEqual((await deliveries(endpoint.id))[0]!.status, "delivered");
    // the log, through the API
    const log = await api.request<{
      items: {
        id: string;
        status: string;
        attempts: { status_code: number; outcome: string; duration_ms: number }[];
      }[];
    }>("GET", `/webhooks/${endpoint.id}/deliveries`, { key: user.key });
    assert.equal(log.status, 200);
    assert.deepEqual(
      log.body.items[0]!.attempts.map((a) => [a.status_code, a.outcome]),
      [
        [500, "retrying"],
        [200, "delivered"],
      ],
    );
    assert.ok(log.body.items[0]!.attempts.every((a) => Number.isInteger(a.duration_ms)));
  });

  it("marks a 400 failed without a retry", async () => {
    const user = await createTestUser(db.owner, "fourhundred");
    const endpoint = await register(user, receiver.url);
    const task = await newTask(user);
    await setTask(task, "cancelled", 0);
    const [delivery] = await deliveries(endpoint.id);
    receiver.script = [400];
    const result = await processDelivery(db.owner, delivery!.id, POLICY);
    assert.deepEqual(result.kind === "attempted" && [result.outcome, result.statusCode], ["failed", 400]);
    assert.equal((await deliveries(endpoint.id))[0]!.status, "failed");
    const job = await readJob(db.owner, `webhook_delivery:${delivery!.id}`);
    const [attempt] = await attempts(delivery!.id);
    assert.equal(attempt!.next_attempt_at, null);
    assert.ok(
      !job || job.run_at.getTime() <= attempt!.attempted_at.getTime(),
      "no retry job (the first job, run by hand here, stays)",
    );
    const again = await processDelivery(db.owner, delivery!.id, POLICY);
    assert.equal(again.kind, "skipped");
  });

  it("tries a dead receiver six times on the schedule (about 23 h), then fails it; after 24 h of failures the endpoint is disabled and the log says so", async () => {
    const user = await createTestUser(db.owner, "dead");
    const endpoint = await register(user, await deadUrl());
    const task = await newTask(user);
    await setTask(task, "cancelled", 0);
    const [delivery] = await deliveries(endpoint.id);
    const start = new Date();
    const clock = clockAt(start);
    for (let i = 0; i < 6; i += 1) {
      const result = await processDelivery(db.owner, delivery!.id, POLICY, clock);
      assert.equal(result.kind, "attempted");
      const next = (await attempts(delivery!.id)).at(-1)!.next_attempt_at;
      if (next) clock.set(next);
    }
    const log = await attempts(delivery!.id);
    assert.deepEqual(
      log.map((a) => a.outcome),
      ["retrying", "retrying", "retrying", "retrying", "retrying", "failed"],
    );
    assert.ok(log.every((a) => a.status_code === null && /network error/.test(a.error ?? "")));
    const gaps = log.slice(1).map((a, i) => (a.attempted_at.getTime() - log[i]!.attempted_at.getTime()) / 1000);
    assert.deepEqual(gaps, [...RETRY_DELAYS_SECONDS], "random() = 0.5: the schedule without jitter");
    const total = gaps.reduce((s, g) => s + g, 0) / 3600;
    assert.ok(total > 20 && total < 26, `about 24 h: ${total}`);
    assert.equal((await deliveries(endpoint.id))[0]!.status, "failed");
    let endpointRow = await api.request<{ enabled: boolean; disabled_reason: string | null }>(
      "GET",
      `/webhooks/${endpoint.id}`,
      { key: user.key },
    );
    assert.equal(endpointRow.body.enabled, true, "not yet 24 h of failures");

    // 25 h after the first failure, the next event's first attempt fails: the endpoint is disabled
    const task2 = await newTask(user);
    await setTask(task2, "cancelled", 0);
    const second = (await deliveries(endpoint.id)).at(-1)!;
    clock.set(new Date(start.getTime() + 25 * 3600_000));
    const outcome = await processDelivery(db.owner, second.id, POLICY, clock);
    assert.equal(outcome.kind, "attempted", JSON.stringify(outcome));
    const [last] = await attempts(second.id);
    assert.equal(last!.endpoint_disabled, true);
    assert.equal(last!.outcome, "failed");
    assert.match(last!.error ?? "", /disabled/);
    endpointRow = await api.request<{ enabled: boolean; disabled_reason: string | null }>(
      "GET",
      `/webhooks/${endpoint.id}`,
      { key: user.key },
    );
    assert.equal(endpointRow.body.enabled, false);
    assert.match(endpointRow.body.disabled_reason ?? "", /every delivery failed for 24 hours/);
    const task3 = await newTask(user);
    await setTask(task3, "cancelled", 0);
    assert.equal((await deliveries(endpoint.id)).length, 2, "a disabled endpoint gets no new deliveries");
  });

  it("refuses a receiver at an address the policy does not allow, without a retry", async () => {
    const user = await createTestUser(db.owner, "private");
    const endpoint = await register(user, receiver.url);
    const task = await newTask(user);
    await setTask(task, "cancelled", 0);
    const [delivery] = await deliveries(endpoint.id);
    const result = await processDelivery(db.owner, delivery!.id, { ...POLICY, allowed: [] });
    assert.equal(result.kind === "attempted" && result.outcome, "failed");
    assert.match(result.kind === "attempted" ? (result.error ?? "") : "", /address refused.*loopback/);
  });

  it("holds a task's later event back while an earlier one waits for its retry", async () => {
    const user = await createTestUser(db.owner, "ordered");
    const endpoint = await register(user, receiver.url);
    const task = await newTask(user);
    await setTask(task, "running", 0.1);
    const [started, progress] = await deliveries(endpoint.id);
    receiver.script = [503];
    const clock = clockAt(new Date());
    await processDelivery(db.owner, started!.id, POLICY, clock);
    const held = await processDelivery(db.owner, progress!.id, POLICY, clock);
    assert.equal(held.kind, "held");
    const next = (await attempts(started!.id))[0]!.next_attempt_at!;
    assert.ok(held.kind === "held" && held.until.getTime() > next.getTime());
  });

  it("sends nothing more to a revoked endpoint: pending deliveries are cancelled, new events make none", async () => {
    const user = await createTestUser(db.owner, "revoked");
    const endpoint = await register(user, receiver.url);
    const task = await newTask(user);
    await setTask(task, "running", 0.3);
    const pending = await deliveries(endpoint.id);
    assert.equal(pending.length, 2);
    const res = await api.request("DELETE", `/webhooks/${endpoint.id}`, { key: user.key });
    assert.equal(res.status, 204);
    const before = receiver.received.length;
    for (const d of pending) assert.equal((await processDelivery(db.owner, d.id, POLICY)).kind, "skipped");
    await setTask(task, "success", 1);
    const after = await deliveries(endpoint.id);
    assert.deepEqual(
      after.map((d) => d.status),
      ["cancelled", "cancelled"],
    );
    assert.equal(receiver.received.length, before);
    for (const d of pending) assert.equal(await readJob(db.owner, `webhook_delivery:${d.id}`), null);
    const secrets = await db.owner.query("select 1 from app_private.webhook_secrets where endpoint_id = $1", [
      endpoint.id,
    ]);
    assert.equal(secrets.rowCount, 0);
    assert.equal((await api.request("GET", `/webhooks/${endpoint.id}`, { key: user.key })).status, 404);
  });
});

describe("a planning task's events, end to end", () => {
  let pool: GeometryPool;
  let runner: WorkerRunner;
  before(async () => {
    pool = createGeometryPool({
      size: 1,
      threadModule: new URL("../support/plan-test-thread.ts", import.meta.url).href,
      timeoutMs: 10_000,
      planTimeoutMs: 60_000,
    });
    await pool.ready();
    runner = await startWorkerRunner({
      ownerUrl: db.ownerUrl,
      taskNames: ["plan_cam", "deliver_webhook"],
      extraTasks: {
        plan_cam: planCamTask(pool, { cancelPollMs: 200, progressIntervalMs: 500, cancelGraceMs: 1500 }),
        deliver_webhook: deliverWebhookTask(POLICY),
      },
      concurrency: 2,
      heartbeatSeconds: 1,
      leaseStaleSeconds: 30,
      pollIntervalMs: 100,
    });
  });
  after(async () => {
    await runner?.stop();
    await pool?.close();
  });

  it("arrive signed as task.started, the progress buckets, task.succeeded, then quote.ready", async () => {
    const user = await createTestUser(db.owner, "planner");
    const endpoint = await register(user, receiver.url);
    const projectId = await planningProject(api, user, { library: ["fake:slow", "Drill"] });
    const start = receiver.received.length;
    const res = await api.request<{ task_id: string }>("POST", `/projects/${projectId}/automation/cam-planning`, {
      key: user.key,
      body: PLAN_OPTIONS,
    });
    assert.equal(res.status, 202, res.text);
    const taskId = res.body.task_id;
    const mine = () => receiver.received.slice(start).filter((r) => r.body.data.task_id === taskId);
    await waitFor("quote.ready", async () => mine().some((r) => r.body.type === "quote.ready"), {
      timeoutMs: 30_000,
      intervalMs: 100,
    });
    const got = mine();
    const types = got.map((r) => r.body.type);
    assert.equal(types[0], "task.started");
    assert.deepEqual(types.slice(-2), ["task.succeeded", "quote.ready"]);
    const buckets = got
      .filter((r) => r.body.type === "task.progress")
      .map((r) => Math.floor((r.body.data.progress as number) * 10 + 1e-9));
    assert.ok(buckets.length >= 5, `progress buckets: ${buckets.join(", ")}`);
    assert.deepEqual(
      buckets,
      [...buckets].sort((a, b) => a - b),
      "in order",
    );
    assert.equal(new Set(buckets).size, buckets.length, "no bucket twice");
    for (const r of got) {
      assert.equal(verifySignature(String(r.headers["x-service-signature"]), r.raw, endpoint.secret).ok, true);
      assert.equal(r.body.data.task_name, PLAN_CAM_TASK_NAME);
      assert.equal(r.body.data.project_id, projectId);
    }
    const succeeded = got.find((r) => r.body.type === "task.succeeded")!;
    assert.equal(succeeded.body.data.status, "success");
    assert.ok((succeeded.body.data.result as { job_id: string }).job_id);
    assert.equal(
      new Set(got.map((r) => r.headers["x-service-delivery-id"])).size,
      got.length,
      "one delivery id per event",
    );
  });
});
