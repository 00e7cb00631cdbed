/**
 * Canned-cycle operations: spot drilling, drilling (and reaming with the same cycle), tapping.
 * Holes one cycle can make (same top, bottom, cycle) share a DrillCycle; groups and holes follow
 * the nearest neighbour (order.ts). Every operation starts with a rapid to its first hole at
 * clearance_z, reaches R only inside a cycle, and goes back up to clearance_z between groups and
 * at the end. The depths are depths.ts's.
 */
import type { Cutter, CuttingParameters, DrillCycle, Move, Operation, OperationKind, Vec2 } from "../types.ts";
import {
  drillTipDepth,
  needsPecking,
  R_PLANE_CLEARANCE_MM,
  spotDiameterFor,
  spotTipDepth,
  TAP_R_PLANE_CLEARANCE_MM,
  tapTipDepth,
} from "./depths.ts";
import { groupAndOrder, keyOf } from "./order.ts";
import type { SetupHole } from "./setup-hole.ts";

export interface CycleOperationInput {
  /** stable within the plan: "s0-op3" */
  id: string;
  cutter: Cutter;
  parameters: CuttingParameters;
  holes: SetupHole[];
  /** the operation starts and ends here; at least every cycle's R plane */
  clearance_z: number;
  /**
   * The highest material the tool passes over between holes of one cycle (it travels at the R
   * plane there); default: the holes' own entrance (holes on one open face).
   */
  material_top_z?: number;
  /** where the tool comes from, for the nearest-neighbour order; default the work offset */
  start?: Vec2;
  /** default: a name from the kind, holes and tool */
  name?: string;
}

/** One hole's cycle as the operation will group it. */
export interface HoleCycle {
  hole: SetupHole;
  cycle: DrillCycle["cycle"];
  top_z: number;
  bottom_z: number;
  /** above top_z */
  r_clearance: number;
  peck_mm: number | null;
  dwell_s: number;
  feed: number;
}

const KIND_LABEL: Partial<Record<OperationKind, string>> = {
  spot_drilling: "Spot drilling",
  drilling: "Drilling",
  tapping: "Tapping",
  helical_boring: "Helical boring",
  chamfering: "Chamfering",
};

/** "Drilling 4 holes (features 2, 5) with <tool>". */
export function holeOperationName(
  kind: OperationKind,
  count: number,
  features: number[],
  cutter: Cutter,
  what = count === 1 ? "hole" : "holes",
): string {
  const list = features.length === 1 ? `feature ${features[0]}` : `features ${features.join(", ")}`;
  return `${KIND_LABEL[kind] ?? kind} ${count} ${what} (${list}) with ${cutter.name}`;
}

export function uniqueFeatures(holes: readonly { feature_id: number }[]): number[] {
  return [...new Set(holes.map((h) => h.feature_id))].sort((a, b) => a - b);
}

/** Groups `cycles` into DrillCycles in nearest-neighbour order, with the moves around them. */
export function cycleOperation(kind: OperationKind, input: CycleOperationInput, cycles: HoleCycle[]): Operation {
  const start = input.start ?? [0, 0];
  const retract = (c: HoleCycle) => Math.max(c.top_z, input.material_top_z ?? c.top_z) + c.r_clearance;
  const groups = groupAndOrder(
    cycles,
    (c) => keyOf(c.cycle, c.top_z, c.bottom_z, retract(c), c.peck_mm, c.dwell_s, c.feed),
    (c) => c.hole.at,
    start,
  );
  const moves: Move[] = [];
  const z = input.clearance_z;
  for (const group of groups) {
    const first = group[0] as HoleCycle;
    const last = group[group.length - 1] as HoleCycle;
    const r = retract(first);
    if (r > z + 1e-9)
      throw new RangeError(
        `${input.id}: clearance_z ${z} is below the R plane ${r} of feature ${first.hole.feature_id}`,
      );
    moves.push({ kind: "rapid", to: [first.hole.at[0], first.hole.at[1], z] });
    moves.push({
      kind: "drill",
      cycle: first.cycle,
      at: group.map((c) => [c.hole.at[0], c.hole.at[1]]),
      retract_z: r,
      top_z: first.top_z,
      bottom_z: first.bottom_z,
      peck_mm: first.peck_mm,
      dwell_s: first.dwell_s,
      feed: first.feed,
    });
    moves.push({ kind: "rapid", to: [last.hole.at[0], last.hole.at[1], z] });
  }
  const features = uniqueFeatures(input.holes);
  return {
    id: input.id,
    kind,
    name: input.name ?? holeOperationName(kind, input.holes.length, features, input.cutter),
    features,
    tool: input.cutter,
    parameters: input.parameters,
    clearance_z: z,
    moves,
  };
}

