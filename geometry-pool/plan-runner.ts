/**
 * A plan request on a geometry thread: the planner's hooks wired to the request's progress port
 * (throttled) and cancel flag, and its outcome as a structured-cloneable value (errors do not
 * cross the thread boundary with their fields). Shared by the real thread and the tests' stand-in.
 */
import { PlanCancelled, PlanError, type PlanHooks, type PlanInput, type PlanResult } from "../kernel/cam/plan-types.ts";
import type { PlanOutcome, PlanProgressMessage, PlanRequest } from "./protocol.ts";

/** progress is posted when it moved by this much, or this long after the last post */
const PROGRESS_STEP = 0.01;
const PROGRESS_INTERVAL_MS = 500;

export function runPlanRequest(
  request: PlanRequest,
  planner: (input: PlanInput, hooks: PlanHooks) => PlanResult,
  describeError: (error: unknown) => string,
): PlanOutcome {
  const cancel = new Int32Array(request.cancel);
  let posted = -1;
  let postedAt = 0;
  const hooks: PlanHooks = {
    progress(fraction) {
      const now = performance.now();
      if (!Number.isFinite(fraction) || fraction <= posted) return;
      if (fraction - posted < PROGRESS_STEP && now - postedAt < PROGRESS_INTERVAL_MS) return;
      posted = fraction;
      postedAt = now;
      const message: PlanProgressMessage = { kind: "progress", fraction: Math.min(1, Math.max(0, fraction)) };
      request.port.postMessage(message);
    },
    cancelled: () => Atomics.load(cancel, 0) !== 0,
  };
  const started = performance.now();
  try {
    const result = planner(request.input, hooks);
    return { kind: "planned", result, ms: performance.now() - started };
  } catch (error) {
    if (error instanceof PlanCancelled) return { kind: "cancelled" };
    if (error instanceof PlanError) return { kind: "refused", code: error.code, message: error.message };
    return { kind: "failed", message: describeError(error) };
  } finally {
    request.port.close();
  }
}
