import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import type { Task } from "graphile-worker";
import { createPool } from "../db/pools.ts";
import { trackedTask, TaskFailure } from "../tasks/runtime/tracked-task.ts";
import { startTestApi, type TestApi } from "../test/support/api.ts";
import { createTestDatabase, type TestDatabase } from "../test/support/database.ts";
import { findFreePort } from "../test/support/ports.ts";
import { insertTaskRecord, waitFor, waitForTask } from "../test/support/task-records.ts";
import { createTestUser, type TestUser } from "../test/support/users.ts";
import { startReceiver } from "../test/support/webhook-receiver.ts";
import { startWorkerRunner } from "../workers/runner.ts";
import { databaseMetrics } from "./database.ts";
import { routeLabel } from "./http.ts";
import { createMetricsRegistry } from "./registry.ts";

let db: TestDatabase;
let api: TestApi;
let alice: TestUser;

before(async () => {
  db = await createTestDatabase();
  api = await startTestApi(db, { env: { METRICS_TOKEN: "scrape-token-0123456789" } });
  alice = await createTestUser(db.owner, "metrics");
});
after(async () => {
  await api?.close();
  await db?.drop();
});

/**
 * The value of one series in Prometheus' text format, or undefined: `name{a="b",c="d"}`, the
 * labels in any order (prom-client puts the default labels first in some metric types).
 */
