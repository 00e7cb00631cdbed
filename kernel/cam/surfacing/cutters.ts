/**
 * Cutters that own their geometry, for a tool axis along +Z: each answers how high its tip must
 * be at (x, y) to touch a vertex, an edge or a facet without entering it (the drop), or
 * -Infinity when the feature lies beyond its reach.
 *
 * Every shape is a solid of revolution described by its lower envelope `height(rho)`, the height
 * above the tip of its lowest point at radial distance rho <= radius, with the shank standing on
 * it straight up. All envelopes here are non-decreasing and convex in rho, which makes the edge
 * drop a concave maximisation along the edge and the facet drop a contact at one support point.
 *
 * Features come from a record array (triangle-records.ts): a vertex is an offset to its x, y, z;
 * a facet an offset to its record (three corners, then the unit normal turned up).
 */
import type { Cutter } from "../types.ts";
import { FACET_NORMAL } from "./triangle-records.ts";

/** where the edge drop stops bisecting the contact: a change far below the drop's own error */
const EDGE_BISECTION_MM = 1e-7;
/** a triangle steeper than this (|nz|) has no interior contact the edges do not give */
const VERTICAL_NZ = 1e-9;
/** barycentric slack for a contact point on a facet's border (the edges take it too) */
const INSIDE_EPS = 1e-12;

/**
 * Where a drop is asked: the tool axis's x and y, and optionally a height the caller already
 * has, below which it needs no answer (a drop that cannot exceed it returns -Infinity early).
 */
export interface DropPoint {
  x: number;
  y: number;
  above?: number;
}

export type SurfaceCutterShape = "flat" | "ball" | "bull" | "cone";

export abstract class SurfaceCutter {
  abstract readonly shape: SurfaceCutterShape;
  constructor(readonly radius: number) {
    if (!(radius > 0)) throw new RangeError(`a cutter's radius must be positive, not ${radius}`);
  }

  /** height above the tip of the cutter's lowest point at radial distance rho (0 <= rho <= radius) */
  abstract height(rho: number): number;

  /**
   * Where on an edge the cutter touches first: the t in [lo, hi] maximising
   * m t - height(sqrt(t² + d²)), the edge rising m per mm along t, d from the axis.
   */
  protected abstract edgeContact(m: number, d: number, lo: number, hi: number): number;

  /**
   * The points of the cutter that may touch a plane of unit normal (nx, ny, nz), nz > 0, first,
   * written to `out` as offsets from the tip (dx, dy, dz per point), their number returned: the
   * support point against the normal (for a cone, its tip's disc and its rim, whichever
   * touches first).
   */
  protected abstract facetContacts(nx: number, ny: number, nz: number, out: Float64Array): number;
  /** facetContacts' answer, kept to spare an array per drop */
  private readonly contacts = new Float64Array(6);

  /** The tip height touching the point at `at` in `points`, or -Infinity when it is beyond the radius. */
  vertexDrop(cl: DropPoint, points: Float64Array, at: number): number {
    const dx = (points[at] as number) - cl.x;
    const dy = (points[at + 1] as number) - cl.y;
    const rho = Math.sqrt(dx * dx + dy * dy);
    return rho > this.radius ? -Infinity : (points[at + 2] as number) - this.height(rho);
  }

  /**
   * The tip height touching the segment between the points at `a` and `b`. The edge is clamped
   * to the cutter's reach, ends included, so its vertices' drops come with it.
   */
  edgeDrop(cl: DropPoint, points: Float64Array, a: number, b: number): number {
    const { x, y } = cl;
    const ax = points[a] as number;
    const ay = points[a + 1] as number;
    const az = points[a + 2] as number;
    const dx = (points[b] as number) - ax;
    const dy = (points[b + 1] as number) - ay;
    const length = Math.sqrt(dx * dx + dy * dy);
    // a vertical edge is touched first at its upper end, which the triangle's other edges hold
    if (length < 1e-12) return -Infinity;
    const ux = dx / length;
    const uy = dy / length;
    const along = (x - ax) * ux + (y - ay) * uy;
    const d = Math.abs((x - ax) * uy - (y - ay) * ux);
    if (d > this.radius) return -Infinity;
    const w = Math.sqrt(this.radius * this.radius - d * d);
    const lo = Math.max(-along, -w);
    const hi = Math.min(length - along, w);
    if (lo > hi) return -Infinity;
    const m = ((points[b + 2] as number) - az) / length;
    // the edge's highest point within reach, less the lowest the cutter is there, bounds the drop
    if (az + (along + (m > 0 ? hi : lo)) * m - this.height(d) <= (cl.above ?? -Infinity)) return -Infinity;
    const t = this.edgeContact(m, d, lo, hi);
    return az + (along + t) * m - this.height(Math.min(this.radius, Math.sqrt(t * t + d * d)));
  }

