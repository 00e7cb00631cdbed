/**
 * Whether a planning request's `workholding` override can hold the project's stock on its
 * machine: the API's route answers a 400 naming the fields when it cannot, before anything is
 * queued, so a setter's typo does not cost a planning run. The planner asks more of a setup
 * later (the faces an earlier setup left); this is what the stock and the machine alone decide.
 *
 * The stock is held as the first setup holds it (planner/clamping.ts: firstClamping): standing on
 * its Z, turned in the vise or on the plate whichever way fits (planner/holders.ts). So a vise's
 * opening must take the stock's narrower horizontal side, and a plate must take its footprint one
 * way or the other.
 */
import type { Vec3 } from "../math/vec3.ts";
import { defaultGripMm, MIN_GRIP_MM } from "../workholding/grip.ts";
import type { Workholding } from "../workholding/schema.ts";
import { checkWorkholding, type WorkholdingProblem, type WorkholdingProblemCode } from "../workholding/validate.ts";
import { viseGrip } from "./planner/holders.ts";

/** checkWorkholding's problems, and a vise whose parallels give no grip the planner holds with */
export type OverrideProblem = Omit<WorkholdingProblem, "code"> & {
  code: WorkholdingProblemCode | "no_grip_on_parallels";
};

export interface HeldStock {
  /** the stock box's size in the workpiece's coordinates (mm) */
  stockSize: Vec3;
  /** the machine's Z travel (mm) */
  travelZ: number;
}

/** Every problem of the override at once (fields as in the request: "workholding.<field>"); empty when it holds. */
export function workholdingProblems(workholding: Workholding, { stockSize, travelZ }: HeldStock): OverrideProblem[] {
  const grip = gripFor(workholding);
  if (typeof grip !== "number") return [grip];
  const wide = Math.max(stockSize[0], stockSize[1]);
  const narrow = Math.min(stockSize[0], stockSize[1]);
  // the narrower side across the jaws first (the planner's preference), then turned by 90 degrees
  const checks = [
    [wide, narrow, stockSize[2]],
    [narrow, wide, stockSize[2]],
  ].map((size) => checkWorkholding(workholding, { stockSize: size as Vec3, machineTravelZ: travelZ, gripMm: grip }));
  const failed = checks.flatMap((check) => (check.ok ? [] : [check.problems]));
  // held one way or the other is held; else the problems of the way the planner tries first
  return failed.length < checks.length ? [] : failed[0]!;
}

/**
 * The grip the planner would hold the stock with. A request cannot state one: a vise grips as
 * the planner's grip rule and the setter's parallels give (holders.ts: viseGrip), and a vise
 * whose parallels give none is the problem; a plate's edge clamps grip over their height
 * (checkWorkholding names clamps too low to hold).
 */
function gripFor(workholding: Workholding): number | OverrideProblem {
  if (workholding.kind === "fixture_plate") return workholding.clamp_height_mm;
  const grip = viseGrip(workholding);
  if (grip !== undefined) return grip.grip_mm;
  const wanted = defaultGripMm(workholding.jaw_height_mm);
  return {
    field: "workholding.parallel_heights_mm",
    code: "no_grip_on_parallels",
    message:
      `on no parallel (${workholding.parallel_heights_mm.join(", ") || "none"} mm) nor on the vise's ways do jaws ` +
      `${workholding.jaw_height_mm} mm high grip the stock ${MIN_GRIP_MM} to ${wanted} mm deep: the jaws would cover ` +
      "more of it than the planner grips",
  };
}
