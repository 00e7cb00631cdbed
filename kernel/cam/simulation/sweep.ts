/**
 * Sweeping a tool's envelope along one straight or circular move over the cells it reaches:
 * for each such cell, the lowest z the envelope reaches over it during the move and the tip's
 * highest z while the cell is within reach. What to do with them (cut, check) is the visitor's.
 *
 * Exact rather than stamped: a cell sees the whole move at once. Along a straight move the tip
 * is linear in the move's parameter t and the radial distance sqrt(q(t)) is convex, so for a
 * non-decreasing convex envelope the height over a cell, z(t) + h(d(t)), is convex in t: flat
 * envelopes have their minimum at an end of the stretch within reach, balls in closed form,
 * the others where the derivative changes sign. Horizontal moves need only the distance to the path;
 * vertical ones only the distance to the axis.
 *
 * Numerical minimisation is the expensive case, so it is skipped for cells where a cheap lower
 * bound (the move's lowest tip plus the envelope at the cell's distance from the path) already
 * leaves the visitor nothing to do.
 */
import type { Vec2, Vec3 } from "../types.ts";
import type { Envelope } from "./cutter-profile.ts";
import { centresWithin, firstCentre, lastCentre, type Grid } from "./height-field.ts";

export interface CellVisitor {
  /**
   * Cell (i, j), index k, is within the envelope's reach during the move: `low` is the lowest
   * z of the envelope over its centre, `highTip` the tip's highest z while it was within reach.
   */
  visit(i: number, j: number, k: number, low: number, highTip: number): void;
  /**
   * visit() for cells i0..i1 of row j (indices row + i), all with the same low and highTip: a
   * flat envelope moving level or straight down reaches every cell of a row's interval alike.
   * One call per row instead of per cell: the simulation's bench (bench.ts) from 1.14-1.26 s to
   * 0.94-1.07 s.
   */
  visitRow(j: number, i0: number, i1: number, row: number, low: number, highTip: number): void;
  /** an envelope at or above this z over cell k changes nothing for the visitor */
  threshold(k: number): number;
  /**
   * At least threshold() of every cell i0..i1 of row j (from the block bounds): a row whose
   * envelope stays at or above it is skipped whole. A holder 60 mm across, swept over every cell
   * it covers, had been most of the simulation of a NIST part.
   */
  rowThreshold(j: number, i0: number, i1: number): number;
}

/** visitRow by visit, cell by cell: for visitors with nothing to gain from a row at once. */
export function visitEachCell(
  visitor: Pick<CellVisitor, "visit">,
  j: number,
  i0: number,
  i1: number,
  row: number,
  low: number,
  highTip: number,
): void {
  for (let i = i0; i <= i1; i++) visitor.visit(i, j, row + i, low, highTip);
}

/** A circular move in an XY plane, counter-clockwise from `start` by `sweep` (0, 2π] radians. */
export interface ArcPath {
  centre: Vec2;
  radius: number;
  start: number;
  sweep: number;
  /** the tip's z at the start and at the end (linear in the angle: a helix) */
  z0: number;
  z1: number;
}

/** numerical minimisation stops when the interval is this short along the path (mm) */
const SEARCH_PRECISION_MM = 1e-4;
const MAX_ITERATIONS = 60;
const TWO_PI = 2 * Math.PI;

/**
 * `skipStart`: the cells within reach of `from` were just visited with this envelope at this same
 * height (the move before ended there, level, with the same tool): a level flat move leaves them
 * out, only the cells it newly reaches are visited. Along a polyline of short segments that is
 * most of the work saved (a 20 mm tool's end disc is 31,000 cells at 0.1 mm, a 0.2 mm segment's
 * new strip 400).
 */
