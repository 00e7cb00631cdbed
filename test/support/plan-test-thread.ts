/**
 * A stand-in geometry thread for the planning task's tests: no OCCT, and a scripted planner
 * behind the real hooks (geometry-pool/plan-runner.ts). What it does is named by the first
 * assembly of the project's library whose name starts with "fake:" (default fake:success):
 *
 *   fake:success[:moves]   progress 0.1 .. 1 in ten steps, then fakePlanResult (moves per roughing)
 *   fake:slow              ten steps of 300 ms, checking the cancel flag between them, then success
 *   fake:sleep:<ms>        progress 0.5, <ms> checking the cancel flag, then success
 *   fake:until-cancelled   progress to 0.3, then waits for the cancel flag (PlanCancelled), at most 60 s
 *   fake:ignore-cancel     progress to 0.3, then blocks for 120 s whatever happens (the last resort)
 *   fake:refuse:<code>     PlanError(code)
 *   fake:throw             an Error (a planner bug)
 *   fake:crash             the thread exits
 *   fake:nan               a result whose machining time is NaN (cannot be saved)
 *
 * The input it was given is kept on the result's first warning (code "input"), as JSON, so a
 * test can see what the task handed the planner.
 */
import { threadId } from "node:worker_threads";
import {
  PlanCancelled,
  PlanError,
  type PlanHooks,
  type PlanInput,
  type PlanResult,
} from "../../kernel/cam/plan-types.ts";
import { runPlanRequest } from "../../geometry-pool/plan-runner.ts";
import type { GeometryRequest, IngestOutcome, PlanOutcome } from "../../geometry-pool/protocol.ts";
import { fakePlanResult } from "./fake-plan.ts";

await new Promise((resolve) => setTimeout(resolve, 100));

const sleeper = new Int32Array(new SharedArrayBuffer(4));
/** blocks the thread, as a busy planner does */
const block = (ms: number) => Atomics.wait(sleeper, 0, 0, ms);

function withInput(result: PlanResult, input: PlanInput): PlanResult {
  const seen = {
    format: input.workpiece.format,
    bytes_format: input.workpiece.bytes_format,
    bytes: input.workpiece.bytes.byteLength,
    stock: input.stock,
    machine: input.machine.product_id,
    material_id: input.material_id,
    library: input.library.map((a) => a.name),
    options: input.options,
    workholding: input.workholding ?? null,
  };
  return { ...result, warnings: [{ code: "input", message: JSON.stringify(seen) }, ...result.warnings] };
}

function fakePlanner(input: PlanInput, hooks: PlanHooks): PlanResult {
  const script = input.library.map((a) => a.name).find((name) => name.startsWith("fake:")) ?? "fake:success";
  const [, behaviour = "success", argument] = script.split(":");
  switch (behaviour) {
    case "success": {
      for (let step = 1; step <= 10; step += 1) hooks.progress(step / 10);
      return withInput(fakePlanResult({ moves: argument ? Number(argument) : 50 }), input);
    }
    case "slow": {
      for (let step = 1; step <= 10; step += 1) {
        if (hooks.cancelled()) throw new PlanCancelled();
        block(300);
        hooks.progress(step / 10);
      }
      return withInput(fakePlanResult(), input);
    }
    case "sleep": {
      hooks.progress(0.5);
      const until = Date.now() + Number(argument ?? 500);
      while (Date.now() < until) {
        if (hooks.cancelled()) throw new PlanCancelled();
        block(10);
      }
      hooks.progress(1);
      return withInput(fakePlanResult(), input);
    }
    case "until-cancelled": {
      hooks.progress(0.3);
      const deadline = Date.now() + 60_000;
      while (Date.now() < deadline) {
        if (hooks.cancelled()) throw new PlanCancelled();
        block(20);
      }
      throw new Error("never cancelled");
    }
    case "ignore-cancel":
      hooks.progress(0.3);
      block(120_000);
      return withInput(fakePlanResult(), input);
    case "refuse":
      throw new PlanError(argument ?? "no_tool_fits", `refused: ${argument ?? "no_tool_fits"}`);
    case "throw":
      throw new Error("a bug in the planner");
    case "crash":
      process.exit(3);
      break;
    case "nan":
      return { ...fakePlanResult(), machining_time_s: Number.NaN };
  }
  throw new Error(`unknown script ${script}`);
}

export default async function handle(request: GeometryRequest): Promise<IngestOutcome | PlanOutcome | number> {
  if (request.kind === "ping") return threadId;
  if (request.kind === "plan")
    return runPlanRequest(request, fakePlanner, (error) => (error instanceof Error ? error.message : String(error)));
  return { ok: false, code: "echo", message: "this test thread only plans", details: { threadId } };
}
