/** A vise and a fixture plate the tests share: round figures, not a seeded machine's default. */
import type { FixturePlate, MachineVise } from "./schema.ts";

export const TEST_VISE: MachineVise = {
  kind: "vise",
  jaw_width_mm: 150,
  jaw_height_mm: 45,
  max_opening_mm: 225,
  jaw_thickness_mm: 20,
  parallel_heights_mm: [10, 20, 30, 40],
  soft_jaws_allowed: false,
};

export const TEST_PLATE: FixturePlate = {
  kind: "fixture_plate",
  plate_length_mm: 400,
  plate_width_mm: 300,
  plate_thickness_mm: 12,
  clamp_length_mm: 50,
  clamp_width_mm: 20,
  clamp_height_mm: 20,
  clamp_count: 4,
};
