/**
 * A plan's stock replayed for the viewer: the stock of a setup after any of its operations,
 * starting, as the planner does (plan.ts), from what the setups before it left (the voxel stock
 * across setups, read along the setup's axis: simulation/carried-stock.ts), with the holes the
 * setup drills carved out of the part (planner/carve-holes.ts), so a drill a little larger than
 * the model's bore is not read as cutting into the part.
 *
 * Each setup is simulated on the viewer's grid (stock-view.ts: the planner's 0.1 mm cells, or
 * coarser so the longer side has at most 512 cells), not the planner's: what is drawn needs no
 * more, and it keeps a NIST plate's answer to a second or so. Part and tool are sampled at the
 * same cell centres, so a coarser grid shows no cut into the part the planner's did not see;
 * it does blur walls and features narrower than a cell.
 *
 * A later setup's stock is then settled onto the earlier setups' own final fields for drawing
 * (settled-stock.ts): the carried voxels stand up to a voxel and a half proud of what they
 * removed.
 *
 * A setup's starting stock and final stock are kept once made (a few MB a setup), so the
 * operations of one setup cost only their own simulation from the second question on.
 */
import { carveHoles } from "../planner/carve-holes.ts";
import { carriedField } from "../planner/carried-stock.ts";
import { finishingTolerance } from "../planner/completeness.ts";
import { CUTTING_MESH_DEFLECTION_MM } from "../planner/read-part.ts";
import { simulationCellSize } from "../planner/verify.ts";
import { halfFromItsEnd, holeInSetup, type SetupHole } from "../holes/setup-hole.ts";
import { soupToFrame } from "../frames.ts";
import { carriedTops } from "../simulation/carried-stock.ts";
import { stockHeightField, type HeightField } from "../simulation/height-field.ts";
import { partHeights, type PartHeights } from "../simulation/part-heights.ts";
import { simulateSetup } from "../simulation/simulate.ts";
import { removeBySetup, voxelStock, type VoxelStock } from "../simulation/voxel-stock.ts";
import type { Feature } from "../../features/recognition/types.ts";
import type { Box3, Frame, Operation, TriangleSoup } from "../types.ts";
import { settledOnEarlier } from "./settled-stock.ts";
import { classifyStock, stockViewCellSize, type StockView } from "./stock-view.ts";

/** the simulation's gouge tolerance (simulation/README.md, Tolerances) */
export const CUT_TOLERANCE_MM = 0.01;

/** What the replay needs of a planned setup (a stored plan's setup has it). */
export interface ReplayedSetup {
  wcs: Frame;
  /** the stock box in the setup's frame */
  stock: Box3;
  operations: Operation[];
}

export interface PlanStockInput {
  /** the part's triangles in workpiece coordinates, facing out (planner/read-part.ts) */
  soup: TriangleSoup;
  /** the part's recognised features, by id */
  features: readonly Feature[];
  /** the stock box in workpiece coordinates */
  stock: Box3;
  setups: readonly ReplayedSetup[];
}

interface SetupState {
  soup: TriangleSoup;
  part: PartHeights;
  start: HeightField;
  cellSize: number;
  final: HeightField | null;
}

export class PlanStock {
  private readonly states: SetupState[] = [];
  private voxels: VoxelStock | null = null;
  /** how many setups' final stock the voxels have had removed */
  private removed = 0;
  /** the planner's finishing tolerance for this plan */
  readonly toleranceMm: number;

  constructor(private readonly input: PlanStockInput) {
    const plannerCell = Math.max(...input.setups.map((setup) => simulationCellSize(setup.stock)));
    this.toleranceMm = finishingTolerance(plannerCell, CUTTING_MESH_DEFLECTION_MM);
  }

  get setupCount(): number {
    return this.input.setups.length;
  }

  operationCount(setup: number): number {
    return this.input.setups[setup]?.operations.length ?? 0;
  }

  /** The stock of setup `setup` after its operation `after` (-1: before its first), classed against the part. */
  view(setup: number, after: number): StockView {
    const planned = this.input.setups[setup];
    if (planned === undefined || after < -1 || after >= planned.operations.length)
      throw new RangeError(`no operation ${after} in setup ${setup}`);
    const state = this.state(setup);
    const field =
      after === -1
        ? state.start
        : simulateSetup({
            stock: planned.stock,
            part: state.soup,
            operations: planned.operations.slice(0, after + 1),
            cellSize: state.cellSize,
            initial: state.start,
            partHeights: state.part,
          }).field;
    const settled = setup === 0 ? field : this.settled(setup, field, state.part);
    return classifyStock(settled, state.part, {
      toleranceMm: this.toleranceMm,
      cutToleranceMm: CUT_TOLERANCE_MM,
      frame: planned.wcs,
    });
  }

  private state(setup: number): SetupState {
    const known = this.states[setup];
    if (known !== undefined) return known;
    const planned = this.input.setups[setup] as ReplayedSetup;
    const cellSize = stockViewCellSize(planned.stock, simulationCellSize(planned.stock));
    const soup = soupToFrame(planned.wcs, this.input.soup);
    const untouched = stockHeightField(planned.stock, cellSize);
    const part = partHeights(untouched, soup);
    // as the planner's verification does (verify.ts): carried over the part as it is, then carved
    const start =
      setup === 0 ? untouched : carriedField(carriedTops(this.voxelsAfter(setup), planned.wcs), untouched, part);
    carveHoles(untouched, part, this.holes(planned));
    const state: SetupState = { soup, part, start, cellSize, final: null };
    this.states[setup] = state;
    return state;
  }

  /** The voxel stock with every setup before `setup` removed. */
  private voxelsAfter(setup: number): VoxelStock {
    this.voxels ??= voxelStock(this.input.stock, this.input.soup);
    for (; this.removed < setup; this.removed += 1) {
      const planned = this.input.setups[this.removed] as ReplayedSetup;
      removeBySetup(this.voxels, planned.wcs, this.finalField(this.removed));
    }
    return this.voxels;
  }

  private finalField(setup: number): HeightField {
    const state = this.state(setup);
    if (state.final === null) {
      const planned = this.input.setups[setup] as ReplayedSetup;
      state.final = simulateSetup({
        stock: planned.stock,
        part: state.soup,
        operations: planned.operations,
        cellSize: state.cellSize,
        initial: state.start,
        partHeights: state.part,
      }).field;
    }
    return state.final;
  }

  /** `field` of setup `setup` (> 0) settled onto what the setups before it really left (settled-stock.ts). */
  private settled(setup: number, field: HeightField, part: PartHeights): HeightField {
    const voxels = this.voxelsAfter(setup);
    return settledOnEarlier({
      field,
      part,
      frame: (this.input.setups[setup] as ReplayedSetup).wcs,
      earlier: this.input.setups
        .slice(0, setup)
        .map((earlier, j) => ({ frame: earlier.wcs, field: this.finalField(j) })),
      coarseMm: Math.max(this.toleranceMm / 2, Math.min(...voxels.d) / 2),
      fineMm: this.toleranceMm / 4,
    });
  }

  /** The holes the setup's operations make, in its frame. */
  private holes(planned: ReplayedSetup): SetupHole[] {
    const ids = new Set(planned.operations.flatMap((operation) => operation.features));
    const holes: SetupHole[] = [];
    for (const id of ids) {
      const feature = this.input.features[id];
      if (feature?.hole === undefined) continue;
      const whole = holeInSetup(feature, planned.wcs);
      const hole = whole.ok ? whole.hole : halfFromItsEnd(feature, planned.wcs);
      if (hole !== null) holes.push(hole);
    }
    return holes;
  }
}
