/**
 * Where the tool centre may be at a level: the allowed region every path of the level lies in.
 *
 *   (stock rectangle grown by the radius + OUTSIDE_MM: the tool may run just outside the stock)
 *   - part shadow above z grown by radius + allowance_xy          (no gouge, wall stock kept)
 *   - stock left above z + depth_of_cut (outside the part) grown by the radius + CLEARANCE_MM
 *                                                                  (never cut deeper than that;
 *     and never near stock above the flutes, where the depth of cut forgives a stock's own cuts)
 *   - for each neck/shank/holder part wider than the cut: the part's and stock's shadow above
 *     z + its height, grown by its radius + BODY_CLEARANCE_MM      (no collision: levels.ts)
 *
 * The tool is treated as a cylinder of its diameter from the tip: exact for flat end mills,
 * on the safe side for bull and ball ends (their rounded corner is inside the cylinder).
 */
import type { Cutter } from "../types.ts";
import { BODY_CLEARANCE_MM, wideBodies, type WideBody } from "./levels.ts";
import {
  ARC_TOLERANCE_MM,
  bounds,
  boundsOverlap,
  clipToRect,
  COARSE_TOLERANCE_MM,
  components,
  difference,
  differenceAll,
  expandRect,
  growKeepOut,
  isEmpty,
  offset,
  offsetCovering,
  tidy,
  union,
  type Paths64,
  type Rect64,
} from "./polygons.ts";
import type { ShadowNeed } from "./shadows.ts";
import type { PartSlicer } from "./slicer.ts";
import type { InProcessStock } from "./stock.ts";

/** how far outside the stock (beyond touching it) the tool centre may go */
export const OUTSIDE_MM = 2;
/**
 * How far the tool keeps from stock it must not touch (taller than the depth of cut, or beside a
 * rapid): more than the material bookkeeping's error (polygons.ts, COARSE_TOLERANCE_MM), so the
 * simulation, which counts any cell centre inside the tool, finds no contact.
 */
export const CLEARANCE_MM = 0.015;
/**
 * How much the stock is simplified before it is grown into a neck's, shank's or holder's keep-out
 * (polygons.ts: offsetCovering): the body then keeps up to twice this more than BODY_CLEARANCE_MM
 * from the stock. The stock's edges are the arcs of the cuts, a vertex every half millimetre,
 * and grown by a holder's 30 mm every vertex on their inside became a spike as long: NIST
 * STC-06's body keep-outs took 1.0 s of its planning, 0.54 s simplified by this (98.35 % removed
 * instead of 98.36). At 0.05 mm, 0.41 s, but partC removed 97.33 % instead of 97.35.
 */
const BODY_SLACK_MM = 0.02;
/** how far past a work window's edges the keep-outs are taken (toolCentreRegion) */
const WINDOW_OVERLAP_MM = 0.01;

export interface CentreRegionSpec {
  part: PartSlicer;
  stock: InProcessStock;
  cutter: Cutter;
  z: number;
  allowance_xy: number;
  /** stock above z + this within the tool is out of bounds; null: no limit */
  depth_of_cut: number | null;
  /** the stock to read for the depth of cut, when not `stock` (walls.ts forgives its own cuts) */
  depth_stock?: InProcessStock;
  /** only the region within this rectangle (Clipper units), computed from what is near it */
  window?: Rect64;
}

/*
 * belowNothing: with the stock unchanged, a lower level's region is inside a higher one's: the
 * part's shadow, the stock deeper than the depth of cut and the material above each body only grow
 * going down, and the outline stays. So once a region computed whole (no windows) is empty and the
 * level cut nothing, every level below is empty too, and a generator stops there. A long tool in a
 * deep side setup otherwise paid for its keep-outs (the holder's: the whole part grown by 30 mm
 * and more) at every level it could not reach.
 */
