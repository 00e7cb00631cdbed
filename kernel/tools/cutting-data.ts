/**
 * A tool's cutting data: named presets of speeds and feeds (Fusion's "start-values.presets"),
 * in mm, m/min and rpm. Optional on a tool; when given, the numbers must agree with each other
 * and with the tool, because the planner takes whichever of them it needs.
 */
import { z } from "zod";
import { finiteNumber, isRecord, type Violation } from "./violation.ts";

export const COOLANT_MODES = ["flood", "mist", "air", "through_tool", "mql", "dry"] as const;
export type CoolantMode = (typeof COOLANT_MODES)[number];

export const CuttingPreset = z.strictObject({
  name: z.string().trim().min(1).max(100),
  /** free text such as "aluminium" or an ISO group "P"; the planner matches it to materials */
  workpiece_material: z.string().trim().min(1).max(100).optional(),
  spindle_speed_rpm: z.number().optional(),
  cutting_speed_m_min: z.number().optional(),
  feed_per_tooth_mm: z.number().optional(),
  feed_per_revolution_mm: z.number().optional(),
  feed_rate_mm_min: z.number().optional(),
  plunge_feed_rate_mm_min: z.number().optional(),
  ramp_feed_rate_mm_min: z.number().optional(),
  stepdown_mm: z.number().optional(),
  stepover_mm: z.number().optional(),
  coolant: z.enum(COOLANT_MODES).optional(),
});
export type CuttingPreset = z.infer<typeof CuttingPreset>;

const NUMERIC_FIELDS = [
  "spindle_speed_rpm",
  "cutting_speed_m_min",
  "feed_per_tooth_mm",
  "feed_per_revolution_mm",
  "feed_rate_mm_min",
  "plunge_feed_rate_mm_min",
  "ramp_feed_rate_mm_min",
  "stepdown_mm",
  "stepover_mm",
] as const;

/**
 * Derived values may differ from the exact product by this fraction: catalogues round speeds
 * to whole rpm and feeds to a few digits.
 */
export const CUTTING_DATA_TOLERANCE = 0.02;

function agrees(actual: number, expected: number): boolean {
  return Math.abs(actual - expected) <= CUTTING_DATA_TOLERANCE * Math.abs(expected);
}

const round = (value: number) => Math.round(value * 1000) / 1000;

/**
 * The rules of one preset (field paths are under prefix, "cutting_data.0"):
 *
 * | rule                              | field                  | violated when                                   |
 * |-----------------------------------|------------------------|-------------------------------------------------|
 * | positive                          | every number           | not above 0                                     |
 * | consistent_with_spindle_speed     | cutting_speed_m_min    | differs from pi * D * n / 1000 by more than 2 % |
 * | consistent_with_feed_per_tooth    | feed_rate_mm_min       | differs from fz * flutes * n by more than 2 %   |
 * | consistent_with_feed_per_revolution | feed_rate_mm_min     | differs from fn * n by more than 2 %            |
 * | at_most_cutting_diameter          | stepover_mm            | wider than the tool                             |
 */
export function cuttingPresetViolations(
  preset: unknown,
  prefix: string,
  diameter: number | undefined,
  flutes: number | undefined,
): Violation[] {
  if (!isRecord(preset)) return [];
  const out: Violation[] = [];
  const value: Partial<Record<(typeof NUMERIC_FIELDS)[number], number>> = {};
  for (const key of NUMERIC_FIELDS) {
    const v = finiteNumber(preset[key]);
    if (v === undefined) continue;
    if (v <= 0) out.push({ field: `${prefix}.${key}`, rule: "positive", message: `must be above 0, is ${v}` });
    else value[key] = v;
  }
  const n = value.spindle_speed_rpm;
  if (n !== undefined && diameter !== undefined && diameter > 0 && value.cutting_speed_m_min !== undefined) {
    const expected = (Math.PI * diameter * n) / 1000;
    if (!agrees(value.cutting_speed_m_min, expected)) {
      out.push({
        field: `${prefix}.cutting_speed_m_min`,
        rule: "consistent_with_spindle_speed",
        message: `${value.cutting_speed_m_min} m/min does not match ${n} rpm on a ${diameter} mm tool (${round(expected)} m/min)`,
      });
    }
  }
  if (n !== undefined && value.feed_rate_mm_min !== undefined) {
    if (value.feed_per_tooth_mm !== undefined && flutes !== undefined && flutes >= 1) {
      const expected = value.feed_per_tooth_mm * flutes * n;
      if (!agrees(value.feed_rate_mm_min, expected)) {
        out.push({
          field: `${prefix}.feed_rate_mm_min`,
          rule: "consistent_with_feed_per_tooth",
          message: `${value.feed_rate_mm_min} mm/min does not match ${value.feed_per_tooth_mm} mm per tooth, ${flutes} flutes at ${n} rpm (${round(expected)} mm/min)`,
        });
      }
    }
    if (value.feed_per_revolution_mm !== undefined) {
      const expected = value.feed_per_revolution_mm * n;
      if (!agrees(value.feed_rate_mm_min, expected)) {
        out.push({
          field: `${prefix}.feed_rate_mm_min`,
          rule: "consistent_with_feed_per_revolution",
          message: `${value.feed_rate_mm_min} mm/min does not match ${value.feed_per_revolution_mm} mm per revolution at ${n} rpm (${round(expected)} mm/min)`,
        });
      }
    }
  }
  if (value.stepover_mm !== undefined && diameter !== undefined && value.stepover_mm > diameter) {
    out.push({
      field: `${prefix}.stepover_mm`,
      rule: "at_most_cutting_diameter",
      message: `${value.stepover_mm} mm is wider than the tool (${diameter} mm)`,
    });
  }
  return out;
}
