/**
 * Whether a program's rapids keep their distance from the stock (issue 36: "no rapid comes within
 * 2 mm of the stock box or of the stock left, checked on the programs themselves").
 *
 * A program is read as a control reads it (rs274 for the ISO dialects, our readers for Sinumerik
 * and Heidenhain: both give canonical moves) and replayed over a height field of the setup's
 * stock box (kernel/cam/simulation's, the cutters' shapes from the plan): feeds cut it, and before
 * each rapid the tool, a cylinder of its radius from its tip up, swept along the rapid, is
 * measured against the material left at that moment (rapid-distance.ts). The stock box's faces
 * are the field's edge cells, so a rapid beside the stock is measured to the face.
 *
 * Not judged, because they move away from the material or back into the tool's own cut: a rapid
 * straight up, and a rapid straight down where the tool's last feed went straight down deeper at
 * the same spot (a peck drilling cycle's return into its hole).
 *
 * A later setup starts from what the setups before it left, carried as the planner carries it
 * (kernel/cam/simulation/carried-stock.ts: never thinner than the truth), from the fields this
 * replay left.
 */
import { fromFrame } from "../../kernel/cam/frames.ts";
import { carriedField } from "../../kernel/cam/planner/carried-stock.ts";
import { simulationCellSize } from "../../kernel/cam/planner/verify.ts";
import { carriedTops } from "../../kernel/cam/simulation/carried-stock.ts";
import { DEFAULT_TOLERANCE_MM } from "../../kernel/cam/simulation/checks.ts";
import { stockGrid, stockHeightField, type HeightField } from "../../kernel/cam/simulation/height-field.ts";
import { partHeights } from "../../kernel/cam/simulation/part-heights.ts";
import { SetupRun } from "../../kernel/cam/simulation/simulate.ts";
import { removeBySetup, voxelStock } from "../../kernel/cam/simulation/voxel-stock.ts";
import type { Box3, Cutter, Move, TriangleSoup, Vec3 } from "../../kernel/cam/types.ts";
import type { CamPlan } from "../../kernel/job/plan.ts";
import { readHeidenhain } from "./controls-reader.ts";
import { forRs274, programText } from "./program-checks.ts";
import { type CanonicalMove, readRs274 } from "./rs274.ts";
import { nearestMaterial, type Nearest } from "./rapid-distance.ts";
import { HOME_ABOVE_MM } from "./workholding-clearance.ts";

/** the distance every rapid must keep from the stock, mm (the planner's default rapid_clearance_mm) */
export const RAPID_CLEARANCE_MM = 2;
/**
 * A cell is measured as a whole square column at its centre's height, which may stand up to half
 * the cell's diagonal beyond the material's true wall (never short of it): nearer than the
 * clearance by up to that (at least the simulation's 0.01 mm tolerance) is the clearance. On
 * 0.1 mm cells a rapid 1.93 mm from a wall's cells passes.
 */
function slackOf(cellSize: number): number {
  return Math.max(DEFAULT_TOLERANCE_MM, cellSize * Math.SQRT1_2);
}
/** the part plays no role: material is what the feeds left */
const NO_PART: TriangleSoup = { positions: new Float32Array(0), indices: new Uint32Array(0) };

/** A rapid that came nearer the material than the clearance. */
export interface CloseRapid extends Nearest {
  /** its canonical call's number in the reading */
  call: number;
  tool: number;
  /** the program's last comment before it: the operation's name */
  comment: string;
  from: Vec3;
  to: Vec3;
}

export interface SetupProgram {
  /** the setup's stock box, in its frame (the program's coordinates) */
  stock: Box3;
  /** the cutters by the T number the program calls them by */
  tools: ReadonlyMap<number, Cutter>;
  moves: readonly CanonicalMove[];
  /** the stock the setups before left, on this stock's grid at `cellSize` (none: the whole box) */
  initial?: HeightField;
  cellSize?: number;
  /** mm, RAPID_CLEARANCE_MM when not given */
  clearance?: number;
}

export interface ReplayedSetup {
  close: CloseRapid[];
  /** rapids measured (not straight up, not back into the tool's own cut) */
  judged: number;
  /** the stock the program left */
  field: HeightField;
}

function asMove(move: CanonicalMove): Move {
  if (move.kind === "arc") return { kind: "arc", to: move.to, centre: move.centre, clockwise: move.sweep < 0, feed: 1 };
  return move.kind === "traverse" ? { kind: "rapid", to: move.to } : { kind: "linear", to: move.to, feed: 1 };
}

const sameXY = (a: Vec3, b: Vec3): boolean => Math.abs(a[0] - b[0]) < 1e-6 && Math.abs(a[1] - b[1]) < 1e-6;

