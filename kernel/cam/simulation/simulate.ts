/**
 * The stock simulation of one setup: every operation's moves in order over a height field of
 * the stock, checking each move for gouges, rapids through material and collisions of the
 * neck, shank and holder, and measuring the material left over the part. Given the setup's
 * workholding (fixtures.ts), each move is also swept over the jaws, parallels and clamps.
 */
import type { Box3, Engagement, Move, Operation, TriangleSoup, Vec3, Verification } from "../types.ts";
import { BlockBounds } from "./block-bounds.ts";
import { BodyCheck, Cutting, DEFAULT_TOLERANCE_MM, FixtureCheck, RapidCheck, type Worst } from "./checks.ts";
import { cutterProfile, type BodyName, type Envelope } from "./cutter-profile.ts";
import { EngagementMeter } from "./engagement.ts";
import {
  cellCentre,
  cloneHeightField,
  DEFAULT_CELL_SIZE_MM,
  sameGrid,
  stockGrid,
  stockHeightField,
  type Grid,
  type HeightField,
} from "./height-field.ts";
import {
  FIXTURE_CLEARANCE_MM,
  fixtureCollision,
  fixtureField,
  sweepFixtures,
  type FixtureBox,
  type FixtureField,
} from "./fixtures.ts";
import { materialLeft, type MaterialLeft } from "./material-left.ts";
import { chordErrorOn, motionBox, motionLowZ, motionsOf, operationStart, sweepMotion, type Motion } from "./motions.ts";
import { partHeights, type PartHeights } from "./part-heights.ts";

const DEFAULT_MAX_DETAILS = 20;

export interface SimulateSetupInput {
  /** the stock box in the setup's frame */
  stock: Box3;
  /** the part in the setup's frame */
  part: TriangleSoup;
  operations: Operation[];
  /** largest cell edge, mm (0.1) */
  cellSize?: number;
  /** gouge and contact tolerance, mm (0.01) */
  tolerance?: number;
  /** a height field of this stock and cell size to continue from (another simulation's `field`) */
  initial?: HeightField;
  /** the part's heights on this grid, from an earlier simulation, to save rasterising it again */
  partHeights?: PartHeights;
  /**
   * Bounds made over `initial`'s own heights and this part's: the run cuts `initial` in place,
   * not a copy, and the caller undoes a run it does not keep (BlockBounds: mark, undo)
   */
  inPlace?: BlockBounds;
  /** how many violations of each kind to describe (20); all are counted */
  maxDetails?: number;
  /**
   * The setup's jaws, parallels and clamps (raw boxes in its frame, named): each move is swept
   * over them with FIXTURE_CLEARANCE_MM, and the counts gain `workholding_collisions`. Not given,
   * nothing is checked against the workholding and the counts are as they were before it.
   */
  fixtures?: readonly FixtureBox[];
  /** the field of these fixtures (fixtureField(boxes, FIXTURE_CLEARANCE_MM)) from an earlier run, to save building it again */
  fixtureField?: FixtureField;
}

export type ViolationKind = "gouge" | "rapid_through_material" | "holder_collision" | "workholding_collision";

export interface Violation {
  kind: ViolationKind;
  operation_id: string;
  /** the move's index in the operation's moves */
  move_index: number;
  /** for a drill cycle, the index of the hole */
  hole: number | null;
  /** the worst cell of the move: its centre, and the z the tool (or the body) reached there */
  position: Vec3;
  /** how far below the part's top (gouge) or the material's top (rapid, collision) */
  depth_mm: number;
  /** the body that touched, for a collision (for a workholding collision, null: the flutes) */
  body: BodyName | null;
  /** for a workholding collision, the name of the box it came near (FixtureBox.name); absent otherwise */
  fixture?: string;
}

export interface OperationVerification extends Verification {
  operation_id: string;
  /** its cutting moves' engagement (engagement.ts); null when none met material */
  engagement: Engagement | null;
}

export interface SetupSimulation {
  /** the whole setup: counts summed, material left after the last operation */
  total: Verification;
  /** each operation: its counts, the material left after it */
  operations: OperationVerification[];
  /** the first `maxDetails` violations of each kind, in the order found */
  violations: Violation[];
  /** the stock after the last operation */
  field: HeightField;
  part: PartHeights;
  removable_mm3: number;
  cells: number;
}

export function simulateSetup(input: SimulateSetupInput): SetupSimulation {
  const run = new SetupRun(input);
  for (const operation of input.operations) {
    run.begin(operation);
    run.feed(operation.moves);
    run.end();
  }
  return run.result();
}

