/**
 * Pencil (rest) finishing after 3D finishing: a smaller ball end mill along the concave valleys
 * the finishing ball could not reach into (rest-areas.ts), a fillet tighter than it or a sharp
 * corner where a curved face meets another.
 *
 * Each valley is finished by passes along its length (its cells' principal axis), spaced as the
 * target scallop allows the smaller ball on the valley's steepest slope (STEEPEST_DEG at most): one pass
 * down a valley narrower than the spacing (a pencil pass), a few side by side across a wider one
 * (rest finishing). The passes cover the valley grown by the ball's radius and are cut to the
 * points within that distance of it, within the tool's reach below the stock's top. The tip
 * follows the drop over the part with its holes plugged and the workholding's boxes, as the 3D
 * finishing's does; passes whose ends are close are joined down on the part, else the writer
 * lifts between them.
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
import type { Cutter, Move, Vec2, Vec3 } from "../types.ts";
import { surfaceCutter } from "./cutters.ts";
import { DropCutter, dropLine, type LineSampling } from "./drop-cutter.ts";
import { restAreas, type RestArea } from "./rest-areas.ts";
import { stepoverForScallop } from "./scallop.ts";
import { simplifyRun } from "./simplify-run.ts";
import { squaredSteps, stretches } from "./surface-passes.ts";
import { facesSoup, joiningLink, type SurfaceJob } from "./surface-finishing.ts";
import type { BoxXY } from "./triangle-grid.ts";

/**
 * The rest map's cells (mm). Its envelopes are exact only at the cells' centres: a ball whose
 * radius equals a fillet's finishes it from one line, which a grid misses by up to half a cell.
 * On NIST CTC-01's R5 fillets under a 10 mm ball that reads as up to 0.106 mm of rest at
 * 0.25 mm cells, where the 3D finishing leaves none.
 */
const REST_CELL_MM = 0.25;
/** a valley whose rest is nowhere thicker than this is none (mm): above the grid's misreading (REST_CELL_MM), far below a sharp valley's */
const REST_MIN_MM = 0.12;
/**
 * Passes along a valley are spaced for the scallop on its steepest slope, up to this (degrees): a
 * fillet's passes stepped for 45° left 0.027 mm where it stands at 65° (on STC-06's boss fillet
 * under an 8 mm ball), and a fillet's top, near upright, would take passes without end.
 */
const STEEPEST_DEG = 75;
/** drop sampling along a pass, as the 3D finishing's (surface-finishing.ts) */
const DROP_STEP_MM = 0.5;
const DROP_TOLERANCE_MM = 0.002;
/** a run's points within this of the straight move past them are left out (mm), as the 3D finishing's */
const SIMPLIFY_MM = 0.001;
/** where along a move the drop is checked again (refined) */
const REFINE_AT = [0.5, 0.25, 0.75];
/** passes whose ends are at most this many stepovers (at least a cutter radius) apart are joined down on the part */
const LINK_STEPOVERS = 3;

/** The 3D finishing's faces and tool, and the scallop the pencil passes may leave. */
export interface PencilJob extends SurfaceJob {
  /** the ball end mill that finished the faces before */
  finishing: Cutter;
}

