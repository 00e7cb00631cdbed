import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { parseApiKey } from "../../auth/api-key.ts";
import { createTask } from "../../db/queries/tasks.ts";
import { withRequestTransaction } from "../../db/request-transaction.ts";
import { startTestApi, type TestApi } from "../support/api.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { createTestUser, type TestUser } from "../support/users.ts";

interface Task {
  task_id: string;
  project_id: string | null;
  task_name: string;
  status: string;
  progress: number;
  result: unknown;
  error: { code: string; message: string } | null;
  attempts: number;
  max_attempts: number;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  updated_at: string;
}

interface Page<T> {
  items: T[];
  next_cursor: string | null;
}

interface ErrorBody {
  detail: { code: string; message: string; details: Record<string, unknown>; request_id: string };
}

let db: TestDatabase;
let api: TestApi;
let alice: TestUser;
let bob: TestUser;

before(async () => {
  db = await createTestDatabase();
  // page walks with small limits make many requests; the rate limit has its own suite
  api = await startTestApi(db, { env: { RATE_LIMIT_PER_MINUTE: "100000" } });
  alice = await createTestUser(db.owner, "alice");
  bob = await createTestUser(db.owner, "bob");
});
after(async () => {
  await api.close();
  await db.drop();
});

async function createProject(user: TestUser, name = "Part"): Promise<string> {
  const res = await api.request<{ id: string }>("POST", "/projects", {
    key: user.key,
    body: { name, customer: "ACME" },
  });
  assert.equal(res.status, 201, res.text);
  return res.body.id;
}

/** Inserts task records as the owner, oldest first; returns their ids in insertion order. */
async function insertTasks(user: TestUser, projectId: string, names: readonly string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const name of names) {
    const { rows } = await db.owner.query<{ id: string }>(
      `insert into app_public.tasks (user_id, project_id, task_name, worker_task)
       values ($1, $2, $3, 'plan_cam') returning id`,
      [user.id, projectId, name],
    );
    ids.push(rows[0]!.id);
  }
  return ids;
}

function names(prefix: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => `${prefix}.t${String(i).padStart(3, "0")}`);
}

/** Follows next_cursor from the first page to the last; returns every page. */
async function walk<T>(path: string, key: string, limit?: number): Promise<Page<T>[]> {
  const pages: Page<T>[] = [];
  let cursor: string | null = null;
  const separator = path.includes("?") ? "&" : "?";
  do {
    const params = new URLSearchParams();
    if (limit !== undefined) params.set("limit", String(limit));
    if (cursor !== null) params.set("cursor", cursor);
    const query = params.size > 0 ? `${separator}${params}` : "";
    const res = await api.request<Page<T>>("GET", `${path}${query}`, { key });
    assert.equal(res.status, 200, res.text);
    pages.push(res.body);
    cursor = res.body.next_cursor;
    assert.ok(pages.length <= 1000, "the walk does not end");
  } while (cursor !== null);
  return pages;
}

