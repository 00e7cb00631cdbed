/**
 * Inputs and the CAM job: stock as offsets around the part, and the job as a .famc file to
 * download and to upload back (a rollback is the upload of an earlier download). Every save
 * makes a new job, current from then on, with the one before on the undo stack.
 */
import { z } from "zod";
import { Vec3Schema } from "../../kernel/math/vec3-schema.ts";
import { encodeJobFile, importJobFile } from "../../db/queries/job-files.ts";
import { currentJob, newJobFrom } from "../../db/queries/jobs.ts";
import { getWorkpiece } from "../../db/queries/workpieces.ts";
import { FamcError, FAMC_MEDIA_TYPE } from "../../kernel/job/famc.ts";
import type { PlanSummary } from "../../kernel/job/plan.ts";
import { boundingBoxStock, STOCK_OFFSET_MAX_MM, type BoundingBoxStock } from "../../kernel/job/stock.ts";
import { HttpError, notFound } from "../../http/errors/index.ts";
import { bytes, json } from "../reply.ts";
import { defineRoute, type UploadedFile } from "../route.ts";
import { BooleanQuery, Id, idParams, NoQuery, Timestamp } from "../schemas/common.ts";
import { requestWarnings, snapshotTravel, stockTravelWarnings } from "./shared/project-inputs.ts";

const ProjectParams = idParams("project_id");

const offset = (where: string) =>
  z
    .number()
    .min(0)
    .max(STOCK_OFFSET_MAX_MM)
    .describe(`mm added ${where} the part's bounding box, 0 to ${STOCK_OFFSET_MAX_MM}`);

const StockOffsetsBody = z
  .strictObject({
    minus_x: offset("below the minimum x of"),
    plus_x: offset("above the maximum x of"),
    minus_y: offset("below the minimum y of"),
    plus_y: offset("above the maximum y of"),
    minus_z: offset("below the minimum z of"),
    plus_z: offset("above the maximum z of"),
  })
  .meta({ id: "StockBoundingBox" });

const Stock = z
  .object({
    type: z.literal("bounding_box"),
    offsets: z.object({
      minus_x: z.number(),
      plus_x: z.number(),
      minus_y: z.number(),
      plus_y: z.number(),
      minus_z: z.number(),
      plus_z: z.number(),
    }),
    min: Vec3Schema.describe("corner of the stock box, mm [x, y, z]"),
    max: Vec3Schema.describe("opposite corner, mm [x, y, z]"),
    size: Vec3Schema.describe("max - min, mm [x, y, z]"),
  })
  .meta({ id: "Stock" });

const StockSaved = z
  .object({
    job_id: Id.describe("the new current job"),
    parent_job_id: Id.nullable().describe("the job before it, now on the undo stack"),
    stock: Stock,
    workpiece_bbox: z
      .object({ min: Vec3Schema, max: Vec3Schema })
      .describe("the part's bounding box the offsets are added to, mm"),
    warnings: requestWarnings.describe(
      "stock_exceeds_travel: per machine axis, the setups (the stock's six axis directions, and a plan's tilted ones) " +
        "the stock does not fit the project's machine in; planning leaves those setups out. Empty when it fits",
    ),
  })
  .meta({ id: "StockSaved" });

const JobImported = z
  .object({
    job_id: Id.describe("the new current job"),
    parent_job_id: Id.nullable().describe("the job before it, now on the undo stack"),
    origin_job_id: Id.describe("the job the file was downloaded from"),
    workpiece_id: Id.nullable(),
    stock: Stock.nullable(),
    tessellation_task_id: Id.nullable().describe(
      "when the file came without a mesh (downloaded with mesh=false): the workpiece.tessellate task making it; " +
        "GET /tasks/{task_id} gives its mesh_url and thumbnail_url when it succeeded. null otherwise",
    ),
    created_at: Timestamp,
  })
  .meta({ id: "JobImported" });

const DownloadQuery = z.strictObject({
  mesh: BooleanQuery.optional().describe(
    "false leaves the workpiece's mesh and thumbnail out of the file: smaller, and an upload of it re-meshes " +
      "the part in a workpiece.tessellate task. Default true",
  ),
});

function toStock(stock: BoundingBoxStock): z.input<typeof Stock> {
  return { type: stock.type, offsets: { ...stock.offsets }, min: stock.min, max: stock.max, size: stock.size };
}

function famcHttpError(error: FamcError): HttpError {
  return new HttpError(error.code === "job_owner_mismatch" ? 403 : 422, error.code, error.message, error.details);
}

function requireFile(file: UploadedFile | null): UploadedFile {
  if (!file) throw new Error("the multipart middleware did not run");
  return file;
}

