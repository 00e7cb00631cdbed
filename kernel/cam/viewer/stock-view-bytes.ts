/**
 * A StockView as bytes, little-endian, for the web app's stock route (the viewer decodes it with
 * web/src/api/viewer-stock.ts, which restates this layout):
 *
 *   0   "SWSF" (4 bytes), version (uint16, 1), 2 bytes zero
 *   8   nx, ny (uint32 each)
 *   16  float64 each: x0, y0, dx, dy, bottom, top, material_left_mm3, tolerance_mm, cut_tolerance_mm,
 *       the frame's origin (3), x_axis (3), z_axis (3)
 *   160 heights: nx * ny float32, row-major (j * nx + i)
 *   ... classes: nx * ny uint8 (STOCK_CLASS)
 *
 * The header keeps the heights 4-byte aligned, so a reader can view them in place.
 */
import type { StockView } from "./stock-view.ts";

export const STOCK_VIEW_MAGIC = "SWSF";
export const STOCK_VIEW_VERSION = 1;
export const STOCK_VIEW_HEADER_BYTES = 160;

export function encodeStockView(view: StockView): Uint8Array {
  const cells = view.nx * view.ny;
  const bytes = new Uint8Array(STOCK_VIEW_HEADER_BYTES + cells * 5);
  const data = new DataView(bytes.buffer);
  for (let i = 0; i < 4; i += 1) bytes[i] = STOCK_VIEW_MAGIC.charCodeAt(i);
  data.setUint16(4, STOCK_VIEW_VERSION, true);
  data.setUint32(8, view.nx, true);
  data.setUint32(12, view.ny, true);
  const { frame } = view;
  const numbers = [
    view.x0,
    view.y0,
    view.dx,
    view.dy,
    view.bottom,
    view.top,
    view.material_left_mm3,
    view.tolerance_mm,
    view.cut_tolerance_mm,
    ...frame.origin,
    ...frame.x_axis,
    ...frame.z_axis,
  ];
  numbers.forEach((value, i) => {
    data.setFloat64(16 + 8 * i, value, true);
  });
  for (let k = 0; k < cells; k += 1) data.setFloat32(STOCK_VIEW_HEADER_BYTES + 4 * k, view.heights[k] as number, true);
  bytes.set(view.classes, STOCK_VIEW_HEADER_BYTES + cells * 4);
  return bytes;
}
