/**
 * plan_cam (public task name automation.automated_cam_planning): plans a project's CAM job on
 * this process's geometry threads and saves it as a new job (source "plan"). Queued by
 * POST /projects/{id}/automation/cam-planning in the user's own named queue, so a user's
 * plans run one at a time, in the order they were accepted (docs/automation.md).
 *
 *   load      project, current job, workpiece (B-rep, or the STL as uploaded), stock, machine,
 *             material, the library's assemblies; what is missing or cannot fit fails at once
 *   plan      kernel/cam/plan.ts on a thread; progress comes back over the request's port and
 *             is written to the task row on every new 10 % bucket and at least every few
 *             seconds; the row is polled for a cancel request every second, which the thread
 *             reads through shared memory (hooks.cancelled()); a planner that does not stop
 *             within the grace period has its thread terminated
 *   save      in one transaction with the task row locked: the plan (gzip JSON blob) as a new
 *             job, current from then on, the quote job's per-setup cost overrides carried to
 *             the new setups (db/queries/setup-cost-carry.ts), and the task's success; a cancel
 *             that came first wins and nothing is saved
 *
 * Failures a user can act on are TaskFailures with a code (never retried); a thread that dies
 * is retried once, then fails as geometry_worker_crashed.
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { Task } from "graphile-worker";
import { z } from "zod";
import { PlanCamPayload } from "../contracts/tasks.ts";
import { unmetPlanningPrecondition } from "../kernel/cam/planning-preconditions.ts";
import type { PlanInput, PlanOptions } from "../kernel/cam/plan-types.ts";
import {
  camPlanOf,
  encodeCamPlan,
  PLAN_CONTENT_TYPE,
  PlanFormatError,
  summarisePlan,
  type CamPlan,
  type PlanSummary,
} from "../kernel/job/plan.ts";
import type { BoundingBoxStock } from "../kernel/job/stock.ts";
import { findMachineArchetype, type MachineArchetype } from "../kernel/machines/archetypes.ts";
import { liveProjectMachine, loadPlanningState, type PlanningState } from "../db/queries/automation.ts";
import { newJobFrom } from "../db/queries/jobs.ts";
import { carrySetupCostsToPlan } from "../db/queries/setup-cost-carry.ts";
import { lockTaskRow, succeedAttempt } from "../db/queries/task-state.ts";
import { postgresBlobStore } from "../storage/postgres.ts";
import { GeometryUnavailable, type GeometryPool } from "../geometry-pool/pool.ts";
import { TaskCancelled, TaskFailure, trackedTask, type TrackedTaskContext } from "./runtime/tracked-task.ts";

/** The task's result: the new job and the plan without its moves. */
export type PlanCamResult = { job_id: string } & PlanSummary;

export interface PlanCamSettings {
  /** how often the task row is read for a cancel request */
  cancelPollMs: number;
  /** progress is written at least this often while it moves (and on every new 10 % bucket) */
  progressIntervalMs: number;
  /** how long a planner may take to honour a cancel before its thread is terminated */
  cancelGraceMs: number;
}

const DEFAULT_SETTINGS: PlanCamSettings = { cancelPollMs: 1000, progressIntervalMs: 3000, cancelGraceMs: 15_000 };

/** the share of the task's progress each step has */
const LOADED = 0.05;
const PLANNED = 0.9;

/** the user-facing description of a machine's travel */
const travelOf = (m: MachineArchetype) => `X ${m.travel_x_mm}, Y ${m.travel_y_mm}, Z ${m.travel_z_mm} mm`;

/**
 * Whether a box of `size` fits the travel in some orientation: any of the six ways of putting
 * its sides along X, Y and Z (the setups a 3-axis machine can clamp it in). A necessary check,
 * before any planning; the planner knows more (tool lengths, fixtures) and may refuse still.
 */
export function fitsTravel(
  size: readonly [number, number, number],
  travel: readonly [number, number, number],
): boolean {
  const orders: [number, number, number][] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
  ];
  return orders.some((order) => order.every((axis, i) => size[axis]! <= travel[i]!));
}

function sameStock(a: BoundingBoxStock | null, b: BoundingBoxStock | null): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** What the plan is made from: the save checks that the project still has it. */
interface PlannedFor {
  workpieceId: string;
  stock: BoundingBoxStock;
  productId: string;
}

