/**
 * The tool a refusal would have used had the library held it: its type and the size the
 * selection rules would take, so a user knows what to add. A tool is named only when the
 * standard range (kernel/tools/catalogue) makes one that would do, read as the planner reads
 * cutters: an 8 mm end mill reaching 87 mm into a part, or a chamfer mill of 41°, is nothing a
 * shop can add, and such a refusal stays what it was (no_tool_fits). The planner reports each
 * tool as an `unmachined` entry with code `tool_missing` where something is left unmade, and as a
 * ToolMissing record (plan.ts gathers them).
 */
import { METRIC_COARSE, METRIC_FINE, type MetricThread } from "../../tools/catalogue/dimension-tables.ts";
import { generateStandardRange } from "../../tools/catalogue/standard-range.ts";
import { threadName } from "../../tools/catalogue/standard-threading.ts";
import { CHAMFER_EDGE_CLEARANCE_MM, SPOT_EDGE_BREAK_MM } from "../holes/depths.ts";
import type { ToolMissing, Unmachined } from "../plan-types.ts";
import type { Cutter } from "../types.ts";
import { cutterFromAssembly } from "./cutter.ts";
import { mm, type FeatureRef } from "./pick.ts";
import { coneSpan, wallReach } from "../cutter-shape.ts";

/** A ToolMissing and how its size reads in a message ("6.8 mm", "4 mm (at most 4.2 mm)", "M8"). */
export interface MissingTool extends ToolMissing {
  size: string;
}

let range: Cutter[] | undefined;

/** The standard range as cutters, read once per process and only when a refusal asks (about a second). */
function rangeCutters(tool_type: string): Cutter[] {
  range ??= generateStandardRange().flatMap((entry) => cutterFromAssembly(entry.assembly) ?? []);
  return range.filter((c) => c.tool_type === tool_type);
}

const sizes = (cutters: readonly Cutter[]) => [...new Set(cutters.map((c) => c.diameter))].sort((a, b) => a - b);

function missing(
  tool_type: string,
  diameter: number,
  size: string,
  purpose: string,
  features: readonly FeatureRef[],
): MissingTool {
  return { tool_type, diameter_mm: diameter, size, purpose, features: features.map((f) => f.id) };
}

/**
 * The drill for a bore: the first size of the range at or above the bore less `undersize` and at
 * most `oversize` over it (selectDrill's window) and, when length was what the library's drills
 * lacked, whose usable length reaches the tip depth the hole asks of it.
 */
export function missingDrill(bore: {
  feature: FeatureRef;
  diameter_mm: number;
  depth_mm: number;
  undersize_mm: number;
  oversize_mm: number;
  thread: string | null;
  /** the tip depth a drill must reach, when length was the limit */
  tip_depth: ((c: Cutter) => number) | null;
}): MissingTool | null {
  const tip = bore.tip_depth;
  const fitting = rangeCutters("Drill").filter(
    (c) =>
      c.diameter >= bore.diameter_mm - bore.undersize_mm - 1e-9 &&
      c.diameter <= bore.diameter_mm + bore.oversize_mm + 1e-9 &&
      (tip === null || c.max_stepdown + 1e-6 >= tip(c)),
  );
  const d = sizes(fitting)[0];
  if (d === undefined) return null;
  const what =
    bore.thread === null ? `drill ${mm(bore.diameter_mm)} mm holes` : `drill the tap holes of ${bore.thread} threads`;
  return missing("Drill", d, `${mm(d)} mm`, tip === null ? what : `${what} ${mm(bore.depth_mm)} mm deep`, [
    bore.feature,
  ]);
}

/** The ISO metric thread whose tap drill a bore is (within the tap rule's tolerance), the coarse one first. */
export function threadOfBore(
  boreMm: number,
  pitchMm: number | null,
  tolerance: { pitches: number; mm: number },
): MetricThread | null {
  const fits = [...METRIC_COARSE, ...METRIC_FINE].filter(
    (t) =>
      (pitchMm === null || Math.abs(t.pitch - pitchMm) < 1e-3) &&
      Math.abs(t.nominal - t.pitch - boreMm) <= tolerance.pitches * t.pitch + tolerance.mm,
  );
  const miss = (t: MetricThread) => Math.abs(t.nominal - t.pitch - boreMm);
  return fits.sort((a, b) => miss(a) - miss(b) || Number(b.coarse) - Number(a.coarse))[0] ?? null;
}

/** "M8", or the bore's size for a thread of no ISO metric tap drill. */
export function threadLabel(thread: MetricThread | null, boreMm: number): string {
  return thread === null ? `${mm(boreMm)} mm bore` : threadName(thread);
}

/** The range's tap for a thread; null for a bore of no ISO metric tap drill. */
export function missingTap(feature: FeatureRef, thread: MetricThread | null): MissingTool | null {
  if (thread === null) return null;
  const made = rangeCutters("Tap").some(
    (c) => Math.abs(c.diameter - thread.nominal) < 1e-6 && Math.abs((c.pitch_mm ?? 0) - thread.pitch) < 1e-6,
  );
  if (!made) return null;
  const name = threadName(thread);
  return missing("Tap", thread.nominal, name, `tap ${name} threads`, [feature]);
}

