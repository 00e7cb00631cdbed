/**
 * 3D finishing of sloped and curved faces with a ball or bull-nose end mill: the faces'
 * triangles split by slope at SPLIT_DEG (finish-regions.ts), the shallow ones finished by
 * parallel drop-cutter passes along X (zig-zag), the steep ones by waterline loops at constant Z
 * (surface-passes.ts), every pass cut to where the cutter touches the faces of its class.
 *
 * Spacing from the target scallop (scallop.ts): the parallel passes step over what the scallop
 * allows on a plane at the split angle with the passes along its contours (the worst a shallow
 * face gives: less slope or a pass down the fall line leaves less), the waterline loops step down
 * that stepover times tan(split) (the same contours seen from the steep side: a ball's surface
 * spacing, its stepdown over sin of the slope, only grows steeper).
 *
 * The tool's tip follows the drop (drop-cutter.ts) over the part with its holes plugged and the
 * workholding's boxes (the request's `soup`): it never enters either. Runs whose ends lie within
 * LINK_STEPOVERS of each other are joined down on the part (the drop between them); otherwise
 * the writer (milling/linking.ts) lifts to the rapid clearance and comes down again. The tip
 * goes as deep as the tool's neck, shank and holder clear what stands under them there
 * (tool-clearance.ts): a dome's flank far below the stock's top is finished, a fillet at the
 * foot of a tall wall the shank would rub is not. A setup's faces come in groups, one operation
 * each (planner/surface-groups.ts), the drop and the clearance built once per tool for them all
 * (SurfaceTooling). The stock is left as it is for the generators after it (like troughs.ts, it
 * runs after the 2.5D finishing).
 */
import {
  makeOperation,
  refusal,
  requestWriter,
  unusableTool,
  type MillingOutcome,
  type MillingRequest,
} from "../milling/operation.ts";
import { RAPID_CLEARANCE_MM } from "../milling/linking.ts";
import { largestScallop } from "../simulation/scallop-left.ts";
import type { Cutter, Move, TriangleSoup, Vec2, Vec3 } from "../types.ts";
import { surfaceCutter } from "./cutters.ts";
import { DropCutter, dropLine, type LineSampling } from "./drop-cutter.ts";
import { areaAndNormalZ, finishRegions, type FacesToFinish } from "./finish-regions.ts";
import { stepoverForScallop } from "./scallop.ts";
import { simplifyRun } from "./simplify-run.ts";
import { parallelRuns, squaredSteps, stretches, WaterlineGrids, waterlineRuns, type ZBand } from "./surface-passes.ts";
import { ToolClearance } from "./tool-clearance.ts";

/** faces steeper than this from level are finished by waterline, shallower ones by parallel passes (degrees) */
export const SPLIT_DEG = 45;
/**
 * Drop sampling along a pass: at most this far apart (mm), refined where the drop leaves the
 * chord by more than DROP_TOLERANCE_MM (a tenth of the simulation's gouge tolerance, within the
 * part's 0.01 mm mesh).
 */
const DROP_STEP_MM = 0.5;
const DROP_TOLERANCE_MM = 0.002;
/**
 * The waterline's fibres at most this far apart: a loop round a convex face of radius r runs
 * chords of that length, which stand step² / 8r inside it (0.003 mm on a 2 mm ball at 0.15).
 * The fibres' drops are most of the operation's making: on NIST STC-06's +Z setup a 16 mm
 * bull-nose took 80 s at 0.25 mm.
 */
const WATERLINE_STEP_MM = 0.5;
/** how far inside a convex face a waterline chord may stand (mm): sets the fibre step of small cutters */
const WATERLINE_SAG_MM = 0.003;
/** a run's points within this of the straight move past them are left out (mm): a third of the waterline's leave (surface-passes.ts) */
const SIMPLIFY_MM = 0.001;
/** patches of the finished faces the scallop is measured on (simulation/scallop-left.ts): 2 mm each, a few tenths of a second together */
const SCALLOP_PATCHES = 8;
/** rapid descents stop this much higher above the material seen than other operations' (mm): see the writer */
const DESCENT_MARGIN_MM = 1;
/** the drop against the operation's own faces within this of the whole drop: the cutter touches them there (mm), as the passes' own test */
const OWN_CONTACT_MM = 1e-6;
/** the own faces' drop where none of them is under the cutter: far below anything */
const NOWHERE = -1e9;
/**
 * Runs a link along the part cannot join (the tool's shank or holder would not clear the part
 * between them: a deep dome's waterline at the edge of the tool's reach breaks every few tenths of
 * a millimetre) are joined by a hop this high or less above the higher end (mm, tried in turn)
 * where the tool clears over the gap: each break was a retract to the clearance and a descent of
 * several millimetres at the plunge feed (NIST STC-06's +Z deep bands, 1,700 retracts each).
 */