describe("GET /tasks/{task_id}", () => {
  it("returns the task's state, progress, result, error, attempts and timestamps", async () => {
    const projectId = await createProject(alice);
    // one automation task of a project is queued or running at a time: the first ends before the second
    const [doneId] = await insertTasks(alice, projectId, ["automation.automated_cam_planning"]);
    await db.owner.query(
      `update app_public.tasks set status = 'success', progress = 1, attempts = 1,
         result = '{"setups": 2, "job_id": "j-1"}', started_at = now() - interval '5 minutes',
         finished_at = now() - interval '1 minute', updated_at = now() where id = $1`,
      [doneId],
    );
    const [failedId] = await insertTasks(alice, projectId, ["automation.automated_cam_planning"]);
    await db.owner.query(
      `update app_public.tasks set status = 'failed', progress = 0.4, attempts = 3,
         error = '{"code": "no_workpiece", "message": "upload a workpiece first"}',
         started_at = now(), finished_at = now() where id = $1`,
      [failedId],
    );

    const res = await api.request<Task>("GET", `/tasks/${doneId}`, { key: alice.key });
    assert.equal(res.status, 200, res.text);
    const task = res.body;
    assert.deepEqual(Object.keys(task).sort(), [
      "attempts",
      "cancel_requested_at",
      "created_at",
      "error",
      "finished_at",
      "max_attempts",
      "progress",
      "project_id",
      "result",
      "started_at",
      "status",
      "task_id",
      "task_name",
      "updated_at",
    ]);
    assert.equal(task.task_id, doneId);
    assert.equal(task.project_id, projectId);
    assert.equal(task.task_name, "automation.automated_cam_planning");
    assert.equal(task.status, "success");
    assert.equal(task.progress, 1);
    assert.deepEqual(task.result, { setups: 2, job_id: "j-1" });
    assert.equal(task.error, null);
    assert.equal(task.attempts, 1);
    assert.equal(task.max_attempts, 3);
    const { rows } = await db.owner.query<{ created_at: Date; started_at: Date; finished_at: Date; updated_at: Date }>(
      "select created_at, started_at, finished_at, updated_at from app_public.tasks where id = $1",
      [doneId],
    );
    const stored = rows[0]!;
    assert.equal(task.created_at, stored.created_at.toISOString());
    assert.equal(task.started_at, stored.started_at.toISOString());
    assert.equal(task.finished_at, stored.finished_at.toISOString());
    assert.equal(task.updated_at, stored.updated_at.toISOString());

    const failed = await api.request<Task>("GET", `/tasks/${failedId}`, { key: alice.key });
    assert.equal(failed.status, 200, failed.text);
    assert.equal(failed.body.status, "failed");
    assert.equal(failed.body.progress, 0.4);
    assert.equal(failed.body.attempts, 3);
    assert.equal(failed.body.result, null);
    assert.deepEqual(failed.body.error, { code: "no_workpiece", message: "upload a workpiece first" });
  });

  it("shows a queued task with no progress and no start or finish time", async () => {
    const projectId = await createProject(alice);
    const [id] = await insertTasks(alice, projectId, ["automation.automated_cam_planning"]);
    const res = await api.request<Task>("GET", `/tasks/${id}`, { key: alice.key });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.status, "queued");
    assert.equal(res.body.progress, 0);
    assert.equal(res.body.attempts, 0);
    assert.equal(res.body.result, null);
    assert.equal(res.body.error, null);
    assert.equal(res.body.started_at, null);
    assert.equal(res.body.finished_at, null);
  });

  it("answers 404 not_found for another user's task, exactly as for an unknown id", async () => {
    const projectId = await createProject(alice);
    const [id] = await insertTasks(alice, projectId, ["automation.automated_cam_planning"]);
    const foreign = await api.request<ErrorBody>("GET", `/tasks/${id}`, { key: bob.key });
    assert.equal(foreign.status, 404);
    assert.equal(foreign.body.detail.code, "not_found");
    const unknownId = randomUUID();
    const unknown = await api.request<ErrorBody>("GET", `/tasks/${unknownId}`, { key: bob.key });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.detail.code, "not_found");
    assert.equal(foreign.body.detail.message.replace(id!, "ID"), unknown.body.detail.message.replace(unknownId, "ID"));
    // still alice's
    assert.equal((await api.request("GET", `/tasks/${id}`, { key: alice.key })).status, 200);
  });

  it("answers 400 invalid_parameter naming the path parameter when the id is not a UUID", async () => {
    const res = await api.request<ErrorBody>("GET", "/tasks/not-a-uuid", { key: alice.key });
    assert.equal(res.status, 400);
    assert.equal(res.body.detail.code, "invalid_parameter");
    const fields = res.body.detail.details.fields as { field: string }[];
    assert.ok(
      fields.some((f) => f.field === "path.task_id"),
      JSON.stringify(fields),
    );
  });

  it("answers 403 to a key without projects:read, and 200 to one with only that scope", async () => {
    const projectId = await createProject(alice);
    const [id] = await insertTasks(alice, projectId, ["automation.automated_cam_planning"]);
    const writeOnly = await alice.keyWith(["projects:write", "cam:write", "automation:run"]);
    const denied = await api.request<ErrorBody>("GET", `/tasks/${id}`, { key: writeOnly });
    assert.equal(denied.status, 403);
    assert.equal(denied.body.detail.code, "insufficient_scope");
    const deniedList = await api.request<ErrorBody>("GET", `/tasks/by-project/${projectId}`, { key: writeOnly });
    assert.equal(deniedList.status, 403);
    const readOnly = await alice.keyWith(["projects:read"]);
    assert.equal((await api.request("GET", `/tasks/${id}`, { key: readOnly })).status, 200);
    assert.equal((await api.request("GET", `/tasks/by-project/${projectId}`, { key: readOnly })).status, 200);
  });

  it("answers 401 without a key", async () => {
    const res = await api.request<ErrorBody>("GET", `/tasks/${randomUUID()}`, { key: null });
    assert.equal(res.status, 401);
  });
});

