/**
 * The stock simulation of one setup: every operation's moves in order over a height field of
 * the stock, checking each move for gouges, rapids through material and collisions of the
 * neck, shank and holder, and measuring the material left over the part.
 */
import type { Box3, Operation, TriangleSoup, Vec3, Verification } from "../types.ts";
import { BlockBounds } from "./block-bounds.ts";
import { BodyCheck, Cutting, RapidCheck, type Worst } from "./checks.ts";
import { cutterProfile, type BodyName, type Envelope } from "./cutter-profile.ts";
import { cellCentre, cloneHeightField, DEFAULT_CELL_SIZE_MM, sameGrid, stockGrid, stockHeightField, type Grid, type HeightField } from "./height-field.ts";
import { materialLeft, type MaterialLeft } from "./material-left.ts";
import { motionsOf, operationStart, type Motion } from "./motions.ts";
import { partHeights, type PartHeights } from "./part-heights.ts";
import { arcBounds, sweepArc, sweepLine, type CellVisitor } from "./sweep.ts";

/** A cut into the part deeper than this is a gouge; material this far into a tool's path is touched. */
export const DEFAULT_TOLERANCE_MM = 0.01;
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
  /** how many violations of each kind to describe (20); all are counted */
  maxDetails?: number;
}

export type ViolationKind = "gouge" | "rapid_through_material" | "holder_collision";

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
  /** the body that touched, for a collision */
  body: BodyName | null;
}

export interface OperationVerification extends Verification {
  operation_id: string;
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
  const tolerance = input.tolerance ?? DEFAULT_TOLERANCE_MM;
  const maxDetails = input.maxDetails ?? DEFAULT_MAX_DETAILS;
  const grid = stockGrid(input.stock, input.cellSize ?? DEFAULT_CELL_SIZE_MM);
  let field: HeightField;
  if (input.initial) {
    if (!sameGrid(input.initial, grid)) throw new RangeError("the initial height field is not on this stock's grid");
    field = cloneHeightField(input.initial);
  } else {
    field = stockHeightField(input.stock, input.cellSize ?? DEFAULT_CELL_SIZE_MM);
  }
  const part = input.partHeights ?? partHeights(grid, input.part);
  if (part.heights.length !== grid.nx * grid.ny) throw new RangeError("the part's heights are not on this stock's grid");

  // heights are float32: an emptied column holds the bottom rounded to float32, which may lie a
  // hair above the float64 bottom and would read as material under a drill pecking through
  const bottom = Math.fround(field.bottom);
  const bounds = new BlockBounds(grid, field.heights, part.heights);
  const machine = new Machine(grid, bounds, {
    cut: new Cutting(field.heights, part.heights, bounds, bottom, tolerance),
    rapid: new RapidCheck(field.heights, bounds, bottom, tolerance),
    body: new BodyCheck(field.heights, part.heights, bounds, bottom, tolerance),
  }, tolerance);
  const chordError = Math.min(grid.dx, grid.dy) / 20;

  const violations: Violation[] = [];
  const described: Record<ViolationKind, number> = { gouge: 0, rapid_through_material: 0, holder_collision: 0 };
  const operations: OperationVerification[] = [];
  const total = { gouges: 0, rapids_through_material: 0, holder_collisions: 0 };
  let lastLeft: MaterialLeft | null = null;

