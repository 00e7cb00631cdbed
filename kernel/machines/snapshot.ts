/** The machine as a job keeps it. */
import { z } from "zod";
import { Vec3Schema } from "../math/vec3-schema.ts";

/** The machine as it was when the job was saved (sql: app_private.machine_snapshot). */
export const MachineSnapshot = z.object({
  product_id: z.string(),
  name: z.string(),
  control: z.string(),
  travel_mm: Vec3Schema,
  max_spindle_rpm: z.number(),
  max_feed_mm_min: z.number(),
  tool_slots: z.number().int(),
});
export type MachineSnapshot = z.infer<typeof MachineSnapshot>;
