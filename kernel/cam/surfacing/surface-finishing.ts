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
 * LINK_MM of each other are joined down on the part (the drop between them); otherwise the
 * writer (milling/linking.ts) lifts to the rapid clearance and comes down again. The stock is
 * left as it is for the generators after it (like troughs.ts, it runs after the 2.5D finishing).
 */
import {
  makeOperation,
  refusal,
  requestWriter,
  unusableTool,
  type MillingOutcome,
  type MillingRequest,
} from "../milling/operation.ts";
import { wallReach } from "../cutter-shape.ts";
import type { Move, TriangleSoup, Vec3 } from "../types.ts";
import { surfaceCutter } from "./cutters.ts";
import { DropCutter, dropLine, type LineSampling } from "./drop-cutter.ts";
import { finishRegions, type FacesToFinish } from "./finish-regions.ts";
import { stepoverForScallop } from "./scallop.ts";
import { simplifyRun } from "./simplify-run.ts";
import { parallelRuns, squaredSteps, waterlineRuns } from "./surface-passes.ts";

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
 */
const WATERLINE_STEP_MM = 0.25;
/** how far inside a convex face a waterline chord may stand (mm): sets the fibre step of small cutters */
const WATERLINE_SAG_MM = 0.003;
/** a run's points within this of the straight move past them are left out (mm): a third of the waterline's leave (surface-passes.ts) */
const SIMPLIFY_MM = 0.001;
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
}

export function surfaceFinishing(request: MillingRequest, job: SurfaceJob): MillingOutcome {
  const { tool, parameters } = request;
  const unusable = unusableTool(tool, parameters);
  if (unusable) return refusal(unusable);
  if (tool.kind !== "ball" && tool.kind !== "bull") return refusal(`${tool.name} is no ball or bull-nose end mill`);
  if (job.faces.length === 0) return refusal("no sloped or curved face to finish");
  const cutter = surfaceCutter(tool);
  // below its reach the tool's shank would rub the walls round the faces: what lies there is left
  const lowest = request.stock.top_z - wallReach(tool);
  const all = finishRegions(job, cutter, SPLIT_DEG);
  const regions = {
    steep: all.steep.filter((c) => c.high > lowest),
    shallow: all.shallow.filter((c) => c.high > lowest),
  };
  const drop = new DropCutter(job.soup, cutter);
  const stepover = stepoverForScallop(cutter, { scallop: job.scallop_mm, slopeDeg: SPLIT_DEG });
  const sampling: LineSampling = { step: Math.min(DROP_STEP_MM, stepover * 2), tolerance: DROP_TOLERANCE_MM };
  const stepdown = stepover * Math.tan((SPLIT_DEG * Math.PI) / 180);
  const fibre = Math.min(WATERLINE_STEP_MM, Math.sqrt(8 * cutter.radius * WATERLINE_SAG_MM));
  const runs = [
    ...regions.steep.flatMap((face) => waterlineRuns(drop, face, stepdown, fibre)),
    ...regions.shallow.flatMap((face) => parallelRuns(drop, face, stepover, sampling)),
  ];
  if (runs.length === 0) return refusal("the cutter touches none of the sloped or curved faces");

  const writer = requestWriter(request);
  const feed = parameters.feed_mm_min;
  const linkReach = Math.max(LINK_STEPOVERS * stepover, cutter.radius);
  let cut: { start: Vec3; moves: Move[] } | null = null;
  let at: Vec3 | null = null;
  for (const raw of runs.flatMap((run) => above(run, lowest))) {
    const run = simplifyRun(at === null ? raw : nearestStart(raw, at), SIMPLIFY_MM);
    const start = run[0] as Vec3;
    const link = at === null ? null : joiningLink(drop, at, start, { reach: linkReach, lowest }, sampling);
    if (cut === null || link === null) {
      if (cut !== null) writer.append(cut);
      cut = { start, moves: [] };
    } else {
      for (const p of link) cut.moves.push({ kind: "linear", to: p, feed });
    }
    for (const p of run.slice(1)) cut.moves.push({ kind: "linear", to: p, feed });
    at = run.at(-1) as Vec3;
  }
  if (cut === null) return refusal(`the sloped and curved faces lie below the reach of ${tool.name}`);
  writer.append(cut);
  const moves = writer.finish();
  const name = `3D finishing of sloped and curved faces with ${tool.name}`;
  return {
    operation: makeOperation(request, "surface_finishing", name, writer.clearance_z, moves),
    reason: null,
    cleared: [],
    skipped: [],
    notes: [],
  };
}

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
 * apart than `reach`, or it would climb or go below `lowest` (the tool's reach).
 */
function joiningLink(
  drop: DropCutter,
  from: Vec3,
  to: Vec3,
  bounds: { reach: number; lowest: number },
  sampling: LineSampling,
): Vec3[] | null {
  if (Math.hypot(to[0] - from[0], to[1] - from[1]) > bounds.reach) return null;
  const points = dropLine(drop, { from: [from[0], from[1]], to: [to[0], to[1]] }, sampling);
  const ceiling = Math.max(from[2], to[2]) + LINK_RISE_RADII * drop.cutter.radius;
  const path: Vec3[] = [];
  for (let i = 3; i < points.length - 3; i += 3) {
    const p: Vec3 = [points[i] as number, points[i + 1] as number, points[i + 2] as number];
    if (p[2] > ceiling || p[2] < bounds.lowest) return null;
    path.push(p);
  }
  // the tip is at the ends already (a waterline's z is the drop's within its tolerance): never below the part
  const end = points.length / 3 - 1;
  const endDrop = points[3 * end + 2] as number;
  if (endDrop > to[2] + DROP_TOLERANCE_MM) return null;
  path.push(to);
  return squaredSteps([from, ...path], sampling).slice(1);
}

/** The stretches of a run at or above z. */
function above(run: readonly Vec3[], z: number): Vec3[][] {
  const out: Vec3[][] = [];
  let piece: Vec3[] = [];
  for (const p of run) {
    if (p[2] >= z) {
      piece.push(p);
      continue;
    }
    if (piece.length > 1) out.push(piece);
    piece = [];
  }
  if (piece.length > 1) out.push(piece);
  return out;
}
