/**
 * Library assemblies as the planner's Cutter (../types.ts): the tool's shape from its
 * parameters, the holder stack from the holders' profiles. What the library does not give is
 * taken from the assembly's completion (kernel/tools/completion.ts, the table of
 * kernel/tools/assumed-geometry.ts): values that make the checks stricter than the real tool of
 * that type would (less reach, fatter and longer holders, points that cut no deeper), the same
 * values the API lists as the assembly's `assumed`. Never an invented tool: where no value is
 * safe the assembly is refused.
 *
 * | Cutter field      | from                                                     | when missing (assumed-geometry.ts)                       |
 * |-------------------|----------------------------------------------------------|----------------------------------------------------------|
 * | kind              | tool_type (KIND_OF_TYPE), CornerRadius for end mills    | -                                                        |
 * | diameter          | CuttingDiameter                                          | refused (invalid_tool)                                   |
 * | corner_radius     | ball: D/2; bull: CornerRadius; else 0                     | bull: 0.5 mm, at most D/10                               |
 * | tip_angle_deg     | drills: PointAngle; reamers: 90 (their 45° lead)          | drill 140, spot drill 142, centre drill 90               |
 * | tip_diameter      | chamfer mills, centre drills (the pilot): TipDiameter     | chamfer mill D/10, centre drill D/2.5                    |
 * | chamfer_angle_deg | ChamferAngle                                              | refused: the cone is the tool                            |
 * | pitch_mm          | ThreadPitch                                               | ISO 261 coarse for a metric size, else refused           |
 * | flute_length      | FluteLength; centre drill: pilot + countersink cone; chamfer mill: its cone | DepthOfCutMaximum, else the type's short series (DIN 6527 K, 4 D for drills...) |
 * | max_stepdown      | DepthOfCutMaximum                                         | flute_length (drills 0.7 of it)                          |
 * | neck_*            | NeckDiameter, NeckLength (from the tip, as the simulation and milling read it), when the neck ends above the flutes | no neck: both 0 |
 * | shank_diameter    | ShankDiameter; face mills: D (the body around the arbor) | next DIN 6535 HA shank, at least 6 mm                    |
 * | stick_out         | LengthBelowHolder                                         | flutes + neck + 2 mm; face mills: OverallLength (40)     |
 * | flutes            | flute_count, NumberOfFlutes                               | 2 (a lower feed rather than a higher one)                |
 * | centre_cutting    | false for NonCentreCuttingEndMill, FaceMill, SlotMill, chamfer mills with a flat tip | -                        |
 * | tool_material     | tool_material                                             | "hss" (the slower table)                                 |
 * | holder            | every holder's segments, nose first (reversed)            | the profile for the shank; no Holder: one is assumed     |
 */
import { assemblyCuttingTool, type Assembly } from "../../tools/assembly.ts";
import { completeAssembly, cuttingLength, type Assumption } from "../../tools/completion.ts";
import type { ToolType } from "../../tools/tool-types.ts";
import { toolFluteCount } from "../../tools/tool.ts";
import type { Cutter, CutterKind } from "../types.ts";

/** Why an assembly is not a cutter the planner uses (a user can fix the library entry). */
export type CutterRefusalCode = "no_cutting_tool" | "not_machined_type" | "left_hand_tool" | "invalid_tool";

export interface CutterRefusal {
  code: CutterRefusalCode;
  message: string;
}

/** assumed: what the completion took for the geometry the assembly does not give. */
export type CutterReading =
  | { cutter: Cutter; refusal: null; assumed: Assumption[] }
  | { cutter: null; refusal: CutterRefusal };

/**
 * The kind per tool type; null: not planned. Thread mills cut threads by a helix the planner
 * does not make (taps cut modelled threads).
 */
const KIND_OF_TYPE: Readonly<Record<ToolType, CutterKind | null>> = {
  CentreCuttingEndMill: "flat",
  NonCentreCuttingEndMill: "flat",
  BallEndMill: "ball",
  BullNoseEndMill: "bull",
  // the insert's corner radius and lead angle are not modelled: a face mill faces open tops
  FaceMill: "flat",
  SlotMill: "flat",
  ChamferMill: "chamfer",
  Drill: "drill",
  SpotDrill: "drill",
  CentreDrill: "drill",
  // a reamer's 45° lead chamfer, as a 90° point: it never cuts below where it was fed
  Reamer: "drill",
  Tap: "tap",
  ThreadMill: null,
};

/** Tools that must not plunge straight into material. */
const NOT_CENTRE_CUTTING: ReadonlySet<ToolType> = new Set<ToolType>([
  "NonCentreCuttingEndMill",
  "FaceMill",
  "SlotMill",
]);

/** A reamer's lead chamfer (45° to the axis) read as a point angle. */
export const REAMER_LEAD_ANGLE_DEG = 90;

const positive = (value: number | undefined): number | undefined =>
  value !== undefined && Number.isFinite(value) && value > 0 ? value : undefined;

function refuse(code: CutterRefusalCode, message: string): CutterReading {
  return { cutter: null, refusal: { code, message } };
}