/** A run's violations, counted. */
export type ViolationCounts = Omit<Verification, "material_left_mm3" | "material_left_pct">;

/** No violation yet: `workholding_collisions` only where the workholding is checked, so a run without it counts as before. */
function noViolations(withFixtures: boolean): ViolationCounts {
  const counts: ViolationCounts = { gouges: 0, rapids_through_material: 0, holder_collisions: 0 };
  if (withFixtures) counts.workholding_collisions = 0;
  return counts;
}

/** The workholding in a run: its field, the check swept over it, and the boxes' names. */
interface RunFixtures {
  field: FixtureField;
  check: FixtureCheck;
  names: string[];
}

/** What a run needs of an operation before its moves. */
export type OperationHeader = Pick<Operation, "id" | "tool" | "clearance_z">;

/**
 * A setup's simulation fed an operation at a time, and each operation's moves in as many pieces
 * as they come in (a roughing's moves level by level as they are made): the same result as
 * simulateSetup over the whole operations.
 */
export class SetupRun {
  readonly field: HeightField;
  readonly part: PartHeights;
  private readonly grid: Grid;
  private readonly machine: Machine;
  private readonly chordError: number;
  private readonly tolerance: number;
  private readonly maxDetails: number;
  /** null: the workholding is not checked */
  private readonly fixtures: RunFixtures | null;
  private readonly violations: Violation[] = [];
  private readonly described: Record<ViolationKind, number> = {
    gouge: 0,
    rapid_through_material: 0,
    holder_collision: 0,
    workholding_collision: 0,
  };
  private readonly operations: OperationVerification[] = [];
  private readonly total: ViolationCounts;
  private lastLeft: MaterialLeft | null = null;
  /** the operation running: its moves until its start is known, the tool's position, its counts */
  private current: {
    header: OperationHeader;
    profile: ReturnType<typeof cutterProfile>;
    waiting: Move[] | null;
    at: Vec3 | null;
    moveIndex: number;
    counts: ViolationCounts;
    engagement: EngagementMeter;
  } | null = null;

  constructor(input: Omit<SimulateSetupInput, "operations">) {
    const tolerance = input.tolerance ?? DEFAULT_TOLERANCE_MM;
    this.maxDetails = input.maxDetails ?? DEFAULT_MAX_DETAILS;
    const grid = stockGrid(input.stock, input.cellSize ?? DEFAULT_CELL_SIZE_MM);
    if (input.initial) {
      if (!sameGrid(input.initial, grid)) throw new RangeError("the initial height field is not on this stock's grid");
      this.field = input.inPlace === undefined ? cloneHeightField(input.initial) : input.initial;
    } else {
      this.field = stockHeightField(input.stock, input.cellSize ?? DEFAULT_CELL_SIZE_MM);
    }
    this.part = input.partHeights ?? partHeights(grid, input.part);
    if (this.part.heights.length !== grid.nx * grid.ny)
      throw new RangeError("the part's heights are not on this stock's grid");
    // heights are float32: an emptied column holds the bottom rounded to float32, which may lie a
    // hair above the float64 bottom and would read as material under a drill pecking through
    const bottom = Math.fround(this.field.bottom);
    const heights = this.field.heights;
    const bounds = input.inPlace ?? new BlockBounds(grid, heights, this.part.heights);
    this.machine = new Machine(
      grid,
      bounds,
      {
        cut: new Cutting(heights, this.part.heights, bounds, bottom, tolerance),
        rapid: new RapidCheck(heights, bounds, bottom, tolerance),
        body: new BodyCheck(heights, this.part.heights, bounds, bottom, tolerance),
      },
      tolerance,
    );
    this.grid = grid;
    this.chordError = chordErrorOn(grid);
    this.tolerance = tolerance;
    if (input.fixtures === undefined) this.fixtures = null;
    else {
      const field =
        input.fixtureField ??
        fixtureField(
          input.fixtures.map((fixture) => fixture.box),
          FIXTURE_CLEARANCE_MM,
        );
      this.fixtures = {
        field,
        check: new FixtureCheck(field.heights, field.rowTops, tolerance),
        names: input.fixtures.map((fixture) => fixture.name),
      };
    }
    this.total = noViolations(this.fixtures !== null);
  }