export function pencilFinishing(request: MillingRequest, job: PencilJob): MillingOutcome {
  const { tool, parameters } = request;
  const unusable = unusableTool(tool, parameters);
  if (unusable) return refusal(unusable);
  if (tool.kind !== "ball") return refusal(`${tool.name} is no ball end mill`);
  if (job.finishing.kind !== "ball" || job.finishing.diameter <= tool.diameter)
    return refusal(`${tool.name} is no smaller than the 3D finishing's ${job.finishing.name}`);
  const cutter = surfaceCutter(tool);
  const drop = new DropCutter(job.soup, cutter);
  const lowest = request.stock.top_z - wallReach(tool);
  const faces = facesSoup(job, lowest);
  if (faces.indices.length === 0) return refusal(`the sloped and curved faces lie below the reach of ${tool.name}`);
  const areas = restAreas({
    finishing: new DropCutter(job.soup, surfaceCutter(job.finishing)),
    pencil: drop,
    faces,
    part: job.part,
    box: soupBox(faces.positions, faces.indices),
    cell: REST_CELL_MM,
    threshold_mm: job.scallop_mm,
    least_mm: Math.max(REST_MIN_MM, job.scallop_mm),
  });
  if (areas.length === 0) return refusal(`${job.finishing.name} left no valley that ${tool.name} reaches into`);

  const reach = (p: Vec3) => p[2] >= lowest;
  const spacing = (area: RestArea) =>
    stepoverForScallop(cutter, { scallop: job.scallop_mm, slopeDeg: Math.min(STEEPEST_DEG, area.steepest_deg) });
  const sampling = (stepover: number): LineSampling => ({
    step: Math.min(DROP_STEP_MM, stepover * 2),
    tolerance: DROP_TOLERANCE_MM,
  });
  const runs = areas.flatMap((area) => {
    const stepover = spacing(area);
    return valleyRuns(drop, area, { stepover, sampling: sampling(stepover), reach });
  });
  if (runs.length === 0) return refusal(`${tool.name} cuts none of the valleys within its reach`);
  // the widest spacing: what the operation tells, and how far passes are joined down on the part
  const stepover = Math.max(...areas.map(spacing));

  const writer = requestWriter(request);
  const feed = parameters.feed_mm_min;
  const linkReach = Math.max(LINK_STEPOVERS * stepover, cutter.radius);
  let cut: { start: Vec3; moves: Move[] } | null = null;
  let at: Vec3 | null = null;
  for (const raw of runs) {
    const run = simplifyRun(raw, SIMPLIFY_MM);
    const start = run[0] as Vec3;
    const link =
      at === null ? null : joiningLink(drop, at, start, { reach: linkReach, inReach: reach }, sampling(stepover));
    if (cut !== null && link !== null) cut.moves.push(...link.map((to): Move => ({ kind: "linear", to, feed })));
    else {
      if (cut !== null) writer.append(cut);
      cut = { start, moves: [] };
    }
    cut.moves.push(...run.slice(1).map((to): Move => ({ kind: "linear", to, feed })));
    at = run.at(-1) as Vec3;
  }
  if (cut !== null) writer.append(cut);
  const moves = writer.finish();
  const spaced = { ...parameters, stepover_mm: Math.round(stepover * 1e4) / 1e4 };
  const operation = makeOperation(
    { ...request, parameters: spaced },
    "surface_finishing",
    `Pencil finishing with ${tool.name}`,
    writer.clearance_z,
    moves,
  );
  return { operation, reason: null, cleared: [], skipped: [], notes: [] };
}

/**
 * A valley's passes along its principal axis, zig-zag, `stepover` apart across it, over its cells
 * grown by the cutter's radius, each cut to the points within that distance of a cell.
 */
function valleyRuns(
  drop: DropCutter,
  area: RestArea,
  pass: { stepover: number; sampling: LineSampling; reach: (p: Vec3) => boolean },
): Vec3[][] {
  const radius = drop.cutter.radius;
  const near = nearCells(area.cells, radius + REST_CELL_MM);
  const [u, v] = principalAxes(area.cells);
  const along = area.cells.map((c) => c[0] * u[0] + c[1] * u[1]);
  const across = area.cells.map((c) => c[0] * v[0] + c[1] * v[1]);
  const u0 = Math.min(...along) - radius;
  const u1 = Math.max(...along) + radius;
  const v0 = Math.min(...across) - radius;
  const v1 = Math.max(...across) + radius;
  const lines = Math.max(1, Math.ceil((v1 - v0) / pass.stepover));
  const runs: Vec3[][] = [];
  for (let k = 0; k < lines; k += 1) {
    const w = v0 + ((k + 0.5) * (v1 - v0)) / lines;
    const [a, b] = k % 2 === 0 ? [u0, u1] : [u1, u0];
    const from: [number, number] = [a * u[0] + w * v[0], a * u[1] + w * v[1]];
    const to: [number, number] = [b * u[0] + w * v[0], b * u[1] + w * v[1]];
    const points = dropLine(drop, { from, to }, pass.sampling);
    const all: Vec3[] = [];
    for (let i = 0; i < points.length; i += 3)
      all.push([points[i] as number, points[i + 1] as number, points[i + 2] as number]);
    for (const run of stretches(all, (p) => pass.reach(p) && near(p[0], p[1])))
      runs.push(squaredSteps(refined(drop, run, pass.sampling), pass.sampling));
  }
  return runs;
}

