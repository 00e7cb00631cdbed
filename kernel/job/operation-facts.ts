/**
 * The facts of each operation a setter reads on the setup sheet: its strategy in words, its tool's
 * number, its engagement and cutting data, the Z range its tip moves in, and how far and how long
 * it cuts and rapids; and the setup's totals. Lengths and times are kernel/cam/machining-time.ts's,
 * the setup's cycle time setup-facts.ts's, so the sheet's totals are the quote's.
 */
import { setupMachiningTime } from "../cam/machining-time.ts";
import type { Operation } from "../cam/types.ts";
import type { MachineArchetype } from "../machines/archetypes.ts";
import type { CamPlan } from "./plan.ts";
import { cycleTimeS, movesZRange } from "./setup-facts.ts";

type StoredSetup = CamPlan["setups"][number];

export interface OperationFacts {
  id: string;
  /** the planner's name for it */
  name: string;
  /** the strategy in a setter's words: "Rest roughing", "Peck drilling" */
  strategy: string;
  /** its tool's T number */
  tool_number: number;
  stepdown_mm: number;
  stepover_mm: number;
  allowance_xy_mm: number;
  allowance_z_mm: number;
  spindle_rpm: number;
  feed_mm_min: number;
  /** lowest and highest tip z of its moves, in the setup's frame (mm) */
  z_min: number;
  z_max: number;
  /** feed moves, arcs along their length and drill cycles expanded */
  cutting_length_mm: number;
  rapid_length_mm: number;
  /** at its feeds, dwells included */
  cutting_s: number;
  rapid_s: number;
  /** cutting and rapids: the operation's machining time as the plan keeps it */
  time_s: number;
}

export interface SetupTotals {
  cutting_s: number;
  rapid_s: number;
  tool_changes: number;
  tool_change_s: number;
  /** the setup's cycle time (setup-facts.ts): cutting, rapids and tool changes */
  cycle_s: number;
}

/**
 * The operations of the plan's setup `setupIndex` in the order they run; `machine` is the one the
 * job was planned for. Each tool by its number in the job, as the setup's tool list gives it.
 */
export function operationFacts(
  plan: Pick<CamPlan, "setups">,
  setupIndex: number,
  machine: MachineArchetype,
): OperationFacts[] {
  const setup = plan.setups[setupIndex];
  if (setup === undefined) throw new RangeError(`setup ${setupIndex} is not in the plan`);
  const times = setupMachiningTime(setup.operations, machine).operations;
  const numbers = new Map(setup.tools.map((tool) => [tool.assembly_uuid, tool.number]));
  return setup.operations.map((operation, i) => {
    const time = times[i]!;
    const range = movesZRange(operation.moves);
    const p = operation.parameters;
    return {
      id: operation.id,
      name: operation.name,
      strategy: strategyWords(operation),
      tool_number: numbers.get(operation.tool.assembly_uuid) ?? 0,
      stepdown_mm: p.stepdown_mm,
      stepover_mm: p.stepover_mm,
      allowance_xy_mm: p.allowance_xy_mm,
      allowance_z_mm: p.allowance_z_mm,
      spindle_rpm: p.spindle_rpm,
      feed_mm_min: p.feed_mm_min,
      z_min: operation.moves.length > 0 ? range.min : operation.clearance_z,
      z_max: operation.moves.length > 0 ? range.max : operation.clearance_z,
      cutting_length_mm: time.feed_length_mm,
      rapid_length_mm: time.rapid_length_mm,
      cutting_s: time.cutting_s + time.dwell_s,
      rapid_s: time.rapid_s,
      time_s: operation.machining_time_s,
    };
  });
}

/** The setup's cutting, rapid and tool-change times and its cycle time. */
export function setupTotals(setup: StoredSetup, machine: MachineArchetype): SetupTotals {
  const time = setupMachiningTime(setup.operations, machine);
  return {
    cutting_s: time.operations.reduce((sum, t) => sum + t.cutting_s + t.dwell_s, 0),
    rapid_s: time.operations.reduce((sum, t) => sum + t.rapid_s, 0),
    tool_changes: time.tool_changes,
    tool_change_s: time.tool_change_s,
    cycle_s: cycleTimeS(setup),
  };
}

const KIND_WORDS: Readonly<Record<Operation["kind"], string>> = {
  face_milling: "Face milling",
  roughing: "Roughing",
  rest_roughing: "Rest roughing",
  floor_finishing: "Floor finishing",
  wall_finishing: "Wall finishing",
  surface_finishing: "3D surface finishing",
  contour: "Contour",
  spot_drilling: "Spot drilling",
  drilling: "Drilling",
  tapping: "Rigid tapping",
  helical_boring: "Helical boring",
  chamfering: "Chamfering",
};

/** drilling by its cycle: what the setter sees the machine do */
const CYCLE_WORDS: Readonly<Record<string, string>> = {
  peck: "Peck drilling",
  chip_break: "Chip-break drilling",
  dwell: "Drilling, dwell at the bottom",
};

/** The operation's strategy as a setter names it. */
export function strategyWords(operation: Pick<Operation, "kind" | "moves">): string {
  if (operation.kind === "drilling") {
    const cycle = operation.moves.find((move) => move.kind === "drill");
    if (cycle !== undefined && cycle.kind === "drill") return CYCLE_WORDS[cycle.cycle] ?? KIND_WORDS.drilling;
  }
  return KIND_WORDS[operation.kind];
}
