/**
 * Verification before saving: every operation of a setup runs, in order, through the stock
 * simulation (simulation/) on the stock the operations kept before it left. An operation that
 * gouges the part, rapids through material, touches anything with its shank or holder, or comes
 * within 1 mm of the setup's workholding (its jaws, parallels and clamps, when given) is
 * dropped, and the next ones run on the stock without it; what it would have cut is then left
 * and reported. So a kept plan has no violation by construction, and the simulation says so.
 *
 * The planner verifies each milling operation as soon as it is generated (SetupVerifier), so the
 * generators after a dropped one plan on the stock without it: they take what it would have cut
 * instead of running into it (a rest tool fed into the stock a dropped roughing left would be
 * dropped in turn). verifySetup runs a whole list at once.
 *
 * Dropping is the repair of last resort: the generators already keep tools out of the part
 * (milling/), above material between holes (holes/) and within their reach (tooling/). One pass,
 * each operation simulated once: seconds on a real part, where re-simulating the whole setup
 * after each drop would multiply that by the drops.
 *
 * The cells are SIMULATION_CELL_MM, coarser only on stocks so large that the field would hold
 * more than SIMULATION_MAX_CELLS (simulationCellSize): what the simulation sees across a wall is
 * half a cell (simulation/README.md), and the cell size is reported with the setup.
 */
import { BlockBounds } from "../simulation/block-bounds.ts";
import { materialLeft } from "../simulation/material-left.ts";
import { SetupRun, type OperationHeader, type Violation, type ViolationCounts } from "../simulation/simulate.ts";
import { FIXTURE_CLEARANCE_MM, fixtureField, type FixtureField } from "../simulation/fixtures.ts";
import { stockGrid, stockHeightField, type HeightField } from "../simulation/height-field.ts";
import { partHeights, type PartHeights } from "../simulation/part-heights.ts";
import type { Box3, Engagement, Move, Operation, Verification } from "../types.ts";
import type { Judgement, OperationCheck, SimulatedSetup, Unmachined, VerifiedSetup } from "../plan-types.ts";
import type { ColumnTops } from "../simulation/carried-stock.ts";
import { carveHoles } from "./carve-holes.ts";
import { carriedField } from "./carried-stock.ts";

export const SIMULATION_CELL_MM = 0.1;
/**
 * Up to this many cells the simulation runs at SIMULATION_CELL_MM (a 280 x 280 mm stock); a larger
 * footprint gets larger cells, so one field is at most about 32 MB and a setup's simulation a few
 * seconds (an 800 x 450 mm stock: 0.22 mm cells).
 */
export const SIMULATION_MAX_CELLS = 8_000_000;

/** The cell size for a stock (setup frame): SIMULATION_CELL_MM, or larger so the field holds at most SIMULATION_MAX_CELLS. */
export function simulationCellSize(stock: Box3, maxCells = SIMULATION_MAX_CELLS): number {
  const area = (stock.max[0] - stock.min[0]) * (stock.max[1] - stock.min[1]);
  const cell = Math.max(SIMULATION_CELL_MM, Math.sqrt(area / maxCells));
  // a round size: 0.1, 0.11, ... (upwards, so the cell count stays within the limit)
  return Math.ceil(cell * 100 - 1e-9) / 100;
}

export interface VerifyOptions {
  /** default: simulationCellSize(setup.stock) */
  cellSize?: number;
  /** what the setups before this one left; default: the whole stock box */
  carried?: ColumnTops | null;
  cancelled?: () => boolean;
  progress?: (fraction: number) => void;
}

/** A setup's verification one operation at a time, each on the stock the kept ones left. */
export class SetupVerifier {
  readonly cellSize: number;
  private readonly kept: Operation[] = [];
  private readonly engagement: Record<string, Engagement> = {};
  private readonly dropped: Unmachined[] = [];
  private readonly part: PartHeights;
  private readonly field: HeightField;
  /** the field's bounds: each operation cuts the field itself, undone when it is not kept */
  private readonly bounds: BlockBounds;
  /** the workholding's field, built once for all the setup's operations; null when none is given */
  private readonly fixtureField: FixtureField | null;
  private running: SetupRun | null = null;

