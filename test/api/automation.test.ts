/**
 * POST /projects/{project_id}/automation/cam-planning and POST /tasks/{task_id}/cancel over
 * HTTP, with no worker running: tasks stay queued, so the slot, the queue and cancellation of
 * queued tasks are seen as the API leaves them. tasks/automated_cam_planning.test.ts runs them.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { parseApiKey } from "../../auth/api-key.ts";
import { SCOPES } from "../../auth/scopes.ts";
import { startTestApi, type TestApi } from "../support/api.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { PLAN_OPTIONS, planningProject, type PlanningStarted } from "../support/planning.ts";
import { insertTaskRecord, readJob, readTaskRecord } from "../support/task-records.ts";
import { createTestUser, type TestUser } from "../support/users.ts";
import { defaultWorkholding } from "../../kernel/workholding/defaults.ts";
import { TEST_PLATE, TEST_VISE } from "../../kernel/workholding/test-support.ts";

interface ErrorBody {
  detail: { code: string; message: string; details: Record<string, unknown> };
}

interface Task {
  task_id: string;
  status: string;
  cancel_requested_at: string | null;
  finished_at: string | null;
}

let db: TestDatabase;
let api: TestApi;
let alice: TestUser;
let bob: TestUser;

before(async () => {
  db = await createTestDatabase();
  // the default per-minute limit is not under test here (the cam_planning one is)
  api = await startTestApi(db, { env: { RATE_LIMIT_PER_MINUTE: "100000" } });
  alice = await createTestUser(db.owner, "alice");
  bob = await createTestUser(db.owner, "bob");
});
after(async () => {
  await api.close();
  await db.drop();
});

/** a key of its own, so the 30-an-hour planning limit of one test does not reach the next */
const freshKey = (user: TestUser) => user.keyWith(SCOPES);

function start(key: string, projectId: string, body: unknown = PLAN_OPTIONS, headers: Record<string, string> = {}) {
  return api.request<PlanningStarted & ErrorBody>("POST", `/projects/${projectId}/automation/cam-planning`, {
    key,
    body,
    headers,
  });
}

function cancel(key: string, taskId: string) {
  return api.request<Task & ErrorBody>("POST", `/tasks/${taskId}/cancel`, { key });
}

async function tasksOf(projectId: string) {
  const { rows } = await db.owner.query<{ id: string; status: string }>(
    "select id, status from app_public.tasks where project_id = $1 order by seq",
    [projectId],
  );
  return rows;
}

async function keyId(key: string): Promise<string> {
  const { rows } = await db.owner.query<{ id: string }>("select id from app_private.api_keys where key_prefix = $1", [
    parseApiKey(key)!.prefix,
  ]);
  return rows[0]!.id;
}

/** a 400 invalid_parameter whose details.fields names the field */
function assertRefusedField(res: { status: number; text: string; body: ErrorBody }, field: string): void {
  assert.equal(res.status, 400, res.text);
  assert.equal(res.body.detail.code, "invalid_parameter");
  assert.ok(
    (res.body.detail.details.fields as { field: string }[]).some((f) => f.field === field),
    `${field}: ${res.text}`,
  );
}

