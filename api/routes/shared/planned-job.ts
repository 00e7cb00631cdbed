/**
 * The project's current job with its plan, for what is made from a plan (programs, setup
 * sheets): the plan decoded, the postprocessor of the machine it was planned for, and what the
 * documents name beyond the plan (the project, the part's file, the material, the part's box).
 * One lookup, so every such route answers a missing project, job or plan the same way.
 */
import type { Queryable } from "../../../db/request-transaction.ts";
import { currentJob, type JobPlan, type JobRecord } from "../../../db/queries/jobs.ts";
import { materialName } from "../../../db/queries/machines-materials.ts";
import { getProject } from "../../../db/queries/projects.ts";
import { getWorkpiece, type WorkpieceRecord } from "../../../db/queries/workpieces.ts";
import { HttpError, notFound } from "../../../http/errors/index.ts";
import { decodeCamPlan, type CamPlan } from "../../../kernel/job/plan.ts";
import { findMachineArchetype } from "../../../kernel/machines/archetypes.ts";
import type { Box3 } from "../../../kernel/math/box3.ts";
import { postgresBlobStore } from "../../../storage/postgres.ts";

/** What a program or a setup sheet names beyond the plan. */
export interface PlanContext {
  project: string;
  /** the workpiece's file name as uploaded */
  part: string | null;
  /** the material's name */
  material: string | null;
  /** the part's bounding box in workpiece coordinates (the workpiece's, which the stock is grown from) */
  partBox: Box3 | null;
}

export interface PlannedJob {
  job: JobRecord;
  /** the job's workpiece; null for a job without one */
  workpiece: WorkpieceRecord | null;
  plan: CamPlan;
  /** the machine's postprocessor, which names its control's words */
  postprocessor: string;
  context: PlanContext;
}

/**
 * The project's current job, planned. 404 for a project that is not the caller's (or is gone)
 * and job_missing before a workpiece; 409 no_toolpaths before planning: every route made from a
 * plan refuses alike.
 */
export async function currentPlannedJob(db: Queryable, projectId: string): Promise<JobRecord & { plan: JobPlan }> {
  const current = await currentJob(db, projectId);
  if (!current) throw notFound("project", projectId);
  const job = current.job;
  if (!job)
    throw new HttpError(404, "job_missing", "the project has no CAM job yet; upload a workpiece first", {
      project_id: projectId,
    });
  if (!job.plan) throw noToolpaths(job.id);
  return { ...job, plan: job.plan };
}

/** 409: the current job has not been planned (or has nothing a plan needs). */
export function noToolpaths(jobId: string): HttpError {
  return new HttpError(
    409,
    "no_toolpaths",
    "the current job has no toolpaths; run POST /projects/{project_id}/automation/cam-planning first",
    { job_id: jobId },
  );
}

/** Keeps decoded plans by job id (api/app-routes/kept-by-job.ts: a job's plan never changes). */
export interface PlanKeeper {
  get(jobId: string, make: () => Promise<CamPlan>): Promise<CamPlan>;
}

/**
 * The project's current job and its plan, refused as currentPlannedJob refuses. With `plans`,
 * a plan decoded for an earlier request of the same job is used, not read and decoded again.
 */
export async function plannedJob(
  db: Queryable,
  projectId: string,
  options: { plans?: PlanKeeper } = {},
): Promise<PlannedJob> {
  const job = await currentPlannedJob(db, projectId);
  const project = await getProject(db, projectId);
  if (!project) throw notFound("project", projectId);
  const read = async () => {
    const blob = await postgresBlobStore.get(db, job.plan.blobId);
    if (!blob) throw new Error(`job ${job.id}: its plan blob ${job.plan.blobId} is missing`);
    return decodeCamPlan(blob.bytes);
  };
  const plan = options.plans ? await options.plans.get(job.id, read) : await read();
  const workpiece = job.workpieceId ? await getWorkpiece(db, job.workpieceId) : null;
  const material = project.material_id ? ((await materialName(db, project.material_id)) ?? project.material_id) : null;
  return {
    job,
    workpiece,
    plan,
    postprocessor: findMachineArchetype(job.machine.product_id)?.postprocessor ?? job.machine.control,
    context: {
      project: project.name,
      part: workpiece?.meta.original_filename ?? null,
      material,
      partBox: workpiece?.meta.bbox ?? null,
    },
  };
}
