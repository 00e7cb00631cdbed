/**
 * The physical constraints of a tool, beyond what its schema says about types. They run on
 * whatever numbers the input holds, even when the schema refused something else, so that one
 * answer names every problem.
 *
 * Fields are under tool_parameters unless said otherwise; D is CuttingDiameter, OAL
 * OverallLength, P ThreadPitch. Rules that compare two parameters apply only when both are given.
 *
 * | rule                    | field                          | violated when                                                  |
 * |-------------------------|--------------------------------|----------------------------------------------------------------|
 * | required                | CuttingDiameter                | missing (the one parameter every type requires; what else the planner reads is assumed, completion.ts) |
 * | not_allowed_for_type    | any other parameter            | present on a type that has no use for it                       |
 * | positive                | every length, ThreadPitch      | not above 0 (CornerRadius: below 0)                            |
 * | range                   | lengths                        | above MAX_LENGTH_MM; D above MAX_DIAMETER_MM                   |
 * | range                   | angles                         | outside the bounds of ANGLE_RANGES (PointAngle per drill type) |
 * | range                   | D of a FaceMill                | outside 16..500 mm (smaller ones are end mills)                |
 * | integer, range          | NumberOfFlutes, flute_count    | fractional, or outside the type's flute bounds                 |
 * | matches_flute_count     | NumberOfFlutes                 | differs from the tool's flute_count                            |
 * | within_overall_length   | FluteLength, DepthOfCutMaximum, NeckLength, LengthBelowHolder, TipLength | longer than OAL      |
 * | at_most_flute_length    | DepthOfCutMaximum              | deeper than FluteLength (not for taps: they cut past their chamfer) |
 * | at_least_flute_length   | NeckLength                     | shorter than FluteLength: the neck starts behind the flutes    |
 * | requires                | NeckLength                     | given without NeckDiameter                                     |
 * | at_most_cutting_diameter| NeckDiameter                   | above D (a SlotMill's must be below D: below_cutting_diameter)  |
 * | neck_outside_holder     | NeckLength                     | longer than LengthBelowHolder: the holder would clamp the neck |
 * | zero_for_flat_end_mill  | CornerRadius                   | not 0 on a Centre/NonCentreCuttingEndMill (use BullNoseEndMill)|
 * | equals_half_diameter    | CornerRadius                   | a BallEndMill's differs from D/2 by more than BALL_TOLERANCE   |
 * | below_half_diameter     | CornerRadius                   | a BullNoseEndMill's is D/2 or more (that is a ball)            |
 * | at_most_half_diameter   | CornerRadius                   | a FaceMill's is above D/2                                      |
 * | at_most_half_width      | CornerRadius                   | a SlotMill's is above half its width (FluteLength)             |
 * | one_of                  | PointAngle                     | a CentreDrill's is not 60 (DIN 333) or 90                      |
 * | below_cutting_diameter  | TipDiameter, TapDrillDiameter  | not below D                                                    |
 * | at_most_third_diameter  | ThreadPitch                    | a Tap's pitch above D/3: no real thread is that coarse         |
 * | at_least_thread_minor   | TapDrillDiameter               | below D - 1.25 P: the hole would be smaller than the thread's core |
 */
import {
  MAX_DIAMETER_MM,
  MAX_LENGTH_MM,
  TOOL_PARAMETER_NAMES,
  TOOL_PARAMETERS,
  type ToolParameterName,
} from "./tool-parameters.ts";
import { allowedParameters, toolTypeInfo, type ToolType } from "./tool-types.ts";
import type { Violation } from "./violation.ts";

/** What the rules read: the tool's type when it is a valid one, and its finite numbers. */
export interface ToolFacts {
  toolType: ToolType | undefined;
  /** names present in tool_parameters, whatever their value */
  present: ReadonlySet<string>;
  /** the finite numbers among them */
  params: Partial<Record<ToolParameterName, number>>;
  fluteCount: number | undefined;
}

/** A ball's radius may differ from D/2 by this much (mm), or 0.1 % of D if that is more. */
export const BALL_TOLERANCE_MM = 0.005;

/** Degrees; PointAngle depends on the type (DRILL_POINT_ANGLES). */
const ANGLE_RANGES: Partial<Record<ToolParameterName, { min: number; max: number }>> = {
  ChamferAngle: { min: 5, max: 85 },
  TaperAngle: { min: 0, max: 45 },
  LeadAngle: { min: 10, max: 90 },
  HelixAngle: { min: 0, max: 65 },
  // 29: Acme, 30: trapezoidal, 55: Whitworth, 60: metric and UN
  ThreadProfileAngle: { min: 29, max: 90 },
};

/** Included point angles (deg): 180 is a flat-bottom drill; NC spot drills come as 90, 120 and 142. */
const DRILL_POINT_ANGLES: Partial<Record<ToolType, { min: number; max: number }>> = {
  Drill: { min: 60, max: 180 },
  SpotDrill: { min: 60, max: 142 },
};
const CENTRE_DRILL_ANGLES = [60, 90];

