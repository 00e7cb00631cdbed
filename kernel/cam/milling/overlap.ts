/**
 * Whether a small polygon (a triangle's projection) touches a region, without building their
 * intersection. The linking asks "the highest part over this corridor" for every retract, and
 * the answer walks the triangles from the top down until one touches the corridor: thousands of
 * tests per query. A Clipper intersection per test was most of the linking's time (NIST FTC-10:
 * 15 % of the whole planning); this test allocates nothing.
 *
 * Exact in integer Clipper units: the two share a point (boundary included) exactly when a vertex
 * of one is inside or on the other, or an edge of one meets an edge of the other.
 */
import { Clipper, PointInPolygonResult, type Path64, type Paths64, type Rect64 } from "clipper2-ts";
import { containsPoint } from "./polygons.ts";

type Point = { x: number; y: number };

/** `box`: the polygon's bounds (the caller keeps them per triangle). */
export function touchesRegion(region: Paths64, polygon: Path64, box: Rect64): boolean {
  for (const p of polygon) if (containsPoint(region, p)) return true;
  for (const path of region) {
    const n = path.length;
    for (let i = 0; i < n; i += 1) {
      const a = path[i] as Point;
      const b = path[(i + 1) % n] as Point;
      // edges away from the polygon's box can neither cross it nor end in it
      if (
        Math.max(a.x, b.x) < box.left ||
        Math.min(a.x, b.x) > box.right ||
        Math.max(a.y, b.y) < box.top ||
        Math.min(a.y, b.y) > box.bottom
      )
        continue;
      if (Clipper.pointInPolygon(a, polygon) !== PointInPolygonResult.IsOutside) return true;
      const m = polygon.length;
      for (let j = 0; j < m; j += 1)
        if (segmentsMeet(a, b, polygon[j] as Point, polygon[(j + 1) % m] as Point)) return true;
    }
  }
  return false;
}

/** Exact for coordinates within ±2^25 units (3.3 m): every product stays below 2^53. */
function orientation(a: Point, b: Point, c: Point): number {
  return Math.sign((b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x));
}

function onSegment(a: Point, b: Point, p: Point): boolean {
  return (
    Math.min(a.x, b.x) <= p.x && p.x <= Math.max(a.x, b.x) && Math.min(a.y, b.y) <= p.y && p.y <= Math.max(a.y, b.y)
  );
}

/** Closed segments ab and cd share a point. */
function segmentsMeet(a: Point, b: Point, c: Point, d: Point): boolean {
  const o1 = orientation(a, b, c);
  const o2 = orientation(a, b, d);
  const o3 = orientation(c, d, a);
  const o4 = orientation(c, d, b);
  if (o1 !== o2 && o3 !== o4) return true;
  return (
    (o1 === 0 && onSegment(a, b, c)) ||
    (o2 === 0 && onSegment(a, b, d)) ||
    (o3 === 0 && onSegment(c, d, a)) ||
    (o4 === 0 && onSegment(c, d, b))
  );
}
