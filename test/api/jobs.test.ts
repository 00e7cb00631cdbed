/**
 * Workpieces, stock and the CAM job over HTTP: saveWorkpiece (what the upload route calls),
 * POST stock/bounding-box, GET and POST /projects/{id}/job, and presigned file URLs. The
 * workpiece is partC.stl through the kernel's ingest.
 */
import { findMachineArchetype, machineSnapshot } from "../../kernel/machines/archetypes.ts";
import assert from "node:assert/strict";
import { createHash, timingSafeEqual } from "node:crypto";
import { gunzipSync } from "node:zlib";
import { after, before, describe, it } from "node:test";
import { currentJob } from "../../db/queries/jobs.ts";
import { presignWorkpiece, saveWorkpiece, type SavedWorkpiece } from "../../db/queries/workpieces.ts";
import type { IngestedWorkpiece } from "../../kernel/geometry/types.ts";
import { decodeFamc, famcMac, type DecodedFamc } from "../../kernel/job/famc.ts";
import { meshToGlb } from "../../kernel/mesh/glb.ts";
import { presignBlob, presignedPath, presignSignature } from "../../storage/presign.ts";
import { API_BASE_PATH } from "../../http/base-path.ts";
import { asUser } from "../support/as-user.ts";
import { startTestApi, type TestApi, type TestResponse } from "../support/api.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { partC, type FixtureWorkpiece } from "../support/fixture-workpiece.ts";
import { fileUpload, multipart } from "../support/multipart.ts";
import { createTestUser, type TestUser } from "../support/users.ts";

interface ErrorBody {
  detail: { code: string; message: string; details: Record<string, unknown> };
}

interface StockSaved {
  job_id: string;
  parent_job_id: string | null;
  stock: { type: string; offsets: Record<string, number>; min: number[]; max: number[]; size: number[] };
  workpiece_bbox: { min: number[]; max: number[] };
  warnings: { code: string; message: string; axis?: string; setups?: string[] }[];
}

interface JobImported {
  job_id: string;
  parent_job_id: string | null;
  origin_job_id: string;
  workpiece_id: string | null;
  stock: StockSaved["stock"] | null;
}

let db: TestDatabase;
let api: TestApi;
let alice: TestUser;
let bob: TestUser;
let part: FixtureWorkpiece;
let famcKey: Buffer;
let presignKey: Buffer;

const OFFSETS = { minus_x: 2, plus_x: 3, minus_y: 1.5, plus_y: 1.5, minus_z: 0, plus_z: 5 };

before(async () => {
  db = await createTestDatabase();
  api = await startTestApi(db);
  alice = await createTestUser(db.owner, "alice");
  bob = await createTestUser(db.owner, "bob");
  part = await partC();
  const secrets = await db.owner.query<{ purpose: string; secret: Buffer }>(
    "select distinct on (purpose) purpose, secret from app_private.server_secrets order by purpose, id desc",
  );
  famcKey = secrets.rows.find((r) => r.purpose === "famc")!.secret;
  presignKey = secrets.rows.find((r) => r.purpose === "presign")!.secret;
});
after(async () => {
  await api.close();
  await db.drop();
});

async function createProject(user: TestUser, name = "Bracket"): Promise<string> {
  const res = await api.request<{ id: string }>("POST", "/projects", {
    key: user.key,
    body: { name, customer: "ACME" },
  });
  assert.equal(res.status, 201);
  return res.body.id;
}

function save(
  user: TestUser,
  projectId: string,
  ingested: IngestedWorkpiece = part.ingested,
): Promise<SavedWorkpiece | null> {
  return asUser(api.pool, user, (client) =>
    saveWorkpiece(client, projectId, ingested, part.original, part.glb, part.png, { filename: part.filename }),
  );
}

async function projectWithWorkpiece(
  user: TestUser,
  name?: string,
): Promise<{ projectId: string; saved: SavedWorkpiece }> {
  const projectId = await createProject(user, name);
  const saved = await save(user, projectId);
  assert.ok(saved);
  return { projectId, saved };
}

/** What a failed request must leave alone. */
async function stateOf(projectId: string, userId: string) {
  const { rows } = await db.owner.query(
    `select p.current_job_id, p.product_id, p.updated_at,
            (select count(*)::int from app_public.jobs j where j.project_id = p.id) as jobs,
            (select count(*)::int from app_public.workpieces w where w.project_id = p.id) as workpieces,
            (select count(*)::int from app_private.blobs b where b.user_id = $2) as blobs
       from app_public.projects p where p.id = $1`,
    [projectId, userId],
  );
  return rows[0];
}