const HOPS_MM = [0.5, 1, 2, 4] as const;
/** a hop's tip stays this far above the highest drop under its way across (mm) */
const HOP_ABOVE_MM = 0.05;
/** runs whose ends are at most this many stepovers (at least a cutter radius) apart are joined down on the part */
const LINK_STEPOVERS = 3;
/** a joining link along the part may rise at most this many cutter radii above its ends, else it lifts */
const LINK_RISE_RADII = 0.5;

/** What the request's tool finishes, and how finely. */
export interface SurfaceJob extends FacesToFinish {
  /** what the tip keeps out of: the part with its holes plugged and the workholding's boxes (setup frame) */
  soup: TriangleSoup;
  /** the scallop height left between passes (mm) */
  scallop_mm: number;
  /** the drops and clearances shared with the other operations over `soup`; made for this one when absent */
  tooling?: SurfaceTooling;
  /** the tip's heights this operation keeps to (a face too large for one: planner/surface-groups.ts); all when absent */
  band?: ZBand;
}

/** What one tool's drop over the soup and its bodies' clearance cost to build, shared by its operations. */
export interface ToolSurfaces {
  drop: DropCutter;
  clearance: ToolClearance;
  /** the waterline grids of its faces, for the bands of a face after the first */
  grids: WaterlineGrids;
}

/**
 * The drop and the clearance of each tool over one soup, built on first use and kept: a setup's
 * face groups are finished in several operations by one tool, and the clearance keeps its
 * answers per square (tool-clearance.ts), which the later groups read again.
 */
export class SurfaceTooling {
  private readonly byTool = new Map<string, ToolSurfaces>();

  constructor(readonly soup: TriangleSoup) {}

  of(tool: Cutter): ToolSurfaces {
    let made = this.byTool.get(tool.assembly_uuid);
    if (made === undefined) {
      made = {
        drop: new DropCutter(this.soup, surfaceCutter(tool)),
        clearance: new ToolClearance(tool, this.soup),
        grids: new WaterlineGrids(),
      };
      this.byTool.set(tool.assembly_uuid, made);
    }
    return made;
  }
}

