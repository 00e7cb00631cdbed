/**
 * The viewer's simulated stock as the app's stock route sends it (docs/web-app.md, The viewer's
 * data): a little-endian header, then nx * ny float32 heights and nx * ny uint8 classes, both
 * row-major (j * nx + i). Pure: no fetch, no DOM, so it is tested against the route's bytes.
 *
 *   0   "SWSF", version (uint16, 1), 2 bytes zero
 *   8   nx, ny (uint32)
 *   16  float64: x0, y0, dx, dy, bottom, top, material_left_mm3, tolerance_mm, cut_tolerance_mm,
 *       frame origin (3), x_axis (3), z_axis (3)
 *   160 heights, then classes
 */

/** A cell's class: material left beyond the tolerance, within it, the part cut into, no part under the cell. */
export const STOCK_CLASSES = ["left", "within", "cut_into", "no_part"] as const;
export type StockClass = (typeof STOCK_CLASSES)[number];

export type Vec3 = [number, number, number];

export interface StockField {
  nx: number;
  ny: number;
  /** cell (i, j) has its centre at x0 + (i + 0.5) dx, y0 + (j + 0.5) dy, in the setup's frame */
  x0: number;
  y0: number;
  dx: number;
  dy: number;
  /** the stock's bottom and top in the setup's frame */
  bottom: number;
  top: number;
  heights: Float32Array;
  /** per cell: an index into STOCK_CLASSES */
  classes: Uint8Array;
  material_left_mm3: number;
  tolerance_mm: number;
  cut_tolerance_mm: number;
  /** the setup's frame in the part's coordinates: y is z_axis x x_axis */
  frame: { origin: Vec3; x_axis: Vec3; z_axis: Vec3 };
}

const MAGIC = "SWSF";
const VERSION = 1;
const HEADER_BYTES = 160;

export class StockFormatError extends Error {}

export function decodeStockField(buffer: ArrayBuffer): StockField {
  const data = new DataView(buffer);
  if (buffer.byteLength < HEADER_BYTES) throw new StockFormatError("the stock is shorter than its header");
  const magic = String.fromCharCode(data.getUint8(0), data.getUint8(1), data.getUint8(2), data.getUint8(3));
  if (magic !== MAGIC) throw new StockFormatError(`not a stock field (${JSON.stringify(magic)})`);
  const version = data.getUint16(4, true);
  if (version !== VERSION) throw new StockFormatError(`stock field version ${version}; this app reads ${VERSION}`);
  const nx = data.getUint32(8, true);
  const ny = data.getUint32(12, true);
  const cells = nx * ny;
  if (buffer.byteLength !== HEADER_BYTES + cells * 5)
    throw new StockFormatError(`${buffer.byteLength} bytes for ${nx} x ${ny} cells`);
  const f = (i: number) => data.getFloat64(16 + 8 * i, true);
  const vec = (i: number): Vec3 => [f(i), f(i + 1), f(i + 2)];
  const heights = new Float32Array(cells);
  for (let k = 0; k < cells; k += 1) heights[k] = data.getFloat32(HEADER_BYTES + 4 * k, true);
  return {
    nx,
    ny,
    x0: f(0),
    y0: f(1),
    dx: f(2),
    dy: f(3),
    bottom: f(4),
    top: f(5),
    material_left_mm3: f(6),
    tolerance_mm: f(7),
    cut_tolerance_mm: f(8),
    frame: { origin: vec(9), x_axis: vec(12), z_axis: vec(15) },
    heights,
    classes: new Uint8Array(buffer.slice(HEADER_BYTES + cells * 4)),
  };
}

/** How many cells of each class. */
export function classCounts(field: StockField): Record<StockClass, number> {
  const counts: Record<StockClass, number> = { left: 0, within: 0, cut_into: 0, no_part: 0 };
  for (const c of field.classes) {
    const name = STOCK_CLASSES[c];
    if (name !== undefined) counts[name] += 1;
  }
  return counts;
}