describe("POST /projects/{project_id}/automation/cam-planning", () => {
  it("starts a planning task: 202 with its task_id and Location, queued in the user's queue with the request's options", async () => {
    const key = await freshKey(alice);
    const projectId = await planningProject(api, alice);
    const res = await start(key, projectId, { include_face_milling: false, sort_by_height: true });
    assert.equal(res.status, 202, res.text);
    assert.deepEqual(Object.keys(res.body), ["task_id", "options"], "not queued behind anything");
    assert.deepEqual(res.body.options, { include_face_milling: false, sort_by_height: true }, "as sent");
    assert.equal(res.headers.get("location"), `/backend-api/api/public/v1/tasks/${res.body.task_id}`);
    assert.equal(res.headers.get("x-ratelimit-limit"), "30", "the tighter bucket is the one shown");

    const task = await readTaskRecord(db.owner, res.body.task_id);
    assert.equal(task.task_name, "automation.automated_cam_planning");
    assert.equal(task.worker_task, "plan_cam");
    assert.equal(task.status, "queued");
    assert.equal(task.project_id, projectId);
    assert.equal(task.user_id, alice.id);
    assert.equal(task.max_attempts, 2);
    const { rows } = await db.owner.query("select queue_name, payload from app_public.tasks where id = $1", [task.id]);
    assert.deepEqual(rows[0], {
      queue_name: `automation:${alice.id}`,
      payload: { include_face_milling: false, sort_by_height: true },
    });
    const job = await db.owner.query("select task_identifier, queue_name from graphile_worker.jobs where key = $1", [
      task.id,
    ]);
    assert.deepEqual(job.rows[0], { task_identifier: "plan_cam", queue_name: `automation:${alice.id}` });

    const read = await api.request<Task>("GET", `/tasks/${task.id}`, { key });
    assert.equal(read.body.status, "queued");
    assert.equal(read.body.cancel_requested_at, null);
  });

  it("plans with the documented defaults for the options not sent (include_face_milling true, sort_by_height false), and those sent as sent", async () => {
    const key = await freshKey(alice);
    for (const [body, options] of [
      [{}, { include_face_milling: true, sort_by_height: false }],
      [{ include_face_milling: false }, { include_face_milling: false, sort_by_height: false }],
      [{ sort_by_height: true }, { include_face_milling: true, sort_by_height: true }],
      [
        { include_face_milling: true, sort_by_height: false },
        { include_face_milling: true, sort_by_height: false },
      ],
    ] as const) {
      const projectId = await planningProject(api, alice);
      const res = await start(key, projectId, body);
      assert.equal(res.status, 202, res.text);
      assert.deepEqual(res.body.options, options, JSON.stringify(body));
      const { rows } = await db.owner.query("select payload from app_public.tasks where id = $1", [res.body.task_id]);
      assert.deepEqual(rows[0].payload, options, `the task plans with them: ${JSON.stringify(body)}`);
    }
  });

  it("plans with the defaults when no body is sent at all, as with {}", async () => {
    const key = await freshKey(alice);
    const projectId = await planningProject(api, alice);
    const res = await api.request<PlanningStarted>("POST", `/projects/${projectId}/automation/cam-planning`, { key });
    assert.equal(res.status, 202, res.text);
    assert.deepEqual(res.body.options, PLAN_OPTIONS);
    assert.equal((await tasksOf(projectId)).length, 1);
  });

  it("refuses an option of the wrong type, an unknown field, a null or array body with 400 naming the field, and queues nothing", async () => {
    const key = await freshKey(alice);
    const projectId = await planningProject(api, alice);
    for (const [body, field] of [
      [{ include_face_milling: true, sort_by_height: null }, "body.sort_by_height"],
      [{ include_face_milling: "yes", sort_by_height: false }, "body.include_face_milling"],
      [{ include_face_milling: 1 }, "body.include_face_milling"],
      [{ ...PLAN_OPTIONS, strategy: "fast" }, "body.strategy"],
      [[], "body"],
      [null, "body"],
    ] as const) {
      assertRefusedField(await start(key, projectId, body), field);
    }
    assert.deepEqual(await tasksOf(projectId), []);
  });

  /** An option: each of `refused` is 400 naming the field and queues nothing; `taken` goes into the task's payload. */
  async function assertOption(field: string, refused: unknown[], taken: number | string): Promise<void> {
    const key = await freshKey(alice);
    const projectId = await planningProject(api, alice);
    for (const value of refused) {
      const res = await start(key, projectId, { ...PLAN_OPTIONS, [field]: value });
      assert.equal(res.status, 400, `${JSON.stringify(value)}: ${res.text}`);
      assert.equal(res.body.detail.code, "invalid_parameter");
      assert.ok(
        (res.body.detail.details.fields as { field: string }[]).some((f) => f.field === `body.${field}`),
        res.text,
      );
    }
    assert.deepEqual(await tasksOf(projectId), []);
    const body = { include_face_milling: true, sort_by_height: false, [field]: taken };
    const res = await start(key, projectId, body);
    assert.equal(res.status, 202, res.text);
    const { rows } = await db.owner.query("select payload from app_public.tasks where id = $1", [res.body.task_id]);
    assert.deepEqual(rows[0]?.payload, body);
  }

  it("takes completeness_surface_limit_pct (0 to 100) into the task's options, and refuses one outside that range or not a number with 400", async () => {
    await assertOption("completeness_surface_limit_pct", [-0.1, 100.5, "1", null], 2.5);
  });

  it("takes rapid_clearance_mm (0 to 50) into the task's options, and refuses a negative or absurd one with 400", async () => {
    await assertOption("rapid_clearance_mm", [-0.5, 50.5, "2", null], 3);
  });

  it("takes clearing (auto, adaptive or offset) into the task's options, and refuses any other value with 400", async () => {
    await assertOption("clearing", ["trochoidal", "", 1, null], "adaptive");
  });

  it("takes scallop_mm (0.001 to 0.5) into the task's options, and refuses one outside that range or not a number with 400", async () => {
    await assertOption("scallop_mm", [0, 0.0005, 0.6, "0.01", null], 0.02);
  });

  it("refuses a key without automation:run, and one without cam:write, with 403 naming the scope", async () => {
    const projectId = await planningProject(api, alice);
    for (const missing of ["automation:run", "cam:write"] as const) {
      const key = await alice.keyWith(SCOPES.filter((scope) => scope !== missing));
      const res = await start(key, projectId);
      assert.equal(res.status, 403);
      assert.equal(res.body.detail.code, "insufficient_scope");
      assert.deepEqual(res.body.detail.details.missing_scopes, [missing]);
    }
    assert.deepEqual(await tasksOf(projectId), []);
  });

  it("answers 404 for another user's project and for one that does not exist", async () => {
    const projectId = await planningProject(api, alice);
    const res = await start(await freshKey(bob), projectId);
    assert.equal(res.status, 404);
    assert.equal(res.body.detail.code, "not_found");
    assert.equal((await start(await freshKey(alice), "00000000-0000-4000-8000-000000000000")).status, 404);
    assert.deepEqual(await tasksOf(projectId), []);
  });

  it("answers 409 with a code a client can act on when the workpiece, stock, material or library is missing, queueing nothing", async () => {
    const key = await freshKey(alice);
    for (const [options, code] of [
      [{ workpiece: false }, "workpiece_missing"],
      [{ stock: false }, "stock_missing"],
      [{ material: null }, "material_missing"],
      [{ library: null }, "library_missing"],
      [{ library: [] }, "empty_library"],
    ] as const) {
      const projectId = await planningProject(api, alice, options);
      const res = await start(key, projectId);
      assert.equal(res.status, 409, code);
      assert.equal(res.body.detail.code, code);
      assert.equal(res.body.detail.details.project_id, projectId);
      assert.deepEqual(await tasksOf(projectId), [], code);
    }
  });

  it("replays a request with the same Idempotency-Key (the same task, Idempotency-Replayed), and refuses the key for another body", async () => {
    const key = await freshKey(alice);
    const projectId = await planningProject(api, alice);
    const headers = { "Idempotency-Key": "plan-bracket-1" };
    const first = await start(key, projectId, PLAN_OPTIONS, headers);
    assert.equal(first.status, 202, first.text);
    const again = await start(key, projectId, PLAN_OPTIONS, headers);
    assert.equal(again.status, 202, "replayed, not 409 automation_slot_busy");
    assert.equal(again.headers.get("idempotency-replayed"), "true");
    assert.deepEqual(again.body, first.body);
    assert.equal(again.headers.get("location"), first.headers.get("location"));
    assert.equal((await tasksOf(projectId)).length, 1);
    const other = await start(key, projectId, { ...PLAN_OPTIONS, sort_by_height: true }, headers);
    assert.equal(other.status, 422);
    assert.equal(other.body.detail.code, "idempotency_key_reused");
  });

  it("answers 409 automation_slot_busy for the same project while its planning is queued, naming that task, and accepts one again once it ended", async () => {
    const key = await freshKey(alice);
    const projectId = await planningProject(api, alice);
    const first = await start(key, projectId);
    assert.equal(first.status, 202);
    const second = await start(key, projectId, { include_face_milling: false, sort_by_height: false });
    assert.equal(second.status, 409);
    assert.equal(second.body.detail.code, "automation_slot_busy");
    assert.equal(second.body.detail.details.task_id, first.body.task_id);
    // running holds the slot as well
    await db.owner.query("update app_public.tasks set status = 'running', attempts = 1 where id = $1", [
      first.body.task_id,
    ]);
    assert.equal((await start(key, projectId)).body.detail.code, "automation_slot_busy");
    await db.owner.query("update app_public.tasks set status = 'failed', finished_at = now() where id = $1", [
      first.body.task_id,
    ]);
    const third = await start(key, projectId);
    assert.equal(third.status, 202, third.text);
    assert.deepEqual(
      (await tasksOf(projectId)).map((t) => t.status),
      ["failed", "queued"],
    );
  });

  it("lets exactly one of many simultaneous requests for one project in", async () => {
    const projectId = await planningProject(api, alice);
    const keys = await Promise.all(Array.from({ length: 8 }, () => freshKey(alice)));
    const answers = await Promise.all(keys.map((key) => start(key, projectId)));
    assert.deepEqual(answers.map((a) => a.status).sort(), [202, 409, 409, 409, 409, 409, 409, 409]);
    assert.equal((await tasksOf(projectId)).length, 1);
  });

  it("queues a user's plannings of other projects behind the first, counting the tasks ahead; other users are not behind them", async () => {
    const key = await freshKey(alice);
    const projects = [];
    for (let i = 0; i < 3; i += 1) projects.push(await planningProject(api, alice, { name: `Queue ${i}` }));
    const first = await start(key, projects[0]!);
    const second = await start(key, projects[1]!);
    const third = await start(key, projects[2]!);
    // alice's tasks of the earlier tests are cancelled or failed by now, or queued: count them too
    const { rows } = await db.owner.query<{ n: number }>(
      "select count(*)::int as n from app_public.tasks where user_id = $1 and status in ('queued', 'running') and id <> all($2::uuid[])",
      [alice.id, [first.body.task_id, second.body.task_id, third.body.task_id]],
    );
    const before = rows[0]!.n;
    assert.equal(first.status, 202);
    assert.deepEqual(
      [first.body, second.body, third.body].map((b) => b.queue_position ?? 0),
      [before, before + 1, before + 2],
    );
    assert.deepEqual([second.body.queued, third.body.queued], [true, true]);
    assert.deepEqual(Object.keys(second.body).sort(), ["options", "queue_position", "queued", "task_id"]);

    const bobs = await start(await freshKey(bob), await planningProject(api, bob));
    assert.equal(bobs.status, 202);
    assert.deepEqual(Object.keys(bobs.body), ["task_id", "options"], "bob's queue is his own");

    // FIFO: one named queue, run in the order accepted (graphile-worker takes a queue's jobs by run_at)
    const jobs = await db.owner.query<{ key: string; queue_name: string; run_at: Date }>(
      "select key, queue_name, run_at from graphile_worker.jobs where key = any($1::text[]) order by run_at",
      [[first.body.task_id, second.body.task_id, third.body.task_id]],
    );
    assert.deepEqual(
      jobs.rows.map((j) => j.key),
      [first.body.task_id, second.body.task_id, third.body.task_id],
    );
    assert.deepEqual([...new Set(jobs.rows.map((j) => j.queue_name))], [`automation:${alice.id}`]);

    // cancelling the one ahead moves the others up
    assert.equal((await cancel(key, second.body.task_id)).status, 200);
    const fourth = await start(key, await planningProject(api, alice, { name: "Queue 3" }));
    assert.equal(fourth.body.queue_position, before + 2);
  });

  it("allows a key 30 plannings an hour: the 31st request is 429 with Retry-After, whatever the outcome of the 30", async () => {
    const key = await freshKey(alice);
    const projectId = await planningProject(api, alice);
    const statuses: number[] = [];
    for (let i = 0; i < 30; i += 1) statuses.push((await start(key, projectId)).status);
    assert.deepEqual(statuses, [202, ...Array<number>(29).fill(409)]);
    const over = await start(key, projectId);
    assert.equal(over.status, 429);
    assert.equal(over.body.detail.code, "validation_error");
    assert.equal(over.body.detail.details.bucket, "cam_planning");
    assert.equal(over.body.detail.details.limit, 30);
    const retryAfter = Number(over.headers.get("retry-after"));
    assert.ok(retryAfter > 60 && retryAfter <= 3600, `Retry-After ${retryAfter}`);
    // another route of the same key is not limited by it, nor is another key
    assert.equal((await api.request("GET", `/projects/${projectId}`, { key })).status, 200);
    assert.equal(
      (await start(await freshKey(alice), projectId)).status,
      409,
      "the next key gets through to the slot check",
    );
  });
});