  for (const operation of input.operations) {
    const profile = cutterProfile(operation.tool);
    machine.cut.fluteLength = profile.fluteLength;
    const counts = { gouges: 0, rapids_through_material: 0, holder_collisions: 0 };
    let at = operationStart(operation);
    machine.lastCut = null;
    operation.moves.forEach((move, moveIndex) => {
      if (at === null) return;
      machine.clear();
      for (const motion of motionsOf(move, at, chordError)) {
        machine.run(motion, profile.cutting, profile.bodies);
        at = motion.to;
      }
      for (const [kind, worst] of machine.worstByKind()) {
        if (worst.cell < 0) continue;
        if (kind === "gouge") counts.gouges++;
        else if (kind === "rapid_through_material") counts.rapids_through_material++;
        else counts.holder_collisions++;
        if (described[kind]++ < maxDetails) {
          const [x, y] = cellCentre(grid, worst.cell);
          violations.push({
            kind,
            operation_id: operation.id,
            move_index: moveIndex,
            hole: worst.hole >= 0 ? worst.hole : null,
            position: [x, y, worst.z],
            depth_mm: worst.depth,
            body: worst.body,
          });
        }
      }
    });
    const left = materialLeft(field, part);
    lastLeft = left;
    operations.push({ operation_id: operation.id, ...counts, material_left_mm3: left.left_mm3, material_left_pct: left.left_pct });
    total.gouges += counts.gouges;
    total.rapids_through_material += counts.rapids_through_material;
    total.holder_collisions += counts.holder_collisions;
  }
  // after the last operation as it was just measured: each measure is a pass over every cell
  const left = lastLeft ?? materialLeft(field, part);
  return {
    total: { ...total, material_left_mm3: left.left_mm3, material_left_pct: left.left_pct },
    operations,
    violations,
    field,
    part,
    removable_mm3: left.removable_mm3,
    cells: grid.nx * grid.ny,
  };
}

/** Runs motions over the field, dismissing by the block bounds what cannot touch anything. */
class Machine {
  /** the flat level cut that just ran (its end and height), whose end disc the next may skip */
  lastCut: Vec3 | null = null;

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
    for (const [, worst] of this.worstByKind()) worst.currentHole = motion.hole ?? -1;
    const box = motionBox(motion);
    const zLow = motion.kind === "line" ? Math.min(motion.from[2], motion.to[2]) : Math.min(motion.path.z0, motion.path.z1);
    const reach = cutting.reach;
    // stale bounds are still upper bounds: enough to dismiss the move in the air
    const below = this.bounds.above(box.xlo - reach, box.xhi + reach, box.ylo - reach, box.yhi + reach, false, false);
    // a level flat cut starting where the last one ended, at its height: the cells round its start
    // have just been cut to this height by the same flutes (sweep.ts: skipStart)
    const level = motion.kind === "line" && !motion.rapid && cutting.shape === "flat" && motion.from[2] === motion.to[2];
    const last = this.lastCut;
    const continues = level && last !== null && motion.kind === "line" && last[0] === motion.from[0] && last[1] === motion.from[1] && last[2] === motion.from[2];
    this.lastCut = level && motion.kind === "line" ? motion.to : null;
    if (motion.rapid) {
      if (zLow + cutting.base < below - this.tolerance) this.sweep(motion, cutting, this.visitors.rapid);
    } else if (zLow + cutting.base < below) {
      if (motion.kind === "line") sweepLine(this.grid, motion.from, motion.to, cutting, this.visitors.cut, continues);
      else this.sweep(motion, cutting, this.visitors.cut);
    }
    for (const { name, envelope } of bodies) {
      const r = envelope.reach, bottom = zLow + envelope.base - this.tolerance;
      if (bottom >= this.bounds.above(box.xlo - r, box.xhi + r, box.ylo - r, box.yhi + r, false, true)) continue;
      if (bottom >= this.bounds.above(box.xlo - r, box.xhi + r, box.ylo - r, box.yhi + r, true, true)) continue;
      this.visitors.body.body = name;
      this.sweep(motion, envelope, this.visitors.body);
    }
  }

  private sweep(motion: Motion, envelope: Envelope, visitor: CellVisitor): void {
    if (motion.kind === "line") sweepLine(this.grid, motion.from, motion.to, envelope, visitor);
    else sweepArc(this.grid, motion.path, envelope, visitor);
  }
}

function motionBox(motion: Motion): { xlo: number; xhi: number; ylo: number; yhi: number } {
  if (motion.kind === "arc") {
    const { min, max } = arcBounds(motion.path);
    return { xlo: min[0], xhi: max[0], ylo: min[1], yhi: max[1] };
  }
  const { from, to } = motion;
  return { xlo: Math.min(from[0], to[0]), xhi: Math.max(from[0], to[0]), ylo: Math.min(from[1], to[1]), yhi: Math.max(from[1], to[1]) };
}