/** Decodes a job file checking its MAC with the secret read as the owner: also checks the database's MAC against kernel/job/famc.ts. */
function decodeWithKey(bytes: Buffer, owner: string): Promise<DecodedFamc> {
  return decodeFamc(
    bytes,
    owner,
    async (o, digest, mac) => mac.length === 32 && timingSafeEqual(famcMac(famcKey, o, digest), mac),
  );
}

async function download(
  user: TestUser,
  projectId: string,
  headers: Record<string, string> = {},
): Promise<TestResponse<ErrorBody>> {
  return api.request<ErrorBody>("GET", `/projects/${projectId}/job`, { key: user.key, headers });
}

function upload(user: TestUser, projectId: string, file: Buffer): Promise<TestResponse<JobImported & ErrorBody>> {
  return api.request<JobImported & ErrorBody>("POST", `/projects/${projectId}/job`, {
    key: user.key,
    raw: fileUpload(file),
  });
}

const sha256 = (data: Uint8Array) => createHash("sha256").update(data).digest();

describe("saveWorkpiece", () => {
  it("stores the file, mesh and thumbnail as the user's blobs, the measured workpiece and a first job that becomes current", async () => {
    const { projectId, saved } = await projectWithWorkpiece(alice);
    const w = saved.workpiece;
    assert.equal(w.meta.format, "stl");
    assert.equal(w.meta.original_filename, "partC.stl");
    assert.deepEqual(w.meta.bbox, part.ingested.bbox);
    assert.equal(w.meta.volume_mm3, part.ingested.volumeMm3);
    assert.equal(w.meta.triangle_count, 552);
    assert.equal(w.meta.closed_solid, true);
    assert.equal(w.blobs.brep, null, "an STL has no B-rep");

    const blobs = await db.owner.query<{
      id: string;
      user_id: string;
      content_type: string;
      sha256: Buffer;
      size: string;
    }>("select id, user_id, content_type, sha256, size from app_private.blobs where id = any($1::uuid[])", [
      [w.blobs.original, w.blobs.mesh, w.blobs.thumbnail],
    ]);
    const byId = new Map(blobs.rows.map((b) => [b.id, b]));
    for (const [id, type, data] of [
      [w.blobs.original, "model/stl", part.original],
      [w.blobs.mesh, "model/gltf-binary", part.glb],
      [w.blobs.thumbnail, "image/png", part.png],
    ] as const) {
      const blob = byId.get(id ?? "");
      assert.equal(blob?.user_id, alice.id);
      assert.equal(blob?.content_type, type);
      assert.ok(blob?.sha256.equals(sha256(data)), type);
      assert.equal(Number(blob?.size), data.length);
    }

    assert.equal(saved.job.source, "workpiece");
    assert.equal(saved.job.parentJobId, null);
    assert.equal(saved.job.workpieceId, w.id);
    assert.equal(saved.job.stock, null);
    assert.equal(saved.job.machine.product_id, "vmc-850-fanuc", "a snapshot of the project's machine");
    assert.deepEqual(saved.job.machine, machineSnapshot(findMachineArchetype("vmc-850-fanuc")!));
    const project = await api.request<{ current_job_id: string }>("GET", `/projects/${projectId}`, { key: alice.key });
    assert.equal(project.body.current_job_id, saved.job.id);
  });

  it("stores the same file once per user, pushes the previous job, and carries stock offsets over to the new part's box", async () => {
    const { projectId, saved: first } = await projectWithWorkpiece(alice);
    const stock = await api.request<StockSaved>("POST", `/projects/${projectId}/stock/bounding-box`, {
      key: alice.key,
      body: OFFSETS,
    });
    assert.equal(stock.status, 200);
    const blobsBefore = (await stateOf(projectId, alice.id)).blobs;

    // the same part moved by (10, 20, 30) mm: a real mesh and box, translated
    const shift = [10, 20, 30] as const;
    const positions = Float32Array.from(part.ingested.mesh.positions, (v, i) => v + shift[i % 3]!);
    const moved: IngestedWorkpiece = {
      ...part.ingested,
      bbox: {
        min: [part.ingested.bbox.min[0] + 10, part.ingested.bbox.min[1] + 20, part.ingested.bbox.min[2] + 30],
        max: [part.ingested.bbox.max[0] + 10, part.ingested.bbox.max[1] + 20, part.ingested.bbox.max[2] + 30],
      },
      mesh: { ...part.ingested.mesh, positions },
    };
    const second = await save(alice, projectId, moved);
    assert.ok(second);
    assert.equal(second.job.parentJobId, stock.body.job_id, "the stock job went onto the undo stack");
    assert.equal(second.job.source, "workpiece");
    assert.notEqual(second.workpiece.id, first.workpiece.id);
    assert.deepEqual(second.workpiece.blobs, first.workpiece.blobs, "same bytes, same blobs");
    assert.equal((await stateOf(projectId, alice.id)).blobs, blobsBefore, "nothing stored twice");

    assert.deepEqual(second.job.stock?.offsets, OFFSETS);
    assert.deepEqual(
      second.job.stock?.min,
      stock.body.stock.min.map((v, i) => Math.round((v + shift[i]!) * 1e6) / 1e6),
    );
    assert.deepEqual(second.job.stock?.size, stock.body.stock.size, "same part, same stock size");
  });

  it("returns null for another user's project and stores nothing", async () => {
    const projectId = await createProject(alice);
    const before = await stateOf(projectId, alice.id);
    const bobBlobs = await db.owner.query("select 1 from app_private.blobs where user_id = $1", [bob.id]);
    assert.equal(await save(bob, projectId), null);
    assert.deepEqual(await stateOf(projectId, alice.id), before);
    const after = await db.owner.query("select 1 from app_private.blobs where user_id = $1", [bob.id]);
    assert.equal(after.rowCount, bobBlobs.rowCount);
  });
});