export function sweepLine(
  grid: Grid,
  from: Vec3,
  to: Vec3,
  envelope: Envelope,
  visitor: CellVisitor,
  skipStart = false,
): void {
  const [ax, ay, az] = from;
  const ux = to[0] - ax,
    uy = to[1] - ay,
    dz = to[2] - az;
  const a = ux * ux + uy * uy;
  const reach = envelope.reach,
    reach2 = reach * reach;
  const [j0, j1] = centresWithin(Math.min(ay, to[1]) - reach, Math.max(ay, to[1]) + reach, grid.y0, grid.dy, grid.ny);
  // below a tenth of a micrometre of horizontal travel a move is a plunge or a retract
  const vertical = a < 1e-8;
  const zLow = Math.min(az, to[2]),
    zHigh = Math.max(az, to[2]);
  const { shape, base, height, slope } = envelope;
  const length = Math.sqrt(a + dz * dz);
  for (let j = j0; j <= j1; j++) {
    const y = grid.y0 + (j + 0.5) * grid.dy;
    const py = y - ay;
    if (vertical) discSpan(ax, py, reach);
    else stadiumSpan(ax, ay, ux, uy, a, y, reach);
    if (!(span.hi >= span.lo)) continue;
    const i0 = firstCentre(span.lo, grid.x0, grid.dx),
      i1 = lastCentre(span.hi, grid.x0, grid.dx, grid.nx);
    // the envelope is nowhere below its base
    if (i0 > i1 || zLow + base >= visitor.rowThreshold(j, i0, i1)) continue;
    const row = j * grid.nx;
    if (shape === "flat" && (vertical || dz === 0)) {
      // the row's interval is exactly the cells within reach: nothing to compute per cell
      if (skipStart && !vertical) {
        // the start disc's cells on this row (shrunk a little: the move before computed its end
        // from its own start, which may differ in the last bit; a cell visited twice is harmless)
        discSpan(ax, py, reach);
        if (span.hi - span.lo > 2e-9) {
          const s0 = firstCentre(span.lo + 1e-9, grid.x0, grid.dx),
            s1 = lastCentre(span.hi - 1e-9, grid.x0, grid.dx, grid.nx);
          if (s1 >= s0) {
            if (s0 > i0) visitor.visitRow(j, i0, Math.min(i1, s0 - 1), row, zLow + base, zHigh);
            if (s1 < i1) visitor.visitRow(j, Math.max(i0, s1 + 1), i1, row, zLow + base, zHigh);
            continue;
          }
        }
      }
      visitor.visitRow(j, i0, i1, row, zLow + base, zHigh);
      continue;
    }
    for (let i = i0; i <= i1; i++) {
      if (zLow + base >= visitor.threshold(row + i)) continue;
      const px = grid.x0 + (i + 0.5) * grid.dx - ax;
      if (vertical) {
        const q = px * px + py * py;
        if (q > reach2) continue;
        visitor.visit(i, j, row + i, zLow + height(Math.sqrt(q)), zHigh);
        continue;
      }
      // t along the move where the cell is nearest, and the squared distance there
      const tm = (px * ux + py * uy) / a;
      const ex = px - tm * ux,
        ey = py - tm * uy;
      const qm = ex * ex + ey * ey;
      if (qm > reach2) continue;
      const half = Math.sqrt((reach2 - qm) / a);
      const ta = Math.max(0, tm - half),
        tb = Math.min(1, tm + half);
      if (ta > tb) continue;
      const za = az + ta * dz,
        zb = az + tb * dz;
      const highTip = Math.max(za, zb);
      let low: number;
      if (dz === 0) {
        const tc = Math.min(1, Math.max(0, tm));
        low = az + height(Math.sqrt(qm + a * (tc - tm) * (tc - tm)));
      } else if (shape === "flat") {
        low = Math.min(za, zb) + base;
      } else if (shape === "ball") {
        // where z(t) + r - sqrt(r² - q(t)) has zero slope
        const w = Math.sqrt(reach2 - qm);
        const t = Math.min(tb, Math.max(ta, tm - (dz * w) / Math.sqrt(a * (a + dz * dz))));
        low = az + t * dz + base + reach - Math.sqrt(Math.max(0, reach2 - qm - a * (t - tm) * (t - tm)));
      } else {
        const tc = Math.min(1, Math.max(0, tm));
        if (Math.min(za, zb) + height(Math.sqrt(qm + a * (tc - tm) * (tc - tm))) >= visitor.threshold(row + i))
          continue;
        low = minimiseAlongLine(ta, tb, az, dz, qm, a, tm, height, slope, SEARCH_PRECISION_MM / length);
      }
      visitor.visit(i, j, row + i, low, highTip);
    }
  }
}

/**
 * The row interval the span functions found last: they run for every row of every move, and an
 * interval returned as a new array each time kept the collector busy (a sixth of the simulation).
 */
const span = { lo: 0, hi: 0 };

/** Into `span`: the x interval of the disc of `radius` about (cx, ·) on a row `py` from its centre. */
function discSpan(cx: number, py: number, radius: number): void {
  const w2 = radius * radius - py * py;
  if (w2 < 0) {
    span.lo = Infinity;
    span.hi = -Infinity;
    return;
  }
  const w = Math.sqrt(w2);
  span.lo = cx - w;
  span.hi = cx + w;
}