export function surfaceFinishing(request: MillingRequest, job: SurfaceJob): MillingOutcome {
  const { tool, parameters } = request;
  const unusable = unusableTool(tool, parameters);
  if (unusable) return refusal(unusable);
  if (tool.kind !== "ball" && tool.kind !== "bull") return refusal(`${tool.name} is no ball or bull-nose end mill`);
  if (job.faces.length === 0) return refusal("no sloped or curved face to finish");
  const cutter = surfaceCutter(tool);
  const { drop, clearance, grids } = (job.tooling ?? new SurfaceTooling(job.soup)).of(tool);
  const band = job.band ?? { low: -Infinity, high: Infinity };
  const reach = (p: Vec3) => p[2] >= band.low && p[2] < band.high && clearance.clear(p);
  const all = finishRegions(job, cutter, SPLIT_DEG);
  // a shallow face's passes touch it from its lowest point less a radius up to its top
  const inBand = (c: { low: number; high: number }) => c.high >= band.low && c.low - cutter.radius < band.high;
  const regions = { steep: all.steep, shallow: all.shallow.filter(inBand) };
  const stepover = stepoverForScallop(cutter, { scallop: job.scallop_mm, slopeDeg: SPLIT_DEG });
  const sampling: LineSampling = { step: Math.min(DROP_STEP_MM, stepover * 2), tolerance: DROP_TOLERANCE_MM };
  const stepdown = stepover * Math.tan((SPLIT_DEG * Math.PI) / 180);
  const fibre = Math.min(WATERLINE_STEP_MM, Math.sqrt(8 * cutter.radius * WATERLINE_SAG_MM));
  const runs = [
    ...regions.steep.flatMap((face) => waterlineRuns(drop, face, { stepdown, step: fibre }, { band, grids })),
    ...regions.shallow.flatMap((face) => parallelRuns(drop, face, stepover, sampling)),
  ];
  if (runs.length === 0) return refusal("the cutter touches none of the sloped or curved faces");

  // the descents come down among the 2.5D finishing's terraces on deep faces, which the
  // request's stock model places lower than they stand: NIST STC-06's +Z had 27 rapids end
  // 1.92 mm from them against the 2 mm kept, so this writer keeps DESCENT_MARGIN_MM more
  const writer = requestWriter({
    ...request,
    rapid_clearance_mm: (request.rapid_clearance_mm ?? RAPID_CLEARANCE_MM) + DESCENT_MARGIN_MM,
  });
  const feed = parameters.feed_mm_min;
  const linkReach = Math.max(LINK_STEPOVERS * stepover, cutter.radius);
  let cut: { start: Vec3; moves: Move[] } | null = null;
  let at: Vec3 | null = null;
  for (const raw of runs.flatMap((run) => stretches(run, reach))) {
    const run = simplifyRun(at === null ? raw : nearestStart(raw, at), SIMPLIFY_MM);
    const start = run[0] as Vec3;
    const link = at === null ? null : joiningLink(drop, at, start, { reach: linkReach, inReach: reach }, sampling);
    const hop =
      at === null || link !== null
        ? null
        : hopLink(drop, at, start, { reach: linkReach, clear: (p) => clearance.clear(p) }, sampling);
    if (cut === null || (link === null && hop === null)) {
      if (cut !== null) writer.append(cut);
      cut = { start, moves: [] };
    } else if (link !== null) {
      for (const p of link) cut.moves.push({ kind: "linear", to: p, feed });
    } else if (hop !== null) {
      // up and across at the feed, down onto the start at the plunge feed (what the writer's
      // descents take through the last of the material)
      const [up, across, down] = hop as [Vec3, Vec3, Vec3];
      cut.moves.push(
        { kind: "linear", to: up, feed },
        { kind: "linear", to: across, feed },
        { kind: "linear", to: down, feed: parameters.plunge_feed_mm_min },
      );
    }
    for (const p of run.slice(1)) cut.moves.push({ kind: "linear", to: p, feed });
    at = run.at(-1) as Vec3;
  }
  if (cut === null) return refusal(`the shank or holder of ${tool.name} would rub wherever it touches the faces`);
  writer.append(cut);
  const moves = writer.finish();
  const name = `3D finishing of sloped and curved faces with ${tool.name}`;
  // the passes' own spacing, not the cutting data's: what the setup sheet and the plan tell
  const spaced = { ...parameters, stepover_mm: round4(stepover), stepdown_mm: round4(stepdown) };
  const operation = makeOperation(
    { ...request, parameters: spaced },
    "surface_finishing",
    name,
    writer.clearance_z,
    moves,
  );
  const faces = facesSoup(job);
  // what the operation's passes are for: the cutter touching its own faces (a place where it
  // touches another group's face first is that group's operation's), and within a band away from
  // its edges, which are its neighbours' to finish (its lowest level may stand a stepdown above
  // its low edge)
  const own = new DropCutter(faces, cutter, { floor: NOWHERE });
  const margin = Math.max(stepover, stepdown);
  const inner = (p: Vec3) =>
    p[2] >= band.low + margin &&
    p[2] < band.high - margin &&
    own.dropAt(p[0], p[1]) >= p[2] - OWN_CONTACT_MM &&
    clearance.clear(p);
  const scallop = largestScallop({
    operation,
    part: job.part,
    faces,
    centres: patchCentres(faces, SCALLOP_PATCHES, (x, y) => reachedAt(drop, inner, x, y)),
    reach: {
      drop: (x, y) => drop.dropAt(x, y),
      radius: cutter.radius,
      height: (rho) => cutter.height(rho),
      allowed: inner,
    },
  });
  return {
    operation: scallop === null ? operation : { ...operation, scallop_mm: round4(scallop) },
    reason: null,
    cleared: [],
    skipped: [],
    notes: [],
  };
}

/** The finished faces' triangles facing up whose top is above `lowest` (a tool's reach below the stock's top). */
export function facesSoup(job: FacesToFinish, lowest = -Infinity): TriangleSoup {
  const wanted = new Set(job.faces);
  const { positions, indices } = job.part;
  const kept: number[] = [];
  for (let t = 0; t < indices.length / 3; t += 1) {
    if (!wanted.has(job.triangleFaces[t] as number) || areaAndNormalZ(positions, indices, t)[1] <= 0) continue;
    const corners = [indices[3 * t] as number, indices[3 * t + 1] as number, indices[3 * t + 2] as number];
    if (Math.max(...corners.map((v) => positions[3 * v + 2] as number)) < lowest) continue;
    kept.push(...corners);
  }
  return { positions, indices: Uint32Array.from(kept) };
}

/**
 * The centroids of `count` triangles spread evenly through the soup's order (each face's in
 * turn), of those where `reached` holds: the cutter touching the triangle there within reach.
 */
function patchCentres(soup: TriangleSoup, count: number, reached: (x: number, y: number) => boolean): Vec2[] {
  const { positions, indices } = soup;
  const triangles = indices.length / 3;
  const candidates: Vec2[] = [];
  for (let t = 0; t < triangles; t += 1) {
    let x = 0;
    let y = 0;
    for (let c = 0; c < 3; c += 1) {
      const v = indices[3 * t + c] as number;
      x += (positions[3 * v] as number) / 3;
      y += (positions[3 * v + 1] as number) / 3;
    }
    candidates.push([x, y]);
  }
  // evenly through the order, each pick the first reached triangle from its place on
  const centres: Vec2[] = [];
  const picks = Math.min(count, triangles);
  for (let k = 0; k < picks; k += 1) {
    const from = Math.floor((k * triangles) / picks);
    const to = Math.floor(((k + 1) * triangles) / picks);
    for (let t = Math.floor((from + to) / 2), n = 0; n < to - from; n += 1, t = t + 1 < to ? t + 1 : from) {
      const centre = candidates[t] as Vec2;
      if (!reached(centre[0], centre[1])) continue;
      centres.push(centre);
      break;
    }
  }
  return centres;
}

