/**
 * The tool_type values (spec: Tool, "allowed values are discoverable through the catalogue
 * tool-types endpoint"): a label, a family, and which tool_parameters each type must and may
 * carry. Names follow the spec's `CentreCuttingEndMill`: PascalCase, British "Centre".
 * The physical rules that go with each type are in tool-rules.ts.
 */
import type { ToolParameterName } from "./tool-parameters.ts";

export const TOOL_TYPES = [
  "CentreCuttingEndMill",
  "NonCentreCuttingEndMill",
  "BallEndMill",
  "BullNoseEndMill",
  "ChamferMill",
  "FaceMill",
  "SlotMill",
  "Drill",
  "SpotDrill",
  "CentreDrill",
  "Reamer",
  "Tap",
  "ThreadMill",
] as const;
export type ToolType = (typeof TOOL_TYPES)[number];

/** What a type does to the part: the CAM planner picks operations by family. */
export const TOOL_FAMILIES = ["mill", "drill", "reamer", "tap", "thread_mill"] as const;
export type ToolFamily = (typeof TOOL_FAMILIES)[number];

export interface ToolTypeInfo {
  label: string;
  family: ToolFamily;
  /**
   * must be present in tool_parameters: CuttingDiameter only, for every type. The spec shows a
   * tool's CuttingDiameter, DepthOfCutMaximum and OverallLength and requires none of them; a
   * tool without its diameter is no tool, while whatever else the planner reads is assumed when
   * missing (assumed-geometry.ts), or the tool is kept but not planned where no assumption is
   * safe (a chamfer mill's angle)
   */
  required: readonly ToolParameterName[];
  /** may be present besides the required ones; anything else is refused */
  optional: readonly ToolParameterName[];
  /** NumberOfFlutes / flute_count bounds, inclusive */
  flutes: { min: number; max: number };
}

/** Every rotating tool has these: where it is clamped and how far it sticks out. */
const MOUNTING = ["ShankDiameter", "LengthBelowHolder", "NumberOfFlutes"] as const;
const END_MILL_OPTIONAL = [
  ...MOUNTING,
  "FluteLength",
  "NeckDiameter",
  "NeckLength",
  "HelixAngle",
  "TaperAngle",
] as const;