describe("GET /tasks/by-project/{project_id}", () => {
  it("lists the project's tasks newest first, 20 by default, with next_cursor null on the last page", async () => {
    const projectId = await createProject(alice);
    const other = await createProject(alice, "Other");
    const ids = await insertTasks(alice, projectId, names("default", 25));
    await insertTasks(alice, other, names("other", 3));
    const first = await api.request<Page<Task>>("GET", `/tasks/by-project/${projectId}`, { key: alice.key });
    assert.equal(first.status, 200, first.text);
    assert.equal(first.body.items.length, 20);
    assert.deepEqual(
      first.body.items.map((t) => t.task_id),
      [...ids].reverse().slice(0, 20),
      "newest first",
    );
    assert.ok(first.body.items.every((t) => t.project_id === projectId));
    assert.equal(typeof first.body.next_cursor, "string");
    const second = await api.request<Page<Task>>(
      "GET",
      `/tasks/by-project/${projectId}?cursor=${first.body.next_cursor}`,
      { key: alice.key },
    );
    assert.equal(second.status, 200, second.text);
    assert.deepEqual(
      second.body.items.map((t) => t.task_id),
      [...ids].reverse().slice(20),
    );
    assert.equal(second.body.next_cursor, null);
  });

  it("gives next_cursor null when the tasks fill the page exactly, and an empty page for a project without tasks", async () => {
    const projectId = await createProject(alice);
    await insertTasks(alice, projectId, names("exact", 5));
    const res = await api.request<Page<Task>>("GET", `/tasks/by-project/${projectId}?limit=5`, { key: alice.key });
    assert.equal(res.body.items.length, 5);
    assert.equal(res.body.next_cursor, null);
    const empty = await api.request<Page<Task>>("GET", `/tasks/by-project/${await createProject(alice)}`, {
      key: alice.key,
    });
    assert.equal(empty.status, 200);
    assert.deepEqual(empty.body, { items: [], next_cursor: null });
  });

  it("takes limit 1 to 100 and refuses 0, 101 and non-integers with 400 invalid_parameter", async () => {
    const projectId = await createProject(alice);
    const ids = await insertTasks(alice, projectId, names("max", 105));
    const max = await api.request<Page<Task>>("GET", `/tasks/by-project/${projectId}?limit=100`, { key: alice.key });
    assert.equal(max.status, 200, max.text);
    assert.equal(max.body.items.length, 100);
    assert.notEqual(max.body.next_cursor, null);
    const one = await api.request<Page<Task>>("GET", `/tasks/by-project/${projectId}?limit=1`, { key: alice.key });
    assert.deepEqual(
      one.body.items.map((t) => t.task_id),
      [ids.at(-1)],
    );
    for (const limit of ["0", "101", "-1", "2.5", "abc", ""]) {
      const res = await api.request<ErrorBody>("GET", `/tasks/by-project/${projectId}?limit=${limit}`, {
        key: alice.key,
      });
      assert.equal(res.status, 400, `limit=${limit}`);
      assert.equal(res.body.detail.code, "invalid_parameter");
    }
  });

  it("yields every task exactly once when walking all pages", async () => {
    const projectId = await createProject(alice);
    const ids = await insertTasks(alice, projectId, names("walk", 47));
    for (const limit of [1, 7, 20, 47, 100]) {
      const pages = await walk<Task>(`/tasks/by-project/${projectId}`, alice.key, limit);
      assert.equal(pages.length, Math.max(1, Math.ceil(47 / limit)), `pages at limit ${limit}`);
      assert.ok(pages.every((p) => p.items.length <= limit));
      const seen = pages.flatMap((p) => p.items.map((t) => t.task_id));
      assert.deepEqual(seen, [...ids].reverse(), `limit ${limit}: every task once, newest first`);
    }
  });

  it("neither repeats nor skips a task when tasks are inserted between two pages", async () => {
    const projectId = await createProject(alice);
    const original = await insertTasks(alice, projectId, names("before", 30));
    const seen: string[] = [];
    let page = await api.request<Page<Task>>("GET", `/tasks/by-project/${projectId}?limit=10`, { key: alice.key });
    seen.push(...page.body.items.map((t) => t.task_id));
    let round = 0;
    while (page.body.next_cursor !== null) {
      // new tasks arrive while the client pages
      await insertTasks(alice, projectId, names(`during${round++}`, 4));
      page = await api.request<Page<Task>>(
        "GET",
        `/tasks/by-project/${projectId}?limit=10&cursor=${page.body.next_cursor}`,
        {
          key: alice.key,
        },
      );
      assert.equal(page.status, 200, page.text);
      seen.push(...page.body.items.map((t) => t.task_id));
    }
    assert.equal(new Set(seen).size, seen.length, "no task twice");
    assert.deepEqual(
      seen.filter((id) => original.includes(id)),
      [...original].reverse(),
      "every original task once, in order",
    );
    const fresh = await api.request<Page<Task>>("GET", `/tasks/by-project/${projectId}?limit=5`, { key: alice.key });
    assert.ok(!original.includes(fresh.body.items[0]!.task_id), "the new tasks head a fresh walk");
  });

  it("refuses a cursor it did not issue with 400 invalid_parameter", async () => {
    const projectId = await createProject(alice);
    for (const cursor of [
      "garbage",
      Buffer.from("v1:0").toString("base64url"),
      Buffer.from("v2:10").toString("base64url"),
    ]) {
      const res = await api.request<ErrorBody>("GET", `/tasks/by-project/${projectId}?cursor=${cursor}`, {
        key: alice.key,
      });
      assert.equal(res.status, 400, cursor);
      assert.equal(res.body.detail.code, "invalid_parameter");
    }
  });

  it("answers 404 for another user's project and lists none of its tasks", async () => {
    const projectId = await createProject(alice);
    await insertTasks(alice, projectId, names("secret", 2));
    const res = await api.request<ErrorBody>("GET", `/tasks/by-project/${projectId}`, { key: bob.key });
    assert.equal(res.status, 404);
    assert.equal(res.body.detail.code, "not_found");
    const unknown = await api.request<ErrorBody>("GET", `/tasks/by-project/${randomUUID()}`, { key: bob.key });
    assert.equal(unknown.status, 404);
    const bad = await api.request<ErrorBody>("GET", "/tasks/by-project/nope", { key: bob.key });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.detail.code, "invalid_parameter");
  });

  it("answers 404 for a deleted project while its tasks stay readable, also after the purge", async () => {
    const projectId = await createProject(alice);
    const ids = await insertTasks(alice, projectId, names("kept", 3));
    await db.owner.query(
      "update app_public.tasks set status = 'success', progress = 1, attempts = 1, result = '{\"ok\": true}' where id = $1",
      [ids[0]],
    );
    assert.equal((await api.request("DELETE", `/projects/${projectId}`, { key: alice.key })).status, 204);
    const list = await api.request<ErrorBody>("GET", `/tasks/by-project/${projectId}`, { key: alice.key });
    assert.equal(list.status, 404);
    assert.equal(list.body.detail.code, "not_found");
    for (const id of ids) {
      const res = await api.request<Task>("GET", `/tasks/${id}`, { key: alice.key });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.project_id, projectId);
    }
    // what the purge_project job does
    const purged = await db.owner.query("delete from app_public.projects where id = $1 and deleted_at is not null", [
      projectId,
    ]);
    assert.equal(purged.rowCount, 1);
    const after = await api.request<Task>("GET", `/tasks/${ids[0]}`, { key: alice.key });
    assert.equal(after.status, 200, after.text);
    assert.equal(after.body.status, "success");
    assert.deepEqual(after.body.result, { ok: true });
    assert.equal((await api.request("GET", `/tasks/by-project/${projectId}`, { key: alice.key })).status, 404);
  });
});