describe("POST /projects/{project_id}/stock/bounding-box", () => {
  it("answers the stock box around the part and the new job, which becomes current with the previous one as parent", async () => {
    const { projectId, saved } = await projectWithWorkpiece(alice);
    const res = await api.request<StockSaved>("POST", `/projects/${projectId}/stock/bounding-box`, {
      key: alice.key,
      body: OFFSETS,
    });
    assert.equal(res.status, 200);
    const { min, max } = part.ingested.bbox;
    assert.deepEqual(res.body.workpiece_bbox, { min, max });
    assert.equal(res.body.stock.type, "bounding_box");
    assert.deepEqual(res.body.stock.offsets, OFFSETS);
    const round = (v: number) => Math.round(v * 1e6) / 1e6;
    assert.deepEqual(res.body.stock.min, [round(min[0] - 2), round(min[1] - 1.5), round(min[2] - 0)]);
    assert.deepEqual(res.body.stock.max, [round(max[0] + 3), round(max[1] + 1.5), round(max[2] + 5)]);
    assert.deepEqual(
      res.body.stock.size,
      res.body.stock.max.map((v, i) => round(v - res.body.stock.min[i]!)),
    );
    assert.equal(res.body.parent_job_id, saved.job.id);
    assert.notEqual(res.body.job_id, saved.job.id);

    const job = await db.owner.query(
      "select source, stock, workpiece_id, parent_job_id from app_public.jobs where id = $1",
      [res.body.job_id],
    );
    assert.deepEqual(job.rows[0], {
      source: "stock",
      stock: res.body.stock,
      workpiece_id: saved.workpiece.id,
      parent_job_id: saved.job.id,
    });
    assert.equal((await stateOf(projectId, alice.id)).current_job_id, res.body.job_id);
  });

  it("stores a stock the machine does not take in some setups with a warning naming the axis and the setups, and none when it fits", async () => {
    const { projectId } = await projectWithWorkpiece(alice);
    // the desktop router's travel is 450 x 450 x 100 mm; partC is 85.5 x 44.6 x 27.5
    const patched = await api.request("PATCH", `/projects/${projectId}`, {
      key: alice.key,
      body: { product_id: "router-450-grbl" },
    });
    assert.equal(patched.status, 200, patched.text);
    assert.deepEqual(
      (
        await api.request<StockSaved>("POST", `/projects/${projectId}/stock/bounding-box`, {
          key: alice.key,
          body: OFFSETS,
        })
      ).body.warnings,
      [],
    );
    const long = { ...OFFSETS, plus_x: 20 };
    const res = await api.request<StockSaved>("POST", `/projects/${projectId}/stock/bounding-box`, {
      key: alice.key,
      body: long,
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.stock.offsets.plus_x, 20, "stored as sent");
    assert.deepEqual(
      res.body.warnings.map((w) => [w.code, w.axis, w.setups]),
      [["stock_exceeds_travel", "Z", ["+X", "-X"]]],
    );
    assert.match(
      res.body.warnings[0]!.message,
      /^setups \+X, -X do not fit the Desktop router 450 \(Grbl 1\.1\) \(Z axis\): the stock is 107\.5 mm along the tool axis, .* Z travel is 100 mm/,
    );
    const job = await db.owner.query("select stock from app_public.jobs where id = $1", [res.body.job_id]);
    assert.deepEqual(job.rows[0].stock, res.body.stock);
    assert.equal((await stateOf(projectId, alice.id)).current_job_id, res.body.job_id);
  });

  it("answers 409 workpiece_missing before a workpiece, and stores no job", async () => {
    const projectId = await createProject(alice);
    const res = await api.request<ErrorBody>("POST", `/projects/${projectId}/stock/bounding-box`, {
      key: alice.key,
      body: OFFSETS,
    });
    assert.equal(res.status, 409);
    assert.equal(res.body.detail.code, "workpiece_missing");
    const state = await stateOf(projectId, alice.id);
    assert.equal(state.jobs, 0);
    assert.equal(state.current_job_id, null);
  });

  it("answers 400 naming the field for each bad offset, and changes nothing", async () => {
    const { projectId } = await projectWithWorkpiece(alice);
    const before = await stateOf(projectId, alice.id);
    const { plus_z: _omitted, ...missing } = OFFSETS;
    const cases: [string, unknown, string][] = [
      ["negative", { ...OFFSETS, minus_x: -1 }, "body.minus_x"],
      ["over the bound", { ...OFFSETS, plus_y: 1000.5 }, "body.plus_y"],
      ["a string", { ...OFFSETS, minus_z: "5" }, "body.minus_z"],
      ["null", { ...OFFSETS, plus_x: null }, "body.plus_x"],
      ["missing", missing, "body.plus_z"],
      ["unknown", { ...OFFSETS, plus_w: 1 }, "body.plus_w"],
    ];
    for (const [label, body, field] of cases) {
      const res = await api.request<ErrorBody>("POST", `/projects/${projectId}/stock/bounding-box`, {
        key: alice.key,
        body,
      });
      assert.equal(res.status, 400, label);
      assert.equal(res.body.detail.code, "invalid_parameter", label);
      assert.deepEqual(
        (res.body.detail.details.fields as { field: string }[]).map((f) => f.field),
        [field],
        label,
      );
    }
    // JSON has no Infinity, but 1e999 parses to it
    const infinite = await api.request<ErrorBody>("POST", `/projects/${projectId}/stock/bounding-box`, {
      key: alice.key,
      raw: { body: JSON.stringify(OFFSETS).replace('"plus_x":3', '"plus_x":1e999'), contentType: "application/json" },
    });
    assert.equal(infinite.status, 400);
    assert.deepEqual(
      (infinite.body.detail.details.fields as { field: string }[]).map((f) => f.field),
      ["body.plus_x"],
    );
    assert.deepEqual(await stateOf(projectId, alice.id), before);
  });

  it("answers 404 to another user and leaves the owner's job alone", async () => {
    const { projectId } = await projectWithWorkpiece(alice);
    const before = await stateOf(projectId, alice.id);
    const res = await api.request<ErrorBody>("POST", `/projects/${projectId}/stock/bounding-box`, {
      key: bob.key,
      body: OFFSETS,
    });
    assert.equal(res.status, 404);
    assert.equal(res.body.detail.code, "not_found");
    assert.deepEqual(await stateOf(projectId, alice.id), before);
  });

  it("keeps concurrent saves on one undo stack: each new job's parent is the job before it", async () => {
    const { projectId, saved } = await projectWithWorkpiece(alice);
    const results = await Promise.all(
      [1, 2, 3, 4, 5].map((n) =>
        api.request<StockSaved>("POST", `/projects/${projectId}/stock/bounding-box`, {
          key: alice.key,
          body: { ...OFFSETS, plus_z: n },
        }),
      ),
    );
    assert.deepEqual(
      results.map((r) => r.status),
      [200, 200, 200, 200, 200],
    );
    const { rows } = await db.owner.query<{ id: string; parent_job_id: string | null }>(
      `with recursive stack as (
         select j.id, j.parent_job_id, 1 as depth from app_public.jobs j
           join app_public.projects p on p.current_job_id = j.id where p.id = $1
         union all
         select j.id, j.parent_job_id, s.depth + 1 from app_public.jobs j join stack s on j.id = s.parent_job_id)
       select id, parent_job_id from stack order by depth`,
      [projectId],
    );
    assert.equal(rows.length, 6, "five stock jobs and the workpiece job, all on the stack");
    assert.equal(rows.at(-1)?.id, saved.job.id);
    assert.deepEqual(new Set(rows.slice(0, 5).map((r) => r.id)), new Set(results.map((r) => r.body.job_id)));
  });
});

describe("GET /projects/{project_id}/job", () => {
  it("answers the current job as a .famc attachment holding the workpiece, stock and machine, bound to the user", async () => {
    const { projectId, saved } = await projectWithWorkpiece(alice);
    const stock = await api.request<StockSaved>("POST", `/projects/${projectId}/stock/bounding-box`, {
      key: alice.key,
      body: OFFSETS,
    });
    const res = await download(alice, projectId);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "application/octet-stream");
    assert.equal(
      res.headers.get("content-disposition"),
      `attachment; filename="${projectId}_${stock.body.job_id}.famc"`,
    );
    assert.equal(res.headers.get("x-job-id"), stock.body.job_id);

    const contents = await decodeWithKey(res.bytes, alice.id);
    assert.equal(contents.owner, alice.id);
    assert.deepEqual(contents.job, {
      job_id: stock.body.job_id,
      project_id: projectId,
      parent_job_id: saved.job.id,
      source: "stock",
      created_at: contents.job.created_at,
    });
    assert.deepEqual(contents.stock, stock.body.stock);
    assert.equal(contents.machine.product_id, "vmc-850-fanuc");
    assert.deepEqual(contents.workpiece?.meta, saved.workpiece.meta);
    assert.ok(Buffer.from(contents.workpiece!.original).equals(part.original));
    assert.ok(Buffer.from(contents.workpiece!.mesh!).equals(part.glb));
    assert.ok(Buffer.from(contents.workpiece!.thumbnail!).equals(part.png));
  });

  it("is gzip-encoded when Accept-Encoding asks for it, and not otherwise", async () => {
    const { projectId } = await projectWithWorkpiece(alice);
    const plain = await download(alice, projectId, { "Accept-Encoding": "identity" });
    assert.equal(plain.status, 200);
    assert.equal(plain.headers.get("content-encoding"), null);
    assert.equal(Number(plain.headers.get("content-length")), plain.bytes.length);
    assert.match(plain.headers.get("vary") ?? "", /Accept-Encoding/);

    // fetch would undo the encoding itself: look at the wire with node:http
    const wire = await new Promise<{ headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
      const url = new URL(`${api.origin}/backend-api/api/public/v1/projects/${projectId}/job`);
      import("node:http").then(({ request }) => {
        const req = request(url, { headers: { "X-API-Key": alice.key, "Accept-Encoding": "gzip" } }, (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("end", () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
        });
        req.on("error", reject);
        req.end();
      }, reject);
    });
    assert.equal(wire.headers["content-encoding"], "gzip");
    assert.ok(wire.body.length < plain.bytes.length, "smaller on the wire");
    assert.ok(gunzipSync(wire.body).equals(plain.bytes), "the same file once decoded");
    const notGzip = await download(alice, projectId, { "Accept-Encoding": "gzip;q=0, identity" });
    assert.equal(notGzip.headers.get("content-encoding"), null);
  });

  it("answers 404 job_missing before the first save, and 404 not_found to another user", async () => {
    const empty = await createProject(alice);
    const missing = await download(alice, empty);
    assert.equal(missing.status, 404);
    assert.equal(missing.body.detail.code, "job_missing");
    const { projectId } = await projectWithWorkpiece(alice);
    const foreign = await download(bob, projectId);
    assert.equal(foreign.status, 404);
    assert.equal(foreign.body.detail.code, "not_found");
  });
});

