/**
 * The facts a setter reads about a job and its setups: the cycle time, where the work offset is,
 * the stock and where the part sits in it, how the part is turned, the tools. The program header
 * (kernel/post), the setup sheet (kernel/setup-sheet), the task result (plan.ts summarisePlan) and
 * the quote all take them from here, one function per fact, so no two of them can disagree.
 *
 * Directions are the setup's (its frame, kernel/cam/frames.ts): +X to the setter's right, +Y away
 * from the setter (towards the machine's column), +Z up the spindle. The work offset is the
 * stock's top corner at its smallest x and y: front-left as the setter faces the machine.
 */
import { boxToFrame, frameYAxis } from "../cam/frames.ts";
import type { Move } from "../cam/types.ts";
import type { Box3 } from "../math/box3.ts";
import { directionName } from "../math/vec3.ts";
import { toolTypeInfo, isToolType } from "../tools/tool-types.ts";
import type { PlannedSetup } from "../cam/plan-types.ts";

/** a setup as the planner makes it and the job keeps it (plan.ts: its operations timed too) */
type StoredSetup = PlannedSetup;
/** what of a plan the facts read: its setups */
interface PlanSetups {
  setups: readonly StoredSetup[];
}

/** The setup's cycle time (s): every operation's moves and every tool change, as planned. */
export function cycleTimeS(setup: Pick<StoredSetup, "machining_time_s">): number {
  return setup.machining_time_s;
}

/** The job's machining time (s): its setups' cycle times added. */
export function jobCycleTimeS(setups: readonly Pick<StoredSetup, "machining_time_s">[]): number {
  return setups.reduce((sum, setup) => sum + cycleTimeS(setup), 0);
}

/** "45 s", "12 min 05 s", "2 h 03 min": whole seconds, as a setter reads a clock. */
export function formatDuration(seconds: number): string {
  const total = Math.max(0, Math.round(seconds));
  const h = Math.floor(total / 3600);
  const min = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const two = (n: number) => String(n).padStart(2, "0");
  if (h > 0) return `${h} h ${two(min)} min`;
  if (min > 0) return `${min} min ${two(s)} s`;
  return `${s} s`;
}

export interface WorkOffsetFacts {
  /** what the control selects: "G54", "G54.1 P1", "Preset 1" (Heidenhain's preset table row) */
  code: string;
  /** where its origin is, in words a setter touches off by */
  origin: string;
}

/** the origin every setup's frame puts its work offset at (frames.ts) */
const ORIGIN_WORDS = "X0 Y0 the stock's front-left corner, Z0 its top";

/** The setup's work offset on `control` (the machine's postprocessor) and its origin in words. */
export function workOffsetFacts(setup: Pick<StoredSetup, "index" | "work_offset">, control: string): WorkOffsetFacts {
  // the TNC takes its datum from the preset table, row by the setup's number (heidenhain.ts)
  const code = control === "heidenhain" ? `Preset ${setup.index + 1}` : setup.work_offset;
  return { code, origin: ORIGIN_WORDS };
}

/** Lengths along the setup's x, y and z (mm). */
export type Size = [number, number, number];

/** How much stock stands beyond the part on each side, in the setup's directions (mm). */
export interface PartInStock {
  left: number;
  right: number;
  front: number;
  back: number;
  top: number;
  bottom: number;
}

export interface StockFacts {
  stock_mm: Size;
  /** null when the part's box is not known */
  part_mm: Size | null;
  part_in_stock: PartInStock | null;
}

/**
 * The stock's size in the setup, and the part's size and place in it; `partBox` is the part's
 * bounding box in workpiece coordinates (the job's stock minus its offsets), null when unknown.
 */
export function stockFacts(setup: Pick<StoredSetup, "stock" | "wcs">, partBox: Box3 | null): StockFacts {
  const stock = setup.stock;
  const size = (box: Box3): Size => [0, 1, 2].map((i) => roundMm(box.max[i]! - box.min[i]!)) as Size;
  if (partBox === null) return { stock_mm: size(stock), part_mm: null, part_in_stock: null };
  const part = boxToFrame(setup.wcs, partBox);
  const inStock: PartInStock = {
    left: roundMm(part.min[0] - stock.min[0]),
    right: roundMm(stock.max[0] - part.max[0]),
    front: roundMm(part.min[1] - stock.min[1]),
    back: roundMm(stock.max[1] - part.max[1]),
    top: roundMm(stock.max[2] - part.max[2]),
    bottom: roundMm(part.min[2] - stock.min[2]),
  };
  // a part outside the plan's stock is another part's box: say nothing rather than nonsense
  if (Object.values(inStock).some((mm) => mm < -STOCK_SLACK_MM))
    return { stock_mm: size(stock), part_mm: null, part_in_stock: null };
  return { stock_mm: size(stock), part_mm: size(part), part_in_stock: inStock };
}

/** how far a part may seem to stand out of its stock by rounding (mm) */
const STOCK_SLACK_MM = 0.01;

/** to a micrometre, and never -0 */
const roundMm = (value: number): number => Math.round(value * 1000) / 1000 + 0;

/**
 * How the part is turned from the way it was modelled (its +Z up, +X to the right), in words:
 * "as modelled, +Z side up", "turned over about X, -Z side up", "a quarter turn about Y, +X
 * side up", or, for a turn no single axis names, the sides that face up and right.
 */