/**
 * Into `span`: the x interval, on the row at y, of the points within `radius` of the segment
 * from (ax, ay) along (ux, uy): the hull of the two end discs and the band between them (a
 * convex shape cuts a row in one interval).
 */
function stadiumSpan(ax: number, ay: number, ux: number, uy: number, a: number, y: number, radius: number): void {
  discSpan(ax + ux, y - ay - uy, radius);
  const blo = span.lo,
    bhi = span.hi;
  discSpan(ax, y - ay, radius);
  let lo = Math.min(span.lo, blo),
    hi = Math.max(span.hi, bhi);
  span.lo = lo;
  span.hi = hi;
  // the band: 0 <= t(x) <= 1 and |perpendicular distance(x)| <= radius, each linear in x
  const py = y - ay;
  const length = Math.sqrt(a);
  let bandLo = -Infinity,
    bandHi = Infinity;
  // t(x) = ((x - ax) ux + py uy) / a
  if (ux !== 0) {
    const x0 = ax - (py * uy) / ux,
      x1 = ax + (a - py * uy) / ux;
    bandLo = Math.max(bandLo, Math.min(x0, x1));
    bandHi = Math.min(bandHi, Math.max(x0, x1));
  } else if (py * uy < 0 || py * uy > a) {
    return;
  }
  // perpendicular(x) = ((x - ax) uy - py ux) / length
  if (uy !== 0) {
    const x0 = ax + (py * ux - radius * length) / uy,
      x1 = ax + (py * ux + radius * length) / uy;
    bandLo = Math.max(bandLo, Math.min(x0, x1));
    bandHi = Math.min(bandHi, Math.max(x0, x1));
  } else if (Math.abs(py * ux) > radius * length) {
    return;
  }
  if (bandHi >= bandLo) {
    lo = Math.min(lo, bandLo);
    hi = Math.max(hi, bandHi);
  }
  span.lo = lo;
  span.hi = hi;
}

/**
 * min over t in [ta, tb] of f(t) = az + t dz + h(sqrt(qm + a (t - tm)²)), a convex function of t:
 * where its derivative, which only grows, changes sign (regula falsi, Illinois variant; the
 * derivative may be infinite where a torus turns vertical, then the step is a bisection).
 */
function minimiseAlongLine(
  ta: number,
  tb: number,
  az: number,
  dz: number,
  qm: number,
  a: number,
  tm: number,
  height: (d: number) => number,
  slope: (d: number) => number,
  precision: number,
): number {
  // no closures here: this runs per cell, and the loader names every closure it creates
  let lo = ta,
    hi = tb;
  let glo = lineSlope(lo, dz, qm, a, tm, slope);
  if (glo >= 0) return az + lo * dz + height(Math.sqrt(qm + a * (lo - tm) * (lo - tm)));
  let ghi = lineSlope(hi, dz, qm, a, tm, slope);
  if (ghi <= 0) return az + hi * dz + height(Math.sqrt(qm + a * (hi - tm) * (hi - tm)));
  let kept = 0;
  for (let n = 0; n < MAX_ITERATIONS && hi - lo > precision; n++) {
    let t = (lo * ghi - hi * glo) / (ghi - glo);
    if (!(t > lo && t < hi)) t = (lo + hi) / 2;
    const g = lineSlope(t, dz, qm, a, tm, slope);
    if (g > 0) {
      hi = t;
      ghi = g;
      if (kept === -1) glo /= 2;
      kept = -1;
    } else if (g < 0) {
      lo = t;
      glo = g;
      if (kept === 1) ghi /= 2;
      kept = 1;
    } else {
      lo = hi = t;
    }
  }
  return Math.min(
    az + lo * dz + height(Math.sqrt(qm + a * (lo - tm) * (lo - tm))),
    az + hi * dz + height(Math.sqrt(qm + a * (hi - tm) * (hi - tm))),
  );
}

/** d/dt of az + t dz + h(sqrt(qm + a (t - tm)²)). */
function lineSlope(t: number, dz: number, qm: number, a: number, tm: number, slope: (d: number) => number): number {
  const d = Math.sqrt(qm + a * (t - tm) * (t - tm));
  return d > 0 ? dz + (slope(d) * a * (t - tm)) / d : dz;
}

