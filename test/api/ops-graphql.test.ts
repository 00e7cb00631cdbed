/**
 * The operator read API (/ops/graphql) against a real database: who sees which rows is the
 * database's RLS, and nothing can be written through it.
 */
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { repoRoot } from "../../config/env.ts";
import { revokeApiKey } from "../../db/queries/api-keys.ts";
import { renewLease } from "../../db/queries/worker-leases.ts";
import { startTestApi, type TestApi } from "../support/api.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { insertTaskRecord } from "../support/task-records.ts";
import { createTestUser, type TestUser } from "../support/users.ts";

interface GraphqlBody<T> {
  data?: T;
  errors?: { message: string }[];
}

interface Overview {
  allTasks: { totalCount: number; nodes: { id: string; userEmail: string; status: string; taskName: string }[] };
  allQueueDepths: { nodes: { taskName: string; ready: number; running: number }[] };
  allWorkers: { nodes: { poolId: string; hostname: string; taskNames: string[]; jobsRunning: number }[] };
  allWebhookDeliveries: { nodes: { eventType: string; status: string; userId: string }[] };
}

const OVERVIEW = `{
  allTasks(orderBy: SEQ_ASC) { totalCount nodes { id userEmail status taskName } }
  allQueueDepths { nodes { taskName ready running } }
  allWorkers { nodes { poolId hostname taskNames jobsRunning } }
  allWebhookDeliveries { nodes { eventType status userId } }
}`;

let db: TestDatabase;
let api: TestApi;
let alice: TestUser;
let bob: TestUser;
let operator: string;
let operatorWithPublicScopes: string;
const taskIds: Record<string, string> = {};

async function graphql<T>(key: string | null, query: string, variables?: Record<string, unknown>) {
  return api.request<GraphqlBody<T>>("POST", "/ops/graphql", { key, body: { query, variables } });
}

before(async () => {
  db = await createTestDatabase();
  api = await startTestApi(db);
  alice = await createTestUser(db.owner, "alice");
  bob = await createTestUser(db.owner, "bob");
  const ops = await createTestUser(db.owner, "ops");
  operator = await ops.keyWith(["ops:read"]);
  operatorWithPublicScopes = await ops.keyWith(["ops:read", "projects:read"]);
  for (const [name, user] of [
    ["alice", alice],
    ["bob", bob],
  ] as const) {
    const project = await api.request<{ id: string }>("POST", "/projects", {
      key: user.key,
      body: { name: `${name}'s`, customer: "X" },
    });
    taskIds[name] = await insertTaskRecord(db.owner, {
      userId: user.id,
      projectId: project.body.id,
      workerTask: "test_idle",
    });
  }
  // alice's endpoint gets the events of her task's start
  await api.request("POST", "/webhooks", { key: alice.key, body: { url: "http://127.0.0.1:9/hook", event_types: [] } });
  await db.owner.query(
    "update app_public.tasks set status = 'running', progress = 0.2, locked_by = 'pool-a' where id = $1",
    [taskIds.alice],
  );
  await renewLease(db.owner, {
    poolId: "pool-a",
    hostname: "mill-box-1",
    pid: 4242,
    taskNames: ["plan_cam", "tessellate"],
  });
});

after(async () => {
  await api?.close();
  await db?.drop();
});