export function setupTurnWords(setup: Pick<StoredSetup, "direction" | "wcs">): string {
  const up = setup.direction;
  const right = setup.wcs.x_axis;
  const back = frameYAxis(setup.wcs);
  // the rotation taking the model's axes to the machine's: its trace says the angle
  const trace = right[0] + back[1] + up[2];
  const upName = directionName(up);
  const rightName = directionName(right);
  if (trace > 3 - 1e-6) return "as modelled, +Z side up";
  // a turn about a model axis leaves that axis where it was: the diagonal entry is 1
  const kept = [right[0], back[1], up[2]];
  const axis = ["X", "Y", "Z"][kept.findIndex((entry) => entry > 1 - 1e-6)];
  if (axis !== undefined && Math.abs(trace + 1) < 1e-6) return `turned over about ${axis}, ${upName} side up`;
  if (axis !== undefined && Math.abs(trace - 1) < 1e-6) return `a quarter turn about ${axis}, ${upName} side up`;
  return `${upName} side up, ${rightName} to the right`;
}

/** A tool of the job, with the number it has in every setup. */
export interface JobTool {
  /** T number, and the H and D registers the programs use for it */
  number: number;
  assembly_uuid: string;
  name: string;
  tool_type: string;
  /** "end mill", "face mill", "spot drill" */
  type_words: string;
  diameter_mm: number;
  corner_radius_mm: number;
  flutes: number;
  /** tip to the holder's nose */
  stick_out_mm: number;
  /** the holder's name; null when the assembly has none */
  holder: string | null;
  /** the setups (0-based indexes) that use it, in order */
  setups: number[];
}

/** A tool of one setup: the job's tool and the lowest point its tip reaches there. */
export interface SetupTool extends JobTool {
  /** lowest tip z in the setup's frame (mm; the work offset's Z0 is the stock's top) */
  deepest_z: number;
}

/** The job's tools by number: each once, whatever setups use it. */
export function jobTools(plan: PlanSetups): JobTool[] {
  const tools = new Map<string, JobTool>();
  for (const setup of plan.setups) {
    for (const summary of setup.tools) {
      const known = tools.get(summary.assembly_uuid);
      if (known !== undefined) {
        known.setups.push(setup.index);
        continue;
      }
      const cutter = setup.operations.find((operation) => operation.tool.assembly_uuid === summary.assembly_uuid)?.tool;
      tools.set(summary.assembly_uuid, {
        number: summary.number,
        assembly_uuid: summary.assembly_uuid,
        name: summary.name,
        tool_type: summary.tool_type,
        type_words: typeWords(summary.tool_type),
        diameter_mm: summary.diameter_mm,
        corner_radius_mm: summary.corner_radius_mm ?? cutter?.corner_radius ?? 0,
        flutes: cutter?.flutes ?? 0,
        stick_out_mm: cutter?.stick_out ?? 0,
        holder: summary.holder ?? null,
        setups: [setup.index],
      });
    }
  }
  return [...tools.values()].sort((a, b) => a.number - b.number);
}

/** The setup's tools in the order it first uses them, each with the deepest its tip goes there. */
export function setupTools(plan: PlanSetups, setupIndex: number): SetupTool[] {
  const setup = plan.setups[setupIndex];
  if (setup === undefined) throw new RangeError(`setup ${setupIndex} is not in the plan`);
  const byAssembly = new Map(jobTools(plan).map((tool) => [tool.assembly_uuid, tool]));
  return setup.tools.map((summary) => {
    const tool = byAssembly.get(summary.assembly_uuid)!;
    const lows = setup.operations
      .filter((operation) => operation.tool.assembly_uuid === summary.assembly_uuid)
      .map((operation) => movesZRange(operation.moves).min);
    return { ...tool, deepest_z: roundMm(Math.min(...lows)) };
  });
}

/** The lowest and highest z the tip reaches in `moves` (drill cycles at their bottom and retract). */
export function movesZRange(moves: readonly Move[]): { min: number; max: number } {
  let min = Infinity;
  let max = -Infinity;
  for (const move of moves) {
    const [low, high] = move.kind === "drill" ? [move.bottom_z, move.retract_z] : [move.to[2], move.to[2]];
    if (low < min) min = low;
    if (high > max) max = high;
  }
  return { min, max };
}

/** "CentreCuttingEndMill" as a setter says it: "end mill". */
export function typeWords(toolType: string): string {
  return TYPE_WORDS[toolType] ?? (isToolType(toolType) ? toolTypeInfo(toolType).label.toLowerCase() : toolType);
}

const TYPE_WORDS: Readonly<Record<string, string>> = {
  CentreCuttingEndMill: "end mill",
  NonCentreCuttingEndMill: "end mill, not centre cutting",
  BallEndMill: "ball end mill",
  BullNoseEndMill: "bull nose end mill",
  ChamferMill: "chamfer mill",
  FaceMill: "face mill",
  SlotMill: "slot mill",
  Drill: "drill",
  SpotDrill: "spot drill",
  CentreDrill: "centre drill",
  Reamer: "reamer",
  Tap: "tap",
  ThreadMill: "thread mill",
};
