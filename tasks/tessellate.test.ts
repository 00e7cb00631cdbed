/**
 * The tessellate task end to end: a job file downloaded without its mesh, uploaded back, gets
 * its mesh from the task; an operator's re-mesh at a finer deflection replaces the mesh and
 * frees the old blobs; its presigned URLs are root-relative in the stored result unless the
 * worker has PUBLIC_BASE_URL, and absolute when the API serves the task; and the task fails
 * with a code a person can act on.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { API_BASE_PATH } from "../http/base-path.ts";
import { repoRoot } from "../config/env.ts";
import { createTask } from "../db/queries/tasks.ts";
import { withUserTransaction } from "../db/request-transaction.ts";
import { createGeometryPool, type GeometryPool } from "../geometry-pool/pool.ts";
import { startWorkerRunner, type WorkerRunner } from "../workers/runner.ts";
import { startTestApi, type TestApi } from "../test/support/api.ts";
import { createTestDatabase, type TestDatabase } from "../test/support/database.ts";
import { fileUpload } from "../test/support/multipart.ts";
import { insertTaskRecord, waitForTask } from "../test/support/task-records.ts";
import { createTestUser, type TestUser } from "../test/support/users.ts";
import { TESSELLATE_TASK_NAME, type TessellatePayload } from "../contracts/tasks.ts";

interface Uploaded {
  workpiece_id: string;
  triangle_count: number;
  face_count: number;
  mesh_url: string;
}
interface TessellateResult {
  workpiece_id: string;
  triangle_count: number;
  linear_deflection_mm: number;
  angular_deflection_deg: number;
  mesh_url: string;
  thumbnail_url: string;
}

const partCStep = fs.readFileSync(path.resolve(repoRoot, "../shared/fixtures/parts/partC.step"));
const WAIT = { timeoutMs: 120_000, intervalMs: 100 };

let db: TestDatabase;
let geometry: GeometryPool;
let api: TestApi;
let runner: WorkerRunner;
let alice: TestUser;
let bob: TestUser;

before(async () => {
  db = await createTestDatabase();
  geometry = createGeometryPool({ size: 1 });
  await geometry.ready();
  api = await startTestApi(db, { geometry });
  runner = await startWorkerRunner({
    ownerUrl: db.ownerUrl,
    taskNames: ["tessellate"],
    services: { geometry },
    concurrency: 1,
    heartbeatSeconds: 1,
    leaseStaleSeconds: 30,
    pollIntervalMs: 100,
  });
  alice = await createTestUser(db.owner, "alice");
  bob = await createTestUser(db.owner, "bob");
});
after(async () => {
  await runner?.stop();
  await api?.close();
  await geometry?.close();
  await db?.drop();
});

async function projectWithPartC(user: TestUser = alice): Promise<{ projectId: string; uploaded: Uploaded }> {
  const project = await api.request<{ id: string }>("POST", "/projects", {
    key: user.key,
    body: { name: "Re-mesh", customer: "C" },
  });
  const res = await api.request<Uploaded>("POST", `/projects/${project.body.id}/workpiece`, {
    key: user.key,
    raw: fileUpload(partCStep, "partC.step"),
  });
  assert.equal(res.status, 201, res.text);
  return { projectId: project.body.id, uploaded: res.body };
}

async function workpieceRow(id: string) {
  const { rows } = await db.owner.query<{
    mesh_blob_id: string | null;
    thumbnail_blob_id: string | null;
    triangle_count: number;
    mesh_linear_deflection_mm: number | null;
  }>(
    "select mesh_blob_id, thumbnail_blob_id, triangle_count, mesh_linear_deflection_mm from app_public.workpieces where id = $1",
    [id],
  );
  return rows[0];
}

/** Queues a re-mesh at 0.01 mm and 10 degrees as the CLI does, and waits for its result. */
async function remesh(user: TestUser, part: { projectId: string; uploaded: Uploaded }): Promise<TessellateResult> {
  const payload: TessellatePayload = {
    workpiece_id: part.uploaded.workpiece_id,
    linear_deflection_mm: 0.01,
    angular_deflection_deg: 10,
  };
  const client = await db.owner.connect();
  let taskId: string;
  try {
    const task = await withUserTransaction(client, user.id, () =>
      createTask(client, {
        projectId: part.projectId,
        taskName: TESSELLATE_TASK_NAME,
        workerTask: "tessellate",
        payload,
      }),
    );
    taskId = task.id;
  } finally {
    client.release();
  }
  const task = await waitForTask(
    db.owner,
    taskId,
    "finished",
    (t) => t.status === "success" || t.status === "failed",
    WAIT,
  );
  assert.equal(task.status, "success", JSON.stringify(task.error));
  return task.result as TessellateResult;
}