/** Replays one setup's program over its stock and reports every rapid nearer than the clearance. */
export function replaySetup(program: SetupProgram): ReplayedSetup {
  const clearance = program.clearance ?? RAPID_CLEARANCE_MM;
  const cellSize = program.cellSize ?? simulationCellSize(program.stock);
  const reach = clearance - slackOf(cellSize);
  const run = new SetupRun({
    stock: program.stock,
    part: NO_PART,
    cellSize,
    ...(program.initial ? { initial: program.initial } : {}),
  });
  const close: CloseRapid[] = [];
  let judged = 0;
  let tool: number | null = null;
  let radius = 0;
  // the field's highest material: it only goes down, so an old value is a bound from above
  let highest = -Infinity;
  // where the last feed straight down ended, for a peck's return into its hole
  let plunged: Vec3 | null = null;
  for (const move of program.moves) {
    if (move.tool === null) continue;
    if (move.tool !== tool) {
      if (tool !== null) run.endUnmeasured();
      tool = move.tool;
      const cutter = program.tools.get(tool);
      if (cutter === undefined) throw new Error(`the program calls T${tool}, which the setup has not`);
      radius = cutter.diameter / 2;
      run.begin({ id: `T${tool}`, tool: cutter, clearance_z: move.from[2] });
      run.feed([{ kind: "rapid", to: move.from }]);
      highest = run.field.heights.reduce((a, b) => Math.max(a, b), -Infinity);
      plunged = null;
    }
    const straightDown = sameXY(move.from, move.to) && move.to[2] < move.from[2];
    if (move.kind === "traverse") {
      const up = sameXY(move.from, move.to) && move.to[2] >= move.from[2];
      const back = straightDown && plunged !== null && sameXY(plunged, move.to) && move.to[2] > plunged[2];
      if (!up && !back && Math.min(move.from[2], move.to[2]) - highest < reach) {
        judged += 1;
        const near = nearestMaterial(run.field, { from: move.from, to: move.to, radius }, reach);
        if (near !== null)
          close.push({ ...near, call: move.call, tool, comment: move.comment, from: move.from, to: move.to });
      } else if (!up && !back) judged += 1;
    } else if (move.kind === "feed" && straightDown) plunged = move.to;
    if (!sameXY(move.from, move.to)) plunged = null;
    run.feed([asMove(move)]);
  }
  if (tool !== null) run.endUnmeasured();
  return { close, judged, field: run.field };
}

/** The setup's stock box in workpiece coordinates (its frame's box turned back). */
export function workpieceBox(plan: CamPlan, setupIndex: number): Box3 {
  const { wcs, stock } = plan.setups[setupIndex]!;
  const min: Vec3 = [Infinity, Infinity, Infinity];
  const max: Vec3 = [-Infinity, -Infinity, -Infinity];
  for (const x of [stock.min[0], stock.max[0]])
    for (const y of [stock.min[1], stock.max[1]])
      for (const z of [stock.min[2], stock.max[2]]) {
        const p = fromFrame(wcs, [x, y, z]);
        for (let i = 0; i < 3; i += 1) {
          min[i] = Math.min(min[i] as number, p[i] as number);
          max[i] = Math.max(max[i] as number, p[i] as number);
        }
      }
  return { min, max };
}

/** A setup's cutters by their T number in its programs. */
export function setupCutters(plan: CamPlan, setupIndex: number): Map<number, Cutter> {
  const setup = plan.setups[setupIndex]!;
  const tools = new Map<number, Cutter>();
  for (const summary of setup.tools) {
    const cutter = setup.operations.find((op) => op.tool.assembly_uuid === summary.assembly_uuid)?.tool;
    if (cutter !== undefined) tools.set(summary.number, cutter);
  }
  return tools;
}

/** A setup's program in a dialect, read back into canonical moves by its control's judge. */
export function programMoves(
  plan: CamPlan,
  setupIndex: number,
  postprocessor: "fanuc" | "heidenhain",
): CanonicalMove[] {
  const text = programText(plan, setupIndex, postprocessor);
  if (postprocessor === "heidenhain") {
    const read = readHeidenhain(text);
    if (!read.ok) throw new Error(`setup ${setupIndex}: the Heidenhain program was refused: ${read.error}`);
    return read.moves;
  }
  const read = readRs274(forRs274(postprocessor, text), { workOffsetsBelowHomeMm: HOME_ABOVE_MM });
  if (read.status !== 0) throw new Error(`setup ${setupIndex}: rs274 refused the program: ${read.complaint}`);
  return read.moves;
}

/** Every setup's rapids nearer the stock than the clearance, by setup name, each setup on what the ones before left. */
export function planCloseRapids(
  plan: CamPlan,
  movesOf: (setupIndex: number) => readonly CanonicalMove[],
  clearance = RAPID_CLEARANCE_MM,
): Map<string, ReplayedSetup> {
  const found = new Map<string, ReplayedSetup>();
  if (plan.setups.length === 0) return found;
  const acrossSetups = voxelStock(workpieceBox(plan, 0), NO_PART);
  for (const setup of plan.setups) {
    const cellSize = simulationCellSize(setup.stock);
    const initial =
      setup.index === 0
        ? undefined
        : carriedField(
            carriedTops(acrossSetups, setup.wcs),
            stockHeightField(setup.stock, cellSize),
            partHeights(stockGrid(setup.stock, cellSize), NO_PART),
          );
    const replayed = replaySetup({
      stock: setup.stock,
      tools: setupCutters(plan, setup.index),
      moves: movesOf(setup.index),
      cellSize,
      clearance,
      ...(initial ? { initial } : {}),
    });
    found.set(setup.name, replayed);
    removeBySetup(acrossSetups, setup.wcs, replayed.field);
  }
  return found;
}