  /**
   * The tip height touching the facet's interior, or -Infinity when the contact falls outside the
   * triangle (then an edge or a vertex is touched first) or the facet stands vertical.
   */
  facetDrop(cl: DropPoint, facets: Float64Array, at: number): number {
    const { x, y } = cl;
    const nx = facets[at + FACET_NORMAL] as number;
    const ny = facets[at + FACET_NORMAL + 1] as number;
    const nz = facets[at + FACET_NORMAL + 2] as number;
    if (nz < VERTICAL_NZ) return -Infinity;
    const contacts = this.contacts;
    const n = this.facetContacts(nx, ny, nz, contacts);
    let best = -Infinity;
    for (let k = 0; k < 3 * n; k += 3) {
      const cx = x + (contacts[k] as number);
      const cy = y + (contacts[k + 1] as number);
      if (!insideXY(facets, at, cx, cy)) continue;
      // the plane through the first corner: n · (p - a) = 0
      const z =
        (facets[at + 2] as number) - (nx * (cx - (facets[at] as number)) + ny * (cy - (facets[at + 1] as number))) / nz;
      best = Math.max(best, z - (contacts[k + 2] as number));
    }
    return best;
  }
}

/** Whether (x, y) lies in the triangle's projection (either winding), borders included. */
function insideXY(f: Float64Array, at: number, x: number, y: number): boolean {
  const ax = f[at] as number;
  const ay = f[at + 1] as number;
  const bx = f[at + 3] as number;
  const by = f[at + 4] as number;
  const cx = f[at + 6] as number;
  const cy = f[at + 7] as number;
  const area = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
  if (area === 0) return false;
  const s = ((bx - x) * (cy - y) - (by - y) * (cx - x)) / area;
  const t = ((cx - x) * (ay - y) - (cy - y) * (ax - x)) / area;
  return s >= -INSIDE_EPS && t >= -INSIDE_EPS && 1 - s - t >= -INSIDE_EPS;
}

const clamp = (t: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, t));

/**
 * A flat disc out to `flatRadius`, then a quarter torus of tube radius `corner`: flat (no
 * corner), ball (no disc) and bull-nose end mills. Against a plane the torus touches first
 * where its tube's centre lies furthest against the normal: the tube centre at the disc's
 * border opposite the normal's horizontal part, the contact a corner radius along -n from it.
 */
abstract class RoundCutter extends SurfaceCutter {
  abstract readonly flatRadius: number;
  abstract readonly corner: number;
  protected facetContacts(nx: number, ny: number, nz: number, out: Float64Array): number {
    const s = Math.sqrt(nx * nx + ny * ny);
    const r = this.corner;
    // on a level facet the whole flat disc touches: its centre stands for it
    const reach = s === 0 ? 0 : this.flatRadius / s + r;
    out[0] = -reach * nx;
    out[1] = -reach * ny;
    out[2] = r - r * nz;
    return 1;
  }
}

/** A flat end mill: its disc touches a plane at the rim uphill of the slope. */
export class FlatCutter extends RoundCutter {
  readonly shape = "flat";
  get flatRadius(): number {
    return this.radius;
  }
  readonly corner = 0;
  height(): number {
    return 0;
  }
  protected edgeContact(m: number, _d: number, lo: number, hi: number): number {
    return m > 0 ? hi : lo;
  }
}

/** A ball end mill: its centre stays one radius from every plane it touches. */
export class BallCutter extends RoundCutter {
  readonly shape = "ball";
  readonly flatRadius = 0;
  get corner(): number {
    return this.radius;
  }
  height(rho: number): number {
    return this.radius - Math.sqrt(Math.max(0, this.radius * this.radius - rho * rho));
  }
  protected edgeContact(m: number, d: number, lo: number, hi: number): number {
    // m t + sqrt(w² - t²) is largest where t / sqrt(w² - t²) = m
    const w = Math.sqrt(Math.max(0, this.radius * this.radius - d * d));
    return clamp((m * w) / Math.sqrt(1 + m * m), lo, hi);
  }
}

/**
 * A bull-nose end mill: a flat disc out to radius - corner, then a quarter torus of the corner
 * radius. A corner of 0 is a flat end mill and one of the radius a ball; use those instead.
 */