describe("POST /projects/{project_id}/automation/cam-planning with a workholding", () => {
  const VISE = TEST_VISE;

  /** the project's stock size (mm) and its machine's Z travel */
  async function heldFacts(projectId: string): Promise<{ size: [number, number, number]; travelZ: number }> {
    const { rows } = await db.owner.query<{ size: [number, number, number]; travel_z: number }>(
      `select j.stock->'size' as size, m.travel_z_mm::float8 as travel_z
         from app_public.projects p join app_public.jobs j on j.id = p.current_job_id
         join app_public.machines m on m.product_id = p.product_id
        where p.id = $1`,
      [projectId],
    );
    return { size: rows[0]!.size, travelZ: rows[0]!.travel_z };
  }

  function fieldsOf(res: { body: ErrorBody }) {
    return (res.body.detail.details.fields as { field: string; code: string }[]).map((f) => `${f.field} ${f.code}`);
  }

  it("takes a workholding the stock fits turned in the vise into the task's payload, and echoes it", async () => {
    const key = await freshKey(alice);
    const projectId = await planningProject(api, alice);
    const { size } = await heldFacts(projectId);
    const narrow = Math.min(size[0], size[1]);
    assert.ok(Math.max(size[0], size[1]) > narrow + 2, "partC's stock is longer one way than the other");
    // wider than the narrower side only: the stock is held turned that way
    const workholding = { ...VISE, max_opening_mm: narrow + 1 };
    const res = await start(key, projectId, { ...PLAN_OPTIONS, workholding });
    assert.equal(res.status, 202, res.text);
    assert.deepEqual(res.body.options, { ...PLAN_OPTIONS, workholding });
    const { rows } = await db.owner.query("select payload from app_public.tasks where id = $1", [res.body.task_id]);
    assert.deepEqual(rows[0]?.payload, { ...PLAN_OPTIONS, workholding });
  });

  it("takes a fixture plate the stock's footprint fits on into the task's payload, and echoes it", async () => {
    const key = await freshKey(alice);
    const projectId = await planningProject(api, alice);
    const workholding = defaultWorkholding("router-450-grbl");
    const res = await start(key, projectId, { ...PLAN_OPTIONS, workholding });
    assert.equal(res.status, 202, res.text);
    assert.deepEqual(res.body.options, { ...PLAN_OPTIONS, workholding });
    const { rows } = await db.owner.query("select payload from app_public.tasks where id = $1", [res.body.task_id]);
    assert.deepEqual(rows[0]?.payload, { ...PLAN_OPTIONS, workholding });
  });

  it("refuses with 400 invalid_workholding, naming the field, an opening narrower than the stock's narrower side, jaws taller than the Z travel allows, parallels that leave no grip, a plate smaller than the stock's footprint, clamps too low or too tall, queueing nothing", async () => {
    const key = await freshKey(alice);
    const projectId = await planningProject(api, alice);
    const { size, travelZ } = await heldFacts(projectId);
    const narrow = Math.min(size[0], size[1]);
    for (const [workholding, expected] of [
      [{ ...VISE, max_opening_mm: narrow - 1 }, ["body.workholding.max_opening_mm opening_too_small"]],
      [
        { ...VISE, jaw_height_mm: travelZ + 10, parallel_heights_mm: [travelZ + 5] },
        ["body.workholding.jaw_height_mm taller_than_z_travel"],
      ],
      [{ ...VISE, parallel_heights_mm: [10, 20] }, ["body.workholding.parallel_heights_mm no_grip_on_parallels"]],
      [
        { ...TEST_PLATE, plate_length_mm: narrow - 1, plate_width_mm: narrow - 1 },
        [
          "body.workholding.plate_length_mm stock_larger_than_plate",
          "body.workholding.plate_width_mm stock_larger_than_plate",
        ],
      ],
      [{ ...TEST_PLATE, clamp_height_mm: travelZ }, ["body.workholding.clamp_height_mm taller_than_z_travel"]],
      [{ ...TEST_PLATE, clamp_height_mm: 2 }, ["body.workholding.clamp_height_mm grip_too_shallow"]],
    ] as const) {
      const res = await start(key, projectId, { ...PLAN_OPTIONS, workholding });
      assert.equal(res.status, 400, res.text);
      assert.equal(res.body.detail.code, "invalid_workholding");
      assert.deepEqual(fieldsOf(res), expected, res.text);
    }
    assert.deepEqual(await tasksOf(projectId), []);
  });

  it("refuses a workholding that is not the schema's with the router's 400 invalid_parameter", async () => {
    const key = await freshKey(alice);
    const projectId = await planningProject(api, alice);
    for (const [workholding, field] of [
      [{ ...VISE, kind: "chuck" }, "body.workholding.kind"],
      [{ ...VISE, jaw_height_mm: -5 }, "body.workholding.jaw_height_mm"],
      [{ ...VISE, parallel_heights_mm: [45] }, "body.workholding.parallel_heights_mm"],
      [{ ...VISE, colour: "blue" }, "body.workholding.colour"],
    ] as const) {
      assertRefusedField(await start(key, projectId, { ...PLAN_OPTIONS, workholding }), field);
    }
    assert.deepEqual(await tasksOf(projectId), []);
  });

  it("still refuses missing scopes (403) and another user's project (404) with a workholding", async () => {
    const projectId = await planningProject(api, alice);
    const body = { ...PLAN_OPTIONS, workholding: VISE };
    const scoped = await start(await alice.keyWith(SCOPES.filter((scope) => scope !== "cam:write")), projectId, body);
    assert.equal(scoped.status, 403);
    assert.equal(scoped.body.detail.code, "insufficient_scope");
    const other = await start(await freshKey(bob), projectId, {
      ...PLAN_OPTIONS,
      workholding: { ...VISE, max_opening_mm: 1 },
    });
    assert.equal(other.status, 404, "not a 400 that tells bob about alice's stock");
    assert.equal(other.body.detail.code, "not_found");
    assert.deepEqual(await tasksOf(projectId), []);
  });
});