/**
 * A run with points put in wherever the drop a quarter, half or three quarters along a move stands
 * above the move by more than the tolerance, down to the sampling's shortest step. The drop's
 * midpoint test misses where the ball's rim passes a steep face's edge within an interval: the
 * tip's path bends there, and on NIST STC-06 the straight move between its ends took the ball's
 * side 0.075 mm into a dome.
 */
function refined(drop: DropCutter, run: readonly Vec3[], sampling: LineSampling): Vec3[] {
  const shortest = sampling.minStep ?? sampling.step / 64;
  const out: Vec3[] = [run[0] as Vec3];
  const between = (a: Vec3, b: Vec3): void => {
    if (Math.hypot(b[0] - a[0], b[1] - a[1]) > shortest)
      for (const t of REFINE_AT) {
        const x = a[0] + t * (b[0] - a[0]);
        const y = a[1] + t * (b[1] - a[1]);
        const z = drop.dropAt(x, y);
        if (z > a[2] + t * (b[2] - a[2]) + sampling.tolerance) {
          between(a, [x, y, z]);
          between([x, y, z], b);
          return;
        }
      }
    out.push(b);
  };
  for (let i = 1; i < run.length; i += 1) between(run[i - 1] as Vec3, run[i] as Vec3);
  return out;
}

/** The unit direction the cells spread along most, and the one across it. */
function principalAxes(cells: readonly Vec2[]): [Vec2, Vec2] {
  let mx = 0;
  let my = 0;
  for (const [x, y] of cells) {
    mx += x / cells.length;
    my += y / cells.length;
  }
  let sxx = 0;
  let sxy = 0;
  let syy = 0;
  for (const [x, y] of cells) {
    sxx += (x - mx) ** 2;
    sxy += (x - mx) * (y - my);
    syy += (y - my) ** 2;
  }
  const angle = 0.5 * Math.atan2(2 * sxy, sxx - syy);
  return [
    [Math.cos(angle), Math.sin(angle)],
    [-Math.sin(angle), Math.cos(angle)],
  ];
}

/** Whether a point lies within `distance` of one of the cells' centres (a hash of buckets `distance` wide). */
function nearCells(cells: readonly Vec2[], distance: number): (x: number, y: number) => boolean {
  const buckets = new Map<string, Vec2[]>();
  const key = (i: number, j: number) => `${i},${j}`;
  for (const c of cells) {
    const k = key(Math.floor(c[0] / distance), Math.floor(c[1] / distance));
    const bucket = buckets.get(k) ?? [];
    bucket.push(c);
    buckets.set(k, bucket);
  }
  return (x, y) => {
    const i = Math.floor(x / distance);
    const j = Math.floor(y / distance);
    for (let b = j - 1; b <= j + 1; b += 1)
      for (let a = i - 1; a <= i + 1; a += 1)
        for (const c of buckets.get(key(a, b)) ?? []) if (Math.hypot(c[0] - x, c[1] - y) <= distance) return true;
    return false;
  };
}

/** The XY box of a soup's indexed corners. */
export function soupBox(positions: ArrayLike<number>, indices: ArrayLike<number>): BoxXY {
  const box = { minX: Infinity, minY: Infinity, maxX: -Infinity, maxY: -Infinity };
  for (let k = 0; k < indices.length; k += 1) {
    const v = indices[k] as number;
    box.minX = Math.min(box.minX, positions[3 * v] as number);
    box.maxX = Math.max(box.maxX, positions[3 * v] as number);
    box.minY = Math.min(box.minY, positions[3 * v + 1] as number);
    box.maxY = Math.max(box.maxY, positions[3 * v + 1] as number);
  }
  return box;
}