/**
 * Whether the cutter touching the part at (x, y) is within reach: the tip dropped a little way
 * round it (where a ball touching a slope stands) and its bodies clear there. A patch's cells
 * on a face no pass could reach say nothing about the passes' scallop.
 */
function reachedAt(drop: DropCutter, reach: (p: Vec3) => boolean, x: number, y: number): boolean {
  const r = drop.cutter.radius / 2;
  for (const [dx, dy] of [
    [0, 0],
    [r, 0],
    [-r, 0],
    [0, r],
    [0, -r],
  ] as const) {
    const z = drop.dropAt(x + dx, y + dy);
    if (reach([x + dx, y + dy, z])) return true;
  }
  return false;
}

const round4 = (x: number) => Math.round(x * 1e4) / 1e4;

/** A closed run (a whole waterline loop) turned to start at its point nearest `at`; an open one as it is. */
function nearestStart(run: Vec3[], at: Vec3): Vec3[] {
  const first = run[0] as Vec3;
  const last = run.at(-1) as Vec3;
  if (run.length < 3 || first[0] !== last[0] || first[1] !== last[1]) return run;
  let best = 0;
  let distance = Infinity;
  for (let i = 0; i < run.length - 1; i += 1) {
    const p = run[i] as Vec3;
    const d = Math.hypot(p[0] - at[0], p[1] - at[1], p[2] - at[2]);
    if (d < distance) {
      distance = d;
      best = i;
    }
  }
  const open = run.slice(0, -1);
  return [...open.slice(best), ...open.slice(0, best), open[best] as Vec3];
}

/**
 * The tip's path along the part from `from` to `to`, ending at `to`; null when they are farther
 * apart than `reach`, or it would climb or leave the tool's reach.
 */
export function joiningLink(
  drop: DropCutter,
  from: Vec3,
  to: Vec3,
  bounds: { reach: number; inReach: (p: Vec3) => boolean },
  sampling: LineSampling,
): Vec3[] | null {
  if (Math.hypot(to[0] - from[0], to[1] - from[1]) > bounds.reach) return null;
  const points = dropLine(drop, { from: [from[0], from[1]], to: [to[0], to[1]] }, sampling);
  const ceiling = Math.max(from[2], to[2]) + LINK_RISE_RADII * drop.cutter.radius;
  const path: Vec3[] = [];
  for (let i = 3; i < points.length - 3; i += 3) {
    const p: Vec3 = [points[i] as number, points[i + 1] as number, points[i + 2] as number];
    if (p[2] > ceiling || !bounds.inReach(p)) return null;
    path.push(p);
  }
  // the tip is at the ends already (a waterline's z is the drop's within its tolerance): never below the part
  const end = points.length / 3 - 1;
  const endDrop = points[3 * end + 2] as number;
  if (endDrop > to[2] + DROP_TOLERANCE_MM) return null;
  path.push(to);
  return squaredSteps([from, ...path], sampling).slice(1);
}

/**
 * From `from` up, across and down onto `to` (the points after `from`), at the lowest hop of
 * HOPS_MM where the tip stays above the part across and the tool's bodies clear all the way;
 * null when the ends are farther apart than `reach` or no hop clears.
 */
export function hopLink(
  drop: DropCutter,
  from: Vec3,
  to: Vec3,
  bounds: { reach: number; clear: (p: Vec3) => boolean },
  sampling: LineSampling,
): Vec3[] | null {
  if (Math.hypot(to[0] - from[0], to[1] - from[1]) > bounds.reach) return null;
  const points = dropLine(drop, { from: [from[0], from[1]], to: [to[0], to[1]] }, sampling);
  let highest = -Infinity;
  for (let i = 2; i < points.length; i += 3) highest = Math.max(highest, points[i] as number);
  const base = Math.max(from[2], to[2]);
  for (const hop of HOPS_MM) {
    const z = Math.max(base + hop, highest + HOP_ABOVE_MM);
    if (z > base + (HOPS_MM.at(-1) as number)) return null;
    let clear = true;
    for (let i = 0; i < points.length && clear; i += 3)
      clear = bounds.clear([points[i] as number, points[i + 1] as number, z]);
    if (clear) return [[from[0], from[1], z], [to[0], to[1], z], to];
  }
  return null;
}