  /** `carried`: what the setups before this one left (carried-stock.ts); null, the whole stock box */
  constructor(
    private readonly setup: SimulatedSetup,
    cellSize = simulationCellSize(setup.stock),
    carried: ColumnTops | null = null,
  ) {
    this.cellSize = cellSize;
    // the part rasterised once for all the setup's operations
    this.part = partHeights(stockGrid(setup.stock, cellSize), setup.soup);
    const untouched = stockHeightField(setup.stock, cellSize);
    this.field = carried === null ? untouched : carriedField(carried, untouched, this.part);
    carveHoles(this.field, this.part, setup.holes);
    this.bounds = new BlockBounds(this.field, this.field.heights, this.part.heights);
    this.fixtureField =
      setup.fixtures === undefined
        ? null
        : fixtureField(
            setup.fixtures.map((fixture) => fixture.box),
            FIXTURE_CLEARANCE_MM,
          );
  }

  /** Simulates the operation on the stock the kept ones left: kept (true) or dropped and reported (false). */
  check(operation: Operation): boolean {
    this.begin(operation);
    this.feed(operation.moves);
    return this.end(operation);
  }

  /** Starts simulating an operation whose moves come through feed(), as they are made; end() judges it. */
  begin(header: OperationHeader): void {
    this.bounds.mark();
    const run = new SetupRun({
      stock: this.setup.stock,
      part: this.setup.soup,
      cellSize: this.cellSize,
      initial: this.field,
      partHeights: this.part,
      inPlace: this.bounds,
      fixtures: this.setup.fixtures,
      fixtureField: this.fixtureField ?? undefined,
    });
    run.begin(header);
    this.running = run;
  }

  feed(moves: readonly Move[]): void {
    if (this.running === null) throw new Error("no operation has begun");
    this.running.feed(moves);
  }

  /** The verdict on the operation begun: kept (true) or dropped and reported (false). `operation`: it, its moves all fed. */
  end(operation: Operation): boolean {
    const running = this.running;
    if (running === null) throw new Error("no operation has begun");
    this.running = null;
    // each operation runs alone on the stock kept so far: only the last stock kept is measured
    // (result), not the one after every operation, a pass over every cell each
    const { counts, violations, engagement } = running.endUnmeasured();
    if (
      counts.gouges + counts.rapids_through_material + counts.holder_collisions + (counts.workholding_collisions ?? 0) >
      0
    ) {
      this.dropped.push({
        code: "operation_dropped",
        message: `setup ${this.setup.name}: ${operation.name} was dropped: ${describe(counts, violations)}; what it would have cut is left`,
        features: operation.features,
        faces: [],
        volume_mm3: null,
      });
      this.bounds.undo();
      return false;
    }
    this.kept.push(operation);
    if (engagement !== null) this.engagement[operation.id] = engagement;
    return true;
  }

  /** Forgets the operation begun (its generator made none in the end), and what it cut. */
  discard(): void {
    if (this.running !== null) this.bounds.undo();
    this.running = null;
  }

  result(): VerifiedSetup {
    // a kept operation has no violation: the setup's counts are nought
    const left = materialLeft(this.field, this.part);
    const verification: Verification = {
      gouges: 0,
      rapids_through_material: 0,
      holder_collisions: 0,
      // counted only where the workholding was simulated: a setup without it is as before
      ...(this.setup.fixtures === undefined ? {} : { workholding_collisions: 0 }),
      material_left_mm3: left.left_mm3,
      material_left_pct: left.left_pct,
    };
    return {
      operations: [...this.kept],
      verification,
      engagement: { ...this.engagement },
      field: this.field,
      dropped: [...this.dropped],
      cellSize: this.cellSize,
    };
  }
}

export function verifySetup(
  setup: SimulatedSetup,
  operations: readonly Operation[],
  options: VerifyOptions = {},
): VerifiedSetup {
  const verifier = new SetupVerifier(setup, options.cellSize, options.carried ?? null);
  for (const [i, operation] of operations.entries()) {
    if (options.cancelled?.()) break;
    options.progress?.(i / operations.length);
    verifier.check(operation);
  }
  return verifier.result();
}

/**
 * Speculation. The planner may make the next operation before the simulation has judged the one
 * before it, assuming that one is kept (its cleared stock is what the next one plans on), and
 * simulate the two side by side on two threads (verify-thread.ts). When the earlier one is
 * dropped, the later ones made on its stock are void: the simulation skips them and the planner
 * makes them again on the stock without it.
 *
 * Counting drops keeps the two sides in step without a round trip: the planner tags each
 * submission with the number of drops it has heard of; the simulation counts the drops it made.
 * A speculative submission tagged with fewer drops than the simulation has made was planned on a
 * dropped operation (the simulation runs submissions in order, so every drop it made before
 * reaching this one was of an earlier submission) and is void. A submission that is not
 * speculative (hole operations, made from the milling's final stock) is checked whatever was
 * dropped before it.
 */