/** What the planner gets, checked; a TaskFailure for everything a user has to fix first. */
function planInputOf(
  state: PlanningState | null,
  payload: PlanCamPayload,
): { input: PlanInput; machine: MachineArchetype; plannedFor: PlannedFor } {
  if (!state) throw new TaskFailure("project_missing", "the project was deleted");
  const { workpiece, stock } = state;
  const unmet = unmetPlanningPrecondition({
    hasWorkpiece: workpiece !== null,
    hasStock: stock !== null,
    materialId: state.materialId,
    libraryId: state.libraryId,
    assemblies: state.library.length,
  });
  if (unmet) throw new TaskFailure(unmet.code, unmet.message);
  if (!workpiece || !stock || !state.materialId) throw new Error("unreachable: the preconditions hold");
  if (!state.workpieceBytes)
    throw new TaskFailure("workpiece_missing", "the workpiece's geometry is missing; upload it again");
  if (!workpiece.meta.closed_solid) {
    throw new TaskFailure(
      "workpiece_not_closed",
      "the workpiece is not a closed solid (an open or broken STL mesh): planning needs a watertight part; repair it and upload it again",
    );
  }
  const machine = findMachineArchetype(state.productId);
  if (!machine)
    throw new TaskFailure(
      "machine_unsupported",
      `the project's machine ${state.productId} cannot be planned for; choose another product_id`,
    );
  const size: [number, number, number] = [stock.size[0], stock.size[1], stock.size[2]];
  if (!fitsTravel(size, [machine.travel_x_mm, machine.travel_y_mm, machine.travel_z_mm])) {
    throw new TaskFailure(
      "part_exceeds_travel",
      `the stock (${size.map((v) => Math.round(v * 10) / 10).join(" x ")} mm) does not fit the travel of ${machine.name} ` +
        `(${travelOf(machine)}) in any orientation; choose a larger machine or smaller stock`,
    );
  }
  return {
    machine,
    plannedFor: { workpieceId: workpiece.id, stock, productId: state.productId },
    input: {
      workpiece: {
        format: workpiece.meta.format,
        bytes: state.workpieceBytes,
        bytes_format: workpiece.blobs.brep ? "brep" : "stl",
      },
      stock: { min: stock.min, max: stock.max },
      machine,
      material_id: state.materialId,
      library: state.library,
      options: planOptionsOf(payload),
      // the request's workholding, when it sent one: without, the machine's default holds the stock
      ...(payload.workholding === undefined ? {} : { workholding: payload.workholding }),
    },
  };
}

/** The payload's planning options, without its workholding (the plan stores these as it was asked). */
function planOptionsOf({ workholding: _, ...options }: PlanCamPayload): PlanOptions {
  return options;
}

/** Writes progress on every new 10 % bucket and at least every intervalMs while it moves; one write at a time. */
function progressWriter(ctx: TrackedTaskContext, intervalMs: number) {
  let written = 0;
  let writtenAt = Date.now();
  let chain: Promise<void> = Promise.resolve();
  const state = { superseded: false };
  return {
    state,
    report(fraction: number) {
      if (!(fraction > written)) return;
      const newBucket = Math.floor(fraction * 10) > Math.floor(written * 10);
      if (!newBucket && Date.now() - writtenAt < intervalMs) return;
      written = fraction;
      writtenAt = Date.now();
      chain = chain
        .then(() => ctx.progress(fraction))
        .then((current) => {
          if (!current) state.superseded = true;
        })
        .catch((error: unknown) =>
          ctx.helpers.logger.warn(`task ${ctx.taskId}: could not record progress: ${String(error)}`),
        );
    },
    flush: () => chain,
  };
}