function sample(text: string, series: string): number | undefined {
  const labelsOf = (s: string) => (s.match(/[a-z_]+="[^"]*"/g) ?? []).sort().join(",");
  const [name, wanted] = [series.split("{")[0], labelsOf(series)];
  for (const line of text.split("\n")) {
    const space = line.lastIndexOf(" ");
    const head = line.slice(0, space);
    if (head.split("{")[0] === name && labelsOf(head) === wanted) return Number(line.slice(space + 1));
  }
  return undefined;
}

async function scrape(): Promise<string> {
  const response = await api.request("GET", "/metrics", {
    headers: { authorization: "Bearer scrape-token-0123456789" },
  });
  assert.equal(response.status, 200);
  assert.match(response.headers.get("content-type") ?? "", /^text\/plain; version=0\.0\.4/);
  return response.text;
}

describe("the route label", () => {
  it("is the route's template, a fixed path, or unmatched: never what the client sent", () => {
    assert.equal(
      routeLabel("/backend-api/api/public/v1/projects/{project_id}", "/x"),
      "/backend-api/api/public/v1/projects/{project_id}",
    );
    assert.equal(routeLabel(undefined, "/healthz"), "/healthz");
    assert.equal(routeLabel(undefined, "/ops/graphql"), "/ops/graphql");
    assert.equal(routeLabel(undefined, `/backend-api/api/public/v1/projects/${randomUUID()}/nope`), "unmatched");
  });
});

describe("GET /metrics on the API", () => {
  it("refuses a scrape without the token with 401 in the error envelope", async () => {
    const response = await api.request<{ detail: { code: string } }>("GET", "/metrics");
    assert.equal(response.status, 401);
    assert.equal(response.body.detail.code, "metrics_token_invalid");
  });

  it("counts requests per route template, method and status", async () => {
    const project = await api.request<{ id: string }>("POST", "/projects", {
      key: alice.key,
      body: { name: "Metered", customer: "X" },
    });
    await api.request("GET", `/projects/${project.body.id}`, { key: alice.key });
    await api.request("GET", `/projects/${randomUUID()}`, { key: alice.key });
    await api.request("GET", `/no/such/route/${randomUUID()}`, { key: alice.key });
    const text = await scrape();
    const route = "/backend-api/api/public/v1/projects/{project_id}";
    assert.equal(
      sample(
        text,
        `swarf_http_request_duration_seconds_count{method="GET",route="${route}",status="200",process_role="api"}`,
      ),
      1,
    );
    assert.equal(
      sample(
        text,
        `swarf_http_request_duration_seconds_count{method="GET",route="${route}",status="404",process_role="api"}`,
      ),
      1,
    );
    assert.equal(
      sample(
        text,
        `swarf_http_request_duration_seconds_count{method="POST",route="/backend-api/api/public/v1/projects",status="201",process_role="api"}`,
      ),
      1,
    );
    assert.equal(
      sample(
        text,
        'swarf_http_request_duration_seconds_count{method="GET",route="unmatched",status="404",process_role="api"}',
      ),
      1,
    );
    assert.doesNotMatch(text, new RegExp(project.body.id), "no id in a label");
    assert.match(text, /nodejs_eventloop_lag_seconds\{process_role="api"\}/);
  });
});

describe("a worker's metrics", () => {
  it("time each task attempt by outcome, count failures for good and webhook attempts by outcome, and read the queue", async () => {
    const registry = createMetricsRegistry("worker");
    const receiver = await startReceiver();
    const endpoint = await api.request("POST", "/webhooks", {
      key: alice.key,
      body: { url: receiver.url, event_types: ["task.succeeded", "task.failed"] },
    });
    assert.equal(endpoint.status, 201, endpoint.text);
    const project = await api.request<{ id: string }>("POST", "/projects", {
      key: alice.key,
      body: { name: "Tasks", customer: "X" },
    });
    const extraTasks: Record<string, Task> = {
      test_ok: trackedTask(async () => ({ ok: true })),
      test_refused: trackedTask(async () => {
        throw new TaskFailure("no_tool_fits", "refused on purpose");
      }),
      test_broken: async () => {
        throw new Error("broken on purpose");
      },
    };
    const ok = await insertTaskRecord(db.owner, {
      userId: alice.id,
      projectId: project.body.id,
      workerTask: "test_ok",
    });
    const refused = await insertTaskRecord(db.owner, {
      userId: alice.id,
      projectId: project.body.id,
      workerTask: "test_refused",
    });
    await db.owner.query("select graphile_worker.add_job('test_broken', '{}'::json, max_attempts := 1)");

    const before = await (async () => {
      const pool = createPool(db.ownerUrl, 1, "metrics-test");
      const snapshot = createMetricsRegistry("worker");
      databaseMetrics(snapshot, pool);
      const text = await snapshot.metrics();
      await pool.end();
      return text;
    })();
    assert.equal(sample(before, 'swarf_queue_jobs{task="test_ok",state="ready",process_role="worker"}'), 1);
    assert.equal(sample(before, 'swarf_tasks_active{task="test.test_ok",status="queued",process_role="worker"}'), 1);

    const runner = await startWorkerRunner({
      ownerUrl: db.ownerUrl,
      taskNames: ["test_ok", "test_refused", "test_broken", "deliver_webhook"],
      extraTasks,
      concurrency: 2,
      heartbeatSeconds: 1,
      leaseStaleSeconds: 30,
      pollIntervalMs: 100,
      metrics: registry,
    });
    try {
      await waitForTask(db.owner, ok, "success", (task) => task.status === "success", { timeoutMs: 10_000 });
      await waitForTask(db.owner, refused, "failed", (task) => task.status === "failed", { timeoutMs: 10_000 });
      // the worker counts an attempt once it has recorded it, after the receiver answered
      const text = await waitFor(
        "the broken job's failure and both webhooks' attempts",
        async () => {
          const t = await registry.metrics();
          const failed = sample(t, 'swarf_task_failures_total{task="test_broken",process_role="worker"}');
          const delivered = sample(t, 'swarf_webhook_attempts_total{outcome="delivered",process_role="worker"}');
          return failed === 1 && delivered === 2 ? t : null;
        },
        { timeoutMs: 10_000 },
      );
      assert.equal(receiver.received.length, 2);
      assert.equal(
        sample(text, 'swarf_task_duration_seconds_count{task="test_ok",outcome="success",process_role="worker"}'),
        1,
      );
      // a TaskFailure is the task's answer, not a fault: the job succeeds
      assert.equal(
        sample(text, 'swarf_task_duration_seconds_count{task="test_refused",outcome="success",process_role="worker"}'),
        1,
      );
      assert.equal(
        sample(text, 'swarf_task_duration_seconds_count{task="test_broken",outcome="error",process_role="worker"}'),
        1,
      );
      assert.equal(sample(text, 'swarf_webhook_attempts_total{outcome="delivered",process_role="worker"}'), 2);
      assert.equal(sample(text, 'swarf_database_up{process_role="worker"}'), 1);
      assert.equal(sample(text, 'swarf_workers{process_role="worker"}'), 1);
      assert.equal(sample(text, 'swarf_queue_jobs{task="test_broken",state="failed",process_role="worker"}'), 1);
      assert.equal(sample(text, 'swarf_webhook_deliveries_pending{process_role="worker"}'), 0);
    } finally {
      await runner.stop();
      await receiver.close();
    }
  });

  it("report the database down within seconds when it does not answer, and scrape again once it does", async () => {
    const registry = createMetricsRegistry("worker");
    const nowhere = createPool(`postgres://postgres@127.0.0.1:${await findFreePort()}/postgres`, 1, "metrics-test");
    databaseMetrics(registry, nowhere);
    const started = Date.now();
    const text = await registry.metrics();
    assert.ok(Date.now() - started < 5000);
    assert.equal(sample(text, 'swarf_database_up{process_role="worker"}'), 0);
    await nowhere.end();
  });
});