/** The simulation's side of speculation: a SetupVerifier that counts its drops and voids what was planned on them. */
export class SpeculativeVerifier {
  private drops = 0;
  /** the operation begun: whether it is void, and the seconds simulated so far */
  private current: { void: boolean; seconds: number } | null = null;

  constructor(readonly verifier: SetupVerifier) {}

  /** `dropsKnown`: the drops the planner had heard of when it made the operation */
  judge(operation: Operation, speculative: boolean, dropsKnown: number): Judgement {
    this.begin(operation, speculative, dropsKnown);
    this.feed(operation.moves);
    return this.end(operation);
  }

  /** An operation whose moves come in pieces as it is made (feed), judged at end(). */
  begin(header: OperationHeader, speculative: boolean, dropsKnown: number): void {
    this.current = { void: speculative && dropsKnown < this.drops, seconds: 0 };
    this.timed(() => this.verifier.begin(header));
  }

  feed(moves: readonly Move[]): void {
    this.timed(() => this.verifier.feed(moves));
  }

  end(operation: Operation): Judgement {
    const current = this.current;
    if (current === null) throw new Error("no operation has begun");
    let kept = false;
    this.timed(() => (kept = this.verifier.end(operation)));
    this.current = null;
    if (current.void) return { verdict: "void", seconds: 0 };
    if (!kept) this.drops += 1;
    return { verdict: kept ? "kept" : "dropped", seconds: current.seconds };
  }

  discard(): void {
    if (this.current?.void === false) this.verifier.discard();
    this.current = null;
  }

  /** runs `work` unless the operation is void, adding its time to the operation's */
  private timed(work: () => void): void {
    const current = this.current;
    if (current === null) throw new Error("no operation has begun");
    if (current.void) return;
    const started = performance.now();
    work();
    current.seconds += (performance.now() - started) / 1000;
  }
}

/** The verification in this thread: each submission simulated when its verdict is asked for. */
export class InlineChecks implements OperationCheck {
  private readonly queue: { operation: Operation; speculative: boolean; dropsKnown: number }[] = [];
  private readonly simulation: SpeculativeVerifier;
  private dropsKnown = 0;

  constructor(setup: SimulatedSetup, carried: ColumnTops | null, cellSize?: number) {
    this.simulation = new SpeculativeVerifier(new SetupVerifier(setup, cellSize, carried));
  }

  submit(operation: Operation, speculative: boolean): void {
    this.queue.push({ operation, speculative, dropsKnown: this.dropsKnown });
  }

  /** simulated whole when its verdict is asked for */
  stream(): void {}

  discard(): void {}

  next(): Judgement | null {
    for (let head = this.queue.shift(); head !== undefined; head = this.queue.shift()) {
      const judgement = this.simulation.judge(head.operation, head.speculative, head.dropsKnown);
      if (judgement.verdict === "void") continue;
      if (judgement.verdict === "dropped") this.dropsKnown += 1;
      return judgement;
    }
    return null;
  }

  result(): VerifiedSetup {
    return this.simulation.verifier.result();
  }

  close(): void {}
}

/**
 * Why an operation was dropped: the counts of the stock's violations and where the first was, then
 * the workholding's, with its own first position: "2 moves gouge the part (first at ...); 3 moves
 * bring the holder within 1 mm of the fixed jaw (first at ...)".
 */
function describe(counts: ViolationCounts, violations: readonly Violation[]): string {
  const parts: string[] = [];
  if (counts.gouges > 0) parts.push(`${counts.gouges} moves gouge the part`);
  if (counts.rapids_through_material > 0) parts.push(`${counts.rapids_through_material} rapids run through material`);
  if (counts.holder_collisions > 0)
    parts.push(
      `${counts.holder_collisions} moves bring the ${violations.find((v) => v.kind === "holder_collision" && v.body !== null)?.body ?? "holder"} into material`,
    );
  const stock = parts.join(", ") + firstAt(violations.find((v) => v.kind !== "workholding_collision"));
  const held = violations.find((v) => v.kind === "workholding_collision");
  if (!counts.workholding_collisions || held === undefined) return stock;
  const workholding = `${counts.workholding_collisions} moves bring the ${held.body ?? "cutter"} within ${FIXTURE_CLEARANCE_MM} mm of the ${held.fixture}${firstAt(held)}`;
  return parts.length === 0 ? workholding : `${stock}; ${workholding}`;
}

/** " (first at x, y, z, d mm deep)", or nothing without a violation. */
function firstAt(violation: Violation | undefined): string {
  return violation
    ? ` (first at ${violation.position.map((v) => Math.round(v * 100) / 100).join(", ")}, ${Math.round(violation.depth_mm * 1000) / 1000} mm deep)`
    : "";
}
