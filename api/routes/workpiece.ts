/**
 * The workpiece upload: the file is read, measured and meshed on a warm geometry thread
 * before the request transaction opens (no pooled connection waits on geometry), then stored
 * with a new job in one transaction. The project is checked first, in a short read of its own.
 */
import { z } from "zod";
import { boxSize } from "../../kernel/geometry/mesh-metrics.ts";
import { Vec3Schema } from "../../kernel/math/vec3-schema.ts";
import { getProject } from "../../db/queries/projects.ts";
import { presignWorkpiece, saveWorkpiece } from "../../db/queries/workpieces.ts";
import { API_BASE_PATH } from "../../http/base-path.ts";
import { GeometryUnavailable } from "../../geometry-pool/pool.ts";
import type { IngestSuccess } from "../../geometry-pool/protocol.ts";
import { HttpError, notFound } from "../../http/errors/index.ts";
import { json } from "../reply.ts";
import { defineRoute } from "../route.ts";
import { Id, idParams, NoQuery, Timestamp } from "../schemas/common.ts";

/** what a client is told to wait after geometry_busy: it has waited the queue bound already, and the threads are taken by files that may run a while */
const GEOMETRY_BUSY_RETRY_AFTER_SECONDS = 10;

const WorkpieceUploaded = z
  .object({
    workpiece_id: Id,
    job_id: Id.describe("the new current job, holding this workpiece"),
    format: z.enum(["step", "stl", "brep"]).describe("as recognised from the content"),
    units_read: z
      .string()
      .describe('the length unit the file declared ("mm", "inch", ...; "unknown" for STL); values below are mm'),
    bbox: z.object({ min: Vec3Schema, max: Vec3Schema, size: Vec3Schema }).describe("mm"),
    volume_mm3: z.number().nullable().describe("null when the part is not a closed solid"),
    face_count: z.number().int().describe("B-rep faces (0 for STL)"),
    triangle_count: z.number().int(),
    closed_solid: z.boolean(),
    warnings: z.array(z.object({ code: z.string(), message: z.string() })),
    mesh_url: z
      .string()
      .describe(
        "absolute presigned GET of the mesh, binary glTF (docs/mesh-formats.md), on PUBLIC_BASE_URL or this request's origin; no key needed",
      ),
    thumbnail_url: z
      .string()
      .describe("absolute presigned GET of a PNG isometric view, on the same base; no key needed"),
    urls_expire_at: Timestamp,
  })
  .meta({ id: "WorkpieceUploaded" });

export const workpieceRoutes = [
  defineRoute({
    method: "post",
    path: "/projects/{project_id}/workpiece",
    operationId: "uploadWorkpiece",
    summary: "Upload the workpiece (STEP, STL or BREP): measured and tessellated before the response",
    description:
      "One multipart part named file. The format is recognised from the content; inch and metre files come out in " +
      "mm. The response carries the measurements and presigned URLs of the mesh (.glb) and a thumbnail (.png). " +
      "Saves a new job; the previous one goes onto the undo stack. Honours Idempotency-Key.",
    tag: "Inputs",
    scopes: ["cam:write"],
    params: idParams("project_id"),
    query: NoQuery,
    upload: { field: "file", description: "the part: STEP (AP203/AP214/AP242), STL (binary or ASCII) or OCCT BREP" },
    idempotent: true,
    responses: {
      201: {
        description: "the workpiece and the job saved with it",
        schema: WorkpieceUploaded,
        headers: {
          "Server-Timing": "the geometry thread's steps in ms: detect, read, measure, mesh, export, glb, thumbnail",
        },
      },
    },
    errors: [404, 413, 415, 422, 503],
    errorCodes: {
      400: "file_missing, too_many_files, unexpected_field, malformed_multipart",
      422:
        "empty_file, unsupported_format, corrupt_file, no_solid, multiple_solids, no_triangles, invalid_coordinates, " +
        "geometry_failed, geometry_timeout",
      503:
        "geometry_busy (no geometry thread was free for the upload within GEOMETRY_QUEUE_TIMEOUT_MS: the file was not processed), " +
        "geometry_worker_crashed, geometry_unavailable: retry after Retry-After seconds (details.retry_after_seconds on geometry_busy)",
    },
    async prepare({ auth, file, services, params, read }): Promise<IngestSuccess> {
      if (!file) throw new Error("the multipart middleware did not run");
      // not the caller's project: say so before seconds of geometry work
      if (!(await read((db) => getProject(db, params.project_id)))) throw notFound("project", params.project_id);
      if (!services.geometry) {
        throw new HttpError(
          503,
          "geometry_unavailable",
          "this server runs no geometry workers",
          {},
          { "Retry-After": "30" },
        );
      }
      let outcome;
      try {
        // the file takes its user's share of the threads: one user's files never hold them all
        outcome = await services.geometry.ingest(file.bytes, {
          owner: auth.userId,
          ...(file.filename ? { filename: file.filename } : {}),
        });
      } catch (error) {
        if (!(error instanceof GeometryUnavailable)) throw error;
        // a timeout (counted from the start on a thread) is the file's doing; waiting for a
        // thread, a dead thread or a closing pool is ours
        if (error.code === "geometry_timeout") throw new HttpError(422, error.code, error.message);
        if (error.code === "geometry_busy") {
          throw new HttpError(
            503,
            error.code,
            `${error.message}; retry after Retry-After seconds`,
            { retry_after_seconds: GEOMETRY_BUSY_RETRY_AFTER_SECONDS },
            { "Retry-After": String(GEOMETRY_BUSY_RETRY_AFTER_SECONDS) },
          );
        }
        throw new HttpError(503, error.code, error.message, {}, { "Retry-After": "5" });
      }
      if (!outcome.ok) throw new HttpError(422, outcome.code, outcome.message, outcome.details);
      return outcome;
    },
    async handler({ db, params, file, prepared, publicBaseUrl }) {
      if (!file) throw new Error("the multipart middleware did not run");
      const { workpiece: measured, brep, glb, thumbnail, timings } = prepared;
      const saved = await saveWorkpiece(db, params.project_id, { ...measured, brep }, file.bytes, glb, thumbnail, {
        filename: file.filename,
      });
      if (!saved) throw notFound("project", params.project_id);
      const urls = await presignWorkpiece(db, saved.workpiece, { baseUrl: publicBaseUrl, apiBasePath: API_BASE_PATH });
      const { min, max } = measured.bbox;
      return json(
        201,
        {
          workpiece_id: saved.workpiece.id,
          job_id: saved.job.id,
          format: measured.format,
          units_read: measured.unitsRead,
          bbox: { min, max, size: boxSize(measured.bbox) },
          volume_mm3: measured.volumeMm3,
          face_count: measured.faceCount,
          triangle_count: measured.triangleCount,
          closed_solid: measured.closedSolid,
          warnings: measured.warnings,
          mesh_url: urls.mesh_url,
          thumbnail_url: urls.thumbnail_url,
          urls_expire_at: urls.expires_at,
        },
        { "Server-Timing": serverTiming(timings) },
      );
    },
  }),
];

/** The geometry thread's steps as a Server-Timing header: read;dur=812.4, mesh;dur=101.2, ... */
function serverTiming(timings: Record<string, number>): string {
  return Object.entries(timings)
    .map(([step, ms]) => `${step.replace(/[^A-Za-z0-9_-]/g, "_")};dur=${ms.toFixed(1)}`)
    .join(", ");
}
