/**
 * Adaptive clearing of one region at one level: the same question as clearing.ts (clearRegion),
 * answered by paths that hold the tool's radial engagement near a target instead of offsets a
 * stepover apart.
 *
 * 1. The material the tool can reach from the region, and the region itself shrunk by a cell,
 *    as cells (grid.ts, material-model.ts).
 * 2. Where the tool touches no material anywhere, the region is closed: a helix (or ramp) from
 *    entry.ts gets the tool down, at the offset roughing's feed.
 * 3. Then, as long as a start is found on the front (front.ts: a free position within the target
 *    of the material, nearest the tool), a path is walked from it (walk.ts) at the chip-thinned
 *    feed, linked from the last one through free cells when it can stay down (links.ts: the
 *    writer retracts otherwise). A start whose path cuts next to nothing is not tried again.
 * 4. What the paths could not take (a band along the walls at most a cell or so wide, the
 *    corners they could not turn into) is cleared by clearRegion on the material the paths left
 *    (their Clipper sweep, not the cells), with the target as its stepover, at the offset
 *    roughing's feed (fed for the chip where the request asks: ../thin-chip.ts): its last passes
 *    run along the walls at the exact offset.
 */
import type { Vec2, Vec3 } from "../../types.ts";
import { clearRegion, type ClearResult, type ClearSpec } from "../clearing.ts";
import { planEntry } from "../entry.ts";
import { polylineMoves, xy, type Cut } from "../linking.ts";
import {
  area,
  bounds,
  clipToRect,
  difference,
  expandRect,
  offset,
  pathOf,
  SCALE,
  sweepCleared,
  union,
  vecOf,
  type Paths64,
} from "../polygons.ts";
import { ramerDouglasPeucker } from "../simplify.ts";
import { regionWork, stepsWork, type WorkBudget } from "./budget.ts";
import { squaredDistances } from "./distance.ts";
import { block, freeCell, frontOf, nextStart, refreshFront, type CellBox, type Front } from "./front.ts";
import { CellGrid } from "./grid.ts";
import { stayDownLink, straightClear } from "./links.ts";
import { MaterialModel } from "./material-model.ts";
import { walk } from "./walk.ts";

export interface AdaptiveSpec extends ClearSpec {
  /** the target radial engagement (mm); `parameters.feed_mm_min` is the feed for it */
  engagement_mm: number;
  /** the feed of the entry and of the passes along the walls */
  base_feed_mm_min: number;
  /** the work the clearing may do (budget.ts); once spent no more paths are walked and the region's result is what was made (the roughing makes no operation) */
  budget?: WorkBudget;
}

/** cells are about this fraction of the target engagement: a step's cut is some 50 cells */
const CELLS_PER_ENGAGEMENT = 10;
const MIN_CELL_MM = 0.03;
const MAX_CELL_MM = 0.2;
/** the grid is coarsened beyond this many cells */
const MAX_CELLS = 6_000_000;
/** the tightest bend of a path as a fraction of the tool's diameter */
const MIN_BEND_RADIUS_D = 0.1;
/** a path cutting less than this many steps' target is not started there again */
const WORTHWHILE_STEPS = 4;
/** a stay-down link may be this many times the straight distance, plus LINK_SLACK_MM */
const LINK_DETOUR = 2;
const LINK_SLACK_MM = 20;
/** kept from the region's edge by the paths: the cells' own error, so the cells never leave the region */
const EDGE_CELLS = 1;
/** simplification of a path's polyline (mm) */
const PATH_TOLERANCE_MM = 0.005;
const MAX_PATHS = 20_000;
const MAX_STEPS = 400_000;