describe("GET /projects pagination", () => {
  it("walks every project exactly once, newest first, at any page size, and shows no other user's", async () => {
    const carol = await createTestUser(db.owner, "carol");
    const created: string[] = [];
    for (let i = 0; i < 23; i++) created.push(await createProject(carol, `P${i}`));
    await createProject(bob, "not carol's");
    const deleted = created.splice(5, 1)[0]!;
    assert.equal((await api.request("DELETE", `/projects/${deleted}`, { key: carol.key })).status, 204);

    const byDefault = await walk<{ id: string }>("/projects", carol.key);
    assert.deepEqual(
      byDefault.map((p) => p.items.length),
      [20, 2],
    );
    assert.equal(byDefault.at(-1)!.next_cursor, null);
    for (const limit of [1, 5, 22, 100]) {
      const pages = await walk<{ id: string }>("/projects", carol.key, limit);
      assert.deepEqual(
        pages.flatMap((p) => p.items.map((x) => x.id)),
        [...created].reverse(),
        `limit ${limit}: every live project once, newest first`,
      );
    }
  });

  it("neither repeats nor skips a project when projects are created between two pages", async () => {
    const dave = await createTestUser(db.owner, "dave");
    const original: string[] = [];
    for (let i = 0; i < 9; i++) original.push(await createProject(dave, `P${i}`));
    const seen: string[] = [];
    let page = await api.request<Page<{ id: string }>>("GET", "/projects?limit=4", { key: dave.key });
    seen.push(...page.body.items.map((p) => p.id));
    while (page.body.next_cursor !== null) {
      await createProject(dave, "meanwhile");
      page = await api.request<Page<{ id: string }>>("GET", `/projects?limit=4&cursor=${page.body.next_cursor}`, {
        key: dave.key,
      });
      seen.push(...page.body.items.map((p) => p.id));
    }
    assert.equal(new Set(seen).size, seen.length);
    assert.deepEqual(seen, [...original].reverse());
  });

  it("takes limit 1 to 100 and refuses 0, 101 and a foreign cursor", async () => {
    const erin = await createTestUser(db.owner, "erin");
    await createProject(erin);
    assert.equal((await api.request("GET", "/projects?limit=100", { key: erin.key })).status, 200);
    assert.equal((await api.request("GET", "/projects?limit=1", { key: erin.key })).status, 200);
    for (const query of ["limit=0", "limit=101", "limit=x", "cursor=zzz", "unknown=1"]) {
      const res = await api.request<ErrorBody>("GET", `/projects?${query}`, { key: erin.key });
      assert.equal(res.status, 400, query);
      assert.equal(res.body.detail.code, "invalid_parameter");
    }
  });
});