export function toolCentreRegion(spec: CentreRegionSpec): Paths64 {
  const { part, stock, cutter, z, window } = spec;
  const radius = cutter.diameter / 2;
  // within a window, each input is clipped to the window grown by what it is grown by: all of
  // it that can reach into the window (a clipped edge lies inside the input, so growing it adds
  // nothing the whole would not)
  const near = (region: Paths64, grow: number): Paths64 =>
    window === undefined ? region : clipToRect(region, expandRect(window, grow + COARSE_TOLERANCE_MM));
  // the part's keep-outs reach past the window's edges: clipped to the window itself, their edge
  // along it and the outline's met a unit apart in places, and the slivers between them were
  // regions a tool was sent into (NIST FTC-10: a 12 mm rest rougher 0.09 mm into a fillet)
  const beyond = window === undefined ? undefined : expandRect(window, WINDOW_OVERLAP_MM);
  const shadowGrown = (need: GrownNeed): Paths64 =>
    beyond === undefined
      ? part.grownShadow(need.z, need.mm, need.tolerance_mm)
      : part.grownShadowWithin(need.z, need.mm, beyond, need.tolerance_mm);
  const outline = offset(stock.rect, radius + OUTSIDE_MM);
  const forbidden: Paths64[] = [shadowGrown(toolKeepOut(cutter, z, spec.allowance_xy))];
  if (spec.depth_of_cut !== null) {
    // the part above is kept out exactly by its shadow: only stock that could be cut counts here
    const h = depthHeight(z, spec.depth_of_cut);
    const grow = radius + CLEARANCE_MM;
    const shadow = near(part.shadow(h), grow);
    const above = difference(near((spec.depth_stock ?? stock).remainingAbove(h), grow), shadow);
    if (above.length > 0) forbidden.push(tidy(growKeepOut(above, grow, COARSE_TOLERANCE_MM)));
    if (spec.depth_stock !== undefined) {
      // What the depth of cut forgives must not stand above the flutes: a pass reaching into it
      // leaves it standing, and the retract runs through it. The forgiven stock let each level's
      // piece end a little nearer stock it stopped short of, until (NIST FTC-10) a pass 6.1 mm
      // below a corner's top ended 0.005 mm into it. (The part's shadow at h covers the one
      // higher up: the stock over it is kept out by the part's own keep-out.)
      const tall = difference(near(stock.remainingAbove(z + cutter.flute_length + 1e-6), grow), shadow);
      if (tall.length > 0) forbidden.push(tidy(growKeepOut(tall, grow, COARSE_TOLERANCE_MM)));
    }
  }
  for (const need of bodyKeepOuts(cutter, z)) {
    // growing a union is the union of the grown pieces: the part's is the same for every operation
    forbidden.push(
      shadowGrown(need),
      offsetCovering(near(stock.remainingAbove(need.z), need.mm), need.mm, BODY_SLACK_MM, need.tolerance_mm),
    );
  }
  return differenceAll(window === undefined ? outline : clipToRect(outline, window), forbidden);
}

type GrownNeed = Required<ShadowNeed>;

/**
 * How many levels ahead of the one it works on a generator asks for the shadows: the shadow
 * thread makes a level's while the planner clears the one before, and a level cut short (a
 * region empty all the way down) wastes no more than this many levels' shadows.
 */
const SHADOWS_AHEAD = 2;

/**
 * Asks the slicer for the shadows a generator's levels read, before it reads them (levelShadows).
 *
 * A level first decides whether it has work (the shadow at z and the work windows' keep-outs);
 * only one with work reads the rest (the tool's, the depth of cut's and the wide bodies'
 * keep-outs, the holder's 30 mm and more). Levels with work come in runs (a roughing's every
 * level; a rest tool's few in the corners, then many with nothing), so the levels ahead are
 * asked for all of it after a level with work and for the deciding ones after a level without:
 * asking for everything ahead, a quarter of the shadows the thread made were never read (NIST
 * STC-06: 1,243 of 4,785, most of them grown keep-outs of rest tools' empty levels).
 */
export class ShadowsAhead {
  private working = true;

  constructor(
    private readonly part: PartSlicer,
    private readonly cutter: Cutter,
    private readonly levels: readonly number[],
    private readonly allowance_xy: number,
    private readonly depth_of_cut: number | null,
  ) {}

  /** Before level i is read: its shadows and those of the SHADOWS_AHEAD levels after it. */
  before(i: number): void {
    for (let k = i; k <= i + SHADOWS_AHEAD && k < this.levels.length; k += 1)
      this.part.ahead(this.needs(k, this.working));
  }

  /** Level i has work (it reads all of its shadows next) or none. */
  decided(i: number, work: boolean): void {
    if (work && !this.working) this.part.ahead(this.needs(i, true));
    this.working = work;
  }

  private needs(k: number, all: boolean): ShadowNeed[] {
    const z = this.levels[k] as number;
    return all
      ? levelShadows(this.cutter, z, this.allowance_xy, this.depth_of_cut)
      : decidingShadows(this.cutter, z, this.allowance_xy);
  }
}

/** The part's shadow at z grown by the radius + allowance (and the arc tolerance: the polygon's chords then stay at least the radius away). */
function toolKeepOut(cutter: Cutter, z: number, allowance_xy: number): GrownNeed {
  return { z, mm: cutter.diameter / 2 + allowance_xy + ARC_TOLERANCE_MM, tolerance_mm: ARC_TOLERANCE_MM };
}

