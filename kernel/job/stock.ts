/**
 * Stock as per-axis offsets around the part's bounding box (spec: Inputs). The box is
 * recomputed from the offsets whenever the workpiece changes, so a new upload keeps the
 * offsets a user chose.
 */
import { z } from "zod";
import type { BoundingBox } from "../mesh/types.ts";
import type { Vec3 } from "../math/vec3.ts";
import { Vec3Schema } from "../math/vec3-schema.ts";

/** No offset may exceed this (mm): larger than any machine's travel we know, small enough to catch unit mistakes. */
export const STOCK_OFFSET_MAX_MM = 1000;

const offset = z.number().min(0).max(STOCK_OFFSET_MAX_MM);

export const StockOffsets = z.strictObject({
  minus_x: offset,
  plus_x: offset,
  minus_y: offset,
  plus_y: offset,
  minus_z: offset,
  plus_z: offset,
});
export type StockOffsets = z.infer<typeof StockOffsets>;

export const BoundingBoxStock = z.object({
  type: z.literal("bounding_box"),
  offsets: StockOffsets,
  min: Vec3Schema,
  max: Vec3Schema,
  size: Vec3Schema,
});
export type BoundingBoxStock = z.infer<typeof BoundingBoxStock>;

/** to a micrometre's thousandth: keeps 0.1 + 0.2 from showing as 0.30000000000000004 */
function round(value: number): number {
  return Math.round(value * 1e6) / 1e6 + 0;
}

export function boundingBoxStock(bbox: BoundingBox, offsets: StockOffsets): BoundingBoxStock {
  const min: Vec3 = [
    round(bbox.min[0] - offsets.minus_x),
    round(bbox.min[1] - offsets.minus_y),
    round(bbox.min[2] - offsets.minus_z),
  ];
  const max: Vec3 = [
    round(bbox.max[0] + offsets.plus_x),
    round(bbox.max[1] + offsets.plus_y),
    round(bbox.max[2] + offsets.plus_z),
  ];
  const size: Vec3 = [round(max[0] - min[0]), round(max[1] - min[1]), round(max[2] - min[2])];
  return { type: "bounding_box", offsets: { ...offsets }, min, max, size };
}
