/**
 * Design feedback on GET /projects/{id}/quote: the items the current job's plan found (kernel/dfm),
 * an empty list without a plan or from a plan made before design feedback, and the refusals
 * (another user's project, a key without quote:read, a malformed id). The plans here are saved
 * as planning saves them, with items the kernel found on a part built with OCCT; the planning
 * itself, through the API, is in quote-completeness.test.ts.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { SCOPES } from "../../auth/scopes.ts";
import { designFeedback } from "../../kernel/dfm/design-feedback.ts";
import type { DesignFeedbackItem } from "../../kernel/dfm/types.ts";
import { recogniseFile } from "../../kernel/features/setups/recognise-file.ts";
import { cut, makeBox } from "../../kernel/features/test-support.ts";
import { writeBrep } from "../../kernel/geometry/brep.ts";
import { withOcctScope } from "../../kernel/geometry/occt-scope.ts";
import { loadOpenCascade } from "../../kernel/geometry/opencascade.ts";
import { startTestApi, type TestApi } from "../support/api.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { createTestUser, type TestUser } from "../support/users.ts";

let db: TestDatabase;
let api: TestApi;
let alice: TestUser;
let bob: TestUser;
let items: DesignFeedbackItem[];

before(async () => {
  db = await createTestDatabase();
  api = await startTestApi(db);
  alice = await createTestUser(db.owner, "alice");
  bob = await createTestUser(db.owner, "bob");
  // a 40 x 40 x 30 block with a pocket 3 wide and 20 deep, 0.5 mm from its side
  const oc = await loadOpenCascade();
  const bytes = withOcctScope((scope) =>
    writeBrep(oc, cut(oc, scope, makeBox(oc, scope, [40, 40, 30]), makeBox(oc, scope, [3, 20, 21], [0.5, 10, 10]))),
  );
  const file = recogniseFile(oc, bytes, { budgetMs: 60_000 });
  items = designFeedback({
    analysis: file.analysis,
    recognition: file.recognition,
    setups: file.setups,
    mesh: file.mesh!,
    material: "aluminium",
    tools: [{ kind: "end_mill", diameter_mm: 1, reach_mm: 30, pitch_mm: null }],
  });
});
after(async () => {
  await api?.close();
  await db?.drop();
});

async function createProject(user: TestUser): Promise<string> {
  const res = await api.request<{ id: string }>("POST", "/projects", {
    key: user.key,
    body: { name: "Bracket", customer: "ACME GmbH", product_id: "vmc-850-fanuc" },
  });
  assert.equal(res.status, 201, res.text);
  return res.body.id;
}

/** a saved CAM job of one setup whose plan summary has `feedback` (absent: a plan made before design feedback) */
async function savePlannedJob(user: TestUser, projectId: string, feedback?: DesignFeedbackItem[]): Promise<void> {
  const blob = async (bytes: Buffer, type: string) =>
    (
      await db.owner.query<{ id: string }>(
        `insert into app_private.blobs (user_id, sha256, size, content_type, bytes) values ($1, sha256($2), length($2), $3, $2) returning id`,
        [user.id, bytes, type],
      )
    ).rows[0]!.id;
  const tag = randomUUID();
  const workpiece = (
    await db.owner.query<{ id: string }>(
      `insert into app_public.workpieces (project_id, user_id, format, units_read, bbox_min, bbox_max, volume_mm3, face_count,
       triangle_count, closed_solid, original_blob_id, mesh_blob_id, thumbnail_blob_id)
     values ($1, $2, 'stl', 'mm', '{0,0,0}', '{40,40,30}', 46740, 0, 12, true, $3, $4, $5) returning id`,
      [
        projectId,
        user.id,
        await blob(Buffer.from(`stl ${tag}`), "model/stl"),
        await blob(Buffer.from(`glb ${tag}`), "model/gltf-binary"),
        await blob(Buffer.from(`png ${tag}`), "image/png"),
      ],
    )
  ).rows[0]!.id;
  const summary = {
    machining_time_s: 600,
    warnings: [],
    unmachined: [],
    setups: [
      {
        id: randomUUID(),
        name: "Setup 1",
        index: 0,
        direction: [0, 0, 1],
        wcs: { origin: [0, 0, 0], x_axis: [1, 0, 0], z_axis: [0, 0, 1] },
        work_offset: "G54",
        machining_time_s: 600,
        operations: [],
        tools: [],
        verification: {},
      },
    ],
    ...(feedback === undefined ? {} : { design_feedback: feedback }),
  };
  const stock = {
    type: "bounding_box",
    offsets: { minus_x: 0, plus_x: 0, minus_y: 0, plus_y: 0, minus_z: 0, plus_z: 0 },
    min: [0, 0, 0],
    max: [40, 40, 30],
    size: [40, 40, 30],
  };
  const job = await db.owner.query<{ id: string }>(
    `insert into app_public.jobs (project_id, user_id, workpiece_id, source, stock, plan_blob_id, plan_summary) values ($1, $2, $3, 'plan', $4, $5, $6) returning id`,
    [
      projectId,
      user.id,
      workpiece,
      stock,
      await blob(Buffer.from(`plan ${tag}`), "application/vnd.swarf.cam-plan+gzip"),
      summary,
    ],
  );
  // a new job becomes the project's current one as planning makes it
  await db.owner.query("update app_public.projects set current_job_id = $2 where id = $1", [
    projectId,
    job.rows[0]!.id,
  ]);
}

const quote = (user: TestUser, projectId: string) =>
  api.request<{ design_feedback: DesignFeedbackItem[]; detail?: { code: string } }>(
    "GET",
    `/projects/${projectId}/quote`,
    {
      key: user.key,
    },
  );

describe("design feedback on the quote", () => {
  it("carries the current plan's items as design_feedback, as the kernel found them", async () => {
    assert.deepEqual(items.map((i) => i.kind).sort(), ["corner_radius_below_tool", "deep_pocket", "thin_wall"]);
    const projectId = await createProject(alice);
    await savePlannedJob(alice, projectId, items);
    const res = await quote(alice, projectId);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.design_feedback, items);
  });

  it("is empty without a plan, and from a plan made before design feedback", async () => {
    const projectId = await createProject(alice);
    const none = await quote(alice, projectId);
    assert.equal(none.status, 200, none.text);
    assert.deepEqual(none.body.design_feedback, []);
    await savePlannedJob(alice, projectId);
    const older = await quote(alice, projectId);
    assert.equal(older.status, 200, older.text);
    assert.deepEqual(older.body.design_feedback, []);
  });

  it("follows the current job: a re-plan's items replace the earlier plan's", async () => {
    const projectId = await createProject(alice);
    await savePlannedJob(alice, projectId, items);
    await savePlannedJob(alice, projectId, items.slice(0, 1));
    assert.deepEqual((await quote(alice, projectId)).body.design_feedback, items.slice(0, 1));
  });

  it("answers another user's project with 404, a key without quote:read with 403, a malformed id with 400", async () => {
    const projectId = await createProject(alice);
    await savePlannedJob(alice, projectId, items);
    const other = await quote(bob, projectId);
    assert.equal(other.status, 404);
    assert.equal(other.body.detail?.code, "not_found");
    const noRead = await alice.keyWith(SCOPES.filter((s) => s !== "quote:read"));
    assert.equal((await api.request("GET", `/projects/${projectId}/quote`, { key: noRead })).status, 403);
    assert.equal((await api.request("GET", "/projects/not-a-uuid/quote", { key: alice.key })).status, 400);
  });
});
