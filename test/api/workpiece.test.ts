/**
 * POST /projects/{id}/workpiece end to end: real parts through a warm geometry thread, the
 * stored workpiece and job, the presigned mesh and thumbnail, and every refusal leaving the
 * project as it was.
 */
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { repoRoot } from "../../config/env.ts";
import { partCDeclaring } from "../../kernel/geometry/test-support.ts";
import { createGeometryPool, type GeometryPool } from "../../geometry-pool/pool.ts";
import { startTestApi, type TestApi } from "../support/api.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { fileUpload, multipart } from "../support/multipart.ts";
import { waitFor } from "../support/task-records.ts";
import { createTestUser, type TestUser } from "../support/users.ts";

interface Uploaded {
  workpiece_id: string;
  job_id: string;
  format: string;
  units_read: string;
  bbox: { min: number[]; max: number[]; size: number[] };
  volume_mm3: number | null;
  face_count: number;
  triangle_count: number;
  closed_solid: boolean;
  warnings: { code: string }[];
  mesh_url: string;
  thumbnail_url: string;
}
interface ErrorBody {
  detail: { code: string; message: string; details: Record<string, unknown> };
}

const parts = path.resolve(repoRoot, "../shared/fixtures/parts");
const fixture = (name: string) => fs.readFileSync(path.join(parts, name));

let db: TestDatabase;
let geometry: GeometryPool;
let api: TestApi;
let alice: TestUser;
let bob: TestUser;

before(async () => {
  db = await createTestDatabase();
  geometry = createGeometryPool({ size: 1 });
  await geometry.ready();
  api = await startTestApi(db, { geometry, env: { UPLOAD_LIMIT_BYTES: String(4 * 1024 * 1024) } });
  alice = await createTestUser(db.owner, "alice");
  bob = await createTestUser(db.owner, "bob");
});
after(async () => {
  await api.close();
  await geometry.close();
  await db.drop();
});

async function newProject(user: TestUser = alice): Promise<string> {
  const res = await api.request<{ id: string }>("POST", "/projects", {
    key: user.key,
    body: { name: "Part", customer: "C" },
  });
  return res.body.id;
}

function upload<T = Uploaded>(
  projectId: string,
  data: Buffer,
  filename: string,
  options: { key?: string; headers?: Record<string, string> } = {},
) {
  return api.request<T>("POST", `/projects/${projectId}/workpiece`, {
    key: options.key ?? alice.key,
    raw: fileUpload(data, filename),
    ...(options.headers ? { headers: options.headers } : {}),
  });
}

async function projectState(projectId: string) {
  const { rows } = await db.owner.query(
    `select p.current_job_id, (select count(*)::int from app_public.workpieces w where w.project_id = p.id) as workpieces,
            (select count(*)::int from app_public.jobs j where j.project_id = p.id) as jobs
       from app_public.projects p where p.id = $1`,
    [projectId],
  );
  return rows[0];
}