/** The assembly as a cutter, or why not. */
export function readCutter(assembly: Assembly): CutterReading {
  const given = assemblyCuttingTool(assembly);
  const label = JSON.stringify(assembly.name);
  if (!given)
    return refuse(
      "no_cutting_tool",
      `${label} holds no cutting tool (its last component is not a parametric_cutting_tool)`,
    );
  const kindOfType = KIND_OF_TYPE[given.tool_type];
  if (kindOfType === null)
    return refuse("not_machined_type", `${label} is a ${given.tool_type}: the planner does not cut with this type`);
  if (given.hand === "left")
    return refuse(
      "left_hand_tool",
      `${label} is left-handed: the planner only runs tools forwards (M3) and threads right-handed`,
    );
  if (positive(given.tool_parameters.CuttingDiameter) === undefined)
    return refuse("invalid_tool", `${label} has no positive CuttingDiameter`);
  const completion = completeAssembly(assembly);
  const tool = completion.tool!;
  if (completion.warnings.length > 0) {
    return refuse("invalid_tool", `${label} is not planned: ${completion.warnings.map((w) => w.message).join("; ")}`);
  }
  const p = tool.tool_parameters;
  const diameter = p.CuttingDiameter!;

  let kind: CutterKind = kindOfType;
  let cornerRadius = 0;
  const radius = positive(p.CornerRadius) ?? 0;
  if (kind === "ball") cornerRadius = diameter / 2;
  else if ((kind === "bull" || kind === "flat") && tool.tool_type !== "FaceMill") {
    // a radius as large as the tool is a ball, none a flat end mill, whatever the type says
    cornerRadius = Math.min(radius, diameter / 2);
    kind = cornerRadius <= 0 ? "flat" : cornerRadius >= diameter / 2 - 1e-9 ? "ball" : "bull";
  }

  let chamferAngle: number | null = null;
  let tipDiameter = 0;
  if (kind === "chamfer") {
    chamferAngle = positive(p.ChamferAngle) ?? null;
    if (chamferAngle === null || chamferAngle >= 90)
      return refuse("invalid_tool", `${label} is a chamfer mill without a ChamferAngle between 0 and 90 degrees`);
    tipDiameter = Math.min(positive(p.TipDiameter) ?? 0, diameter);
  }
  let tipAngle: number | null = null;
  if (kind === "drill") {
    tipAngle = tool.tool_type === "Reamer" ? REAMER_LEAD_ANGLE_DEG : (positive(p.PointAngle) ?? null);
    if (tipAngle === null) return refuse("invalid_tool", `${label} is a ${tool.tool_type} without a PointAngle`);
    if (tool.tool_type === "CentreDrill") tipDiameter = Math.min(positive(p.TipDiameter) ?? 0, diameter);
  }
  let pitch: number | null = null;
  if (kind === "tap") {
    pitch = positive(p.ThreadPitch) ?? null;
    if (pitch === null) return refuse("invalid_tool", `${label} is a tap without a ThreadPitch`);
  }

  const fluteLength = cuttingLength(tool);
  const stickOut = positive(p.LengthBelowHolder);
  if (fluteLength === undefined || stickOut === undefined)
    return refuse("invalid_tool", `${label} gives no cutting length or stick-out the planner could read`);
  const maxStepdown = positive(p.DepthOfCutMaximum) ?? fluteLength;

  const neckDiameter = positive(p.NeckDiameter);
  const neckEnd = positive(p.NeckLength);
  const hasNeck = neckDiameter !== undefined && neckEnd !== undefined && neckEnd > fluteLength;

  const shankDiameter = tool.tool_type === "FaceMill" ? diameter : (positive(p.ShankDiameter) ?? diameter);
  const flutes = positive(toolFluteCount(tool));
  const cutter: Cutter = {
    kind,
    assembly_uuid: assembly.uuid,
    name: assembly.name,
    tool_type: tool.tool_type,
    diameter,
    corner_radius: cornerRadius,
    tip_angle_deg: tipAngle,
    tip_diameter: tipDiameter,
    chamfer_angle_deg: chamferAngle,
    pitch_mm: pitch,
    flute_length: fluteLength,
    max_stepdown: maxStepdown,
    neck_diameter: hasNeck ? neckDiameter : 0,
    neck_length: hasNeck ? neckEnd : 0,
    shank_diameter: shankDiameter,
    stick_out: stickOut,
    flutes: flutes !== undefined ? Math.max(1, Math.round(flutes)) : 1,
    centre_cutting: !NOT_CENTRE_CUTTING.has(tool.tool_type) && !(kind === "chamfer" && tipDiameter > 0),
    tool_material: tool.tool_material!,
    holder: completion.holders
      .flatMap((holder) => holder.segments)
      .reverse()
      .map((s) => ({ length: s.length_mm, lower_diameter: s.lower_diameter_mm, upper_diameter: s.upper_diameter_mm })),
  };
  return { cutter, refusal: null, assumed: completion.assumed };
}

/** The assembly as a cutter; null when it is none (readCutter says why). */
export function cutterFromAssembly(assembly: Assembly): Cutter | null {
  return readCutter(assembly).cutter;
}

export interface SkippedAssembly extends CutterRefusal {
  assembly_uuid: string;
  name: string;
}

/** What the planner took for an assembly's missing geometry (the API lists the same as its `assumed`). */
export interface AssumedGeometry {
  assembly_uuid: string;
  name: string;
  assumed: Assumption[];
}

/**
 * A library's cutters in library order, the assemblies skipped with their reasons, and for the
 * cutters built with assumed geometry what was assumed.
 */
export function cuttersFromLibrary(library: readonly Assembly[]): {
  cutters: Cutter[];
  skipped: SkippedAssembly[];
  assumed: AssumedGeometry[];
} {
  const cutters: Cutter[] = [];
  const skipped: SkippedAssembly[] = [];
  const assumed: AssumedGeometry[] = [];
  for (const assembly of library) {
    const reading = readCutter(assembly);
    if (!reading.cutter) {
      skipped.push({ assembly_uuid: assembly.uuid, name: assembly.name, ...reading.refusal });
      continue;
    }
    cutters.push(reading.cutter);
    if (reading.assumed.length > 0)
      assumed.push({ assembly_uuid: assembly.uuid, name: assembly.name, assumed: reading.assumed });
  }
  return { cutters, skipped, assumed };
}
