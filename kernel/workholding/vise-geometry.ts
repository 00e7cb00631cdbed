/**
 * Where a vise's solids are once it holds the stock: the two jaws and the parallels as boxes in
 * the setup's frame (mm; x along the jaws, y across them, z up along the setup's tool axis), the
 * opening the setter sets and how far the stock stands out above the jaws. The planner turns
 * these boxes into solids of the stock simulation and the setter's instructions.
 */
import { type Box3, hasVolume } from "../math/box3.ts";
import type { MachineVise } from "./schema.ts";

/**
 * How thick (across y) each parallel is. Precision parallel sets are 3-8 mm thick (the 1/8-inch
 * sets at the thin end); 5 mm sits in the middle, and since the parallels lie under the stock a
 * through hole or cut over them is what this width decides.
 */
export const PARALLEL_THICKNESS_MM = 5;

export interface ViseLayout {
  /** the fixed jaw against the stock's +y face, the moving jaw (the handle's side) against its -y face */
  jaws: { fixed: Box3; moving: Box3 };
  /** the two parallels under the stock, one along each jaw; none when the stock stands on the ways */
  supports: Box3[];
  grip_mm: number;
  /** jaw height minus grip: the parallels the stock stands on (0: on the ways) */
  parallel_height_mm: number;
  /** the opening to set: the stock's size across the jaws */
  opening_mm: number;
  /** the stock's top above the jaws' top */
  stick_out_mm: number;
}

/**
 * The vise holding `stock` over `gripMm` of its lower part. The jaws' top is the stock's bottom
 * plus the grip; the stock stands on parallels of jaw height minus grip (it is seated on them, so
 * the grip fixes their height: gripOnParallels picks a grip the setter's parallels give). Each
 * jaw is jaw_width_mm long, centred on the stock along x, and jaw_thickness_mm thick across y,
 * from the vise's ways to its top. Throws a RangeError for a stock box that is empty or a grip
 * that is not within (0, jaw height]: there is no layout to give, and checkWorkholding names
 * the field a request got wrong.
 */
export function viseLayout(vise: MachineVise, stock: Box3, gripMm: number): ViseLayout {
  if (!hasVolume(stock)) throw new RangeError("the stock box is empty or inverted");
  if (!(gripMm > 0 && gripMm <= vise.jaw_height_mm))
    throw new RangeError(`a grip of ${gripMm} mm is not within the jaws' ${vise.jaw_height_mm} mm`);

  const [x0, y0, z0] = stock.min;
  const [x1, y1, z1] = stock.max;
  const halfWidth = vise.jaw_width_mm / 2;
  const xMid = (x0 + x1) / 2;
  const jawX0 = xMid - halfWidth;
  const jawX1 = xMid + halfWidth;
  const jawTop = z0 + gripMm;
  const parallelHeight = vise.jaw_height_mm - gripMm;
  const ways = z0 - parallelHeight;
  const t = vise.jaw_thickness_mm;

  const supports: Box3[] = [];
  if (parallelHeight > 0) {
    // two bars, one inside each jaw face; they meet rather than cross on a stock narrower than two
    const p = Math.min(PARALLEL_THICKNESS_MM, (y1 - y0) / 2);
    supports.push(
      { min: [jawX0, y0, ways], max: [jawX1, y0 + p, z0] },
      { min: [jawX0, y1 - p, ways], max: [jawX1, y1, z0] },
    );
  }
  return {
    jaws: {
      fixed: { min: [jawX0, y1, ways], max: [jawX1, y1 + t, jawTop] },
      moving: { min: [jawX0, y0 - t, ways], max: [jawX1, y0, jawTop] },
    },
    supports,
    grip_mm: gripMm,
    parallel_height_mm: parallelHeight,
    opening_mm: y1 - y0,
    stick_out_mm: z1 - jawTop,
  };
}
