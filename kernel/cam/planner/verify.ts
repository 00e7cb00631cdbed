/**
 * Verification before saving: every operation of a setup runs, in order, through the stock
 * simulation (simulation/) on the stock the operations kept before it left. An operation that
 * gouges the part, rapids through material or touches anything with its shank or holder is
 * dropped, and the next ones run on the stock without it; what it would have cut is then left
 * and reported. So a kept plan has no violation by construction, and the simulation says so.
 *
 * Dropping is the repair of last resort: the generators already keep tools out of the part
 * (milling/), above material between holes (holes/) and within their reach (tooling/). One pass,
 * each operation simulated once: seconds on a real part, where re-simulating the whole setup
 * after each drop would multiply that by the drops.
 */
import { simulateSetup, type SetupSimulation, type Violation } from "../simulation/simulate.ts";
import type { HeightField } from "../simulation/height-field.ts";
import type { PartHeights } from "../simulation/part-heights.ts";
import type { Operation, Verification } from "../types.ts";
import type { Unmachined } from "../plan-types.ts";
import { carveHoles } from "./carve-holes.ts";
import type { SetupPart } from "./setup-part.ts";

export const SIMULATION_CELL_MM = 0.1;

export interface VerifiedSetup {
  operations: Operation[];
  verification: Verification;
  /** the setup's stock after its last kept operation */
  field: HeightField;
  /** per kept operation: the material left after it */
  perOperation: Map<string, Verification>;
  dropped: Unmachined[];
}

export function verifySetup(setup: SetupPart, operations: readonly Operation[], options: { cellSize?: number; cancelled?: () => boolean; progress?: (fraction: number) => void } = {}): VerifiedSetup {
  const cellSize = options.cellSize ?? SIMULATION_CELL_MM;
  const kept: Operation[] = [];
  const dropped: Unmachined[] = [];
  const perOperation = new Map<string, Verification>();
  // the empty run rasterises the part once and gives the untouched stock
  let state: SetupSimulation = simulateSetup({ stock: setup.stock, part: setup.soup, operations: [], cellSize });
  const part: PartHeights = state.part;
  let field: HeightField = state.field;
  carveHoles(field, part, setup.holes);
  for (const [i, operation] of operations.entries()) {
    if (options.cancelled?.()) break;
    options.progress?.(i / operations.length);
    const run = simulateSetup({ stock: setup.stock, part: setup.soup, operations: [operation], cellSize, initial: field, partHeights: part });
    const counts = run.total;
    if (counts.gouges + counts.rapids_through_material + counts.holder_collisions > 0) {
      dropped.push({
        code: "operation_dropped",
        message: `setup ${setup.name}: ${operation.name} was dropped: ${describe(counts, run.violations)}; what it would have cut is left`,
        features: operation.features,
        faces: [],
        volume_mm3: null,
      });
      continue;
    }
    kept.push(operation);
    perOperation.set(operation.id, counts);
    field = run.field;
    state = run;
  }
  return { operations: kept, verification: state.total, field, perOperation, dropped };
}

function describe(counts: Verification, violations: readonly Violation[]): string {
  const parts: string[] = [];
  if (counts.gouges > 0) parts.push(`${counts.gouges} moves gouge the part`);
  if (counts.rapids_through_material > 0) parts.push(`${counts.rapids_through_material} rapids run through material`);
  if (counts.holder_collisions > 0) parts.push(`${counts.holder_collisions} moves bring the ${violations.find((v) => v.body !== null)?.body ?? "holder"} into material`);
  const worst = violations[0];
  const where = worst ? ` (first at ${worst.position.map((v) => Math.round(v * 100) / 100).join(", ")}, ${Math.round(worst.depth_mm * 1000) / 1000} mm deep)` : "";
  return parts.join(", ") + where;
}
