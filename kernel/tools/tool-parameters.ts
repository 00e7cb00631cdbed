/**
 * The numeric parameters a tool's tool_parameters may carry (spec: Tool). Keys are PascalCase as
 * in the spec's `CuttingDiameter`, `DepthOfCutMaximum`, `OverallLength`; lengths are mm, angles
 * degrees. Lengths along the axis are measured from the tool's tip.
 */

export type ParameterKind = "length" | "angle" | "count";

export interface ParameterInfo {
  kind: ParameterKind;
  unit: "mm" | "deg" | "";
  description: string;
}

export const TOOL_PARAMETERS = {
  CuttingDiameter: {
    kind: "length",
    unit: "mm",
    description: "largest diameter that cuts (a centre drill's body, a tap's nominal size)",
  },
  DepthOfCutMaximum: { kind: "length", unit: "mm", description: "deepest axial cut the tool is rated for" },
  OverallLength: { kind: "length", unit: "mm", description: "tip to the end of the shank" },
  FluteLength: {
    kind: "length",
    unit: "mm",
    description: "length of the cutting part from the tip (a slot mill's width, a tap's thread length)",
  },
  ShankDiameter: { kind: "length", unit: "mm", description: "diameter the holder clamps (a shell mill's arbor bore)" },
  NeckDiameter: { kind: "length", unit: "mm", description: "relieved diameter between flutes and shank" },
  NeckLength: {
    kind: "length",
    unit: "mm",
    description: "tip to the end of the neck, where the shank's diameter starts",
  },
  LengthBelowHolder: { kind: "length", unit: "mm", description: "how far the tool sticks out of the holder's nose" },
  CornerRadius: { kind: "length", unit: "mm", description: "radius of the cutting corner (a ball's radius)" },
  NumberOfFlutes: { kind: "count", unit: "", description: "cutting edges (inserts for a face mill)" },
  PointAngle: { kind: "angle", unit: "deg", description: "included tip angle (a centre drill's countersink)" },
  TipDiameter: { kind: "length", unit: "mm", description: "a chamfer mill's flat tip, a centre drill's pilot" },
  TipLength: { kind: "length", unit: "mm", description: "a centre drill's pilot length" },
  ChamferAngle: {
    kind: "angle",
    unit: "deg",
    description: "angle of a chamfer mill's edge to the tool axis (45 cuts a 90 degree countersink)",
  },
  TaperAngle: { kind: "angle", unit: "deg", description: "half-angle of a tapered end mill's flank to the axis" },
  LeadAngle: {
    kind: "angle",
    unit: "deg",
    description: "a face mill's entering angle (kappa r): 90 square shoulder, 45 chamfering",
  },
  HelixAngle: { kind: "angle", unit: "deg", description: "flute helix to the axis" },
  ThreadPitch: { kind: "length", unit: "mm", description: "thread pitch" },
  ThreadProfileAngle: {
    kind: "angle",
    unit: "deg",
    description: "included thread flank angle (60 metric and UN, 55 Whitworth)",
  },
  TapDrillDiameter: { kind: "length", unit: "mm", description: "core hole a tap needs" },
} as const satisfies Record<string, ParameterInfo>;

export type ToolParameterName = keyof typeof TOOL_PARAMETERS;

export const TOOL_PARAMETER_NAMES = Object.keys(TOOL_PARAMETERS) as ToolParameterName[];

/** Lengths above this are unit mistakes (inches read as mm are too small to catch, mm as µm too big). */
export const MAX_LENGTH_MM = 1000;
/** No milling or drilling tool we model is wider (face mills top out around 315 mm). */
export const MAX_DIAMETER_MM = 500;

export function isLengthParameter(name: ToolParameterName): boolean {
  return TOOL_PARAMETERS[name].kind === "length";
}