/** Stock above this height is deeper than the depth of cut at level z. */
function depthHeight(z: number, depth_of_cut: number): number {
  return z + depth_of_cut + 1e-6;
}

/** Each wide body's keep-out: the shadow above its bottom grown by its radius + BODY_CLEARANCE_MM (a holder's coarser, on the holder's grid). */
function bodyKeepOuts(cutter: Cutter, z: number): GrownNeed[] {
  return keptOutBodies(cutter).map((body) =>
    body.name === "holder"
      ? {
          z: bodyBottom(z, body),
          mm: body.radius + BODY_CLEARANCE_MM + HOLDER_TOLERANCE_MM,
          tolerance_mm: HOLDER_TOLERANCE_MM,
        }
      : { z: bodyBottom(z, body), mm: body.radius + BODY_CLEARANCE_MM, tolerance_mm: COARSE_TOLERANCE_MM },
  );
}

/**
 * The shadows a level at z reads for a tool keeping allowance_xy from the walls: the deciding ones
 * (decidingShadows), then the tool's, the depth of cut's and the wide bodies' (toolCentreRegion).
 */
function levelShadows(cutter: Cutter, z: number, allowance_xy: number, depth_of_cut: number | null): ShadowNeed[] {
  return [
    ...decidingShadows(cutter, z, allowance_xy),
    toolKeepOut(cutter, z, allowance_xy),
    ...(depth_of_cut === null ? [] : [{ z: depthHeight(z, depth_of_cut) }]),
    ...bodyKeepOuts(cutter, z),
  ];
}

/** What a level reads to decide whether it has work: the shadow at z and the work windows' keep-outs (workWindows). */
function decidingShadows(cutter: Cutter, z: number, allowance_xy: number): ShadowNeed[] {
  return [{ z }, ...windowKeepOuts(cutter, z, allowance_xy)];
}

/**
 * The holder's keep-out is computed for material above its nose rounded down to this grid, so
 * every level and every tool with the same holder share it (the slicer keeps it): the nose stays
 * up to this much higher than it has to, as cutter-shape.ts's HOLDER_CLEARANCE_MM has it anyway.
 */
export const HOLDER_GRID_MM = 1;
/** the holder's keep-out arcs: this coarse, and grown by as much (the holder is 30 to 60 mm wide) */
const HOLDER_TOLERANCE_MM = 0.02;

/** The bodies that need a keep-out: one above another at least as wide is kept out by that one (what is left above a height only shrinks going up). */
function keptOutBodies(cutter: Cutter): WideBody[] {
  let widest = 0;
  return wideBodies(cutter).filter((body) => {
    if (body.radius <= widest) return false;
    widest = body.radius;
    return true;
  });
}

/** The height above which material keeps a body out at level z (a holder's: on the grid, below its nose). */
function bodyBottom(z: number, body: WideBody): number {
  const h = z + body.from;
  return body.name === "holder" ? Math.floor(h / HOLDER_GRID_MM + 1e-9) * HOLDER_GRID_MM : h;
}

/** material thinner than this beyond a tool's allowance is not worth a pass (more than the stock model's error) */
export const REST_MARGIN_MM = 0.02;
/** windows covering more than this share of the stock's rectangle: the region is computed whole */
const WINDOWS_SHARE = 0.5;
/** more windows than this: one over them all */
const MAX_WINDOWS = 24;

/**
 * Where a tool keeping `allowance` from the part's walls still has something to cut at z:
 * rectangles (Clipper units) round the pieces of `material` (the stock at and above z, outside
 * the part) farther than allowance + REST_MARGIN_MM from the part, each grown by `margin`,
 * overlapping ones merged. [] when there is no such material (the tool has nothing to do at this
 * level); null when the rectangles would cover most of the stock (compute the region whole).
 *
 * A rest tool after a larger one, or the small tool finishing after the finishing tool, works
 * in the corners and narrow places the other left; its region over the whole part at every
 * level, Clipper offsets of the whole shadow, was most of the planning time of a large part.
 *
 * With `focus` (MillingRequest.focus) only the material within its rectangles counts, and the
 * windows are cut down to them: the tool centre stays over the focus, and what it cuts is within
 * its radius of it.
 */