/** The box of an arc's points (not of its whole circle). */
export function arcBounds(arc: ArcPath): { min: Vec2; max: Vec2 } {
  const [cx, cy] = arc.centre;
  const r = arc.radius;
  const end = arc.start + arc.sweep;
  const xs = [cx + r * Math.cos(arc.start), cx + r * Math.cos(end)];
  const ys = [cy + r * Math.sin(arc.start), cy + r * Math.sin(end)];
  // the quadrant points the arc passes
  for (let k = Math.ceil(arc.start / (Math.PI / 2)); k * (Math.PI / 2) <= end; k++) {
    const angle = k * (Math.PI / 2);
    xs.push(cx + r * Math.cos(angle));
    ys.push(cy + r * Math.sin(angle));
  }
  return { min: [Math.min(...xs), Math.min(...ys)], max: [Math.max(...xs), Math.max(...ys)] };
}

export function sweepArc(grid: Grid, arc: ArcPath, envelope: Envelope, visitor: CellVisitor): void {
  const [cx, cy] = arc.centre;
  const r = arc.radius,
    S = arc.sweep;
  const reach = envelope.reach,
    reach2 = reach * reach;
  const { shape, base, height, slope } = envelope;
  const dzdu = (arc.z1 - arc.z0) / S;
  const level = arc.z1 === arc.z0;
  const zLow = Math.min(arc.z0, arc.z1);
  const box = arcBounds(arc);
  const [j0, j1] = centresWithin(box.min[1] - reach, box.max[1] + reach, grid.y0, grid.dy, grid.ny);
  const outer = r + reach,
    inner = r - reach;
  const precision = SEARCH_PRECISION_MM / Math.max(r, 1e-6);
  for (let j = j0; j <= j1; j++) {
    const y = grid.y0 + (j + 0.5) * grid.dy;
    const vy = y - cy;
    discSpan(cx, vy, outer);
    const i0 = firstCentre(Math.max(span.lo, box.min[0] - reach), grid.x0, grid.dx),
      i1 = lastCentre(Math.min(span.hi, box.max[0] + reach), grid.x0, grid.dx, grid.nx);
    if (i0 > i1 || zLow + base >= visitor.rowThreshold(j, i0, i1)) continue;
    // the annulus's hole on this row, which holds no cell within reach
    if (inner > 0) discSpan(cx, vy, inner);
    const hlo = inner > 0 ? span.lo : Infinity,
      hhi = inner > 0 ? span.hi : -Infinity;
    const row = j * grid.nx;
    for (let i = i0; i <= i1; i++) {
      const x = grid.x0 + (i + 0.5) * grid.dx;
      if (x > hlo && x < hhi) {
        i = Math.max(i, Math.floor((hhi - grid.x0) / grid.dx - 0.5));
        continue;
      }
      if (zLow + base >= visitor.threshold(row + i)) continue;
      const vx = x - cx;
      const rho2 = vx * vx + vy * vy,
        rho = Math.sqrt(rho2);
      if (Math.abs(rho - r) > reach) continue;
      // the tool is within reach while its angle is within delta of the cell's
      let delta = Math.PI;
      if (rho * r > 1e-12) {
        const cosDelta = (rho2 + r * r - reach2) / (2 * rho * r);
        delta = cosDelta <= -1 ? Math.PI : Math.acos(Math.min(1, cosDelta));
      }
      let phi = Math.atan2(vy, vx) - arc.start;
      phi -= TWO_PI * Math.floor(phi / TWO_PI);
      let low = Infinity,
        highTip = -Infinity;
      for (let turn = -1; turn <= 1; turn++) {
        const c = phi + turn * TWO_PI;
        const lo = Math.max(0, c - delta),
          hi = Math.min(S, c + delta);
        if (lo > hi) continue;
        const zlo = arc.z0 + lo * dzdu,
          zhi = arc.z0 + hi * dzdu;
        highTip = Math.max(highTip, zlo, zhi);
        if (level) {
          const off = Math.min(hi, Math.max(lo, c)) - c;
          low = Math.min(low, arc.z0 + height(Math.sqrt(Math.max(0, rho2 + r * r - 2 * rho * r * Math.cos(off)))));
        } else if (shape === "flat") {
          low = Math.min(low, Math.min(zlo, zhi) + base);
        } else {
          const off = Math.min(hi, Math.max(lo, c)) - c;
          const bound = Math.min(zlo, zhi) + height(Math.sqrt(Math.max(0, rho2 + r * r - 2 * rho * r * Math.cos(off))));
          if (bound < Math.min(low, visitor.threshold(row + i))) {
            // within a quarter turn of the cell the squared distance is convex in the angle
            const convex = shape !== "cone" && delta <= Math.PI / 2;
            const samples = convex ? 1 : Math.max(2, Math.ceil((hi - lo) / ARC_SAMPLE_ANGLE));
            low = Math.min(
              low,
              minimiseAlongArc(lo, hi, c, arc.z0, dzdu, rho2 + r * r, 2 * rho * r, height, slope, precision, samples),
            );
          }
        }
      }
      if (low < Infinity) visitor.visit(i, j, row + i, low, highTip);
    }
  }
}