export const jobRoutes = [
  defineRoute({
    method: "post",
    path: "/projects/{project_id}/stock/bounding-box",
    operationId: "setStockBoundingBox",
    summary: "Set the stock as offsets around the part's bounding box (saves a new job)",
    description:
      "The stock box is the workpiece's bounding box grown by each offset. The offsets are kept: a later " +
      "workpiece upload recomputes the box around the new part. 409 workpiece_missing before a workpiece was uploaded. " +
      "A stock the project's machine does not take in some setups is stored all the same, with a stock_exceeds_travel " +
      "warning per machine axis naming those setups: planning leaves them out and plans the others.",
    tag: "Inputs",
    scopes: ["cam:write"],
    params: ProjectParams,
    query: NoQuery,
    body: StockOffsetsBody,
    responses: { 200: { description: "the stock and the job it was saved in", schema: StockSaved } },
    errors: [404, 409, 413, 415],
    errorCodes: { 409: "workpiece_missing: upload a workpiece first" },
    async handler({ db, params, body }) {
      let saved:
        | {
            stock: BoundingBoxStock;
            bbox: { min: [number, number, number]; max: [number, number, number] };
            plan: PlanSummary | null;
          }
        | undefined;
      const job = await newJobFrom(db, params.project_id, async (current) => {
        const workpiece = current?.workpieceId ? await getWorkpiece(db, current.workpieceId) : null;
        if (!workpiece) {
          throw new HttpError(
            409,
            "workpiece_missing",
            "the project has no workpiece yet; upload one before setting the stock",
            {
              project_id: params.project_id,
            },
          );
        }
        // the plan being replaced knows the part's setups (its tilted ones among them)
        saved = {
          stock: boundingBoxStock(workpiece.meta.bbox, body),
          bbox: workpiece.meta.bbox,
          plan: current?.plan?.summary ?? null,
        };
        return { source: "stock", stock: saved.stock };
      });
      if (!job || !saved) throw notFound("project", params.project_id);
      const warnings = stockTravelWarnings(snapshotTravel(job.machine), saved.stock, saved.plan);
      return json(200, {
        job_id: job.id,
        parent_job_id: job.parentJobId,
        stock: toStock(saved.stock),
        workpiece_bbox: saved.bbox,
        warnings,
      });
    },
  }),
  defineRoute({
    method: "get",
    path: "/projects/{project_id}/job",
    operationId: "downloadJob",
    summary: "Download the current CAM job as a .famc file",
    description:
      "A self-contained, versioned binary (docs/famc-format.md): the workpiece (uploaded file, B-rep, mesh, " +
      "thumbnail), stock and machine. It is signed and bound to the key's user: upload it back to a project of the " +
      "same user to roll back. gzip-encoded when Accept-Encoding asks for it. A workpiece whose mesh is still being " +
      "made (a tessellate task) is written without it.",
    tag: "Jobs",
    scopes: ["projects:read"],
    params: ProjectParams,
    query: DownloadQuery,
    responses: {
      200: {
        description: "the job file",
        contentType: FAMC_MEDIA_TYPE,
        schema: z.string().describe("binary .famc"),
        headers: {
          "Content-Disposition": 'attachment; filename="<project_id>_<job_id>.famc"',
          "X-Job-Id": "the job's id",
        },
      },
    },
    errors: [404],
    errorCodes: { 404: "job_missing: the project has no job yet" },
    async handler({ db, params, query }) {
      const current = await currentJob(db, params.project_id);
      if (!current) throw notFound("project", params.project_id);
      if (!current.job) {
        throw new HttpError(404, "job_missing", "the project has no CAM job yet; upload a workpiece first", {
          project_id: params.project_id,
        });
      }
      const file = await encodeJobFile(db, current.job, { mesh: query.mesh ?? true });
      return bytes(
        200,
        file,
        FAMC_MEDIA_TYPE,
        {
          "Content-Disposition": `attachment; filename="${params.project_id}_${current.job.id}.famc"`,
          "X-Job-Id": current.job.id,
          "Cache-Control": "no-store",
        },
        { compressible: true },
      );
    },
  }),
  defineRoute({
    method: "post",
    path: "/projects/{project_id}/job",
    operationId: "uploadJob",
    summary: "Upload a .famc job file as the project's new current job (a rollback)",
    description:
      "Saves the file's workpiece, stock and machine as a new job; the previous one goes onto the undo stack. " +
      "Only a file downloaded by the same user is accepted; nothing is stored when it is refused. A file without " +
      "a mesh queues a workpiece.tessellate task (tessellation_task_id).",
    tag: "Jobs",
    scopes: ["cam:write"],
    params: ProjectParams,
    query: NoQuery,
    upload: { field: "file", description: "a .famc file from GET /projects/{project_id}/job" },
    responses: { 201: { description: "the new current job", schema: JobImported } },
    errors: [403, 404, 413, 415, 422],
    errorCodes: {
      400: "file_missing, too_many_files, unexpected_field, malformed_multipart",
      403: "job_owner_mismatch: the file belongs to another user",
      422: "job_blob_invalid (truncated, changed, or not from this server), job_version_unsupported",
    },
    async handler({ db, params, file }) {
      let imported;
      try {
        imported = await importJobFile(db, params.project_id, requireFile(file).bytes);
      } catch (error) {
        if (error instanceof FamcError) throw famcHttpError(error);
        throw error;
      }
      if (!imported) throw notFound("project", params.project_id);
      const { job, tessellationTaskId } = imported;
      return json(201, {
        job_id: job.id,
        parent_job_id: job.parentJobId,
        origin_job_id: job.originJobId!,
        workpiece_id: job.workpieceId,
        stock: job.stock ? toStock(job.stock) : null,
        tessellation_task_id: tessellationTaskId,
        created_at: job.createdAt.toISOString(),
      });
    },
  }),
];