describe("POST /projects/{id}/workpiece", () => {
  it("measures and meshes partC.step, saves it with a new job and presigns its mesh and thumbnail", async () => {
    const projectId = await newProject();
    const res = await upload(projectId, fixture("partC.step"), "partC.step");
    assert.equal(res.status, 201, res.text);
    const body = res.body;
    assert.equal(body.format, "step");
    assert.equal(body.units_read, "mm");
    assert.equal(body.face_count, 94);
    assert.equal(body.closed_solid, true);
    for (const [i, v] of body.bbox.size.entries())
      assert.ok(Math.abs(v - [85.52, 44.62, 27.53][i]!) < 0.05, `size ${body.bbox.size}`);
    assert.ok(body.volume_mm3! > 50_000 && body.volume_mm3! < 65_000, `volume ${body.volume_mm3}`);
    assert.deepEqual(body.warnings, []);
    assert.match(
      res.headers.get("server-timing") ?? "",
      /\bread;dur=\d+(\.\d)?\b.*\bmesh;dur=/,
      "the kernel's steps are timed",
    );

    const project = await api.request<{ current_job_id: string }>("GET", `/projects/${projectId}`, { key: alice.key });
    assert.equal(project.body.current_job_id, body.job_id);

    // the presigned URLs need no key
    const mesh = await api.request("GET", body.mesh_url);
    assert.equal(mesh.status, 200);
    assert.equal(mesh.headers.get("content-type"), "model/gltf-binary");
    const thumbnail = await api.request("GET", body.thumbnail_url);
    assert.equal(thumbnail.status, 200);
    assert.equal(thumbnail.headers.get("content-type"), "image/png");
    const tamper = (name: string, change: (value: string) => string) => {
      const url = new URL(body.mesh_url, "http://x");
      url.searchParams.set(name, change(url.searchParams.get(name) ?? ""));
      return `${url.pathname}${url.search}`;
    };
    const flipped = tamper("signature", (sig) => (sig[0] === "A" ? "B" : "A") + sig.slice(1));
    assert.equal((await api.request("GET", flipped)).status, 403, "a changed signature");
    const longer = tamper("expires", (expires) => String(Number(expires) + 3600));
    assert.equal((await api.request("GET", longer)).status, 403, "a later expiry than was signed");
  });

  it("reads a STEP declared in inches into millimetres and says what it read", async () => {
    // partC's numbers declared as inches: 25.4 times its millimetre size
    const res = await upload(await newProject(), Buffer.from(partCDeclaring("inch")), "partC-inch.step");
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.units_read, "inch");
    for (const [i, v] of res.body.bbox.size.entries())
      assert.ok(Math.abs(v - [85.52, 44.62, 27.53][i]! * 25.4) < 1, `size ${res.body.bbox.size}`);
  });

  it("reads NIST STC-06 as the millimetre solid its geometry context declares", async () => {
    // SOURCES.md calls it an inch part: only its PMI is in inches (kernel/geometry/step.test.ts)
    const res = await upload(await newProject(), fixture("nist_stc_06_asme1_ap242-e3.stp"), "stc06.stp");
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.units_read, "mm");
    for (const [i, v] of res.body.bbox.size.entries())
      assert.ok(Math.abs(v - [247.65, 304.8, 97.79][i]!) < 0.1, `size ${res.body.bbox.size}`);
  });

  it("recognises an STL by its content whatever its name, and agrees with the STEP on size", async () => {
    const res = await upload(await newProject(), fixture("partC.stl"), "upload.bin");
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.format, "stl");
    assert.equal(res.body.face_count, 0);
    for (const [i, v] of res.body.bbox.size.entries()) assert.ok(Math.abs(v - [85.52, 44.62, 27.53][i]!) < 0.05);
  });

  it("replays a repeat with the same Idempotency-Key without processing or storing it twice", async () => {
    const projectId = await newProject();
    const headers = { "Idempotency-Key": `upload-${projectId}` };
    const first = await upload(projectId, fixture("partC.stl"), "a.stl", { headers });
    const again = await upload(projectId, fixture("partC.stl"), "a.stl", { headers });
    assert.equal(again.status, 201);
    assert.equal(again.headers.get("idempotency-replayed"), "true");
    assert.equal(again.body.workpiece_id, first.body.workpiece_id);
    assert.deepEqual(await projectState(projectId), { current_job_id: first.body.job_id, workpieces: 1, jobs: 1 });
    const other = await upload<ErrorBody>(projectId, fixture("partC.step"), "a.stl", { headers });
    assert.equal(other.status, 422);
    assert.equal(other.body.detail.code, "idempotency_key_reused");
  });

  it("refuses bad files with a 4xx code each and leaves the previous workpiece and job as they were", async () => {
    const projectId = await newProject();
    const good = await upload(projectId, fixture("partC.stl"), "good.stl");
    assert.equal(good.status, 201);
    const before = await projectState(projectId);
    const step = fixture("partC.step");
    const stlWith = (z: string) =>
      Buffer.from(
        `solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 ${z}\nvertex 0 1 0\nendloop\nendfacet\nendsolid x\n`,
      );
    const cases: [string, Buffer, number, string, string?][] = [
      ["empty", Buffer.alloc(0), 422, "empty_file"],
      [
        "random bytes",
        Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 7919) % 251)),
        422,
        "unsupported_format",
      ],
      ["truncated STEP", step.subarray(0, Math.floor(step.length / 2)), 422, "corrupt_file"],
      [
        "STL with a NaN",
        Buffer.from(
          "solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 nan\nvertex 0 1 0\nendloop\nendfacet\nendsolid x\n",
        ),
        422,
        "invalid_coordinates",
      ],
      [
        "STL beyond float range",
        stlWith("1e300"),
        422,
        "invalid_coordinates",
        "Vertex on line 5: 1e300 is beyond the range of a 32-bit float.",
      ],
      [
        "STL with a hexadecimal number",
        stlWith("0x10"),
        422,
        "corrupt_file",
        '"0x10" is not a decimal number (line 5).',
      ],
      ["STL without triangles", Buffer.from("solid nothing\nendsolid nothing\n"), 422, "no_triangles"],
      ["over the upload limit", Buffer.alloc(5 * 1024 * 1024, 32), 413, "payload_too_large"],
    ];
    for (const [what, data, status, code, message] of cases) {
      const res = await upload<ErrorBody>(projectId, data, "part.step");
      assert.equal(res.status, status, `${what}: ${res.text}`);
      assert.equal(res.body.detail.code, code, what);
      if (message) assert.equal(res.body.detail.message, message, what);
    }
    assert.deepEqual(await projectState(projectId), before, "nothing stored, nothing replaced");
  });

  it("refuses a request without exactly one part named file", async () => {
    const projectId = await newProject();
    const none = await api.request<ErrorBody>("POST", `/projects/${projectId}/workpiece`, {
      key: alice.key,
      raw: multipart([{ name: "note", data: "no file here" }]),
    });
    assert.equal(none.status, 400);
    const two = await api.request<ErrorBody>("POST", `/projects/${projectId}/workpiece`, {
      key: alice.key,
      raw: multipart([
        { name: "file", filename: "a.stl", data: fixture("partC.stl") },
        { name: "file", filename: "b.stl", data: fixture("partC.stl") },
      ]),
    });
    assert.equal(two.status, 400);
    assert.equal(two.body.detail.code, "too_many_files");
    const json = await api.request<ErrorBody>("POST", `/projects/${projectId}/workpiece`, {
      key: alice.key,
      body: { file: "x" },
    });
    assert.equal(json.status, 415);
  });

  it("answers 404 for another user's project and stores nothing there", async () => {
    const projectId = await newProject(alice);
    const res = await upload<ErrorBody>(projectId, fixture("partC.stl"), "x.stl", { key: bob.key });
    assert.equal(res.status, 404);
    assert.deepEqual(await projectState(projectId), { current_job_id: null, workpieces: 0, jobs: 0 });
  });
});

