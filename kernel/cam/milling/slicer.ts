/**
 * The part as a tool coming from +Z sees it: at each height, the XY shadow of all part material
 * above that height, where a tool tip at that height must not go. 2.5D milling needs nothing else
 * of the part (undercuts are invisible from +Z: the shadow covers them).
 *
 * shadow(z) is the union of the XY projections of every triangle's part above z. Every triangle
 * counts, up- and down-facing: material lies just below an up-facing triangle and just above a
 * down-facing one, so either way a triangle's part above z is material above z, and a soup whose
 * winding is wrong in places still gives the right shadow. Vertical triangles project to nothing
 * and are dropped; their neighbours' projections cover their edge.
 *
 * The shadows come from a ShadowSource (shadows.ts): made in this thread as they are read, or
 * on the shadow thread (planner/shadow-thread.ts) ahead of the levels that read them.
 */
import type { TriangleSoup } from "../types.ts";
import { touchesRegion } from "./overlap.ts";
import {
  ARC_TOLERANCE_MM,
  bounds,
  clipToRect,
  offset,
  SCALE,
  type Path64,
  type Paths64,
  type Rect64,
} from "./polygons.ts";
import { CRACK_MM, grownProjections, queuedShadows, type ShadowNeed, type ShadowSource } from "./shadows.ts";
import { projectClipped, readTriangles, signedArea, type Triangles } from "./triangles.ts";

export { SHADOW_EPSILON_MM } from "./triangles.ts";

/** horizontal faces closer in height than this are one floor */
const FLOOR_MERGE_MM = 1e-3;

export interface PartSlicer {
  /** the part's highest and lowest z */
  readonly top_z: number;
  readonly bottom_z: number;
  /** heights of up-facing horizontal faces, highest first (levels must land on them) */
  readonly floors: number[];
  /** XY shadow of the part material above z (what a tool tip at z must stay out of) */
  shadow(z: number): Paths64;
  /**
   * offset(shadow(z), mm, tolerance), kept: every operation of a setup grows the same shadows by
   * the same radii (the tool centre's keep-out, the wall passes, the holder's keep-out)
   */
  grownShadow(z: number, mm: number, tolerance_mm?: number): Paths64;
  /** The same within a rectangle (Clipper units): the kept one, clipped */
  grownShadowWithin(z: number, mm: number, window: Rect64, tolerance_mm?: number): Paths64;
  /** XY extent of the up-facing horizontal faces at floor height z */
  floorArea(z: number): Paths64;
  /**
   * The shadows a level will read (regions.ts: ShadowsAhead), asked for before it reads them:
   * on the shadow thread they are made meanwhile
   */
  ahead(needs: readonly ShadowNeed[]): void;
  /** done with the part: the shadow thread lets go of it */
  close(): void;
  /** the highest part z over a region, -Infinity when no part is over it (may be a little high) */
  topOver(region: Paths64): number;
}

/**
 * The slicer of a part. `shadows`: where its shadows are made (default: in this thread, as they
 * are read); given the part's triangles, for a source that makes them elsewhere. `partTriangles`:
 * how many of the soup's triangles, from the first, are the part (default: all). Those after them
 * are solids the tool keeps out of, the workholding (planner/keep-out.ts): they cast shadows and
 * count in topOver, but the part's extent, its floors and floor areas are the part's own, so no
 * level goes below the part and none lands on a jaw's top.
 */