export function planCamTask(geometry: GeometryPool, overrides: Partial<PlanCamSettings> = {}): Task {
  const settings = { ...DEFAULT_SETTINGS, ...overrides };
  return trackedTask(async (ctx) => {
    const parsed = PlanCamPayload.safeParse(ctx.payload);
    if (!parsed.success)
      throw new TaskFailure("invalid_payload", `the task's payload is not valid: ${z.prettifyError(parsed.error)}`);
    if (!ctx.projectId) throw new TaskFailure("project_missing", "the task has no project");
    const projectId = ctx.projectId;

    const state = await ctx.asOwner((db) => loadPlanningState(db, ctx.userId, projectId));
    const { input, machine, plannedFor: planned } = planInputOf(state, parsed.data);
    const writer = progressWriter(ctx, settings.progressIntervalMs);
    writer.report(LOADED);
    if (await ctx.cancelRequested()) throw new TaskCancelled();

    const outcome = await runPlan(ctx, geometry, input, settings, (fraction) =>
      writer.report(LOADED + (PLANNED - LOADED) * fraction),
    );
    await writer.flush();
    if (outcome.kind === "cancelled") throw new TaskCancelled();
    if (outcome.kind === "refused") throw new TaskFailure(outcome.code, outcome.message);
    if (outcome.kind === "failed")
      throw new TaskFailure("planning_failed", `the planner failed on this part: ${outcome.message}`);
    if (await ctx.cancelRequested()) throw new TaskCancelled();

    let plan: CamPlan;
    let bytes: Buffer;
    try {
      plan = camPlanOf(outcome.result, input.options, machine); // the operations timed on this machine
      bytes = encodeCamPlan(plan);
    } catch (error) {
      if (error instanceof PlanFormatError)
        throw new TaskFailure("plan_invalid", `the planner's result cannot be saved: ${error.message}`);
      throw error;
    }
    writer.report(PLANNED);
    await writer.flush();
    const summary = summarisePlan(plan);

    // the job and the task's success commit together, or neither does
    return ctx.asOwner(async (db) => {
      const row = await lockTaskRow(db, ctx.taskId);
      if (row?.cancelled) throw new TaskCancelled();
      if (row?.status !== "running" || row.attempts !== ctx.attempt)
        throw new Error("this attempt was superseded; its plan is not saved");
      const productId = await liveProjectMachine(db, ctx.userId, projectId);
      if (productId === null)
        throw new TaskFailure("project_missing", "the project was deleted while it was being planned");
      if (productId !== planned.productId) throw projectChanged("machine");
      const blob = await postgresBlobStore.put(db, bytes, PLAN_CONTENT_TYPE);
      const job = await newJobFrom(db, projectId, (current) => {
        if (current?.workpieceId !== planned.workpieceId) throw projectChanged("workpiece");
        if (!sameStock(current.stock, planned.stock)) throw projectChanged("stock");
        return { source: "plan", plan: { blobId: blob.id, summary } };
      });
      if (!job) throw new TaskFailure("project_missing", "the project was deleted while it was being planned");
      // before the success: quote.ready, emitted with it, names the overrides dropped here
      await carrySetupCostsToPlan(db, { projectId, jobId: job.id, next: summary.setups });
      const result: PlanCamResult = { job_id: job.id, ...summary };
      await succeedAttempt(db, ctx.taskId, ctx.attempt, result);
      return result;
    });
  });
}

function projectChanged(what: string): TaskFailure {
  return new TaskFailure(
    "project_changed",
    `the project's ${what} changed while it was being planned, so the plan no longer fits it; start the planning again`,
  );
}

type Outcome = Awaited<ReturnType<GeometryPool["plan"]>>;

/**
 * Runs the planner on a thread while polling the task row for a cancel request: seen, it sets
 * the shared flag the planner's hooks.cancelled() reads, and after the grace period aborts the
 * thread. A worker shutting down (ctx.signal) aborts it too, and the attempt is retried.
 */
async function runPlan(
  ctx: TrackedTaskContext,
  geometry: GeometryPool,
  input: PlanInput,
  settings: PlanCamSettings,
  onProgress: (fraction: number) => void,
): Promise<Outcome> {
  const cancel = new SharedArrayBuffer(4);
  const flag = new Int32Array(cancel);
  const abort = new AbortController();
  const done = new AbortController();
  let cancelSeenAt: number | null = null;

  const poller = (async () => {
    while (!done.signal.aborted) {
      await sleep(settings.cancelPollMs, undefined, { signal: done.signal }).catch(() => {});
      if (done.signal.aborted) return;
      let requested: boolean;
      try {
        requested = await ctx.cancelRequested();
      } catch (error) {
        ctx.helpers.logger.warn(`task ${ctx.taskId}: could not read its cancel request: ${String(error)}`);
        continue;
      }
      if (requested && cancelSeenAt === null) {
        cancelSeenAt = Date.now();
        Atomics.store(flag, 0, 1);
        ctx.helpers.logger.info(`task ${ctx.taskId}: cancel requested; told the planner`);
      }
      if (cancelSeenAt !== null && Date.now() - cancelSeenAt >= settings.cancelGraceMs) {
        ctx.helpers.logger.warn(
          `task ${ctx.taskId}: the planner did not stop within ${settings.cancelGraceMs} ms; ending its thread`,
        );
        abort.abort();
        return;
      }
    }
  })();

  try {
    return await geometry.plan(input, { cancel, onProgress, signal: AbortSignal.any([abort.signal, ctx.signal]) });
  } catch (error) {
    if (error instanceof GeometryUnavailable) {
      if (error.code === "geometry_aborted" && cancelSeenAt !== null) return { kind: "cancelled" };
      if (error.code === "geometry_timeout")
        throw new TaskFailure("planning_timeout", `the planning ${error.message.replace(/^processing the file /, "")}`);
      if (error.code === "geometry_worker_crashed" && ctx.helpers.job.attempts >= ctx.helpers.job.max_attempts) {
        throw new TaskFailure(
          "geometry_worker_crashed",
          "the planner's thread stopped (out of memory, or a crash in the geometry kernel) in every attempt on this part",
        );
      }
    }
    throw error;
  } finally {
    done.abort();
    await poller;
  }
}