/** where an arc's height may have several dips, it is sampled this often (radians) before refining */
const ARC_SAMPLE_ANGLE = Math.PI / 8;

/**
 * min over u in [lo, hi] of z0 + u dzdu + h(sqrt(sum - product cos(u - c))). Not convex in
 * general: sampled first (`samples` intervals; 1 when the caller knows it is convex), then
 * refined where the derivative changes sign around the best sample.
 */
function minimiseAlongArc(
  lo: number,
  hi: number,
  c: number,
  z0: number,
  dzdu: number,
  sum: number,
  product: number,
  height: (d: number) => number,
  slope: (d: number) => number,
  precision: number,
  samples: number,
): number {
  const step = (hi - lo) / samples;
  let best = Infinity;
  // refine by every sample lower than its neighbours (the deepest dip may not hold the lowest
  // sample), on the side its derivative points to
  let before = Infinity,
    here = arcHeight(lo, c, z0, dzdu, sum, product, height);
  for (let s = 0; s <= samples; s++) {
    const after = s < samples ? arcHeight(lo + (s + 1) * step, c, z0, dzdu, sum, product, height) : Infinity;
    best = Math.min(best, here);
    if (here <= before && here <= after) {
      const u = lo + s * step;
      const g = arcSlope(u, c, dzdu, sum, product, slope);
      if (g > 0 && s > 0)
        best = Math.min(best, refineAlongArc(u - step, u, c, z0, dzdu, sum, product, height, slope, precision));
      else if (g < 0 && s < samples)
        best = Math.min(best, refineAlongArc(u, u + step, c, z0, dzdu, sum, product, height, slope, precision));
    }
    before = here;
    here = after;
  }
  return best;
}

/** The lowest point in [a, b] where the derivative goes from negative to positive, or Infinity. */
function refineAlongArc(
  a: number,
  b: number,
  c: number,
  z0: number,
  dzdu: number,
  sum: number,
  product: number,
  height: (d: number) => number,
  slope: (d: number) => number,
  precision: number,
): number {
  let ga = arcSlope(a, c, dzdu, sum, product, slope),
    gb = arcSlope(b, c, dzdu, sum, product, slope);
  if (!(ga < 0 && gb > 0)) return Infinity;
  let kept = 0;
  for (let n = 0; n < MAX_ITERATIONS && b - a > precision; n++) {
    let u = (a * gb - b * ga) / (gb - ga);
    if (!(u > a && u < b)) u = (a + b) / 2;
    const g = arcSlope(u, c, dzdu, sum, product, slope);
    if (g > 0) {
      b = u;
      gb = g;
      if (kept === -1) ga /= 2;
      kept = -1;
    } else if (g < 0) {
      a = u;
      ga = g;
      if (kept === 1) gb /= 2;
      kept = 1;
    } else {
      a = b = u;
    }
  }
  return Math.min(arcHeight(a, c, z0, dzdu, sum, product, height), arcHeight(b, c, z0, dzdu, sum, product, height));
}

/** The envelope's height at angle u along a helix, over a cell whose angle is c. */
function arcHeight(
  u: number,
  c: number,
  z0: number,
  dzdu: number,
  sum: number,
  product: number,
  height: (d: number) => number,
): number {
  return z0 + u * dzdu + height(Math.sqrt(Math.max(0, sum - product * Math.cos(u - c))));
}

/** d/du of arcHeight. */
function arcSlope(
  u: number,
  c: number,
  dzdu: number,
  sum: number,
  product: number,
  slope: (d: number) => number,
): number {
  const d = Math.sqrt(Math.max(0, sum - product * Math.cos(u - c)));
  return d > 0 ? dzdu + (slope(d) * product * Math.sin(u - c)) / (2 * d) : dzdu;
}
