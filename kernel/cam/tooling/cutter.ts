/**
 * Library assemblies as the planner's Cutter (../types.ts): the tool's shape from its
 * parameters, the holder stack from the holders' profiles. Only what the library says is used;
 * where an optional parameter is missing the default below is the cautious one (less reach, a
 * slower feed), never an invented tool.
 *
 * | Cutter field      | from                                                     | when missing                                             |
 * |-------------------|----------------------------------------------------------|----------------------------------------------------------|
 * | kind              | tool_type (KIND_OF_TYPE), CornerRadius for end mills    | -                                                        |
 * | diameter          | CuttingDiameter                                          | refused (invalid_tool)                                   |
 * | corner_radius     | ball: D/2; bull: CornerRadius; else 0                     | -                                                        |
 * | tip_angle_deg     | drills: PointAngle; reamers: 90 (their 45° lead)          | 118 (a jobber drill)                                     |
 * | tip_diameter      | chamfer mills, centre drills (the pilot): TipDiameter     | 0                                                        |
 * | chamfer_angle_deg | ChamferAngle                                              | refused: the cone is the tool                            |
 * | pitch_mm          | ThreadPitch                                               | refused for taps                                         |
 * | flute_length      | FluteLength; centre drill: pilot + countersink cone; chamfer mill: its cone | DepthOfCutMaximum, else min(OverallLength / 2, 3 D) |
 * | max_stepdown      | DepthOfCutMaximum                                         | flute_length                                             |
 * | neck_*            | NeckDiameter, NeckLength (from the tip, as the simulation and milling read it), when the neck ends above the flutes | no neck: both 0 |
 * | shank_diameter    | ShankDiameter; face mills: D (the body around the arbor) | D                                                        |
 * | stick_out         | LengthBelowHolder                                         | flutes + neck + 2 mm (the shortest a holder allows), OverallLength without a holder or for face mills |
 * | flutes            | flute_count, NumberOfFlutes                               | 2 (a lower feed rather than a higher one)                |
 * | centre_cutting    | false for NonCentreCuttingEndMill, FaceMill, SlotMill, chamfer mills with a flat tip | -                        |
 * | tool_material     | tool_material                                             | "hss" (the slower table)                                 |
 * | holder            | every holder's segments, nose first (reversed)            | [] without holders                                       |
 */
import { assemblyCuttingTool, assemblyHolders, type Assembly } from "../../tools/assembly.ts";
import type { ToolType } from "../../tools/tool-types.ts";
import { toolFluteCount } from "../../tools/tool.ts";
import type { Cutter, CutterKind } from "../types.ts";

/** Why an assembly is not a cutter the planner uses (a user can fix the library entry). */
export type CutterRefusalCode = "no_cutting_tool" | "not_machined_type" | "left_hand_tool" | "invalid_tool";

export interface CutterRefusal {
  code: CutterRefusalCode;
  message: string;
}

export type CutterReading = { cutter: Cutter; refusal: null } | { cutter: null; refusal: CutterRefusal };

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
const NOT_CENTRE_CUTTING: ReadonlySet<ToolType> = new Set<ToolType>(["NonCentreCuttingEndMill", "FaceMill", "SlotMill"]);

export const DEFAULT_FLUTES = 2;
export const DEFAULT_TOOL_MATERIAL = "hss";
/** A jobber drill's point when a drill does not give one (PointAngle is required, but libraries are not all validated). */
export const DEFAULT_POINT_ANGLE_DEG = 118;
/** A reamer's lead chamfer (45° to the axis) read as a point angle. */
export const REAMER_LEAD_ANGLE_DEG = 90;
/** What the catalogue keeps outside a holder beyond the flutes and neck (catalogue/standard-holders.ts stickOut). */
export const STICK_OUT_MARGIN_MM = 2;
/** DIN 333 form A pilot length over pilot diameter (1.3 at 1 mm, 12.8 at 10 mm): a centre drill's pilot when TipLength is missing. */
export const CENTRE_DRILL_PILOT_RATIO = 1.25;

const deg = (value: number) => (value * Math.PI) / 180;
const positive = (value: number | undefined): number | undefined => (value !== undefined && Number.isFinite(value) && value > 0 ? value : undefined);

function refuse(code: CutterRefusalCode, message: string): CutterReading {
  return { cutter: null, refusal: { code, message } };
}