async function blobExists(id: string): Promise<boolean> {
  const { rowCount } = await db.owner.query("select 1 from app_private.blobs where id = $1", [id]);
  return rowCount === 1;
}

describe("the tessellate task", () => {
  it("meshes the workpiece of a job file that came without a mesh, with the faces and triangles of the upload", async () => {
    const { projectId, uploaded } = await projectWithPartC();
    const full = await api.request("GET", `/projects/${projectId}/job`, { key: alice.key });
    const lean = await api.request("GET", `/projects/${projectId}/job?mesh=false`, { key: alice.key });
    assert.equal(lean.status, 200);
    const uploadedMesh = await api.request("GET", uploaded.mesh_url);
    assert.ok(
      lean.bytes.length < full.bytes.length - uploadedMesh.bytes.length,
      `${lean.bytes.length} of ${full.bytes.length} bytes`,
    );

    const imported = await api.request<{ job_id: string; workpiece_id: string; tessellation_task_id: string | null }>(
      "POST",
      `/projects/${projectId}/job`,
      { key: alice.key, raw: fileUpload(lean.bytes, "lean.famc") },
    );
    assert.equal(imported.status, 201, imported.text);
    const taskId = imported.body.tessellation_task_id;
    assert.ok(taskId, "a tessellate task was queued");

    const task = await waitForTask(
      db.owner,
      taskId,
      "success",
      (t) => t.status === "success" || t.status === "failed",
      WAIT,
    );
    assert.equal(task.status, "success", JSON.stringify(task.error));
    const result = task.result as TessellateResult;
    assert.equal(result.workpiece_id, imported.body.workpiece_id);
    // the B-rep read back meshes exactly as the STEP did: same deflection, same faces
    assert.equal(result.triangle_count, uploaded.triangle_count);
    const mesh = await api.request("GET", result.mesh_url);
    assert.equal(mesh.status, 200);
    assert.equal(mesh.headers.get("content-type"), "model/gltf-binary");
    assert.equal(mesh.bytes.length, uploadedMesh.bytes.length);
    assert.equal((await api.request("GET", result.thumbnail_url)).headers.get("content-type"), "image/png");

    // the owner reads the task like any other, its URLs absolute on the request's origin (the
    // worker, without PUBLIC_BASE_URL, stored them root-relative); the job file carries the mesh again
    assert.ok(result.mesh_url.startsWith(`${API_BASE_PATH}/files/`), result.mesh_url);
    const seen = await api.request<{ task_name: string; status: string; result: TessellateResult }>(
      "GET",
      `/tasks/${taskId}`,
      { key: alice.key },
    );
    assert.equal(seen.body.task_name, TESSELLATE_TASK_NAME);
    assert.equal(seen.body.result.mesh_url, `${api.origin}${result.mesh_url}`);
    assert.equal(seen.body.result.thumbnail_url, `${api.origin}${result.thumbnail_url}`);
    assert.equal((await fetch(seen.body.result.mesh_url)).status, 200);
    const listed = await api.request<{ items: { task_id: string; result: TessellateResult | null }[] }>(
      "GET",
      `/tasks/by-project/${projectId}`,
      {
        key: alice.key,
      },
    );
    assert.equal(
      listed.body.items.find((t) => t.task_id === taskId)?.result?.mesh_url,
      `${api.origin}${result.mesh_url}`,
    );
    assert.equal((await api.request("GET", `/tasks/${taskId}`, { key: bob.key })).status, 404);
    const again = await api.request("GET", `/projects/${projectId}/job`, { key: alice.key });
    assert.ok(again.bytes.length > lean.bytes.length + mesh.bytes.length, "the mesh is back in the job file");
  });

  it("answers tessellation_task_id null for a job file that has its mesh", async () => {
    const { projectId } = await projectWithPartC();
    const file = await api.request("GET", `/projects/${projectId}/job`, { key: alice.key });
    const imported = await api.request<{ tessellation_task_id: string | null }>("POST", `/projects/${projectId}/job`, {
      key: alice.key,
      raw: fileUpload(file.bytes, "full.famc"),
    });
    assert.equal(imported.status, 201);
    assert.equal(imported.body.tessellation_task_id, null);
  });

  it("re-meshes at the deflection an operator asks for, and deletes the replaced mesh once no workpiece uses it", async () => {
    // blobs are content-addressed per user: two uploads of one file share their mesh
    const carol = await createTestUser(db.owner, "carol");
    const first = await projectWithPartC(carol);
    const second = await projectWithPartC(carol);
    const before = (await workpieceRow(first.uploaded.workpiece_id))!;
    assert.equal((await workpieceRow(second.uploaded.workpiece_id))!.mesh_blob_id, before.mesh_blob_id);
    assert.ok(before.mesh_linear_deflection_mm! > 0.02, `upload deflection ${before.mesh_linear_deflection_mm}`);

    const result = await remesh(carol, first);
    assert.equal(result.linear_deflection_mm, 0.01);
    assert.ok(Math.abs(result.angular_deflection_deg - 10) < 1e-9);
    assert.ok(
      result.triangle_count > 1.3 * first.uploaded.triangle_count,
      `${result.triangle_count} triangles, ${first.uploaded.triangle_count} before`,
    );
    const after = (await workpieceRow(first.uploaded.workpiece_id))!;
    assert.equal(after.triangle_count, result.triangle_count);
    assert.equal(after.mesh_linear_deflection_mm, 0.01);
    assert.notEqual(after.mesh_blob_id, before.mesh_blob_id);
    assert.equal(await blobExists(before.mesh_blob_id!), true, "the other workpiece still uses the old mesh");
    assert.equal((await api.request("GET", second.uploaded.mesh_url)).status, 200);

    await remesh(carol, second);
    assert.equal(await blobExists(before.mesh_blob_id!), false, "the old mesh is deleted with its last user");
    const thumbnailNow = (await workpieceRow(second.uploaded.workpiece_id))!.thumbnail_blob_id;
    // a thumbnail seldom changes with the deflection (its normals come from the surfaces): the
    // same bytes are the same blob, kept; other bytes replace it and it goes
    assert.equal(await blobExists(before.thumbnail_blob_id!), thumbnailNow === before.thumbnail_blob_id);
    assert.equal((await api.request("GET", second.uploaded.mesh_url)).status, 404, "its presigned URL finds nothing");
  });

  it("fails with workpiece_missing, not retried, when the workpiece is gone", async () => {
    const id = await insertTaskRecord(db.owner, {
      userId: alice.id,
      workerTask: "tessellate",
      taskName: TESSELLATE_TASK_NAME,
      payload: { workpiece_id: randomUUID() },
    });
    const task = await waitForTask(db.owner, id, "failed", (t) => t.status === "failed", WAIT);
    assert.equal(task.error?.code, "workpiece_missing");
    assert.equal(task.attempts, 1);
  });

  it("stores absolute URLs on PUBLIC_BASE_URL when the worker has it, and the API serves them as they are", async () => {
    const base = "https://cam.example.com/swarf";
    await runner.stop();
    runner = await startWorkerRunner({
      ownerUrl: db.ownerUrl,
      taskNames: ["tessellate"],
      services: { geometry, publicBaseUrl: base },
      concurrency: 1,
      heartbeatSeconds: 1,
      leaseStaleSeconds: 30,
      pollIntervalMs: 100,
    });
    const dave = await createTestUser(db.owner, "dave");
    const part = await projectWithPartC(dave);
    const result = await remesh(dave, part);
    assert.ok(result.mesh_url.startsWith(`${base}${API_BASE_PATH}/files/`), result.mesh_url);
    assert.ok(result.thumbnail_url.startsWith(`${base}${API_BASE_PATH}/files/`), result.thumbnail_url);
    // through a proxy at that base the URL verifies: the signature does not cover the host
    assert.equal((await fetch(`${api.origin}${result.mesh_url.slice(base.length)}`)).status, 200);
    const { rows } = await db.owner.query<{ id: string }>("select id from app_public.tasks where user_id = $1", [
      dave.id,
    ]);
    const seen = await api.request<{ result: TessellateResult }>("GET", `/tasks/${rows[0]!.id}`, { key: dave.key });
    assert.equal(seen.body.result.mesh_url, result.mesh_url);
  });

  it("is retried, not failed, when every geometry thread stays busy past the queue bound", async () => {
    const erin = await createTestUser(db.owner, "erin");
    const part = await projectWithPartC(erin);
    // a pool whose one thread another user's file holds for longer than the re-mesh may wait
    const busy = createGeometryPool({
      size: 1,
      queueTimeoutMs: 200,
      threadModule: new URL("../test/support/geometry-test-thread.ts", import.meta.url).href,
    });
    await busy.ready();
    const held = busy.ingest(new TextEncoder().encode("sleep:3000"), { owner: bob.id });
    const restartRunner = async (threads: GeometryPool) => {
      await runner.stop();
      runner = await startWorkerRunner({
        ownerUrl: db.ownerUrl,
        taskNames: ["tessellate"],
        services: { geometry: threads },
        concurrency: 1,
        heartbeatSeconds: 1,
        leaseStaleSeconds: 30,
        pollIntervalMs: 100,
      });
    };
    try {
      await restartRunner(busy);
      const id = await insertTaskRecord(db.owner, {
        userId: erin.id,
        projectId: part.projectId,
        workerTask: "tessellate",
        taskName: TESSELLATE_TASK_NAME,
        payload: { workpiece_id: part.uploaded.workpiece_id },
      });
      const waited = await waitForTask(
        db.owner,
        id,
        "its first attempt's end",
        (t) => t.status !== "running" && t.attempts === 1,
        WAIT,
      );
      assert.deepEqual({ status: waited.status, code: waited.error?.code }, { status: "queued", code: "retrying" });
      assert.match(waited.error?.message ?? "", /busy/);
      // the next attempt, on threads that are free, re-meshes the part
      await restartRunner(geometry);
      const done = await waitForTask(
        db.owner,
        id,
        "finished",
        (t) => t.status === "success" || t.status === "failed",
        WAIT,
      );
      assert.equal(done.status, "success", JSON.stringify(done.error));
      assert.equal(done.attempts, 2);
    } finally {
      await held.catch(() => {});
      await busy.close();
    }
  });

  it("fails with invalid_payload for a deflection out of range", async () => {
    const { uploaded } = await projectWithPartC(bob);
    const id = await insertTaskRecord(db.owner, {
      userId: bob.id,
      workerTask: "tessellate",
      taskName: TESSELLATE_TASK_NAME,
      payload: { workpiece_id: uploaded.workpiece_id, linear_deflection_mm: 0 },
    });
    const task = await waitForTask(db.owner, id, "failed", (t) => t.status === "failed", WAIT);
    assert.equal(task.error?.code, "invalid_payload");
    assert.match(task.error?.message ?? "", /linear_deflection_mm/);
  });
});
