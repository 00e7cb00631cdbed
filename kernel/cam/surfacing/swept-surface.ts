/**
 * The surface a cutter leaves when swept over every point of the part (no stepover): at (x, y)
 * the lowest of its lower envelope over all the cutter locations whose disc covers the point,
 * each location's tip on the drop there. It lies on the part wherever the cutter fits, and above
 * it in the concave corners and fillets tighter than the cutter: the rest material a pencil pass
 * would take, which no stepover removes. A scallop is what a finishing leaves above this.
 *
 * Cutter locations on a grid SWEPT_STEP_MM apart stand for every location: between two of them
 * the envelope's low point is missed by at most step² / 8R (0.0004 mm for a 3 mm radius).
 */
import type { DropCutter } from "./drop-cutter.ts";
import type { BoxXY } from "./triangle-grid.ts";

/** the cutter locations' spacing (mm): a tenth of a millimetre misses a sub-micrometre sag */
export const SWEPT_STEP_MM = 0.1;

/**
 * The swept surface's height over `box` (x, y within it), read point by point. `allowed`: the
 * cutter locations that count (a tool whose shank would rub is not there); all by default.
 */
export function sweptSurface(
  drop: DropCutter,
  box: BoxXY,
  allowed: (x: number, y: number, z: number) => boolean = () => true,
): (x: number, y: number) => number {
  const { cutter } = drop;
  const radius = cutter.radius;
  const x0 = box.minX - radius;
  const y0 = box.minY - radius;
  const nx = Math.ceil((box.maxX + radius - x0) / SWEPT_STEP_MM) + 1;
  const ny = Math.ceil((box.maxY + radius - y0) / SWEPT_STEP_MM) + 1;
  const tips = new Float64Array(nx * ny);
  for (let j = 0; j < ny; j += 1)
    for (let i = 0; i < nx; i += 1) {
      const x = x0 + i * SWEPT_STEP_MM;
      const y = y0 + j * SWEPT_STEP_MM;
      const z = drop.dropAt(x, y);
      tips[j * nx + i] = allowed(x, y, z) ? z : Infinity;
    }
  const span = Math.ceil(radius / SWEPT_STEP_MM);
  return (x, y) => {
    const ci = Math.round((x - x0) / SWEPT_STEP_MM);
    const cj = Math.round((y - y0) / SWEPT_STEP_MM);
    let lowest = Infinity;
    for (let j = Math.max(0, cj - span); j <= Math.min(ny - 1, cj + span); j += 1) {
      const dy = y0 + j * SWEPT_STEP_MM - y;
      for (let i = Math.max(0, ci - span); i <= Math.min(nx - 1, ci + span); i += 1) {
        const dx = x0 + i * SWEPT_STEP_MM - x;
        const rho = Math.hypot(dx, dy);
        if (rho > radius) continue;
        const z = (tips[j * nx + i] as number) + cutter.height(rho);
        if (z < lowest) lowest = z;
      }
    }
    return lowest;
  };
}
