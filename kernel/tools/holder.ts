/**
 * A holder (adaptive item, spec: Holder): a stackable component between the spindle and the
 * cutting tool: a collet chuck, a Weldon holder, a shell mill arbor, an extension, an adapter.
 *
 * Its shape is a profile of segments for collision checks, ordered from the top (the gauge
 * line for a Holder, the connection face for an Extension or Adapter) down to the nose where
 * the next component comes out. Each segment is a cone frustum: a length along the axis and a
 * diameter at its upper and lower end, in mm. gauge_length_mm is the distance from the top to
 * the nose, the segments' lengths summed; a stack's gauge length adds them up (assembly.ts).
 */
import { z } from "zod";
import { MAX_DIAMETER_MM, MAX_LENGTH_MM } from "./tool-parameters.ts";
import { Uuid } from "./uuid.ts";
import { finiteNumber, isRecord, uniqueViolations, violationsFromZod, type Violation } from "./violation.ts";

/**
 * Where a component may sit in a stack: a Holder goes into the spindle (one per assembly, first),
 * Extensions and Adapters (reducers, intermediate sleeves) stack below it.
 */
export const STACKING_GROUPS = ["Holder", "Extension", "Adapter"] as const;
export type StackingGroup = (typeof STACKING_GROUPS)[number];

/** How the component grips what comes below it. */
export const CLAMPING_TYPES = [
  "collet_chuck",
  "weldon",
  "shrink_fit",
  "hydraulic",
  "milling_chuck",
  "shell_mill_arbor",
  "tapping_chuck",
  "drill_chuck",
] as const;

export const HolderSegment = z.strictObject({
  length_mm: z.number(),
  upper_diameter_mm: z.number(),
  lower_diameter_mm: z.number(),
});
export type HolderSegment = z.infer<typeof HolderSegment>;

export const Holder = z.strictObject({
  /** required inside an assembly (assembly.ts) */
  uuid: Uuid.optional(),
  name: z.string().trim().min(1).max(200),
  stacking_group: z.enum(STACKING_GROUPS),
  manufacturer: z.string().trim().min(1).max(200).optional(),
  article_number: z.string().trim().min(1).max(100).optional(),
  description: z.string().max(2000).optional(),
  clamping: z.enum(CLAMPING_TYPES).optional(),
  /** the spindle side, for a Holder: "SK40 DIN 69871", "BT40", "HSK-A63" */
  spindle_interface: z.string().trim().min(1).max(50).optional(),
  /** shank (or arbor) diameters it clamps, mm */
  clamping_range_mm: z.strictObject({ min: z.number(), max: z.number() }).optional(),
  /** default: the segments' sum; without segments, assumed (assumed-geometry.ts) */
  gauge_length_mm: z.number().optional(),
  /** default: assumed for the tool it holds (assumed-geometry.ts) */
  segments: z.array(HolderSegment).min(1).max(100).optional(),
  vendor_data: z.record(z.string(), z.unknown()).optional(),
});
export type Holder = z.infer<typeof Holder>;

/** A holder with its whole shape, given or assumed (completion.ts): what collision checks read. */
export type ShapedHolder = Holder & { gauge_length_mm: number; segments: HolderSegment[] };

export type HolderValidation = { ok: true; holder: Holder } | { ok: false; violations: Violation[] };

/** The gauge length may differ from the segments' sum by this much (mm): files round each segment. */
export const GAUGE_LENGTH_TOLERANCE_MM = 0.01;

/**
 * The physical rules of a holder (field paths under prefix):
 *
 * | rule                | field                                  | violated when                                  |
 * |---------------------|----------------------------------------|------------------------------------------------|
 * | positive            | gauge_length_mm, every segment's length and diameters, clamping_range_mm.min/max | not above 0 |
 * | range               | the same                               | above MAX_LENGTH_MM (lengths) / MAX_DIAMETER_MM (diameters) |
 * | equals_segment_sum  | gauge_length_mm                        | differs from the segments' summed length by more than 0.01 mm |
 * | min_at_most_max     | clamping_range_mm.min                  | above clamping_range_mm.max                    |
 */
function holderRuleViolations(input: unknown, at: (path: string) => string): Violation[] {
  if (!isRecord(input)) return [];
  const out: Violation[] = [];
  const check = (path: string, value: unknown, max: number): number | undefined => {
    const v = finiteNumber(value);
    if (v === undefined) return undefined;
    if (v <= 0) out.push({ field: at(path), rule: "positive", message: `must be above 0, is ${v}` });
    else if (v > max)
      out.push({
        field: at(path),
        rule: "range",
        message: `${v} mm is beyond any holder we know (at most ${max} mm): a unit mistake?`,
      });
    else return v;
    return undefined;
  };
  const gauge = check("gauge_length_mm", input.gauge_length_mm, MAX_LENGTH_MM);
  let sum = 0;
  let complete = Array.isArray(input.segments);
  const segments: unknown[] = Array.isArray(input.segments) ? input.segments : [];
  segments.forEach((segment, index) => {
    const s = isRecord(segment) ? segment : {};
    const length = check(`segments.${index}.length_mm`, s.length_mm, MAX_LENGTH_MM);
    check(`segments.${index}.upper_diameter_mm`, s.upper_diameter_mm, MAX_DIAMETER_MM);
    check(`segments.${index}.lower_diameter_mm`, s.lower_diameter_mm, MAX_DIAMETER_MM);
    if (length === undefined) complete = false;
    else sum += length;
  });
  if (gauge !== undefined && complete && segments.length > 0 && Math.abs(gauge - sum) > GAUGE_LENGTH_TOLERANCE_MM) {
    out.push({
      field: at("gauge_length_mm"),
      rule: "equals_segment_sum",
      message: `${gauge} mm differs from the segments' summed length (${Math.round(sum * 10000) / 10000} mm)`,
    });
  }
  if (isRecord(input.clamping_range_mm)) {
    const min = check("clamping_range_mm.min", input.clamping_range_mm.min, MAX_DIAMETER_MM);
    const max = check("clamping_range_mm.max", input.clamping_range_mm.max, MAX_DIAMETER_MM);
    if (min !== undefined && max !== undefined && min > max) {
      out.push({
        field: at("clamping_range_mm.min"),
        rule: "min_at_most_max",
        message: `${min} mm is above the range's max (${max} mm)`,
      });
    }
  }
  return out;
}

/** Every violation of input as a holder, at once (schema and physical rules). */
export function holderViolations(input: unknown, prefix = ""): Violation[] {
  const at = (path: string) => (prefix ? `${prefix}.${path}` : path);
  const parsed = Holder.safeParse(input);
  const violations = parsed.success ? [] : violationsFromZod(parsed.error, input, prefix);
  violations.push(...holderRuleViolations(input, at));
  return uniqueViolations(violations);
}

export function validateHolder(input: unknown): HolderValidation {
  const violations = holderViolations(input);
  if (violations.length > 0) return { ok: false, violations };
  return { ok: true, holder: Holder.parse(input) };
}

/** Sum of the segments' lengths (mm): what gauge_length_mm must equal. */
export function segmentsLength(segments: readonly HolderSegment[]): number {
  return segments.reduce((sum, segment) => sum + segment.length_mm, 0);
}

/** The largest diameter of the profile (mm): the holder's radius for a first collision test. */
export function holderMaxDiameter(holder: ShapedHolder): number {
  return Math.max(...holder.segments.map((s) => Math.max(s.upper_diameter_mm, s.lower_diameter_mm)));
}