const FACE_MILL_DIAMETER = { min: 16, max: MAX_DIAMETER_MM };

const FLAT_END_MILLS: readonly ToolType[] = ["CentreCuttingEndMill", "NonCentreCuttingEndMill"];

const field = (name: string) => `tool_parameters.${name}`;
const mm = (value: number) => `${Math.round(value * 10000) / 10000} mm`;

export function toolRuleViolations(facts: ToolFacts): Violation[] {
  const out: Violation[] = [];
  const p = facts.params;
  const type = facts.toolType;
  const add = (name: string, rule: string, message: string) => out.push({ field: field(name), rule, message });

  if (type) {
    const info = toolTypeInfo(type);
    for (const name of info.required) {
      if (!facts.present.has(name)) add(name, "required", `a ${type} needs ${name}`);
    }
    const allowed = allowedParameters(type);
    for (const name of facts.present) {
      if ((TOOL_PARAMETER_NAMES as readonly string[]).includes(name) && !allowed.has(name as ToolParameterName)) {
        add(name, "not_allowed_for_type", `a ${type} has no ${name}`);
      }
    }
  }

  // signs and magnitudes
  for (const name of TOOL_PARAMETER_NAMES) {
    const value = p[name];
    if (value === undefined) continue;
    const info = TOOL_PARAMETERS[name];
    if (info.kind === "length") {
      if (name === "CornerRadius" ? value < 0 : value <= 0) {
        add(
          name,
          "positive",
          name === "CornerRadius" ? `must not be negative, is ${value}` : `must be above 0, is ${value}`,
        );
      } else if (value > (name === "CuttingDiameter" ? MAX_DIAMETER_MM : MAX_LENGTH_MM)) {
        add(
          name,
          "range",
          `${mm(value)} is beyond any tool we know (at most ${name === "CuttingDiameter" ? MAX_DIAMETER_MM : MAX_LENGTH_MM} mm): a unit mistake?`,
        );
      }
    }
    const range = ANGLE_RANGES[name];
    if (range && (value < range.min || value > range.max))
      add(name, "range", `must be within ${range.min}..${range.max} degrees, is ${value}`);
  }

  // flutes
  const flutes = type ? toolTypeInfo(type).flutes : { min: 1, max: Number.POSITIVE_INFINITY };
  const checkFlutes = (path: string, value: number | undefined) => {
    if (value === undefined) return;
    if (!Number.isInteger(value))
      out.push({ field: path, rule: "integer", message: `must be a whole number, is ${value}` });
    else if (value < flutes.min || value > flutes.max) {
      out.push({
        field: path,
        rule: "range",
        message: `must be within ${flutes.min}..${flutes.max}${type ? ` for a ${type}` : ""}, is ${value}`,
      });
    }
  };
  checkFlutes(field("NumberOfFlutes"), p.NumberOfFlutes);
  checkFlutes("flute_count", facts.fluteCount);
  if (p.NumberOfFlutes !== undefined && facts.fluteCount !== undefined && p.NumberOfFlutes !== facts.fluteCount) {
    add("NumberOfFlutes", "matches_flute_count", `${p.NumberOfFlutes} differs from flute_count ${facts.fluteCount}`);
  }

  // lengths along the axis
  const oal = positive(p.OverallLength);
  if (oal !== undefined) {
    for (const name of ["FluteLength", "DepthOfCutMaximum", "NeckLength", "LengthBelowHolder", "TipLength"] as const) {
      const value = positive(p[name]);
      if (value !== undefined && value > oal)
        add(name, "within_overall_length", `${mm(value)} is longer than the tool (OverallLength ${mm(oal)})`);
    }
  }
  const fluteLength = positive(p.FluteLength);
  const depth = positive(p.DepthOfCutMaximum);
  if (depth !== undefined && fluteLength !== undefined && depth > fluteLength && type !== "Tap") {
    add(
      "DepthOfCutMaximum",
      "at_most_flute_length",
      `${mm(depth)} is deeper than the flutes reach (FluteLength ${mm(fluteLength)})`,
    );
  }

  // neck
  const d = positive(p.CuttingDiameter);
  const neckLength = positive(p.NeckLength);
  const neckDiameter = positive(p.NeckDiameter);
  if (neckLength !== undefined && fluteLength !== undefined && neckLength < fluteLength) {
    add(
      "NeckLength",
      "at_least_flute_length",
      `${mm(neckLength)} ends inside the flutes (FluteLength ${mm(fluteLength)})`,
    );
  }
  if (facts.present.has("NeckLength") && !facts.present.has("NeckDiameter"))
    add("NeckLength", "requires", "a neck length needs NeckDiameter");
  if (neckDiameter !== undefined && d !== undefined) {
    if (type === "SlotMill" && neckDiameter >= d) {
      add(
        "NeckDiameter",
        "below_cutting_diameter",
        `${mm(neckDiameter)} leaves the disc nothing to cut (CuttingDiameter ${mm(d)})`,
      );
    } else if (neckDiameter > d) {
      add(
        "NeckDiameter",
        "at_most_cutting_diameter",
        `${mm(neckDiameter)} is wider than the cut (CuttingDiameter ${mm(d)}): the neck would rub`,
      );
    }
  }
  const stickOut = positive(p.LengthBelowHolder);
  if (neckLength !== undefined && stickOut !== undefined && neckLength > stickOut) {
    add(
      "NeckLength",
      "neck_outside_holder",
      `${mm(neckLength)} is longer than the stick-out (LengthBelowHolder ${mm(stickOut)}): the holder would clamp the neck`,
    );
  }

  // corner radius by type
  const r = p.CornerRadius;
  if (r !== undefined && r >= 0 && type) {
    if (FLAT_END_MILLS.includes(type) && r !== 0) {
      add(
        "CornerRadius",
        "zero_for_flat_end_mill",
        `a ${type} has a sharp corner (0 or no CornerRadius); a ${mm(r)} radius makes it a BullNoseEndMill`,
      );
    } else if (d !== undefined && type === "BallEndMill") {
      const tolerance = Math.max(BALL_TOLERANCE_MM, d * 0.001);
      if (Math.abs(r - d / 2) > tolerance)
        add("CornerRadius", "equals_half_diameter", `a ball's radius is half its diameter (${mm(d / 2)}), is ${mm(r)}`);
    } else if (d !== undefined && type === "BullNoseEndMill") {
      if (r === 0)
        add(
          "CornerRadius",
          "positive",
          "a BullNoseEndMill's radius must be above 0 (without one it is a flat end mill)",
        );
      else if (r >= d / 2)
        add(
          "CornerRadius",
          "below_half_diameter",
          `${mm(r)} is not below half the diameter (${mm(d / 2)}): that is a BallEndMill`,
        );
    } else if (d !== undefined && type === "FaceMill" && r > d / 2) {
      add("CornerRadius", "at_most_half_diameter", `${mm(r)} is more than half the diameter (${mm(d / 2)})`);
    } else if (type === "SlotMill" && fluteLength !== undefined && r > fluteLength / 2) {
      add(
        "CornerRadius",
        "at_most_half_width",
        `${mm(r)} is more than half the width (FluteLength ${mm(fluteLength)})`,
      );
    }
  }

  // angles by type
  const point = p.PointAngle;
  if (point !== undefined && type) {
    const range = DRILL_POINT_ANGLES[type];
    if (range && (point < range.min || point > range.max)) {
      add(
        "PointAngle",
        "range",
        `a ${type}'s point angle must be within ${range.min}..${range.max} degrees, is ${point}`,
      );
    }
    if (type === "CentreDrill" && !CENTRE_DRILL_ANGLES.some((angle) => Math.abs(point - angle) <= 0.5)) {
      add("PointAngle", "one_of", `a centre drill's countersink is 60 degrees (DIN 333) or 90, is ${point}`);
    }
  }
  if (type === "FaceMill" && d !== undefined && (d < FACE_MILL_DIAMETER.min || d > FACE_MILL_DIAMETER.max)) {
    add(
      "CuttingDiameter",
      "range",
      `a face mill is ${FACE_MILL_DIAMETER.min}..${FACE_MILL_DIAMETER.max} mm across, is ${mm(d)} (smaller ones are end mills)`,
    );
  }

  // diameters inside the cutting diameter
  for (const name of ["TipDiameter", "TapDrillDiameter"] as const) {
    const value = positive(p[name]);
    if (value !== undefined && d !== undefined && value >= d)
      add(name, "below_cutting_diameter", `${mm(value)} is not below CuttingDiameter (${mm(d)})`);
  }

  // threads
  const pitch = positive(p.ThreadPitch);
  if (type === "Tap" && pitch !== undefined && d !== undefined) {
    if (pitch > d / 3)
      add("ThreadPitch", "at_most_third_diameter", `${mm(pitch)} is too coarse for a ${mm(d)} thread (at most D/3)`);
    const tapDrill = positive(p.TapDrillDiameter);
    const minor = d - 1.25 * pitch;
    if (tapDrill !== undefined && tapDrill < minor) {
      add(
        "TapDrillDiameter",
        "at_least_thread_minor",
        `${mm(tapDrill)} is smaller than the thread's core (at least ${mm(minor)} for ${mm(d)} x ${mm(pitch)})`,
      );
    }
  }
  return out;
}

function positive(value: number | undefined): number | undefined {
  return value !== undefined && value > 0 ? value : undefined;
}