describe("POST /projects/{id}/workpiece when a geometry thread dies", () => {
  it("answers 503 geometry_worker_crashed with Retry-After, stores nothing, and serves the next upload", async () => {
    const crashing = createGeometryPool({
      size: 1,
      threadModule: new URL("../support/geometry-test-thread.ts", import.meta.url).href,
    });
    await crashing.ready();
    const crashApi = await startTestApi(db, { geometry: crashing });
    try {
      const projectId = await newProject();
      const res = await crashApi.request<ErrorBody>("POST", `/projects/${projectId}/workpiece`, {
        key: alice.key,
        raw: fileUpload(Buffer.from("crash"), "x.step"),
      });
      assert.equal(res.status, 503);
      assert.equal(res.body.detail.code, "geometry_worker_crashed");
      assert.ok(Number(res.headers.get("retry-after")) > 0);
      assert.deepEqual(await projectState(projectId), { current_job_id: null, workpieces: 0, jobs: 0 });
      const next = await crashApi.request<ErrorBody>("POST", `/projects/${projectId}/workpiece`, {
        key: alice.key,
        raw: fileUpload(Buffer.from("hello"), "x.step"),
      });
      assert.equal(next.status, 422, "a replacement thread answers");
      assert.equal(next.body.detail.code, "echo");
    } finally {
      await crashApi.close();
      await crashing.close();
    }
  });
});

describe("POST /projects/{id}/workpiece while one user's files hold the geometry threads", () => {
  it("answers another user at once, and 503 geometry_busy with Retry-After to the upload that waited past the bound", async () => {
    const busy = createGeometryPool({
      size: 2,
      timeoutMs: 10_000,
      queueTimeoutMs: 500,
      threadModule: new URL("../support/geometry-test-thread.ts", import.meta.url).href,
    });
    await busy.ready();
    const busyApi = await startTestApi(db, { geometry: busy });
    try {
      const aliceProject = await newProject(alice);
      const bobProject = await newProject(bob);
      const post = (user: TestUser, projectId: string, command: string) =>
        busyApi.request<ErrorBody & { detail: { request_id: string } }>("POST", `/projects/${projectId}/workpiece`, {
          key: user.key,
          raw: fileUpload(Buffer.from(command), "x.step"),
        });
      let firstAnswered = false;
      const first = post(alice, aliceProject, "sleep:2000").finally(() => (firstAnswered = true));
      await waitFor("alice's first file on a thread", async () => busy.usage().busy === 1);
      const second = post(alice, aliceProject, "sleep:2000");
      await waitFor("alice's second file at the pool", async () => busy.usage().busy + busy.usage().queued === 2);

      const bobs = await post(bob, bobProject, "bob's part");
      assert.equal(bobs.body.detail.code, "echo", "a thread was free for bob");
      assert.equal(firstAnswered, false, "bob was answered while alice's first file ran");

      const refused = await second;
      assert.equal(refused.status, 503);
      assert.equal(refused.body.detail.code, "geometry_busy");
      const retryAfter = Number(refused.headers.get("retry-after"));
      assert.ok(retryAfter > 0, `Retry-After ${refused.headers.get("retry-after")}`);
      assert.equal(refused.body.detail.details.retry_after_seconds, retryAfter);
      assert.equal(refused.body.detail.request_id, refused.headers.get("x-request-id"));
      assert.equal(firstAnswered, false, "the wait was cut short, not a file's processing");
      assert.equal((await first).body.detail.code, "echo");
      assert.deepEqual(await projectState(aliceProject), { current_job_id: null, workpieces: 0, jobs: 0 });
    } finally {
      await busyApi.close();
      await busy.close();
    }
  });
});