export function createSlicer(
  soup: TriangleSoup,
  shadows?: (triangles: Triangles) => ShadowSource,
  partTriangles?: number,
): PartSlicer {
  const triangles = readTriangles(soup);
  const source = (shadows ?? queuedShadows)(triangles);
  const part = partTriangles ?? triangles.count;
  const { top, bottom } = extent(triangles, part);
  const floors = floorHeights(triangles, part);
  // triangles by highest corner, highest first, for topOver
  const byTop = Array.from({ length: triangles.count }, (_, i) => i).sort(
    (a, b) => (triangles.zmax[b] as number) - (triangles.zmax[a] as number),
  );
  const projections = new Map<number, Path64>();
  const projection = (t: number): Path64 => {
    let path = projections.get(t);
    if (!path) {
      path = projectClipped(triangles, t, -Infinity, Infinity) ?? [];
      projections.set(t, path);
    }
    return path;
  };

  // every need a level reads is asked for ahead (regions.ts: ShadowsAhead), so the whole one
  // is made once and kept; clipping it keeps the answer independent of how far ahead the shadow
  // thread is
  const grownShadowWithin = (z: number, mm: number, window: Rect64, tolerance_mm = ARC_TOLERANCE_MM): Paths64 =>
    clipToRect(source.grownShadow(z, mm, tolerance_mm), window);

  const floorArea = (z: number): Paths64 => {
    const pieces: Paths64 = [];
    for (let t = 0; t < part; t += 1) {
      if (
        Math.abs((triangles.zmax[t] as number) - z) > FLOOR_MERGE_MM ||
        Math.abs((triangles.zmin[t] as number) - z) > FLOOR_MERGE_MM
      )
        continue;
      if (signedArea(triangles, t) <= 0) continue;
      pieces.push(projection(t));
    }
    // closed as a shadow's bands are: grown (shadows.ts: grownProjections), then shrunk back
    return pieces.length === 0 ? [] : offset(grownProjections(pieces), -CRACK_MM);
  };

  // each triangle's XY box in Clipper units, widened to cover its rounded projection, in topOver's
  // order (highest first): its walk reads them one after another (in triangle order, a query over
  // a low corridor missed the cache on nearly every one of 100,000 boxes)
  const boxes = new Float64Array(4 * triangles.count);
  byTop.forEach((t, i) => {
    const c = triangles.corners;
    const o = 9 * t;
    const xs = [c[o] as number, c[o + 3] as number, c[o + 6] as number];
    const ys = [c[o + 1] as number, c[o + 4] as number, c[o + 7] as number];
    boxes.set(
      [
        Math.floor(Math.min(...xs) * SCALE),
        Math.floor(Math.min(...ys) * SCALE),
        Math.ceil(Math.max(...xs) * SCALE),
        Math.ceil(Math.max(...ys) * SCALE),
      ],
      4 * i,
    );
  });

  const topOver = (region: Paths64): number => {
    if (region.length === 0) return -Infinity;
    const box = bounds(region);
    for (let i = 0; i < byTop.length; i += 1) {
      const o = 4 * i;
      if (
        (boxes[o] as number) > box.right ||
        (boxes[o + 2] as number) < box.left ||
        (boxes[o + 1] as number) > box.bottom ||
        (boxes[o + 3] as number) < box.top
      )
        continue;
      const t = byTop[i] as number;
      const path = projection(t);
      if (path.length < 3) continue;
      const near = {
        left: boxes[o] as number,
        top: boxes[o + 1] as number,
        right: boxes[o + 2] as number,
        bottom: boxes[o + 3] as number,
      };
      if (touchesRegion(region, path, near)) return triangles.zmax[t] as number;
    }
    return -Infinity;
  };

  return {
    top_z: top,
    bottom_z: bottom,
    floors,
    shadow: (z) => source.shadow(z),
    grownShadow: (z, mm, tolerance_mm = ARC_TOLERANCE_MM) => source.grownShadow(z, mm, tolerance_mm),
    grownShadowWithin,
    floorArea,
    topOver,
    ahead: (needs) => source.ahead(needs),
    close: () => source.close(),
  };
}

/** The highest and lowest z of the first `count` triangles. */
function extent(triangles: Triangles, count: number): { top: number; bottom: number } {
  let top = -Infinity;
  let bottom = Infinity;
  for (let t = 0; t < count; t += 1) {
    top = Math.max(top, triangles.zmax[t] as number);
    bottom = Math.min(bottom, triangles.zmin[t] as number);
  }
  return { top, bottom };
}

/** The floors of the first `count` triangles. */
function floorHeights(triangles: Triangles, count: number): number[] {
  const byHeight = new Map<number, number>();
  for (let t = 0; t < count; t += 1) {
    const lo = triangles.zmin[t] as number;
    const hi = triangles.zmax[t] as number;
    if (hi - lo > 1e-5) continue;
    // up-facing and horizontal: the normal's z is its full length
    const twiceArea = signedArea(triangles, t);
    if (!(twiceArea > 1e-9)) continue;
    const z = (lo + hi) / 2;
    byHeight.set(z, (byHeight.get(z) ?? 0) + twiceArea / 2);
  }
  const heights = [...byHeight.keys()].sort((a, b) => b - a);
  const merged: number[] = [];
  for (const z of heights) {
    const last = merged[merged.length - 1];
    if (last === undefined || last - z > FLOOR_MERGE_MM) merged.push(z);
  }
  return merged;
}
