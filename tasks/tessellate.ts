/**
 * tessellate (public task name workpiece.tessellate): makes a workpiece's mesh and thumbnail
 * again, from its B-rep (or, for STL, from the file as uploaded), on this process's warm
 * geometry threads. Queued by the import of a job file that came without a mesh, and by an
 * operator re-meshing a part at another deflection (`npm run cli -- workpiece tessellate`).
 *
 * A file the kernel refuses, or one that runs past the geometry timeout, fails the task at
 * once (TaskFailure); a thread that dies, a pool that is closing, or threads that stay busy
 * past GEOMETRY_QUEUE_TIMEOUT_MS (geometry_busy: the file never started) is a fault, retried.
 * The re-mesh takes its owner's share of the threads, as the owner's uploads do.
 *
 * The result's presigned URLs are absolute on `publicBaseUrl` (PUBLIC_BASE_URL); without it they
 * are root-relative here (a worker has no request to take an origin from), and the API makes
 * them absolute when it serves the task; a webhook body carries them as stored.
 */
import type { Task } from "graphile-worker";
import { z } from "zod";
import { TessellatePayload } from "../contracts/tasks.ts";
import { API_BASE_PATH } from "../http/base-path.ts";
import { getWorkpiece, presignWorkpiece, replaceWorkpieceMesh } from "../db/queries/workpieces.ts";
import { postgresBlobStore } from "../storage/postgres.ts";
import { GeometryUnavailable, type GeometryPool } from "../geometry-pool/pool.ts";
import { TaskFailure, trackedTask } from "./runtime/tracked-task.ts";

const degrees = (radians: number) => (radians * 180) / Math.PI;

export function tessellateTask(geometry: GeometryPool, publicBaseUrl?: string): Task {
  return trackedTask(async (ctx) => {
    const parsed = TessellatePayload.safeParse(ctx.payload);
    if (!parsed.success)
      throw new TaskFailure("invalid_payload", `the task's payload is not valid: ${z.prettifyError(parsed.error)}`);
    const payload = parsed.data;

    const source = await ctx.asOwner(async (db) => {
      const workpiece = await getWorkpiece(db, payload.workpiece_id);
      if (!workpiece) return null;
      // the B-rep in mm when there is one: read faster than the STEP, and its faces are the
      // ones the upload numbered; an STL has only its file
      const blob = await postgresBlobStore.get(db, workpiece.blobs.brep ?? workpiece.blobs.original);
      return blob && { bytes: blob.bytes };
    });
    if (!source) throw workpieceMissing(payload.workpiece_id);
    await ctx.progress(0.1);

    let outcome;
    try {
      outcome = await geometry.ingest(source.bytes, {
        owner: ctx.userId,
        ...(payload.linear_deflection_mm !== undefined ? { linearDeflectionMm: payload.linear_deflection_mm } : {}),
        ...(payload.angular_deflection_deg !== undefined
          ? { angularDeflectionRad: (payload.angular_deflection_deg * Math.PI) / 180 }
          : {}),
      });
    } catch (error) {
      // only a timeout is the file's; geometry_busy and the others are retried by the queue
      if (error instanceof GeometryUnavailable && error.code === "geometry_timeout")
        throw new TaskFailure(error.code, error.message);
      throw error;
    }
    if (!outcome.ok) throw new TaskFailure(outcome.code, outcome.message);
    await ctx.progress(0.8);

    const { workpiece: measured, glb, thumbnail } = outcome;
    const saved = await ctx.asOwner(async (db) => {
      const workpiece = await replaceWorkpieceMesh(db, payload.workpiece_id, {
        mesh: glb,
        thumbnail,
        triangleCount: measured.triangleCount,
        meshDeflection: measured.meshDeflection,
        meshWarnings: measured.warnings.filter((w) => w.code === "unmeshed_faces"),
      });
      return (
        workpiece && {
          workpiece,
          urls: await presignWorkpiece(db, workpiece, { baseUrl: publicBaseUrl, apiBasePath: API_BASE_PATH }),
        }
      );
    });
    if (!saved) throw workpieceMissing(payload.workpiece_id);
    const deflection = saved.workpiece.meshDeflection;
    return {
      workpiece_id: saved.workpiece.id,
      triangle_count: saved.workpiece.meta.triangle_count,
      linear_deflection_mm: deflection?.linearMm ?? null,
      angular_deflection_deg: deflection ? degrees(deflection.angularRad) : null,
      mesh_bytes: glb.byteLength,
      warnings: saved.workpiece.meta.warnings,
      mesh_url: saved.urls.mesh_url,
      thumbnail_url: saved.urls.thumbnail_url,
      urls_expire_at: saved.urls.expires_at,
    };
  });
}

function workpieceMissing(id: string): TaskFailure {
  return new TaskFailure("workpiece_missing", `workpiece ${id} no longer exists (its project was deleted)`);
}