export class BullCutter extends RoundCutter {
  readonly shape = "bull";
  /** the flat disc's radius, where the torus's tube centres lie */
  readonly flatRadius: number;
  constructor(
    radius: number,
    readonly corner: number,
  ) {
    super(radius);
    if (!(corner > 0 && corner < radius))
      throw new RangeError(`a bull-nose corner must lie between 0 and the radius ${radius}, not ${corner}`);
    this.flatRadius = radius - corner;
  }
  height(rho: number): number {
    const q = rho - this.flatRadius;
    return q <= 0 ? 0 : this.corner - Math.sqrt(Math.max(0, this.corner * this.corner - q * q));
  }
  protected edgeContact(m: number, d: number, lo: number, hi: number): number {
    // no closed form (a quartic): find where height'(rho) t / rho - m, rising with t, is 0, by
    // Newton's steps kept inside a shrinking bracket
    if (this.excess(lo, d, m) >= 0) return lo;
    if (this.excess(hi, d, m) <= 0) return hi;
    let a = lo;
    let b = hi;
    let t = (a + b) / 2;
    for (let step = 0; step < 60 && b - a > EDGE_BISECTION_MM; step += 1) {
      const value = this.excess(t, d, m);
      if (value === 0) return t;
      if (value < 0) a = t;
      else b = t;
      const derivative = this.excessSlope(t, d);
      const newton = derivative > 0 ? t - value / derivative : Number.NaN;
      const next = newton > a && newton < b ? newton : (a + b) / 2;
      if (Math.abs(next - t) < EDGE_BISECTION_MM) return next;
      t = next;
    }
    return t;
  }
  /** height'(rho) t / rho - m at t along an edge d from the axis: the edge drop's derivative, negated */
  private excess(t: number, d: number, m: number): number {
    const rho = Math.sqrt(t * t + d * d);
    const q = rho - this.flatRadius;
    if (q <= 0) return -m;
    return (q * t) / (Math.sqrt(Math.max(1e-300, this.corner * this.corner - q * q)) * rho) - m;
  }
  /** excess's derivative in t */
  private excessSlope(t: number, d: number): number {
    const rho2 = t * t + d * d;
    const rho = Math.sqrt(rho2);
    const q = rho - this.flatRadius;
    if (q <= 0) return 0;
    const r2 = this.corner * this.corner;
    const root = Math.sqrt(Math.max(1e-300, r2 - q * q));
    return (r2 * t * t) / (root * root * root * rho2) + (q * d * d) / (root * rho2 * rho);
  }
}

/**
 * A cone (a V-bit, a chamfer or spot tool's tip): a flat disc out to `flatRadius`, then a side
 * rising `rise` mm per mm of radius out to the radius.
 */
export class ConeCutter extends SurfaceCutter {
  readonly shape = "cone";
  constructor(
    radius: number,
    readonly flatRadius: number,
    readonly rise: number,
  ) {
    super(radius);
    if (!(flatRadius >= 0 && flatRadius < radius && rise > 0))
      throw new RangeError(`a cone needs 0 <= flat radius < radius and a positive rise`);
  }
  height(rho: number): number {
    return Math.max(0, rho - this.flatRadius) * this.rise;
  }
  protected edgeContact(m: number, d: number, lo: number, hi: number): number {
    const k = this.rise;
    const slope = Math.abs(m);
    // an edge steeper than the cone is touched at its upper end within reach
    if (slope >= k) return m > 0 ? hi : lo;
    // on the side, m = k t / rho; inside the flat disc the edge keeps rising to the disc's border
    const side = (d * slope) / Math.sqrt(k * k - m * m);
    const disc = d < this.flatRadius ? Math.sqrt(this.flatRadius * this.flatRadius - d * d) : 0;
    return clamp(Math.sign(m) * Math.max(side, disc), lo, hi);
  }
  protected facetContacts(nx: number, ny: number, _nz: number, out: Float64Array): number {
    const s = Math.sqrt(nx * nx + ny * ny);
    const ex = s === 0 ? 0 : -nx / s;
    const ey = s === 0 ? 0 : -ny / s;
    out.set([
      ex * this.flatRadius,
      ey * this.flatRadius,
      0,
      ex * this.radius,
      ey * this.radius,
      this.height(this.radius),
    ]);
    return 2;
  }
}

/** The cutter a plan's tool is when it finishes surfaces: flat, ball, bull-nose or a chamfer mill's cone. */
export function surfaceCutter(cutter: Cutter): SurfaceCutter {
  const radius = cutter.diameter / 2;
  switch (cutter.kind) {
    case "flat":
      return new FlatCutter(radius);
    case "ball":
      return new BallCutter(radius);
    case "bull": {
      const corner = Math.max(0, cutter.corner_radius);
      if (corner <= 0) return new FlatCutter(radius);
      if (corner >= radius) return new BallCutter(radius);
      return new BullCutter(radius, corner);
    }
    case "chamfer": {
      const angle = ((cutter.chamfer_angle_deg ?? 45) * Math.PI) / 180;
      const flat = Math.min(radius * 0.999, Math.max(0, cutter.tip_diameter / 2));
      return new ConeCutter(radius, flat, 1 / Math.tan(angle));
    }
    default:
      throw new RangeError(`${cutter.name}: a ${cutter.kind} does not finish surfaces`);
  }
}