describe("creating a task", () => {
  it("records the task for the caller and queues its job in the same transaction, or neither", async () => {
    const project = await api.request<{ id: string }>("POST", "/projects", {
      key: alice.key,
      body: { name: "Tasks", customer: "C" },
    });
    const credential = parseApiKey(alice.key)!;
    const task = await withRequestTransaction(api.pool, credential, ["automation:run"], (tx) =>
      createTask(tx, {
        projectId: project.body.id,
        taskName: "test.created",
        workerTask: "test_created",
        queueName: `user:${alice.id}`,
      }),
    );
    assert.equal(task.status, "queued");
    const { rows } = await db.owner.query(
      "select t.user_id, j.task_identifier, j.queue_name from app_public.tasks t join graphile_worker.jobs j on j.key = t.id::text where t.id = $1",
      [task.id],
    );
    assert.deepEqual(rows, [{ user_id: alice.id, task_identifier: "test_created", queue_name: `user:${alice.id}` }]);

    // rolled back with the request: no record and no job
    await assert.rejects(
      withRequestTransaction(api.pool, credential, ["automation:run"], async (tx) => {
        await createTask(tx, {
          projectId: project.body.id,
          taskName: "test.rolled_back",
          workerTask: "test_rolled_back",
        });
        throw new Error("the request fails after creating its task");
      }),
      /the request fails/,
    );
    const left = await db.owner.query(
      "select (select count(*) from app_public.tasks where task_name = 'test.rolled_back')::int as tasks, (select count(*) from graphile_worker.jobs where task_identifier = 'test_rolled_back')::int as jobs",
    );
    assert.deepEqual(left.rows, [{ tasks: 0, jobs: 0 }]);
  });

  it("refuses a task on another user's project", async () => {
    const project = await api.request<{ id: string }>("POST", "/projects", {
      key: alice.key,
      body: { name: "Mine", customer: "C" },
    });
    await assert.rejects(
      withRequestTransaction(api.pool, parseApiKey(bob.key)!, [], (tx) =>
        createTask(tx, { projectId: project.body.id, taskName: "test.stolen", workerTask: "test_stolen" }),
      ),
      (error: { code?: string }) => error.code === "42501",
    );
  });
});
