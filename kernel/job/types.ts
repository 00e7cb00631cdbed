/**
 * What a CAM job holds besides its tree (the plan: setups, operations and toolpaths, in
 * plan.ts): the workpiece's description, the stock and the machine it was saved for
 * (kernel/machines/snapshot.ts).
 * Field names are the ones the API and the .famc file use (snake_case).
 */
import { z } from "zod";
import type { WorkpieceFormat } from "../geometry/types.ts";
import { Vec3Schema } from "../math/vec3-schema.ts";

/** How a job came to be (sql: jobs.source); "plan": saved by the plan_cam task with its CAM plan. */
export const JobSource = z.enum(["workpiece", "stock", "import", "plan"]);
export type JobSource = z.infer<typeof JobSource>;

export const WorkpieceWarning = z.object({ code: z.string(), message: z.string() });

/** A workpiece without its bytes: what ingest measured (mm, mm³). */
export const WorkpieceMeta = z.object({
  format: z.enum(["step", "stl", "brep"]) satisfies z.ZodType<WorkpieceFormat>,
  original_filename: z.string().min(1).max(255).nullable(),
  units_read: z.string().min(1).max(32),
  bbox: z.object({ min: Vec3Schema, max: Vec3Schema }),
  volume_mm3: z.number().nonnegative().nullable(),
  face_count: z.number().int().nonnegative(),
  triangle_count: z.number().int().nonnegative(),
  closed_solid: z.boolean(),
  warnings: z.array(WorkpieceWarning),
});
export type WorkpieceMeta = z.infer<typeof WorkpieceMeta>;

/** Content types of a workpiece's blobs (sql: tg_workpieces__check_blobs). */
export const BLOB_CONTENT_TYPES = {
  original: { step: "model/step", stl: "model/stl", brep: "model/x-occt-brep" },
  brep: "model/x-occt-brep",
  mesh: "model/gltf-binary",
  thumbnail: "image/png",
} as const;
