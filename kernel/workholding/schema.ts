/**
 * What holds the stock on a machine's table: the one source of the workholding shapes. Field
 * names are snake_case because they will be the planning request's `workholding` override and
 * the plan's; the types are the schemas' z.infer, so the API, the planner and the tests cannot
 * drift apart. Lengths are millimetres.
 */
import { z } from "zod";

const mm = z.number().positive().max(10_000);

/**
 * A machine vise (a precision milling vise: a fixed and a moving jaw on ground ways). The stock
 * stands on parallels laid on the vise's ways, so the jaws grip it over jaw_height_mm minus the
 * parallels' height.
 */
export const MachineVise = z
  .strictObject({
    kind: z.literal("vise"),
    /** length of each jaw along the setup's x (a "6-inch vise" has 150 mm jaws) */
    jaw_width_mm: mm,
    /** how far the jaws rise above the vise's ways, on which the parallels stand */
    jaw_height_mm: mm,
    /** the widest the jaws open (across them, the setup's y) */
    max_opening_mm: mm,
    /** each jaw's thickness across y, from its clamping face back: the solid a tool must clear */
    jaw_thickness_mm: mm,
    /** the heights of the parallels the setter has, in mm; the stock may also stand on the ways */
    parallel_heights_mm: z.array(mm).max(100),
    /** soft jaws (machined to the part's profile) may be made for this job */
    soft_jaws_allowed: z.boolean(),
  })
  .refine((v) => v.parallel_heights_mm.every((h) => h < v.jaw_height_mm), {
    message: "a parallel is not lower than the jaws: the jaws could not grip stock standing on it",
    path: ["parallel_heights_mm"],
  });
export type MachineVise = z.infer<typeof MachineVise>;

/**
 * A fixture plate bolted to the table, the stock standing on it, held by low-profile edge clamps
 * (Mitee-Bite or Talon type) that press on two opposite faces over their height above the plate.
 * Each clamp is modelled as a box: its footprint (length out from the face it presses, width
 * along that face) and its height above the plate (plate-geometry.ts lays them out).
 */
export const FixturePlate = z.strictObject({
  kind: z.literal("fixture_plate"),
  /** along the machine's x */
  plate_length_mm: mm,
  /** along the machine's y */
  plate_width_mm: mm,
  /** tooling plates are 10-50 mm thick; beyond 200 mm it is a riser, a fixture of its own */
  plate_thickness_mm: z.number().positive().max(200),
  /** the clamp's footprint out from the face it presses */
  clamp_length_mm: mm,
  /** the clamp's footprint along the face it presses */
  clamp_width_mm: mm,
  /** the clamp's top above the plate: it grips the stock over this height */
  clamp_height_mm: mm,
  clamp_count: z.number().int().min(2).max(16),
});
export type FixturePlate = z.infer<typeof FixturePlate>;

export const Workholding = z.discriminatedUnion("kind", [MachineVise, FixturePlate]);
export type Workholding = z.infer<typeof Workholding>;