/** The assembly as a cutter, or why not. */
export function readCutter(assembly: Assembly): CutterReading {
  const tool = assemblyCuttingTool(assembly);
  const label = JSON.stringify(assembly.name);
  if (!tool) return refuse("no_cutting_tool", `${label} holds no cutting tool (its last component is not a parametric_cutting_tool)`);
  const kindOfType = KIND_OF_TYPE[tool.tool_type];
  if (kindOfType === null) return refuse("not_machined_type", `${label} is a ${tool.tool_type}: the planner does not cut with this type`);
  if (tool.hand === "left") return refuse("left_hand_tool", `${label} is left-handed: the planner only runs tools forwards (M3) and threads right-handed`);
  const p = tool.tool_parameters;
  const diameter = positive(p.CuttingDiameter);
  if (diameter === undefined) return refuse("invalid_tool", `${label} has no positive CuttingDiameter`);

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
    if (chamferAngle === null || chamferAngle >= 90) return refuse("invalid_tool", `${label} is a chamfer mill without a ChamferAngle between 0 and 90 degrees`);
    tipDiameter = Math.min(positive(p.TipDiameter) ?? 0, diameter);
  }
  let tipAngle: number | null = null;
  if (kind === "drill") {
    tipAngle = tool.tool_type === "Reamer" ? REAMER_LEAD_ANGLE_DEG : (positive(p.PointAngle) ?? DEFAULT_POINT_ANGLE_DEG);
    if (tool.tool_type === "CentreDrill") tipDiameter = Math.min(positive(p.TipDiameter) ?? 0, diameter);
  }
  let pitch: number | null = null;
  if (kind === "tap") {
    pitch = positive(p.ThreadPitch) ?? null;
    if (pitch === null) return refuse("invalid_tool", `${label} is a tap without a ThreadPitch`);
  }

  const overall = positive(p.OverallLength);
  const geometricFlutes = cuttingLengthFromShape(tool.tool_type, diameter, tipDiameter, chamferAngle, tipAngle, positive(p.TipLength));
  const fluteLength =
    positive(p.FluteLength) ?? geometricFlutes ?? positive(p.DepthOfCutMaximum) ?? Math.min(overall !== undefined ? overall / 2 : 3 * diameter, 3 * diameter);
  const maxStepdown = positive(p.DepthOfCutMaximum) ?? fluteLength;

  const neckDiameter = positive(p.NeckDiameter);
  const neckEnd = positive(p.NeckLength);
  const hasNeck = neckDiameter !== undefined && neckEnd !== undefined && neckEnd > fluteLength;

  const shankDiameter = tool.tool_type === "FaceMill" ? diameter : (positive(p.ShankDiameter) ?? diameter);
  const holders = assemblyHolders(assembly);
  const shortest = (hasNeck ? neckEnd : fluteLength) + STICK_OUT_MARGIN_MM;
  const stickOut =
    positive(p.LengthBelowHolder) ??
    (holders.length === 0 || tool.tool_type === "FaceMill" ? (overall ?? shortest) : overall !== undefined ? Math.min(overall, shortest) : shortest);

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
    flutes: flutes !== undefined ? Math.max(1, Math.round(flutes)) : DEFAULT_FLUTES,
    centre_cutting: !NOT_CENTRE_CUTTING.has(tool.tool_type) && !(kind === "chamfer" && tipDiameter > 0),
    tool_material: tool.tool_material ?? DEFAULT_TOOL_MATERIAL,
    holder: holders
      .flatMap((holder) => holder.segments)
      .reverse()
      .map((s) => ({ length: s.length_mm, lower_diameter: s.lower_diameter_mm, upper_diameter: s.upper_diameter_mm })),
  };
  return { cutter, refusal: null };
}

/**
 * The cutting length a shape implies where the type has no FluteLength: a chamfer mill's cone
 * from its tip to its diameter; a centre drill's pilot and countersink cone.
 */
function cuttingLengthFromShape(
  type: ToolType,
  diameter: number,
  tipDiameter: number,
  chamferAngle: number | null,
  tipAngle: number | null,
  tipLength: number | undefined,
): number | undefined {
  if (type === "ChamferMill" && chamferAngle !== null) return (diameter - tipDiameter) / 2 / Math.tan(deg(chamferAngle));
  if (type === "CentreDrill" && tipAngle !== null && tipDiameter > 0) {
    const pilot = tipLength ?? CENTRE_DRILL_PILOT_RATIO * tipDiameter;
    return pilot + (diameter - tipDiameter) / 2 / Math.tan(deg(tipAngle / 2));
  }
  return undefined;
}

/** The assembly as a cutter; null when it is none (readCutter says why). */
export function cutterFromAssembly(assembly: Assembly): Cutter | null {
  return readCutter(assembly).cutter;
}

export interface SkippedAssembly extends CutterRefusal {
  assembly_uuid: string;
  name: string;
}

/** A library's cutters in library order, and the assemblies skipped with their reasons. */
export function cuttersFromLibrary(library: readonly Assembly[]): { cutters: Cutter[]; skipped: SkippedAssembly[] } {
  const cutters: Cutter[] = [];
  const skipped: SkippedAssembly[] = [];
  for (const assembly of library) {
    const reading = readCutter(assembly);
    if (reading.cutter) cutters.push(reading.cutter);
    else skipped.push({ assembly_uuid: assembly.uuid, name: assembly.name, ...reading.refusal });
  }
  return { cutters, skipped };
}
