/**
 * What crosses the thread boundary of the geometry pool. Errors do not survive structured
 * cloning with their fields, so a thread answers with an outcome instead of throwing.
 */
import type { MessagePort } from "node:worker_threads";
import type { ViewerFeature } from "../contracts/viewer.ts";
import type { PlanInput, PlanResult } from "../kernel/cam/plan-types.ts";
import type { Box3 } from "../kernel/cam/types.ts";
import type { IngestedWorkpiece } from "../kernel/geometry/types.ts";

export interface IngestRequest {
  kind: "ingest";
  bytes: Uint8Array;
  /** the uploaded file's name, only for a warning when its extension names another format */
  filename?: string;
  /** mm; default: relative to the part's size (kernel/geometry/tessellate.ts) */
  linearDeflectionMm?: number;
  /** radians; default 0.5 */
  angularDeflectionRad?: number;
}

export interface PingRequest {
  kind: "ping";
}

/**
 * Plan a project (kernel/cam/plan.ts planCam). The planner runs synchronously, so the thread's
 * event loop is busy until it ends: progress goes out on `port` (PlanProgressMessage), which
 * the thread can post to while busy, and the cancel request comes in through shared memory,
 * which it can read while busy (hooks.cancelled()).
 */
export interface PlanRequest {
  kind: "plan";
  input: PlanInput;
  /** posts PlanProgressMessage; the thread closes it when the plan ends */
  port: MessagePort;
  /** Int32Array over 4 bytes of it: [0] becomes non-zero when the task was cancelled */
  cancel: SharedArrayBuffer;
}

export interface PlanProgressMessage {
  kind: "progress";
  /** 0..1 of the planning */
  fraction: number;
}

export type PlanOutcome =
  | { kind: "planned"; result: PlanResult; ms: number }
  /** the planner refused (PlanError): a code and a message a user can act on */
  | { kind: "refused"; code: string; message: string }
  /** the planner stopped at a cancel request (PlanCancelled) */
  | { kind: "cancelled" }
  /** anything else the planner threw: a bug of ours, or OCCT failing on this part */
  | { kind: "failed"; message: string };

/**
 * The web app viewer's geometry for a planned job (viewer.ts): the stock after an operation, as
 * bytes (kernel/cam/viewer/stock-view-bytes.ts), or the recognised features. The thread keeps
 * what it read by job id: a job's part and plan never change.
 */
export interface ViewerRequest {
  kind: "viewer";
  jobId: string;
  /** the B-rep (or the STL) the job was planned from */
  part: Uint8Array;
  /** the plan blob (gzip JSON, kernel/job/plan.ts) */
  plan: Uint8Array;
  /** the stock box in workpiece coordinates */
  stock: Box3;
  /** `after`: an operation's index in the setup, -1 for the stock before its first */
  query: { kind: "stock"; setup: number; after: number } | { kind: "features" };
}

/** A recognised feature as the viewer shows it: the web app's wire shape. */
export type { ViewerFeature };

export type ViewerOutcome =
  | { kind: "stock"; bytes: Uint8Array }
  | { kind: "features"; features: ViewerFeature[] }
  | { kind: "failed"; message: string };

export type GeometryRequest = IngestRequest | PingRequest | PlanRequest | ViewerRequest;

export type IngestSuccess = {
  ok: true;
  workpiece: Omit<IngestedWorkpiece, "mesh" | "brep">;
  brep: Uint8Array | null;
  glb: Uint8Array;
  thumbnail: Uint8Array;
  /** milliseconds spent in the thread, by step */
  timings: Record<string, number>;
};

export type IngestRefusal = {
  ok: false;
  code: string;
  message: string;
  details: Record<string, unknown>;
};

export type IngestOutcome = IngestSuccess | IngestRefusal;

/** What every geometry thread is started with (pool.ts). */
export interface GeometryThreadData {
  /** the thread's TypeScript module (kernel/threads/typescript-thread.mjs loads it) */
  threadModule: string;
  /** plans verify on a simulation thread of their own (true) or in the geometry thread */
  simulationThread: boolean;
}