  begin(header: OperationHeader): void {
    if (this.current !== null) throw new Error(`operation ${this.current.header.id} has not ended`);
    const profile = cutterProfile(header.tool);
    this.machine.cut.fluteLength = profile.fluteLength;
    this.machine.lastCut = null;
    const engagement = new EngagementMeter({
      field: this.field,
      part: this.part.heights,
      cutting: profile.cutting,
      fluteLength: profile.fluteLength,
      tolerance: this.tolerance,
    });
    this.machine.engagement = engagement;
    this.current = {
      header,
      profile,
      waiting: [],
      at: null,
      moveIndex: 0,
      counts: noViolations(this.fixtures !== null),
      engagement,
    };
  }

  /** The operation's next moves. */
  feed(moves: readonly Move[]): void {
    const current = this.current;
    if (current === null) throw new Error("no operation has begun");
    let pending = moves;
    if (current.waiting !== null) {
      // the tool starts above the first move that goes somewhere (motions.ts: operationStart)
      // one by one: a 3D finishing's hundred thousand moves spread as arguments overflow the stack
      for (const move of moves) current.waiting.push(move);
      const start = operationStart({ clearance_z: current.header.clearance_z, moves: current.waiting });
      if (start === null) return;
      pending = current.waiting;
      current.waiting = null;
      current.at = start;
    }
    for (const move of pending) this.move(current, move);
  }

  /** The operation's counts and the material left after it. */
  end(): OperationVerification {
    const { id, counts, engagement } = this.close();
    const left = materialLeft(this.field, this.part);
    this.lastLeft = left;
    const verification = {
      operation_id: id,
      ...counts,
      material_left_mm3: left.left_mm3,
      material_left_pct: left.left_pct,
      engagement,
    };
    this.operations.push(verification);
    return verification;
  }

  /**
   * Ends the operation without measuring the material left (a pass over every cell): its counts
   * and the violations found so far. For a caller that runs each operation alone and measures
   * only the stock it keeps in the end (planner/verify.ts); result() is not for such a run.
   */
  endUnmeasured(): { counts: ViolationCounts; violations: Violation[]; engagement: Engagement | null } {
    const { counts, engagement } = this.close();
    return { counts, violations: [...this.violations], engagement };
  }

  private close(): { id: string; counts: ViolationCounts; engagement: Engagement | null } {
    const current = this.current;
    if (current === null) throw new Error("no operation has begun");
    this.current = null;
    this.machine.engagement = null;
    this.total.gouges += current.counts.gouges;
    this.total.rapids_through_material += current.counts.rapids_through_material;
    this.total.holder_collisions += current.counts.holder_collisions;
    if (this.total.workholding_collisions !== undefined)
      this.total.workholding_collisions += current.counts.workholding_collisions ?? 0;
    return { id: current.header.id, counts: current.counts, engagement: current.engagement.summary() };
  }

  result(): SetupSimulation {
    // after the last operation as it was just measured: each measure is a pass over every cell
    const left = this.lastLeft ?? materialLeft(this.field, this.part);
    return {
      total: { ...this.total, material_left_mm3: left.left_mm3, material_left_pct: left.left_pct },
      operations: [...this.operations],
      violations: [...this.violations],
      field: this.field,
      part: this.part,
      removable_mm3: left.removable_mm3,
      cells: this.grid.nx * this.grid.ny,
    };
  }

  private move(current: NonNullable<SetupRun["current"]>, move: Move): void {
    const moveIndex = current.moveIndex++;
    const machine = this.machine;
    const fixtures = this.fixtures;
    machine.clear();
    fixtures?.check.touch.clear();
    for (const motion of motionsOf(move, current.at as Vec3, this.chordError)) {
      machine.run(motion, current.profile.cutting, current.profile.bodies);
      // the workholding does not change with the cut: the order against the stock's sweeps is free
      if (fixtures !== null) sweepFixtures(fixtures.field, fixtures.check, motion, current.profile, this.tolerance);
      current.at = motion.to;
    }
    for (const [kind, worst] of machine.worstByKind()) {
      if (worst.cell < 0) continue;
      if (kind === "gouge") current.counts.gouges++;
      else if (kind === "rapid_through_material") current.counts.rapids_through_material++;
      else current.counts.holder_collisions++;
      if (this.described[kind]++ < this.maxDetails) {
        const [x, y] = cellCentre(this.grid, worst.cell);
        this.violations.push({
          kind,
          operation_id: current.header.id,
          move_index: moveIndex,
          hole: worst.hole >= 0 ? worst.hole : null,
          position: [x, y, worst.z],
          depth_mm: worst.depth,
          body: worst.body,
        });
      }
    }
    if (fixtures !== null && fixtures.check.touch.cell >= 0) {
      current.counts.workholding_collisions = (current.counts.workholding_collisions ?? 0) + 1;
      if (this.described.workholding_collision++ < this.maxDetails) {
        const collision = fixtureCollision(fixtures.field, fixtures.check.touch, moveIndex);
        this.violations.push({
          kind: "workholding_collision",
          operation_id: current.header.id,
          move_index: moveIndex,
          hole: collision.hole,
          position: collision.position,
          depth_mm: collision.depth_mm,
          body: collision.body === "cutter" ? null : collision.body,
          fixture: fixtures.names[collision.box] ?? `box ${collision.box}`,
        });
      }
    }
  }
}

