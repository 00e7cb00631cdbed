/**
 * Chaos: PostgreSQL stopped and started again under load. A cluster of this suite's own (it
 * cannot restart the server the other suites use, nor the one DATABASE_URL names), the API in a
 * process of its own, two worker processes planning, napping and delivering webhooks, and
 * clients sending requests throughout. The server stays down for longer than the workers'
 * stale interval, so every lease looks stale when it comes back.
 *
 * During the outage the API answers 503 database_unavailable in the spec's envelope with
 * Retry-After, never 500, never late; /healthz goes 503, then 200 once the server is back; the
 * processes keep running and resume by themselves; every task ends, and each plan ran once.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { after, before, describe, it } from "node:test";
import type { TestApi } from "../support/api.ts";
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
  startOwnCluster,
  unavailableProblem,
  type ApiHandle,
  type OwnCluster,
  type Reply,
  type WorkerHandle,
} from "./support.ts";

/** longer than the stale interval: every lease is stale when the server is back */
const OUTAGE_MS = STALE_SECONDS * 1000 + 3000;
const PLAN_MS = 15_000;
const NAP_MS = 3000;

let cluster: OwnCluster;
let api: ApiHandle;
let client: TestApi;
let receiver: TestReceiver;
const processes = new ProcessSet();

before(async () => {
  cluster = await startOwnCluster();
  api = await spawnApi(processes, cluster.appUrl);
  client = remoteTestApi(api.origin, cluster.appUrl);
  receiver = await startReceiver();
});
after(async () => {
  await processes.stopAll();
  await receiver?.close();
  await client?.close();
  await cluster?.destroy();
});

interface Sent extends Reply {
  kind: "list" | "create" | "healthz";
}

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