export function clearRegionAdaptive(spec: AdaptiveSpec): ClearResult {
  const { z, cutter, engagement_mm: engagement } = spec;
  const radius = cutter.diameter / 2;
  const baseParameters = { ...spec.parameters, feed_mm_min: spec.base_feed_mm_min, stepover_mm: engagement };
  const cleanup = (material: Paths64, from: Vec2 | null): ClearResult =>
    clearRegion({ ...spec, material, parameters: baseParameters, from });

  const rectMm = expandRect(bounds(spec.region), radius + 1);
  const width = (rectMm.right - rectMm.left) / SCALE;
  const height = (rectMm.bottom - rectMm.top) / SCALE;
  let cell = Math.min(MAX_CELL_MM, Math.max(MIN_CELL_MM, engagement / CELLS_PER_ENGAGEMENT));
  cell = Math.max(cell, Math.sqrt((width * height) / MAX_CELLS));
  const grid = new CellGrid(rectMm, cell);
  const allowed = grid.fill(offset(spec.region, -EDGE_CELLS * cell));
  const cells = grid.fill(clipToRect(spec.material, rectMm));
  // only what the tool reaches from an allowed cell: the rest is the walls' band, for the cleanup
  const fromAllowed = squaredDistances(allowed, grid.nx, grid.ny);
  // material no tool position reaches by more than a cell is the cleanup's
  const reach = (radius - cell) / cell;
  for (let i = 0; i < cells.length; i += 1) if ((fromAllowed[i] as number) > reach * reach) cells[i] = 0;
  const model = new MaterialModel(grid, cells, radius);
  spec.budget?.spend(regionWork(grid.size));
  if (model.count() === 0) return cleanup(spec.material, spec.from);

  const cuts: Cut[] = [];
  const walked: Vec2[][] = [];
  let position = spec.from;
  let front = frontOf(model, allowed);
  if (!hasFreeCell(front)) {
    const entry = planEntry({
      region: spec.region,
      z,
      cutter,
      parameters: baseParameters,
      topOver: (a) => spec.heights.over(a),
    });
    if (entry.entry === null) {
      const at = vecOf(spec.region[0]?.[0] ?? { x: 0, y: 0 });
      return {
        cuts: [],
        swept: [],
        end: spec.from,
        skipped: { z, at, area_mm2: area(spec.region), reason: entry.reason },
      };
    }
    cuts.push({ start: entry.entry.start, moves: entry.entry.moves });
    const circle = entry.entry.path.map(vecOf);
    walked.push(circle);
    model.clearAlong(circle);
    position = xy(entry.entry.end);
    front = frontOf(model, allowed);
  }

  // long enough for the leading edge to lie beyond the disc cleared before it (material-model.ts engagementAt)
  const step = Math.max(2 * cell, 1.2 * Math.sqrt(radius * cell), Math.min(engagement, radius / 4));
  const bend = Math.max(step, MIN_BEND_RADIUS_D * cutter.diameter);
  const maxTurn = 2 * Math.asin(Math.min(1, step / (2 * bend)));
  const blocked = new Uint8Array(grid.size);
  const feed = spec.parameters.feed_mm_min;
  // the front and free cells are decided within this distance of the material
  const horizon = radius + engagement + 2 * cell;
  for (let n = 0; n < MAX_PATHS; n += 1) {
    // past its budget the roughing makes nothing (level-clearing.ts): no passes for what is left
    if (spec.budget?.exhausted) return { cuts, swept: [], skipped: null, end: position };
    const start = nextStart(front, engagement, blocked, position);
    if (start === null) break;
    const path = walk({
      model,
      allowed,
      start: start.point,
      heading: start.heading,
      engagement,
      step,
      maxTurn,
      maxSteps: MAX_STEPS,
    });
    spec.budget?.spend(stepsWork(path.steps, radius / cell));
    if (path.cut < WORTHWHILE_STEPS * engagement * step) block(grid, blocked, start.index, radius);
    if (path.points.length < 2) continue;
    const from = position;
    const link =
      from === null
        ? null
        : stayDownLink(
            front,
            from,
            start.point,
            LINK_DETOUR * Math.hypot(start.point[0] - from[0], start.point[1] - from[1]) + LINK_SLACK_MM,
          );
    cuts.push(adaptiveCut({ front, z, from, link, points: path.points, feed }));
    if (from !== null && link !== null) walked.push([from, ...link]);
    walked.push(path.points);
    // where the writer will be: the path's end in Clipper units
    position = vecOf(pathOf([path.points[path.points.length - 1] as Vec2])[0] as { x: number; y: number });
    const box = cellBox(grid, path.points, radius);
    refreshFront(front, model, box, horizon);
    spec.budget?.spend(boxWork(box, horizon / cell));
  }

  const swept = sweepCleared(
    walked.map((points) => pathOf(points)),
    radius,
  );
  const rest = cleanup(difference(spec.material, swept), position);
  return {
    cuts: [...cuts, ...rest.cuts],
    swept: union(swept, rest.swept),
    skipped: rest.skipped,
    end: rest.end ?? position,
  };
}

/** The cells a tool of `radius` reached along `points`. */
function cellBox(grid: CellGrid, points: readonly Vec2[], radius: number): CellBox {
  let box: CellBox = { x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity };
  for (const p of points) {
    box = {
      x0: Math.min(box.x0, Math.floor((p[0] - radius - grid.x0) / grid.cell)),
      y0: Math.min(box.y0, Math.floor((p[1] - radius - grid.y0) / grid.cell)),
      x1: Math.max(box.x1, Math.ceil((p[0] + radius - grid.x0) / grid.cell)),
      y1: Math.max(box.y1, Math.ceil((p[1] + radius - grid.y0) / grid.cell)),
    };
  }
  return box;
}

/** The cells refreshFront reads round a box grown by `margin` cells (twice: the window it writes and the one it reads). */
function boxWork(box: CellBox, margin: number): number {
  return (box.x1 - box.x0 + 1 + 4 * margin) * (box.y1 - box.y0 + 1 + 4 * margin);
}

function hasFreeCell(front: Front): boolean {
  for (let i = 0; i < front.distances.length; i += 1) if (freeCell(front, i)) return true;
  return false;
}

/** A path as a cut: its feed link from the last path's end, or straight from elsewhere when that is clear. */
function adaptiveCut(spec: {
  front: Front;
  z: number;
  from: Vec2 | null;
  link: Vec2[] | null;
  points: Vec2[];
  feed: number;
}): Cut {
  const { front, z, from, link, points } = spec;
  const first = points[0] as Vec2;
  const start: Vec3 = [first[0], first[1], z];
  const path = ramerDouglasPeucker(pathOf(points), PATH_TOLERANCE_MM * SCALE);
  return {
    start,
    moves: polylineMoves(path, z, spec.feed),
    linkInAir: true,
    linkFrom: (at) => {
      if (from !== null && at[0] === from[0] && at[1] === from[1])
        return link === null ? null : link.map((p): Vec3 => [p[0], p[1], z]);
      return straightClear(front, xy(at), first) ? [start] : null;
    },
  };
}