export const TOOL_TYPE_INFO = {
  CentreCuttingEndMill: {
    label: "End mill, centre cutting",
    family: "mill",
    required: ["CuttingDiameter"],
    // CornerRadius is allowed only as 0: a flat end mill with a radius is a BullNoseEndMill
    optional: ["DepthOfCutMaximum", "OverallLength", ...END_MILL_OPTIONAL, "CornerRadius"],
    flutes: { min: 1, max: 16 },
  },
  NonCentreCuttingEndMill: {
    label: "End mill, non centre cutting (no plunging)",
    family: "mill",
    required: ["CuttingDiameter"],
    optional: ["DepthOfCutMaximum", "OverallLength", ...END_MILL_OPTIONAL, "CornerRadius"],
    flutes: { min: 2, max: 16 },
  },
  BallEndMill: {
    label: "Ball end mill",
    family: "mill",
    required: ["CuttingDiameter"],
    // the radius is implied (half the diameter); when given it must say so
    optional: ["DepthOfCutMaximum", "OverallLength", ...END_MILL_OPTIONAL, "CornerRadius"],
    flutes: { min: 1, max: 8 },
  },
  BullNoseEndMill: {
    label: "Bull nose end mill (corner radius)",
    family: "mill",
    required: ["CuttingDiameter"],
    optional: ["DepthOfCutMaximum", "OverallLength", "CornerRadius", ...END_MILL_OPTIONAL],
    flutes: { min: 1, max: 16 },
  },
  ChamferMill: {
    label: "Chamfer mill",
    family: "mill",
    required: ["CuttingDiameter"],
    optional: [
      "OverallLength",
      "ChamferAngle",
      ...MOUNTING,
      "TipDiameter",
      "FluteLength",
      "DepthOfCutMaximum",
      "NeckDiameter",
      "NeckLength",
    ],
    flutes: { min: 1, max: 12 },
  },
  FaceMill: {
    label: "Face mill (indexable, on an arbor)",
    family: "mill",
    required: ["CuttingDiameter"],
    optional: ["DepthOfCutMaximum", "OverallLength", ...MOUNTING, "FluteLength", "LeadAngle", "CornerRadius"],
    flutes: { min: 1, max: 60 },
  },
  SlotMill: {
    label: "Slot mill (disc cutter on a neck)",
    family: "mill",
    // FluteLength is the disc's width; the neck sets how deep a slot can go
    required: ["CuttingDiameter"],
    optional: [
      "FluteLength",
      "OverallLength",
      "NeckDiameter",
      ...MOUNTING,
      "DepthOfCutMaximum",
      "NeckLength",
      "CornerRadius",
    ],
    flutes: { min: 2, max: 60 },
  },
  Drill: {
    label: "Twist drill",
    family: "drill",
    required: ["CuttingDiameter"],
    optional: ["OverallLength", "PointAngle", ...MOUNTING, "FluteLength", "DepthOfCutMaximum", "HelixAngle"],
    flutes: { min: 1, max: 4 },
  },
  SpotDrill: {
    label: "Spot drill (NC spotting)",
    family: "drill",
    required: ["CuttingDiameter"],
    optional: ["OverallLength", "PointAngle", ...MOUNTING, "FluteLength", "DepthOfCutMaximum"],
    flutes: { min: 1, max: 4 },
  },
  CentreDrill: {
    label: "Centre drill",
    family: "drill",
    // CuttingDiameter is the body (d2), TipDiameter the pilot (d1), PointAngle the countersink
    required: ["CuttingDiameter"],
    optional: ["OverallLength", "PointAngle", "TipDiameter", ...MOUNTING, "TipLength", "DepthOfCutMaximum"],
    flutes: { min: 1, max: 4 },
  },
  Reamer: {
    label: "Machine reamer",
    family: "reamer",
    required: ["CuttingDiameter"],
    optional: [
      "OverallLength",
      ...MOUNTING,
      "FluteLength",
      "DepthOfCutMaximum",
      "NeckDiameter",
      "NeckLength",
      "HelixAngle",
    ],
    flutes: { min: 1, max: 16 },
  },
  Tap: {
    label: "Machine tap",
    family: "tap",
    required: ["CuttingDiameter"],
    optional: [
      "OverallLength",
      "ThreadPitch",
      ...MOUNTING,
      "FluteLength",
      "DepthOfCutMaximum",
      "NeckDiameter",
      "NeckLength",
      "ThreadProfileAngle",
      "TapDrillDiameter",
    ],
    flutes: { min: 1, max: 8 },
  },
  ThreadMill: {
    label: "Thread mill",
    family: "thread_mill",
    required: ["CuttingDiameter"],
    optional: [
      "OverallLength",
      "ThreadPitch",
      ...MOUNTING,
      "FluteLength",
      "DepthOfCutMaximum",
      "NeckDiameter",
      "NeckLength",
      "ThreadProfileAngle",
      "HelixAngle",
    ],
    flutes: { min: 1, max: 12 },
  },
} as const satisfies Record<ToolType, ToolTypeInfo>;

export function isToolType(value: unknown): value is ToolType {
  return typeof value === "string" && (TOOL_TYPES as readonly string[]).includes(value);
}

export function toolTypeInfo(type: ToolType): ToolTypeInfo {
  return TOOL_TYPE_INFO[type];
}

export function allowedParameters(type: ToolType): ReadonlySet<ToolParameterName> {
  const info = toolTypeInfo(type);
  return new Set<ToolParameterName>([...info.required, ...info.optional]);
}

/** The tool-types endpoint's answer: value, label, family and parameters, in TOOL_TYPES order. */
export function describeToolTypes(): {
  tool_type: ToolType;
  label: string;
  family: ToolFamily;
  required: ToolParameterName[];
  optional: ToolParameterName[];
}[] {
  return TOOL_TYPES.map((type) => {
    const info = toolTypeInfo(type);
    return {
      tool_type: type,
      label: info.label,
      family: info.family,
      required: [...info.required],
      optional: [...info.optional],
    };
  });
}
