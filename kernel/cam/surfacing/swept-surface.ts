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
  const side = 2 * span + 2;
  // the envelope's height at each cutter location round a point, per the point's place between
  // them (a caller's cell centres share one): a table, not a square root per location
  const kernels = new Map<string, Float64Array>();
  const kernel = (fx: number, fy: number) => {
    const key = `${fx.toFixed(6)} ${fy.toFixed(6)}`;
    let table = kernels.get(key);
    if (table === undefined) {
      table = new Float64Array(side * side);
      for (let dj = -span; dj <= span + 1; dj += 1)
        for (let di = -span; di <= span + 1; di += 1) {
          const rho = Math.hypot(di - fx, dj - fy) * SWEPT_STEP_MM;
          table[(dj + span) * side + di + span] = rho > radius ? Infinity : cutter.height(rho);
        }
      kernels.set(key, table);
    }
    return table;
  };
  return (x, y) => {
    const u = (x - x0) / SWEPT_STEP_MM;
    const v = (y - y0) / SWEPT_STEP_MM;
    const ci = Math.floor(u);
    const cj = Math.floor(v);
    const table = kernel(u - ci, v - cj);
    let lowest = Infinity;
    for (let dj = -span; dj <= span + 1; dj += 1) {
      const j = cj + dj;
      if (j < 0 || j >= ny) continue;
      for (let di = -span; di <= span + 1; di += 1) {
        const i = ci + di;
        if (i < 0 || i >= nx) continue;
        const z = (tips[j * nx + i] as number) + (table[(dj + span) * side + di + span] as number);
        if (z < lowest) lowest = z;
      }
    }
    return lowest;
  };
}