describe("POST /ops/graphql", () => {
  it("answers 401 in the error envelope without a key or with an unknown one", async () => {
    for (const key of [null, "swarf_live_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"]) {
      const response = await graphql(key, "{ allTasks { totalCount } }");
      assert.equal(response.status, 401);
      const detail = (response.body as unknown as { detail: { code: string; request_id: string } }).detail;
      assert.match(detail.code, /^api_key_(missing|invalid|malformed)$/);
      assert.ok(detail.request_id);
    }
  });

  it("shows a key without ops:read its own user's tasks and deliveries, and nothing of the fleet", async () => {
    const response = await graphql<Overview>(alice.key, OVERVIEW);
    assert.equal(response.status, 200, response.text);
    assert.equal(response.body.errors, undefined);
    const data = response.body.data!;
    assert.deepEqual(
      data.allTasks.nodes.map((t) => [t.id, t.userEmail, t.status]),
      [[taskIds.alice, alice.email, "running"]],
    );
    assert.deepEqual(data.allQueueDepths.nodes, []);
    assert.deepEqual(data.allWorkers.nodes, []);
    assert.ok(data.allWebhookDeliveries.nodes.length >= 2, "task.started and task.progress");
    assert.ok(data.allWebhookDeliveries.nodes.every((d) => d.userId === alice.id));

    const bobs = await graphql<Overview>(bob.key, OVERVIEW);
    assert.deepEqual(
      bobs.body.data!.allTasks.nodes.map((t) => t.id),
      [taskIds.bob],
    );
    assert.deepEqual(bobs.body.data!.allWebhookDeliveries.nodes, []);
  });

  it("shows an ops:read key every user's tasks and deliveries, the queue depth per task and the live workers", async () => {
    const response = await graphql<Overview>(operator, OVERVIEW);
    assert.equal(response.status, 200, response.text);
    const data = response.body.data!;
    assert.deepEqual(
      data.allTasks.nodes.map((t) => t.id),
      [taskIds.alice, taskIds.bob],
    );
    assert.deepEqual(
      data.allTasks.nodes.map((t) => t.userEmail),
      [alice.email, bob.email],
    );
    const idle = data.allQueueDepths.nodes.find((q) => q.taskName === "test_idle");
    assert.deepEqual(idle, { taskName: "test_idle", ready: 2, running: 0 });
    assert.ok(data.allQueueDepths.nodes.some((q) => q.taskName === "deliver_webhook"));
    assert.deepEqual(data.allWorkers.nodes, [
      { poolId: "pool-a", hostname: "mill-box-1", taskNames: ["plan_cam", "tessellate"], jobsRunning: 0 },
    ]);
    assert.ok(data.allWebhookDeliveries.nodes.length >= 2);
  });

  it("filters and follows relations: a task's worker, a worker's tasks", async () => {
    const response = await graphql<{
      allTasks: { nodes: { id: string; workerByLockedBy: { hostname: string } | null }[] };
    }>(
      operator,
      `query ($status: String!) { allTasks(condition: { status: $status }) { nodes { id workerByLockedBy { hostname } } } }`,
      { status: "running" },
    );
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(response.body.data!.allTasks.nodes, [
      { id: taskIds.alice, workerByLockedBy: { hostname: "mill-box-1" } },
    ]);
  });

  it("has no mutations, and a mutation changes nothing", async () => {
    const response = await graphql(
      operator,
      `mutation { deleteTaskById(input: { id: "${taskIds.alice}" }) { clientMutationId } }`,
    );
    assert.ok(response.body.errors && response.body.errors.length > 0, response.text);
    const schema = await graphql<{ __schema: { mutationType: unknown } }>(
      operator,
      "{ __schema { mutationType { name } } }",
    );
    assert.equal(schema.body.data!.__schema.mutationType, null);
    const { rows } = await db.owner.query("select status from app_public.tasks where id = $1", [taskIds.alice]);
    assert.equal(rows[0]?.status, "running");
  });

  it("refuses a revoked key at once, though the key was just used and the public API caches keys for 60 s", async () => {
    for (const scopes of [["ops:read"], ["projects:read"]] as const) {
      const key = await (await createTestUser(db.owner, `revoked-${scopes[0]}`)).keyWith(scopes);
      assert.equal((await graphql(key, "{ allTasks { totalCount } }")).status, 200);
      assert.equal((await api.request("GET", "/projects", { key })).status, scopes[0] === "projects:read" ? 200 : 403);
      assert.ok(await revokeApiKey(db.owner, key.split("_live_")[0]!));
      const refused = await graphql(key, "{ allTasks { totalCount nodes { userEmail } } }");
      assert.equal(refused.status, 401, refused.text);
      assert.equal((refused.body as unknown as { detail: { code: string } }).detail.code, "api_key_invalid");
    }
  });

  it("widens nothing in the public API: an ops:read key still gets 404 for another user's task", async () => {
    const response = await api.request<{ detail: { code: string } }>("GET", `/tasks/${taskIds.bob}`, {
      key: operatorWithPublicScopes,
    });
    assert.equal(response.status, 404);
  });

  it("counts against the key's rate limit", async () => {
    const response = await graphql(bob.key, "{ allTasks { totalCount } }");
    assert.equal(response.headers.get("x-ratelimit-limit"), String(api.env.RATE_LIMIT_PER_MINUTE));
    assert.ok(Number(response.headers.get("x-ratelimit-remaining")) < api.env.RATE_LIMIT_PER_MINUTE);
  });

  it("refuses a document over 100 kB and malformed GraphQL without a 500", async () => {
    const huge = await graphql(operator, `{ allTasks { totalCount } } # ${"x".repeat(120_000)}`);
    assert.ok(huge.status >= 400 && huge.status < 500, `${huge.status}`);
    for (const query of ["{ allTasks { ", "{ noSuchField }"]) {
      const response = await graphql(operator, query);
      assert.ok(response.status < 500, `${query}: ${response.status}`);
      assert.ok(response.body.errors && response.body.errors.length > 0, `${query}: ${response.text}`);
    }
  });

  it("answers every example of docs/operations.md without an error", async () => {
    const doc = fs.readFileSync(path.join(repoRoot, "docs/operations.md"), "utf8");
    const examples = [...doc.matchAll(/```graphql\n([\s\S]*?)```/g)].flatMap((m) => m[1]!.split(/\n\s*\n/));
    assert.ok(examples.length >= 3, `${examples.length} examples`);
    for (const example of examples) {
      const response = await graphql<Record<string, unknown>>(operator, example);
      assert.equal(response.status, 200, example);
      assert.equal(response.body.errors, undefined, `${example}: ${response.text}`);
    }
  });
});