/**
 * An end mill of `tool_type` (default a centre-cutting flat one) of at most `atMostMm`, the
 * largest the range makes, whose flutes or relieved neck reach `reachMm` when given. Null when
 * the range has none.
 */
export function missingEndMill(need: {
  at_most_mm: number;
  reach_mm?: number;
  purpose: string;
  features: readonly FeatureRef[];
  tool_type?: "CentreCuttingEndMill" | "BallEndMill";
}): MissingTool | null {
  const reach = need.reach_mm;
  const toolType = need.tool_type ?? "CentreCuttingEndMill";
  const fitting = rangeCutters(toolType).filter(
    (c) => c.diameter <= need.at_most_mm + 1e-6 && (reach === undefined || wallReach(c) + 1e-6 >= reach),
  );
  const d = sizes(fitting).at(-1);
  if (d === undefined) return null;
  const size = `${mm(d)} mm${Math.abs(d - need.at_most_mm) < 1e-6 ? "" : ` (at most ${mm(need.at_most_mm)} mm)`}${reach === undefined ? "" : ` reaching ${mm(reach)} mm`}`;
  return missing(toolType, d, size, need.purpose, need.features);
}

/**
 * A chamfer mill at the angle (to the axis, CHAMFER_ANGLE_TOLERANCE_DEG) whose cone spans
 * `radial_mm` with the edge clearance at both ends and, for a countersink, plunges it whole: the
 * smallest the range makes (selectChamferMill's first choice). Null when the range has none.
 */
export function missingChamferMill(
  need: {
    feature: FeatureRef;
    angle_to_axis_deg: number;
    radial_mm: number;
    angle_tolerance_deg: number;
    countersink_diameter_mm?: number;
  },
  purpose: string,
): MissingTool | null {
  const span = need.radial_mm + 2 * CHAMFER_EDGE_CLEARANCE_MM;
  const plunge =
    need.countersink_diameter_mm === undefined ? 0 : need.countersink_diameter_mm + 2 * CHAMFER_EDGE_CLEARANCE_MM;
  const fitting = rangeCutters("ChamferMill").filter(
    (c) =>
      c.chamfer_angle_deg !== null &&
      Math.abs(c.chamfer_angle_deg - need.angle_to_axis_deg) <= need.angle_tolerance_deg &&
      coneSpan(c) + 1e-6 >= span &&
      c.diameter + 1e-6 >= plunge,
  );
  const d = sizes(fitting)[0];
  if (d === undefined) return null;
  return missing("ChamferMill", d, `${mm(d)} mm, ${mm(need.angle_to_axis_deg)}° to the axis`, purpose, [need.feature]);
}

/** The spot drill for a drill: the smallest of the range making the whole spot, else the largest (selectSpotDrill's order). */
export function missingSpotDrill(feature: FeatureRef, drillMm: number): MissingTool | null {
  const all = sizes(rangeCutters("SpotDrill"));
  const d = all.find((s) => s + 1e-6 >= drillMm + 2 * SPOT_EDGE_BREAK_MM) ?? all.at(-1);
  if (d === undefined) return null;
  return missing("SpotDrill", d, `${mm(d)} mm`, "spot holes before drilling", [feature]);
}

/** The `unmachined` entry of what a missing tool leaves: its type and size, what for, and why the library's tools did not do. */
export function toolMissingEntry(
  tool: MissingTool,
  where: { features: number[]; faces: number[] },
  why: string,
): Unmachined {
  return {
    code: "tool_missing",
    message: `Tool missing: ${tool.tool_type} ${tool.size} to ${tool.purpose}${tool.features.length > 0 ? ` (feature ${tool.features.join(", ")})` : ""}. ${why}`,
    features: where.features,
    faces: where.faces,
    volume_mm3: null,
  };
}

/** One record per tool type and size, the features merged and each purpose listed once, in first-seen order. */
export function mergeToolsMissing(tools: readonly MissingTool[]): ToolMissing[] {
  const merged = new Map<string, { record: ToolMissing; purposes: string[] }>();
  for (const tool of tools) {
    const key = `${tool.tool_type}\n${Math.round(tool.diameter_mm * 1000)}`;
    const seen = merged.get(key);
    if (seen === undefined) {
      merged.set(key, {
        record: {
          tool_type: tool.tool_type,
          diameter_mm: tool.diameter_mm,
          purpose: tool.purpose,
          features: [...tool.features],
        },
        purposes: [tool.purpose],
      });
      continue;
    }
    for (const id of tool.features) if (!seen.record.features.includes(id)) seen.record.features.push(id);
    if (!seen.purposes.includes(tool.purpose)) seen.purposes.push(tool.purpose);
  }
  return [...merged.values()].map(({ record, purposes }) => ({
    ...record,
    purpose: purposes.join("; "),
    features: [...record.features].sort((a, b) => a - b),
  }));
}
