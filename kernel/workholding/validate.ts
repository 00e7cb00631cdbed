/**
 * Whether a workholding can hold a stock on a machine: what turns a planning request's
 * `workholding` override into a 400 naming the field, and what the planner asks before it
 * clamps. Sizes are in the setup's frame (x along the jaws, y across them, z up).
 */
import type { Vec3 } from "../math/vec3.ts";
import { MIN_GRIP_MM } from "./grip.ts";
import type { FixturePlate, MachineVise, Workholding } from "./schema.ts";

export type WorkholdingProblemCode =
  | "opening_too_small"
  | "taller_than_z_travel"
  | "grip_deeper_than_jaws"
  | "grip_too_shallow"
  | "stock_larger_than_plate";

export interface WorkholdingProblem {
  /** the request field to change, e.g. "workholding.max_opening_mm"; "grip_mm" for the grip asked */
  field: string;
  code: WorkholdingProblemCode;
  message: string;
}

export type WorkholdingCheck = { ok: true } | { ok: false; problems: WorkholdingProblem[] };

export interface WorkholdingCheckContext {
  /** the stock's size in the setup's frame (mm) */
  stockSize: Vec3;
  /** the machine's Z travel (mm) */
  machineTravelZ: number;
  /** how deep a vise's jaws grip the stock (mm); a plate's edge clamps grip over their own height */
  gripMm: number;
}

/**
 * Every problem at once, so a request is corrected in one go. The Z-travel check is a proxy:
 * the machines carry no distance from table to spindle nose, and on a 3-axis mill that distance
 * is about the Z travel plus a tool, so the workholding and stock stacked above what they stand
 * on must fit within the Z travel for any tool to reach over them.
 */
export function checkWorkholding(workholding: Workholding, context: WorkholdingCheckContext): WorkholdingCheck {
  const problems =
    workholding.kind === "vise"
      ? [...gripShallowness(context.gripMm, "grip_mm"), ...viseProblems(workholding, context)]
      : [
          ...gripShallowness(workholding.clamp_height_mm, "workholding.clamp_height_mm"),
          ...plateProblems(workholding, context),
        ];
  return problems.length === 0 ? { ok: true } : { ok: false, problems };
}

function gripShallowness(gripMm: number, field: string): WorkholdingProblem[] {
  if (gripMm >= MIN_GRIP_MM) return [];
  return [
    {
      field,
      code: "grip_too_shallow",
      message: `a grip of ${gripMm} mm is under the ${MIN_GRIP_MM} mm that holds stock against the cut`,
    },
  ];
}

function viseProblems(vise: MachineVise, { stockSize, machineTravelZ, gripMm }: WorkholdingCheckContext) {
  const problems: WorkholdingProblem[] = [];
  if (stockSize[1] > vise.max_opening_mm)
    problems.push({
      field: "workholding.max_opening_mm",
      code: "opening_too_small",
      message: `the vise opens to ${vise.max_opening_mm} mm, the stock is ${stockSize[1]} mm across the jaws`,
    });
  if (gripMm > vise.jaw_height_mm)
    problems.push({
      field: "workholding.jaw_height_mm",
      code: "grip_deeper_than_jaws",
      message: `a grip of ${gripMm} mm is deeper than the jaws' ${vise.jaw_height_mm} mm`,
    });
  // above the ways: the jaws, or the stock standing on parallels of jaw height minus grip
  const stockTop = vise.jaw_height_mm - Math.min(gripMm, vise.jaw_height_mm) + stockSize[2];
  const stack = Math.max(vise.jaw_height_mm, stockTop);
  if (stack > machineTravelZ)
    problems.push({
      field: "workholding.jaw_height_mm",
      code: "taller_than_z_travel",
      message:
        `jaws of ${vise.jaw_height_mm} mm holding the stock ${stockTop} mm above the vise's ways stand ${stack} mm ` +
        `tall, more than the machine's Z travel of ${machineTravelZ} mm`,
    });
  return problems;
}

function plateProblems(plate: FixturePlate, { stockSize, machineTravelZ }: WorkholdingCheckContext) {
  const problems: WorkholdingProblem[] = [];
  for (const [axis, field, size] of [
    [0, "plate_length_mm", plate.plate_length_mm],
    [1, "plate_width_mm", plate.plate_width_mm],
  ] as const)
    if (stockSize[axis] > size)
      problems.push({
        field: `workholding.${field}`,
        code: "stock_larger_than_plate",
        message: `the plate is ${size} mm along ${"xy"[axis]}, the stock ${stockSize[axis]} mm`,
      });
  const top = Math.max(plate.clamp_height_mm, stockSize[2]);
  const stack = plate.plate_thickness_mm + top;
  if (stack > machineTravelZ)
    problems.push({
      field: plate.clamp_height_mm > stockSize[2] ? "workholding.clamp_height_mm" : "workholding.plate_thickness_mm",
      code: "taller_than_z_travel",
      message:
        `the plate of ${plate.plate_thickness_mm} mm with ${top} mm of ` +
        `${plate.clamp_height_mm > stockSize[2] ? "clamps" : "stock"} on it stands ${stack} mm tall, ` +
        `more than the machine's Z travel of ${machineTravelZ} mm`,
    });
  return problems;
}