describe("chaos: PostgreSQL restarted under load", () => {
  it("answers 503 database_unavailable with Retry-After while it is down, never 500 nor late, and recovers by itself with every task done once", async (t) => {
    const workers: WorkerHandle[] = [];
    for (const label of ["worker-1", "worker-2"]) {
      workers.push(
        await spawnWorker(processes, label, cluster.ownerUrl, {
          tasks: ["plan_cam", "deliver_webhook", "test_nap"],
          concurrency: 2,
        }),
      );
    }
    const users = [await createTestUser(cluster.owner, "restart-a"), await createTestUser(cluster.owner, "restart-b")];
    const plans = [await startPlanning(users[0]!), await startPlanning(users[1]!)];
    const naps: string[] = [];
    for (let i = 0; i < 6; i++) {
      naps.push(
        await insertTaskRecord(cluster.owner, {
          userId: users[i % 2]!.id,
          workerTask: "test_nap",
          payload: { ms: NAP_MS },
        }),
      );
    }
    // a planning is in the middle of its plan (a worker plans one at a time: the other may wait)
    await waitFor(
      "a planning to run",
      async () => {
        const { rows } = await cluster.owner.query<{ n: number }>(
          "select count(*)::int as n from app_public.tasks where id = any($1::uuid[]) and status = 'running' and progress > 0.3",
          [plans],
        );
        return rows[0]!.n >= 1;
      },
      { timeoutMs: 60_000, intervalMs: 100 },
    );

    // clients: one lists projects, one creates them, one asks /healthz, without a pause
    const key = users[0]!.key;
    const send = (kind: Sent["kind"], reply: Promise<Reply>) => reply.then((r): Sent => ({ ...r, kind }));
    const clients = [
      loop(() => send("list", api.request("GET", "/projects?limit=5", { key }))),
      loop(() =>
        send(
          "create",
          api.request("POST", "/projects", {
            key,
            body: { name: `Load ${randomUUID().slice(0, 8)}`, customer: "ACME" },
          }),
        ),
      ),
      loop(() => send("healthz", api.request("GET", "/healthz"))),
    ];
    let sent: Sent[] = [];
    let stoppedAt = 0;
    let startingAt = 0;
    let startedAt = 0;
    try {
      await sleep(2000);
      const stopMs = await cluster.stop();
      stoppedAt = Date.now();
      await sleep(OUTAGE_MS);
      startingAt = Date.now();
      const startMs = await cluster.start();
      startedAt = Date.now();
      t.diagnostic(
        `server stopped in ${seconds(stopMs)} s, down ${seconds(startingAt - stoppedAt)} s, started in ${seconds(startMs)} s`,
      );

      // the API and the workers come back by themselves
      await waitFor(
        "the API to answer 200 again",
        async () =>
          clients.every((c) => c.results.some((r) => r.at >= startedAt && (r.status === 200 || r.status === 201))),
        { timeoutMs: 60_000, intervalMs: 100 },
      );
      await sleep(2000);
    } finally {
      sent = (await Promise.all(clients.map((c) => c.stop()))).flat();
    }

    // never a 500, never a dropped or late answer; a 503 always in the envelope, with Retry-After
    const problems = sent.flatMap((r) => {
      if (r.status === 200 || r.status === 201) return [];
      // /healthz has its own body: which check failed
      const problem =
        r.kind === "healthz"
          ? r.status === 503 && (r.body as { checks?: Record<string, string> }).checks?.database === "failing"
            ? null
            : `status ${r.status} ${r.error ?? ""} ${r.text}`
          : unavailableProblem(r);
      return problem ? [`${r.kind} at +${seconds(r.at - stoppedAt)} s: ${problem}`] : [];
    });
    assert.equal(
      problems.length,
      0,
      `answers other than 2xx or a well-formed 503:\n${problems.slice(0, 20).join("\n")}`,
    );
    const down = sent.filter((r) => r.at >= stoppedAt && r.at + r.ms <= startingAt);
    assert.ok(down.length > 10, `requests during the outage: ${down.length}`);
    for (const r of down) assert.equal(r.status, 503, `${r.kind} during the outage: ${r.status}`);
    const during = (kind: Sent["kind"]) => down.filter((r) => r.kind === kind);
    assert.ok(
      during("list").length > 0 && during("create").length > 0 && during("healthz").length > 0,
      "every client was answered while it was down",
    );
    const slowest = Math.max(...sent.map((r) => r.ms));
    assert.ok(slowest < 10_000, `the slowest answer took ${slowest} ms`);

    // /healthz: 200, then 503 while down, then 200 again
    const health = sent.filter((r) => r.kind === "healthz").sort((a, b) => a.at - b.at);
    assert.equal(health.find((r) => r.at < stoppedAt - 500)?.status, 200, "healthy before");
    const firstBack = (kind: Sent["kind"]) =>
      sent.filter((r) => r.kind === kind && r.at >= startedAt && r.status < 300).sort((a, b) => a.at - b.at)[0];
    const recovery = {
      healthz: firstBack("healthz")!.at + firstBack("healthz")!.ms - startedAt,
      list: firstBack("list")!.at + firstBack("list")!.ms - startedAt,
      create: firstBack("create")!.at + firstBack("create")!.ms - startedAt,
    };
    const count = (status: number) => sent.filter((r) => r.status === status).length;
    t.diagnostic(
      `${sent.length} requests: ${count(200) + count(201)} 2xx, ${count(503)} 503, 0 other; slowest answer ${Math.round(slowest)} ms; ` +
        `first 2xx after the server was up: /healthz ${seconds(recovery.healthz)} s, list ${seconds(recovery.list)} s, create ${seconds(recovery.create)} s`,
    );

    // the workers renew their leases again, finish every task, each plan in its first attempt
    const leasesBack = await waitFor(
      "both workers' leases renewed",
      async () => {
        const { rows } = await cluster.owner.query<{ n: number }>(
          "select count(*)::int as n from app_private.worker_leases where pool_id = any($1::text[]) and heartbeat_at > $2",
          [workers.map((w) => w.poolId), new Date(startedAt)],
        );
        return rows[0]!.n === 2 ? Date.now() : null;
      },
      { timeoutMs: 30_000, intervalMs: 100 },
    );
    const all = [...plans, ...naps];
    const ended = await waitFor(
      "every task to end",
      async () => {
        const tasks = await terminalTasks(cluster.owner, all);
        return tasks.size === all.length ? tasks : null;
      },
      { timeoutMs: 120_000, intervalMs: 200 },
    );
    const endedAt = Date.now();
    for (const [id, task] of ended) assert.equal(task.status, "success", `${id}: ${JSON.stringify(task.error)}`);
    for (const id of plans)
      assert.equal(ended.get(id)!.attempts, 1, "a plan running through the outage is not taken from its live worker");
    const napAttempts = naps.map((id) => ended.get(id)!.attempts);
    t.diagnostic(
      `leases renewed ${seconds(leasesBack - startedAt)} s after the server was up; every task done ${seconds(endedAt - startedAt)} s after it ` +
        `(plans attempts ${plans.map((id) => ended.get(id)!.attempts).join(", ")}; naps ${napAttempts.join(", ")})`,
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
    await assertInvariants(cluster.owner, { staleSeconds: STALE_SECONDS });
  });
});