describe("POST /tasks/{task_id}/cancel", () => {
  it("cancels a queued task at once: 200 cancelled, its queue job removed, who and when recorded, and the project's slot free", async () => {
    const key = await freshKey(alice);
    const projectId = await planningProject(api, alice);
    const started = await start(key, projectId);
    const res = await cancel(key, started.body.task_id);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.status, "cancelled");
    assert.ok(res.body.cancel_requested_at);
    assert.equal(res.body.finished_at, res.body.cancel_requested_at);
    assert.equal(await readJob(db.owner, started.body.task_id), null, "the queue job is gone");
    const { rows } = await db.owner.query(
      "select cancel_requested_by_key_id, error from app_public.tasks where id = $1",
      [started.body.task_id],
    );
    assert.deepEqual(rows[0], { cancel_requested_by_key_id: await keyId(key), error: null });

    const again = await cancel(key, started.body.task_id);
    assert.equal(again.status, 200, "cancelling a cancelled task changes nothing");
    assert.deepEqual(again.body, res.body);
    assert.equal((await start(key, projectId)).status, 202, "the slot is free again");
  });

  it("asks a running task to stop: 202, still running, cancel_requested_at set once", async () => {
    const key = await freshKey(alice);
    const started = await start(key, await planningProject(api, alice));
    await db.owner.query(
      "update app_public.tasks set status = 'running', attempts = 1, started_at = now() where id = $1",
      [started.body.task_id],
    );
    const res = await cancel(key, started.body.task_id);
    assert.equal(res.status, 202, res.text);
    assert.equal(res.body.status, "running");
    assert.ok(res.body.cancel_requested_at);
    assert.ok(
      await readJob(db.owner, started.body.task_id),
      "the running attempt's job stays until the worker ends it",
    );
    const again = await cancel(await freshKey(alice), started.body.task_id);
    assert.equal(again.status, 202);
    assert.equal(again.body.cancel_requested_at, res.body.cancel_requested_at, "the first request is the one recorded");
    const { rows } = await db.owner.query("select cancel_requested_by_key_id from app_public.tasks where id = $1", [
      started.body.task_id,
    ]);
    assert.equal(rows[0].cancel_requested_by_key_id, await keyId(key));
  });

  it("answers 409 task_finished for a task that succeeded or failed, changing nothing", async () => {
    const key = await freshKey(alice);
    for (const status of ["success", "failed"]) {
      const started = await start(key, await planningProject(api, alice));
      await db.owner.query("update app_public.tasks set status = $2, finished_at = now() where id = $1", [
        started.body.task_id,
        status,
      ]);
      const before = await readTaskRecord(db.owner, started.body.task_id);
      const res = await cancel(key, started.body.task_id);
      assert.equal(res.status, 409);
      assert.equal(res.body.detail.code, "task_finished");
      assert.deepEqual(res.body.detail.details, { task_id: started.body.task_id, status });
      assert.deepEqual(await readTaskRecord(db.owner, started.body.task_id), before);
    }
  });

  it("answers 409 task_not_cancellable for a task that is not an automation task", async () => {
    const projectId = await planningProject(api, alice);
    const id = await insertTaskRecord(db.owner, {
      userId: alice.id,
      projectId,
      workerTask: "tessellate",
      taskName: "workpiece.tessellate",
    });
    const res = await cancel(await freshKey(alice), id);
    assert.equal(res.status, 409);
    assert.equal(res.body.detail.code, "task_not_cancellable");
    assert.equal((await readTaskRecord(db.owner, id)).status, "queued");
    assert.ok(await readJob(db.owner, id));
  });

  it("answers 404 for another user's task and leaves it queued, and 403 to a key without automation:run", async () => {
    const started = await start(await freshKey(alice), await planningProject(api, alice));
    const res = await cancel(await freshKey(bob), started.body.task_id);
    assert.equal(res.status, 404);
    assert.equal(res.body.detail.code, "not_found");
    const scoped = await cancel(
      await alice.keyWith(SCOPES.filter((s) => s !== "automation:run")),
      started.body.task_id,
    );
    assert.equal(scoped.status, 403);
    assert.deepEqual(scoped.body.detail.details.missing_scopes, ["automation:run"]);
    const task = await readTaskRecord(db.owner, started.body.task_id);
    assert.equal(task.status, "queued");
    assert.ok(await readJob(db.owner, started.body.task_id));
  });
});