describe("POST /projects/{project_id}/job", () => {
  it("rolls back: an earlier download becomes a new current job, with the previous one on the undo stack", async () => {
    const { projectId, saved } = await projectWithWorkpiece(alice);
    const first = (await download(alice, projectId)).bytes;
    const stock = await api.request<StockSaved>("POST", `/projects/${projectId}/stock/bounding-box`, {
      key: alice.key,
      body: OFFSETS,
    });
    const withStock = (await download(alice, projectId)).bytes;
    const blobs = (await stateOf(projectId, alice.id)).blobs;

    const back = await upload(alice, projectId, first);
    assert.equal(back.status, 201);
    assert.equal(back.body.parent_job_id, stock.body.job_id);
    assert.equal(back.body.origin_job_id, saved.job.id);
    assert.equal(back.body.stock, null, "the first job had no stock");
    assert.notEqual(back.body.workpiece_id, saved.workpiece.id, "a new workpiece row ...");
    const workpiece = await db.owner.query(
      "select original_blob_id, mesh_blob_id, thumbnail_blob_id, bbox_min, bbox_max, volume_mm3 from app_public.workpieces where id = $1",
      [back.body.workpiece_id],
    );
    assert.deepEqual(
      workpiece.rows[0],
      {
        original_blob_id: saved.workpiece.blobs.original,
        mesh_blob_id: saved.workpiece.blobs.mesh,
        thumbnail_blob_id: saved.workpiece.blobs.thumbnail,
        bbox_min: part.ingested.bbox.min,
        bbox_max: part.ingested.bbox.max,
        volume_mm3: part.ingested.volumeMm3,
      },
      "... over the very same blobs",
    );
    assert.equal((await stateOf(projectId, alice.id)).blobs, blobs, "no blob stored twice");
    assert.equal((await stateOf(projectId, alice.id)).current_job_id, back.body.job_id);

    const forward = await upload(alice, projectId, withStock);
    assert.equal(forward.status, 201);
    assert.equal(forward.body.parent_job_id, back.body.job_id);
    assert.equal(forward.body.origin_job_id, stock.body.job_id);
    assert.deepEqual(forward.body.stock, stock.body.stock);
    const job = await db.owner.query("select source, origin_job_id from app_public.jobs where id = $1", [
      forward.body.job_id,
    ]);
    assert.deepEqual(job.rows[0], { source: "import", origin_job_id: stock.body.job_id });
  });

  it("takes a file into another project of the same user, and switches the project to the file's machine", async () => {
    const { projectId } = await projectWithWorkpiece(alice);
    const file = (await download(alice, projectId)).bytes;
    const other = await createProject(alice, "Other");
    const patched = await api.request("PATCH", `/projects/${other}`, {
      key: alice.key,
      body: { product_id: "vmc-760-haas" },
    });
    assert.equal(patched.status, 200);
    const res = await upload(alice, other, file);
    assert.equal(res.status, 201);
    const state = await stateOf(other, alice.id);
    assert.equal(state.current_job_id, res.body.job_id);
    assert.equal(state.product_id, "vmc-850-fanuc");
    const job = await db.owner.query("select machine->>'product_id' as machine from app_public.jobs where id = $1", [
      res.body.job_id,
    ]);
    assert.equal(job.rows[0].machine, "vmc-850-fanuc");
  });

  it("refuses a changed, truncated or foreign file and one of an unknown version with its own code, storing nothing", async () => {
    const { projectId } = await projectWithWorkpiece(alice);
    const file = (await download(alice, projectId)).bytes;
    const tampered = Buffer.from(file);
    tampered[Math.floor(file.length / 2)] = tampered[Math.floor(file.length / 2)]! ^ 0x20;
    const nextVersion = Buffer.from(file);
    nextVersion.writeUInt16BE(3, 8);
    const before = await stateOf(projectId, alice.id);
    for (const [label, data, status, code] of [
      ["a changed byte", tampered, 422, "job_blob_invalid"],
      ["truncated", file.subarray(0, file.length - 100), 422, "job_blob_invalid"],
      ["an STL instead", part.original, 422, "job_blob_invalid"],
      ["empty", Buffer.alloc(0), 422, "job_blob_invalid"],
      ["version 3", nextVersion, 422, "job_version_unsupported"],
    ] as const) {
      const res = await upload(alice, projectId, data);
      assert.equal(res.status, status, label);
      assert.equal(res.body.detail.code, code, label);
    }
    assert.deepEqual(await stateOf(projectId, alice.id), before);

    const bobsProject = await createProject(bob);
    const bobBefore = await stateOf(bobsProject, bob.id);
    const stolen = await upload(bob, bobsProject, file);
    assert.equal(stolen.status, 403);
    assert.equal(stolen.body.detail.code, "job_owner_mismatch");
    assert.deepEqual(await stateOf(bobsProject, bob.id), bobBefore);
    const foreign = await upload(bob, projectId, file);
    assert.equal(foreign.status, 404, "and alice's project is not bob's at all");
    assert.equal(foreign.body.detail.code, "not_found");
  });

  it("answers 400 for no file, two files, a misnamed part or a text field, 415 for JSON and 400 for a broken body", async () => {
    const { projectId } = await projectWithWorkpiece(alice);
    const file = (await download(alice, projectId)).bytes;
    const before = await stateOf(projectId, alice.id);
    const post = (raw: { body: Buffer | string; contentType: string }) =>
      api.request<ErrorBody>("POST", `/projects/${projectId}/job`, { key: alice.key, raw });
    const cases: [string, { body: Buffer | string; contentType: string }, number, string][] = [
      ["no part", multipart([]), 400, "file_missing"],
      [
        "two files",
        multipart([
          { name: "file", filename: "a.famc", data: file },
          { name: "file", filename: "b.famc", data: file },
        ]),
        400,
        "too_many_files",
      ],
      ["a misnamed part", multipart([{ name: "upload", filename: "a.famc", data: file }]), 400, "unexpected_field"],
      [
        "a text field too",
        multipart([
          { name: "note", data: "hi" },
          { name: "file", filename: "a.famc", data: file },
        ]),
        400,
        "unexpected_field",
      ],
      ["JSON", { body: "{}", contentType: "application/json" }, 415, "unsupported_media_type"],
      [
        "a broken body",
        { body: "--nope\r\ngarbage", contentType: "multipart/form-data; boundary=nope" },
        400,
        "malformed_multipart",
      ],
    ];
    for (const [label, raw, status, code] of cases) {
      const res = await post(raw);
      assert.equal(res.status, status, label);
      assert.equal(res.body.detail.code, code, label);
    }
    assert.deepEqual(await stateOf(projectId, alice.id), before);
  });

  it("answers 413 payload_too_large over UPLOAD_LIMIT_BYTES, whether it shows in Content-Length or only in the file", async () => {
    const small = await startTestApi(db, { env: { UPLOAD_LIMIT_BYTES: "65536" } });
    try {
      const { projectId } = await projectWithWorkpiece(alice);
      const before = await stateOf(projectId, alice.id);
      for (const size of [65537, 100_000, 1_000_000]) {
        const res = await small.request<ErrorBody>("POST", `/projects/${projectId}/job`, {
          key: alice.key,
          raw: fileUpload(Buffer.alloc(size, 7)),
        });
        assert.equal(res.status, 413, `${size} bytes`);
        assert.equal(res.body.detail.code, "payload_too_large");
        assert.equal(res.body.detail.details.limit_bytes, 65536);
      }
      const fits = await small.request<ErrorBody>("POST", `/projects/${projectId}/job`, {
        key: alice.key,
        raw: fileUpload(Buffer.alloc(65536, 7)),
      });
      assert.equal(fits.status, 422, "at the limit it is read (and is no job file)");
      assert.deepEqual(await stateOf(projectId, alice.id), before);
    } finally {
      await small.close();
    }
  });
});

