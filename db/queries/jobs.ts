/**
 * CAM jobs. Every save inserts a new, immutable job; the database makes it the project's
 * current job and pushes the one before onto the undo stack (parent_job_id), under a lock on
 * the project row (sql: tg_jobs__push). Within a request transaction, RLS limits all of this
 * to the caller's live projects.
 */
import type { PlanSummary } from "../../kernel/job/plan.ts";
import type { BoundingBoxStock } from "../../kernel/job/stock.ts";
import type { JobSource } from "../../kernel/job/types.ts";
import type { MachineSnapshot } from "../../kernel/machines/snapshot.ts";
import type { Queryable } from "../request-transaction.ts";

export interface JobRecord {
  id: string;
  projectId: string;
  /** the job that was current before this one: the next entry of the undo stack */
  parentJobId: string | null;
  source: JobSource;
  /** source "import": the job id recorded in the uploaded file */
  originJobId: string | null;
  workpieceId: string | null;
  stock: BoundingBoxStock | null;
  machine: MachineSnapshot;
  /** the CAM plan: its blob (gzip JSON, kernel/job/plan.ts) and summary; null when not planned */
  plan: JobPlan | null;
  createdAt: Date;
}

/** A job's plan: the blob with the whole tree, and the figures without moves. */
export interface JobPlan {
  blobId: string;
  summary: PlanSummary;
}

interface JobRow {
  id: string;
  project_id: string;
  parent_job_id: string | null;
  source: JobSource;
  origin_job_id: string | null;
  workpiece_id: string | null;
  stock: BoundingBoxStock | null;
  machine: MachineSnapshot;
  plan_blob_id: string | null;
  plan_summary: PlanSummary | null;
  created_at: Date;
}

const JOB_COLUMNS =
  "j.id, j.project_id, j.parent_job_id, j.source, j.origin_job_id, j.workpiece_id, j.stock, j.machine, j.plan_blob_id, j.plan_summary, j.created_at";

function toJobRecord(row: JobRow): JobRecord {
  return {
    id: row.id,
    projectId: row.project_id,
    parentJobId: row.parent_job_id,
    source: row.source,
    originJobId: row.origin_job_id,
    workpieceId: row.workpiece_id,
    stock: row.stock,
    machine: row.machine,
    plan: row.plan_blob_id && row.plan_summary ? { blobId: row.plan_blob_id, summary: row.plan_summary } : null,
    createdAt: row.created_at,
  };
}

export async function getJob(db: Queryable, id: string): Promise<JobRecord | null> {
  const { rows } = await db.query<JobRow>(`select ${JOB_COLUMNS} from app_public.jobs j where j.id = $1`, [id]);
  return rows[0] ? toJobRecord(rows[0]) : null;
}

export interface CurrentJob {
  projectId: string;
  /** null before the first save */
  job: JobRecord | null;
}

/**
 * The project's current job; null when the project is not the caller's or is gone. With
 * lock, the project row stays locked until the transaction ends, so no other save can slip
 * in between reading the current job and saving the next one.
 */
export async function currentJob(
  db: Queryable,
  projectId: string,
  options: { lock?: boolean } = {},
): Promise<CurrentJob | null> {
  const project = await db.query<{ current_job_id: string | null }>(
    `select p.current_job_id from app_public.projects p where p.id = $1${options.lock ? " for no key update" : ""}`,
    [projectId],
  );
  if (project.rowCount === 0) return null;
  const jobId = project.rows[0]!.current_job_id;
  return { projectId, job: jobId ? await getJob(db, jobId) : null };
}

/** What a new job changes relative to the current one; what is left out is carried over. */
export interface JobChange {
  source: JobSource;
  /** default: the current job's workpiece */
  workpieceId?: string | null;
  /** default: the current job's stock when the workpiece stays, else none */
  stock?: BoundingBoxStock | null;
  /** default: a snapshot of the project's machine, taken by the database */
  machine?: MachineSnapshot;
  originJobId?: string;
  /**
   * default: none. A plan is made for one workpiece and stock, so it is never carried over:
   * a new workpiece or stock invalidates it, and only the planner or an import brings one.
   */
  plan?: JobPlan | null;
}

/**
 * Saves a new job derived from the current one and makes it current. derive runs with the
 * project locked and sees the current job (null before the first save); it may store what
 * the change needs (blobs, a workpiece) or throw to refuse it. Null when the project is not
 * the caller's.
 */
export async function newJobFrom(
  db: Queryable,
  projectId: string,
  derive: (current: JobRecord | null) => JobChange | Promise<JobChange>,
): Promise<JobRecord | null> {
  const locked = await currentJob(db, projectId, { lock: true });
  if (!locked) return null;
  const current = locked.job;
  const change = await derive(current);
  const workpieceId = change.workpieceId !== undefined ? change.workpieceId : (current?.workpieceId ?? null);
  const stock =
    change.stock !== undefined
      ? change.stock
      : workpieceId !== null && workpieceId === current?.workpieceId
        ? current.stock
        : null;
  const { rows } = await db.query<JobRow>(
    `insert into app_public.jobs as j (project_id, workpiece_id, source, origin_job_id, stock, machine, plan_blob_id, plan_summary)
     values ($1, $2, $3, $4, $5, $6, $7, $8)
     returning ${JOB_COLUMNS}`,
    [
      projectId,
      workpieceId,
      change.source,
      change.originJobId ?? null,
      stock,
      change.machine ?? null,
      change.plan?.blobId ?? null,
      change.plan ? JSON.stringify(change.plan.summary) : null,
    ],
  );
  return toJobRecord(rows[0]!);
}
