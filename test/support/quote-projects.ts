/**
 * What the quote tests set up: a project through the API, and a CAM job saved as planning saves
 * it (its part's blobs, the workpiece, the job with its stock and plan summary, made the
 * project's current job), so a test prices a plan summary it chose without planning a part.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import type pg from "pg";
import type { TestApi } from "./api.ts";
import type { TestUser } from "./users.ts";

/** a project of `user`'s, "Bracket" for "ACME GmbH" unless `body` says otherwise */
export async function createQuoteProject(
  api: TestApi,
  user: TestUser,
  body: Record<string, unknown> = {},
): Promise<string> {
  const res = await api.request<{ id: string }>("POST", "/projects", {
    key: user.key,
    body: { name: "Bracket", customer: "ACME GmbH", ...body },
  });
  assert.equal(res.status, 201, res.text);
  return res.body.id;
}

export interface SavedPlan {
  /** the part's bounding box's far corner (the near one is the origin), mm */
  bboxMax: [number, number, number];
  volumeMm3: number;
  /** the job's stock as the API stores it */
  stock: Record<string, unknown>;
  /** the plan summary as planning saves it */
  summary: Record<string, unknown>;
}

/** saves a planned job for `projectId` and makes it the project's current one; its id */
export async function savePlannedJob(
  owner: pg.Pool,
  user: TestUser,
  projectId: string,
  plan: SavedPlan,
): Promise<string> {
  const blob = async (bytes: Buffer, type: string) =>
    (
      await owner.query<{ id: string }>(
        `insert into app_private.blobs (user_id, sha256, size, content_type, bytes) values ($1, sha256($2), length($2), $3, $2) returning id`,
        [user.id, bytes, type],
      )
    ).rows[0]!.id;
  const tag = randomUUID();
  const workpiece = (
    await owner.query<{ id: string }>(
      `insert into app_public.workpieces (project_id, user_id, format, units_read, bbox_min, bbox_max, volume_mm3, face_count,
       triangle_count, closed_solid, original_blob_id, mesh_blob_id, thumbnail_blob_id)
     values ($1, $2, 'stl', 'mm', '{0,0,0}', $3, $4, 0, 12, true, $5, $6, $7) returning id`,
      [
        projectId,
        user.id,
        plan.bboxMax,
        plan.volumeMm3,
        await blob(Buffer.from(`stl ${tag}`), "model/stl"),
        await blob(Buffer.from(`glb ${tag}`), "model/gltf-binary"),
        await blob(Buffer.from(`png ${tag}`), "image/png"),
      ],
    )
  ).rows[0]!.id;
  const job = await owner.query<{ id: string }>(
    `insert into app_public.jobs (project_id, user_id, workpiece_id, source, stock, plan_blob_id, plan_summary) values ($1, $2, $3, 'plan', $4, $5, $6) returning id`,
    [
      projectId,
      user.id,
      workpiece,
      plan.stock,
      await blob(Buffer.from(`plan ${tag}`), "application/vnd.swarf.cam-plan+gzip"),
      plan.summary,
    ],
  );
  const jobId = job.rows[0]!.id;
  // a new job becomes the project's current one as planning makes it
  await owner.query("update app_public.projects set current_job_id = $2 where id = $1", [projectId, jobId]);
  return jobId;
}

/** a bounding-box stock of `size` with no offsets, at the origin */
export function boxStock(size: [number, number, number]): Record<string, unknown> {
  return {
    type: "bounding_box",
    offsets: { minus_x: 0, plus_x: 0, minus_y: 0, plus_y: 0, minus_z: 0, plus_z: 0 },
    min: [0, 0, 0],
    max: size,
    size,
  };
}