describe("presigned file URLs", () => {
  it("serve the mesh and the thumbnail without a key, with their content type and cache headers", async () => {
    const { saved } = await projectWithWorkpiece(alice);
    const urls = await asUser(api.pool, alice, (client) =>
      presignWorkpiece(client, saved.workpiece, { apiBasePath: API_BASE_PATH }),
    );
    const expires = Date.parse(urls.expires_at) / 1000;
    assert.ok(expires > Date.now() / 1000 + 3500 && expires <= Date.now() / 1000 + 3600);
    for (const [url, type, data] of [
      [urls.mesh_url, "model/gltf-binary", part.glb],
      [urls.thumbnail_url, "image/png", part.png],
    ] as const) {
      assert.match(
        url,
        /^\/backend-api\/api\/public\/v1\/files\/[0-9a-f-]{36}\?purpose=\w+&expires=\d+&signature=[\w-]{43}$/,
      );
      const res = await api.request("GET", url, { key: null });
      assert.equal(res.status, 200, url);
      assert.equal(res.headers.get("content-type"), type);
      assert.ok(res.bytes.equals(data));
      assert.equal(res.headers.get("etag"), `"${sha256(data).toString("hex")}"`);
      const maxAge = Number(/max-age=(\d+)/.exec(res.headers.get("cache-control") ?? "")?.[1]);
      assert.ok(maxAge > 3500 && maxAge <= 3600, `max-age ${maxAge}`);
      assert.match(res.headers.get("cache-control") ?? "", /^private/);
      assert.equal(res.headers.get("access-control-allow-origin"), "*");
      assert.equal(res.headers.get("x-ratelimit-limit"), null, "no per-key rate limit without a key");
    }
  });

  it("are signed by the database with HMAC-SHA256 over the documented message", async () => {
    const { saved } = await projectWithWorkpiece(alice);
    const mesh = saved.workpiece.blobs.mesh!;
    const now = Date.now();
    const url = await asUser(api.pool, alice, (client) =>
      presignBlob(client, mesh, "mesh", { now, ttlSeconds: 600, apiBasePath: API_BASE_PATH }),
    );
    const expires = Math.floor(now / 1000) + 600;
    assert.equal(
      url?.url,
      presignedPath(mesh, "mesh", expires, presignSignature(presignKey, mesh, "mesh", expires), API_BASE_PATH),
    );
  });

  it("answer 403 invalid_signature for any changed part of the URL, and 403 url_expired after it expires", async () => {
    const { saved } = await projectWithWorkpiece(alice);
    const urls = await asUser(api.pool, alice, (client) =>
      presignWorkpiece(client, saved.workpiece, { apiBasePath: API_BASE_PATH }),
    );
    const url = new URL(urls.mesh_url, api.origin);
    const signature = url.searchParams.get("signature")!;
    const expires = Number(url.searchParams.get("expires"));
    const variant = (change: (u: URL) => void) => {
      const copy = new URL(url);
      change(copy);
      return `${copy.pathname}${copy.search}`;
    };
    const flipped = signature[0] === "A" ? `B${signature.slice(1)}` : `A${signature.slice(1)}`;
    for (const [label, path] of [
      ["signature", variant((u) => u.searchParams.set("signature", flipped))],
      ["shortened signature", variant((u) => u.searchParams.set("signature", signature.slice(1)))],
      ["later expiry", variant((u) => u.searchParams.set("expires", String(expires + 3600)))],
      ["purpose", variant((u) => u.searchParams.set("purpose", "thumbnail"))],
      ["another purpose", variant((u) => u.searchParams.set("purpose", "brep"))],
      ["blob", variant((u) => (u.pathname = u.pathname.replace(/[0-9a-f-]{36}$/, saved.workpiece.blobs.thumbnail!)))],
      [
        "original file",
        variant((u) => (u.pathname = u.pathname.replace(/[0-9a-f-]{36}$/, saved.workpiece.blobs.original))),
      ],
    ] as const) {
      const res = await api.request<ErrorBody>("GET", path, { key: null });
      assert.equal(res.status, 403, label);
      assert.equal(res.body.detail.code, "invalid_signature", label);
    }

    // a correctly signed URL whose time is up (signed here with the database's secret)
    const past = Math.floor(Date.now() / 1000) - 5;
    const expired = presignedPath(
      saved.workpiece.blobs.mesh!,
      "mesh",
      past,
      presignSignature(presignKey, saved.workpiece.blobs.mesh!, "mesh", past),
      API_BASE_PATH,
    );
    const res = await api.request<ErrorBody>("GET", expired, { key: null });
    assert.equal(res.status, 403);
    assert.equal(res.body.detail.code, "url_expired");
    const missing = await api.request<ErrorBody>("GET", url.pathname, { key: null });
    assert.equal(missing.status, 400, "no query at all is not a presigned URL");
    assert.equal(missing.body.detail.code, "invalid_parameter");
  });

  it("are never given for a B-rep or an original file, nor for another user's blob", async () => {
    const { saved } = await projectWithWorkpiece(alice);
    const originalAsMesh = await asUser(api.pool, alice, (client) =>
      presignBlob(client, saved.workpiece.blobs.original, "mesh", { apiBasePath: API_BASE_PATH }),
    );
    assert.equal(originalAsMesh, null);
    const bobs = await asUser(api.pool, bob, (client) =>
      presignBlob(client, saved.workpiece.blobs.mesh!, "mesh", { apiBasePath: API_BASE_PATH }),
    );
    assert.equal(bobs, null);
  });

  it("stop working at once when no live project of the owner uses the file any more", async () => {
    // a mesh of its own: partC moved by 5 mm, so no other project shares its bytes
    const moved: IngestedWorkpiece = {
      ...part.ingested,
      mesh: { ...part.ingested.mesh, positions: Float32Array.from(part.ingested.mesh.positions, (v) => v + 5) },
    };
    const glb = Buffer.from(meshToGlb(moved.mesh));
    const projectId = await createProject(alice);
    const saved = await asUser(api.pool, alice, (client) =>
      saveWorkpiece(client, projectId, moved, part.original, glb, part.png),
    );
    assert.ok(saved);
    const urls = await asUser(api.pool, alice, (client) =>
      presignWorkpiece(client, saved.workpiece, { apiBasePath: API_BASE_PATH }),
    );
    assert.equal((await api.request("GET", urls.mesh_url, { key: null })).status, 200);
    assert.equal((await api.request("DELETE", `/projects/${projectId}`, { key: alice.key })).status, 204);
    const res = await api.request<ErrorBody>("GET", urls.mesh_url, { key: null });
    assert.equal(res.status, 404);
    assert.equal(res.body.detail.code, "not_found");
    // the thumbnail is the same bytes as in alice's other projects: a URL names content, which she still has
    assert.equal((await api.request("GET", urls.thumbnail_url, { key: null })).status, 200);
  });
});

describe("currentJob", () => {
  it("sees only the caller's projects", async () => {
    const { projectId, saved } = await projectWithWorkpiece(alice);
    const mine = await asUser(api.pool, alice, (client) => currentJob(client, projectId));
    assert.equal(mine?.job?.id, saved.job.id);
    assert.equal(await asUser(api.pool, bob, (client) => currentJob(client, projectId)), null);
  });
});