export function workWindows(
  part: PartSlicer,
  stock: InProcessStock,
  cutter: Cutter,
  material: Paths64,
  z: number,
  allowance: number,
  focus?: Rect64[],
): Rect64[] | null {
  let rest = focus === undefined ? material : withinRects(material, focus);
  if (isEmpty(rest)) return [];
  for (const need of windowKeepOuts(cutter, z, allowance)) {
    if (isEmpty(rest)) break;
    rest = difference(rest, part.grownShadow(need.z, need.mm, need.tolerance_mm));
  }
  const margin = windowMargin(cutter.diameter);
  const pieces = components(rest).filter((piece) => !isEmpty(piece, 1e-4));
  if (pieces.length === 0) return [];
  let windows = mergeOverlapping(pieces.map((piece) => expandRect(bounds(piece), margin)));
  if (windows.length > MAX_WINDOWS) {
    windows = [windows.reduce(hull)];
  }
  // the tool centre stays over the focus: only material within its radius of it is cut
  if (focus !== undefined) return windows.flatMap((window) => focus.flatMap((rect) => overlap(window, rect) ?? []));
  const box = bounds(stock.rect);
  const stockArea = (box.right - box.left) * (box.bottom - box.top);
  const covered = windows.reduce((sum, w) => sum + (w.right - w.left) * (w.bottom - w.top), 0);
  return covered > WINDOWS_SHARE * stockArea ? null : windows;
}

/**
 * The keep-outs workWindows takes off the material: the walls' (allowance + REST_MARGIN_MM), and
 * where the part keeps the tool's neck, shank or holder off every position within its radius: a
 * small tool goes only a few millimetres below the walls near it (heights rounded up to the
 * holder's grid, so levels and tools share the shadows: a smaller shadow, more windows).
 */
function windowKeepOuts(cutter: Cutter, z: number, allowance: number): GrownNeed[] {
  const radius = cutter.diameter / 2;
  const needs: GrownNeed[] = [{ z, mm: allowance + REST_MARGIN_MM, tolerance_mm: COARSE_TOLERANCE_MM }];
  for (const body of keptOutBodies(cutter)) {
    const blocked = body.radius + BODY_CLEARANCE_MM - radius - 2 * COARSE_TOLERANCE_MM;
    if (blocked > 0)
      needs.push({
        z: Math.ceil((z + body.from) / HOLDER_GRID_MM - 1e-9) * HOLDER_GRID_MM,
        mm: blocked,
        tolerance_mm: COARSE_TOLERANCE_MM,
      });
  }
  return needs;
}

/** The rectangles with every overlapping pair replaced by the smallest rectangle holding both, until none overlap. */
export function mergeOverlapping(rects: readonly Rect64[]): Rect64[] {
  const merged = [...rects];
  for (let changed = true; changed; ) {
    changed = false;
    for (let a = 0; a < merged.length && !changed; a += 1) {
      for (let b = a + 1; b < merged.length; b += 1) {
        const p = merged[a] as Rect64;
        const q = merged[b] as Rect64;
        if (!boundsOverlap(p, q)) continue;
        merged[a] = hull(p, q);
        merged.splice(b, 1);
        changed = true;
        break;
      }
    }
  }
  return merged;
}

/** Where two rectangles overlap, or null. */
function overlap(p: Rect64, q: Rect64): Rect64 | null {
  const rect = {
    left: Math.max(p.left, q.left),
    top: Math.max(p.top, q.top),
    right: Math.min(p.right, q.right),
    bottom: Math.min(p.bottom, q.bottom),
  };
  return rect.left < rect.right && rect.top < rect.bottom ? rect : null;
}

/** The smallest rectangle holding both. */
function hull(p: Rect64, q: Rect64): Rect64 {
  return {
    left: Math.min(p.left, q.left),
    top: Math.min(p.top, q.top),
    right: Math.max(p.right, q.right),
    bottom: Math.max(p.bottom, q.bottom),
  };
}

/**
 * How far round the material a tool has to cut its windows reach: room for its passes, the free
 * space they start from (where the larger tool went) and a helix or ramp.
 */
export function windowMargin(diameter: number): number {
  return 2 * diameter + 3;
}

/** Of a region, what is within `grow` of the windows (all of it with no windows). */
export function nearWindows(region: Paths64, windows: Rect64[] | null, grow: number): Paths64 {
  if (windows === null) return region;
  return withinRects(
    region,
    windows.map((window) => expandRect(window, grow)),
  );
}

/** Of a region, what lies within the rectangles. */
function withinRects(region: Paths64, rects: readonly Rect64[]): Paths64 {
  return union(...rects.map((rect) => clipToRect(region, rect)));
}

/** The tool centre's region (toolCentreRegion) within the windows (workWindows): null, everywhere. */
export function regionWithin(spec: CentreRegionSpec, windows: Rect64[] | null): Paths64 {
  if (windows === null) return toolCentreRegion(spec);
  return union(...windows.map((window) => toolCentreRegion({ ...spec, window })));
}
