/**
 * A job as a .famc file (kernel/job/famc.ts) and back. The file's MAC is computed and checked
 * by the database (app_public.sign_job_file, verify_job_file) with a secret that never leaves
 * it; a file is bound to the user who downloaded it.
 */
import { decodeFamc, encodeFamc, type FamcSign, type FamcVerify } from "../../kernel/job/famc.ts";
import { PLAN_CONTENT_TYPE, summarisePlan } from "../../kernel/job/plan.ts";
import { boundingBoxStock } from "../../kernel/job/stock.ts";
import type { BlobStore } from "../../storage/blob-store.ts";
import { postgresBlobStore } from "../../storage/postgres.ts";
import type { Queryable } from "../request-transaction.ts";
import { TESSELLATE_TASK_NAME, TESSELLATE_WORKER_TASK, type TessellatePayload } from "../../contracts/tasks.ts";
import { newJobFrom, type JobRecord } from "./jobs.ts";
import { createTask } from "./tasks.ts";
import { getWorkpiece, insertWorkpiece } from "./workpieces.ts";

async function callerId(db: Queryable): Promise<string> {
  const { rows } = await db.query<{ id: string | null }>("select app_public.current_user_id() as id");
  const id = rows[0]?.id;
  if (!id) throw new Error("job files need a request identity");
  return id;
}

function signer(db: Queryable): FamcSign {
  return async (_owner, digest) => {
    // the database signs for the caller only; encodeJobFile puts the caller in as the owner
    const { rows } = await db.query<{ mac: Buffer }>("select app_public.sign_job_file($1) as mac", [digest]);
    return rows[0]!.mac;
  };
}

function verifier(db: Queryable): FamcVerify {
  return async (owner, digest, mac) => {
    const { rows } = await db.query<{ ok: boolean }>("select app_public.verify_job_file($1, $2, $3) as ok", [
      owner,
      digest,
      mac,
    ]);
    return rows[0]?.ok === true;
  };
}

async function blobBytes(db: Queryable, store: BlobStore, id: string): Promise<Buffer> {
  const blob = await store.get(db, id);
  if (!blob) throw new Error(`blob ${id} of a workpiece is missing`);
  return blob.bytes;
}

export interface EncodeOptions {
  /** false: leave out the mesh and thumbnail (a smaller file; the import re-meshes). Default true. */
  mesh?: boolean;
  store?: BlobStore;
}

/**
 * The job as a .famc file bound to the caller: its workpiece (the uploaded file, B-rep, mesh
 * and thumbnail), stock, machine and CAM plan. A workpiece whose mesh is still being made is
 * written without it.
 */
export async function encodeJobFile(db: Queryable, job: JobRecord, options: EncodeOptions = {}): Promise<Buffer> {
  const store = options.store ?? postgresBlobStore;
  const withMesh = options.mesh ?? true;
  const workpiece = job.workpieceId ? await getWorkpiece(db, job.workpieceId) : null;
  if (job.workpieceId && !workpiece) throw new Error(`job ${job.id}: workpiece ${job.workpieceId} is missing`);
  return encodeFamc(
    {
      owner: await callerId(db),
      job: {
        job_id: job.id,
        project_id: job.projectId,
        parent_job_id: job.parentJobId,
        source: job.source,
        created_at: job.createdAt.toISOString(),
      },
      machine: job.machine,
      stock: job.stock,
      workpiece: workpiece && {
        meta: workpiece.meta,
        original: await blobBytes(db, store, workpiece.blobs.original),
        brep: workpiece.blobs.brep ? await blobBytes(db, store, workpiece.blobs.brep) : null,
        mesh: withMesh && workpiece.blobs.mesh ? await blobBytes(db, store, workpiece.blobs.mesh) : null,
        thumbnail: withMesh && workpiece.blobs.thumbnail ? await blobBytes(db, store, workpiece.blobs.thumbnail) : null,
      },
      plan: job.plan ? await blobBytes(db, store, job.plan.blobId) : null,
    },
    signer(db),
  );
}

export interface ImportedJob {
  job: JobRecord;
  /** the workpiece.tessellate task making the mesh the file came without; null when it had one */
  tessellationTaskId: string | null;
}

/**
 * Saves a .famc file as the project's new current job (the previous one goes onto the undo
 * stack): its workpiece, stock (offsets, recomputed around the workpiece), machine and CAM
 * plan (its bytes stored as they are: a rollback stores nothing twice). When
 * the file's machine is one of the caller's, the project is switched to it too. A workpiece
 * without a mesh gets one from a tessellate task queued in the same transaction. Throws
 * FamcError for a file that is not valid, not this server's, another user's or of an unknown
 * version, before anything is stored. Null when the project is not the caller's.
 */
export async function importJobFile(
  db: Queryable,
  projectId: string,
  bytes: Buffer,
  store: BlobStore = postgresBlobStore,
): Promise<ImportedJob | null> {
  const project = await db.query("select 1 from app_public.projects where id = $1", [projectId]);
  if (project.rowCount === 0) return null;
  const contents = await decodeFamc(bytes, await callerId(db), verifier(db));
  await db.query(
    `update app_public.projects set product_id = $2
      where id = $1 and product_id <> $2
        and exists (select 1 from app_public.user_machines um where um.product_id = $2)`,
    [projectId, contents.machine.product_id],
  );
  let tessellationTaskId: string | null = null;
  const job = await newJobFrom(db, projectId, async () => {
    const workpiece = contents.workpiece
      ? await insertWorkpiece(db, projectId, contents.workpiece.meta, contents.workpiece, store)
      : null;
    if (workpiece && !workpiece.blobs.mesh) {
      const payload: TessellatePayload = { workpiece_id: workpiece.id };
      tessellationTaskId = (
        await createTask(db, { projectId, taskName: TESSELLATE_TASK_NAME, workerTask: TESSELLATE_WORKER_TASK, payload })
      ).id;
    }
    const plan = contents.plan
      ? {
          blobId: (await store.put(db, contents.plan.bytes, PLAN_CONTENT_TYPE)).id,
          summary: summarisePlan(contents.plan.document),
        }
      : null;
    return {
      source: "import",
      originJobId: contents.job.job_id,
      workpieceId: workpiece?.id ?? null,
      stock: workpiece && contents.stock ? boundingBoxStock(workpiece.meta.bbox, contents.stock.offsets) : null,
      machine: contents.machine,
      plan,
    };
  });
  return job && { job, tessellationTaskId };
}