function requireKind(cutter: Cutter, kinds: Cutter["kind"][], what: string): void {
  if (!kinds.includes(cutter.kind)) throw new RangeError(`${cutter.name} (${cutter.kind}) cannot ${what}`);
}

/**
 * Spot drilling (G81) at each hole's entrance: a spot `spotDiameterFor` the drill that follows
 * (the drill's diameter, or per hole), as deep as the spotting tool's cone needs for it.
 */
export function spotDrillingOperation(
  input: CycleOperationInput & { drill_diameter_mm: number | ((hole: SetupHole) => number) },
): Operation {
  requireKind(input.cutter, ["drill"], "spot");
  const drillDiameter = input.drill_diameter_mm;
  const cycles = input.holes.map((hole): HoleCycle => {
    const spot = spotDiameterFor(typeof drillDiameter === "number" ? drillDiameter : drillDiameter(hole), input.cutter);
    return {
      hole,
      cycle: "drill",
      top_z: hole.top_z,
      bottom_z: hole.top_z - spotTipDepth(input.cutter, spot),
      r_clearance: R_PLANE_CLEARANCE_MM,
      peck_mm: null,
      dwell_s: 0,
      feed: input.parameters.plunge_feed_mm_min,
    };
  });
  return cycleOperation("spot_drilling", input, cycles);
}

/**
 * Drilling: G81, or G83 pecking parameters.stepdown_mm (one diameter, feeds.ts) when a hole is
 * deeper than PECK_DEPTH_RATIO diameters; the tip depth is drillTipDepth's (through: point and
 * breakthrough; blind: the full diameter to the shoulder the feature gives). A reamer runs the
 * same way without pecking (G81: DrillCycle has no feed-out boring cycle).
 */
export function drillingOperation(input: CycleOperationInput): Operation {
  requireKind(input.cutter, ["drill"], "drill");
  const reaming = input.cutter.tool_type === "Reamer";
  const cycles = input.holes.map((hole): HoleCycle => {
    const peck = !reaming && needsPecking(hole, input.cutter);
    return {
      hole,
      cycle: peck ? "peck" : "drill",
      top_z: hole.top_z,
      bottom_z: hole.top_z - drillTipDepth(hole, input.cutter).depth_mm,
      r_clearance: R_PLANE_CLEARANCE_MM,
      peck_mm: peck ? input.parameters.stepdown_mm : null,
      dwell_s: 0,
      feed: input.parameters.feed_mm_min,
    };
  });
  return cycleOperation("drilling", input, cycles);
}

/** Rigid tapping (G84) at feed = rpm x pitch, from TAP_R_PLANE_CLEARANCE_MM above the entrance to tapTipDepth. */
export function tappingOperation(input: CycleOperationInput): Operation {
  requireKind(input.cutter, ["tap"], "tap");
  const pitch = input.cutter.pitch_mm;
  if (pitch === null) throw new RangeError(`${input.cutter.name} has no pitch`);
  const feed = input.parameters.spindle_rpm * pitch;
  const cycles = input.holes.map(
    (hole): HoleCycle => ({
      hole,
      cycle: "tap",
      top_z: hole.top_z,
      bottom_z: hole.top_z - tapTipDepth(hole, input.cutter),
      r_clearance: TAP_R_PLANE_CLEARANCE_MM,
      peck_mm: null,
      dwell_s: 0,
      feed,
    }),
  );
  const operation = cycleOperation("tapping", input, cycles);
  // the cycle's feed is the pitch's, whatever the table rounded the feed to
  return { ...operation, parameters: { ...operation.parameters, feed_mm_min: feed, plunge_feed_mm_min: feed } };
}
