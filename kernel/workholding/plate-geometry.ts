/**
 * Where a fixture plate's solids are once its edge clamps hold the stock: the plate under the
 * stock and each clamp as boxes in the setup's frame (mm; z up along the setup's tool axis), and
 * how far the stock stands out above the clamps. The clamps are low-profile edge clamps
 * (Mitee-Bite or Talon type): they stand on the plate and press sideways on two opposite faces,
 * gripping the stock over their own height, so a plate is a vise with many short jaws and the
 * plate for its parallels.
 */
import { type Box3, hasVolume } from "../math/box3.ts";
import type { FixturePlate } from "./schema.ts";

/** The clamps keep to the middle of each side: a clamp at a corner would press on little. */
export const CLAMPED_SHARE_OF_SIDE = 0.8;

export interface PlateLayout {
  /** under the stock, centred on it, its top at the stock's bottom */
  plate: Box3;
  /** the high side's clamps first (the fixed side: the odd clamp is there), each side's in order along it */
  clamps: Box3[];
  /** the clamps' height: they grip the stock's lowest part over it */
  grip_mm: number;
  /** the stock's top above the clamps' top */
  stick_out_mm: number;
}

/**
 * The plate holding `stock` with its clamps on the stock's two faces across `axis` (0: the x
 * faces, 1: the y faces). clamp_count clamps, half on each face and the odd one on the high
 * (fixed) face, each centred on an equal share of the face's middle CLAMPED_SHARE_OF_SIDE
 * (on a face too short for them side by side there, as many as fit, one at least: a setter
 * cannot set two clamps in one place);
 * clamp_width_mm along the face, clamp_length_mm out from it, from the plate's top up
 * clamp_height_mm. The plate is plate_length_mm along x and plate_width_mm along y. Throws a
 * RangeError for an empty stock box; whether the stock fits on the plate is the caller's
 * question (validate.ts names the field a request got wrong).
 */
export function plateLayout(plate: FixturePlate, stock: Box3, axis: 0 | 1): PlateLayout {
  if (!hasVolume(stock)) throw new RangeError("the stock box is empty or inverted");
  const along = axis === 0 ? 1 : 0;
  const bottom = stock.min[2];
  const top = bottom + plate.clamp_height_mm;
  const centre = (a: 0 | 1) => (stock.min[a] + stock.max[a]) / 2;
  const half = [plate.plate_length_mm / 2, plate.plate_width_mm / 2] as const;
  const plateBox: Box3 = {
    min: [centre(0) - half[0], centre(1) - half[1], bottom - plate.plate_thickness_mm],
    max: [centre(0) + half[0], centre(1) + half[1], bottom],
  };
  const start = stock.min[along];
  const length = stock.max[along] - start;
  const margin = (length * (1 - CLAMPED_SHARE_OF_SIDE)) / 2;
  const onSide = (count: number, high: boolean): Box3[] =>
    Array.from({ length: count }, (_, n) => {
      const middle = start + margin + (length * CLAMPED_SHARE_OF_SIDE * (n + 0.5)) / count;
      const min: [number, number, number] = [0, 0, bottom];
      const max: [number, number, number] = [0, 0, top];
      min[along] = middle - plate.clamp_width_mm / 2;
      max[along] = middle + plate.clamp_width_mm / 2;
      const face = high ? stock.max[axis] : stock.min[axis];
      min[axis] = high ? face : face - plate.clamp_length_mm;
      max[axis] = high ? face + plate.clamp_length_mm : face;
      return { min, max };
    });
  const low = Math.floor(plate.clamp_count / 2);
  const room = Math.max(1, Math.floor((length * CLAMPED_SHARE_OF_SIDE) / plate.clamp_width_mm));
  return {
    plate: plateBox,
    clamps: [...onSide(Math.min(plate.clamp_count - low, room), true), ...onSide(Math.min(low, room), false)],
    grip_mm: plate.clamp_height_mm,
    stick_out_mm: stock.max[2] - top,
  };
}