/** Runs motions over the field, dismissing by the block bounds what cannot touch anything. */
class Machine {
  /** the flat level cut that just ran (its end and height), whose end disc the next may skip */
  lastCut: Vec3 | null = null;
  /** no body touched anything during the move so far, or the last one (Worst is per move) */
  bodiesClear = true;
  /** the running operation's engagement, measured on each cutting motion before it cuts */
  engagement: EngagementMeter | null = null;

  constructor(
    private readonly grid: Grid,
    private readonly bounds: BlockBounds,
    readonly visitors: { cut: Cutting; rapid: RapidCheck; body: BodyCheck },
    private readonly tolerance: number,
  ) {}

  get cut(): Cutting {
    return this.visitors.cut;
  }

  clear(): void {
    this.visitors.cut.gouge.clear();
    this.visitors.rapid.through.clear();
    this.visitors.body.touch.clear();
  }

  worstByKind(): [ViolationKind, Worst][] {
    return [
      ["gouge", this.visitors.cut.gouge],
      ["rapid_through_material", this.visitors.rapid.through],
      ["holder_collision", this.visitors.body.touch],
    ];
  }

  run(motion: Motion, cutting: Envelope, bodies: { name: BodyName; envelope: Envelope }[]): void {
    const hole = motion.hole ?? -1;
    this.visitors.cut.gouge.currentHole = hole;
    this.visitors.rapid.through.currentHole = hole;
    this.visitors.body.touch.currentHole = hole;
    const box = motionBox(motion);
    const zLow = motionLowZ(motion);
    const reach = cutting.reach;
    // stale bounds are still upper bounds: enough to dismiss the move in the air
    const below = this.bounds.above(box.xlo - reach, box.xhi + reach, box.ylo - reach, box.yhi + reach, false, false);
    // a level flat cut starting where the last one ended, at its height: the cells round its start
    // have just been cut to this height by the same flutes (sweep.ts: skipStart)
    const level =
      motion.kind === "line" && !motion.rapid && cutting.shape === "flat" && motion.from[2] === motion.to[2];
    const last = this.lastCut;
    const continues =
      level &&
      last !== null &&
      motion.kind === "line" &&
      last[0] === motion.from[0] &&
      last[1] === motion.from[1] &&
      last[2] === motion.from[2];
    this.lastCut = level && motion.kind === "line" ? motion.to : null;
    const clear = this.bodiesClear;
    if (motion.rapid) {
      if (zLow + cutting.base < below - this.tolerance) sweepMotion(this.grid, motion, cutting, this.visitors.rapid);
    } else if (zLow + cutting.base < below) {
      // a motion whose flutes stay above all material near it cuts nothing and engages nothing
      this.engagement?.measure(motion);
      sweepMotion(this.grid, motion, cutting, this.visitors.cut, continues);
    }
    for (const { name, envelope } of bodies) {
      const r = envelope.reach,
        bottom = zLow + envelope.base - this.tolerance;
      if (bottom >= this.bounds.above(box.xlo - r, box.xhi + r, box.ylo - r, box.yhi + r, false, true)) continue;
      if (bottom >= this.bounds.above(box.xlo - r, box.xhi + r, box.ylo - r, box.yhi + r, true, true)) continue;
      this.visitors.body.body = name;
      // continuing a level cut that touched nothing with its bodies, the cells round its start
      // were found clear of this body after the last cut, which this one leaves as they were
      // (after a contact they are checked again: each move in contact counts)
      sweepMotion(this.grid, motion, envelope, this.visitors.body, continues && clear);
    }
    this.bodiesClear = this.visitors.body.touch.cell < 0;
  }
}
