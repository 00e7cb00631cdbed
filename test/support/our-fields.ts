/**
 * The planner's own verification, kept for a test to read: planning hooks whose checks are the
 * production verification in the planner's thread (inlineChecks), each setup's remembered, so
 * the stock it left (its height field) can be set beside an independent verifier's.
 */
import { inlineChecks } from "../../kernel/cam/plan.ts";
import type { OperationCheck, PlanHooks, SimulatedSetup } from "../../kernel/cam/plan-types.ts";
import { partHeights, type PartHeights } from "../../kernel/cam/simulation/part-heights.ts";
import { centresWithin, type HeightField } from "../../kernel/cam/simulation/height-field.ts";
import type { SimcheckField } from "./simcheck.ts";

export interface OurSetup {
  /** the stock the setup's kept operations left, in its frame */
  field: HeightField;
  /** the part's heights on the field's grid, as the model has them (no hole carved) */
  part: PartHeights;
}

/** Hooks that plan as the tests do and keep each setup's verification, by setup name (the last of a name). */
export function keepingVerification(): { hooks: PlanHooks; setups: Map<string, () => OurSetup> } {
  const setups = new Map<string, () => OurSetup>();
  const hooks: PlanHooks = {
    progress: () => {},
    cancelled: () => false,
    checks: (setup: SimulatedSetup, carried): OperationCheck => {
      const checks = inlineChecks(setup, carried);
      setups.set(setup.name, () => {
        const { field } = checks.result();
        return { field, part: partHeights(field, setup.soup) };
      });
      return checks;
    },
  };
  return { hooks, setups };
}

/**
 * Material left as simcheck measures it (its left_volume_mm3 and left_outside_volume_mm3): over
 * the part, cells left more than `tolerance` above it; beside it, all above the stock's bottom.
 */
export function leftAsSimcheck(setup: OurSetup, tolerance = 0.02): { over_part_mm3: number; outside_mm3: number } {
  const { field, part } = setup;
  let over = 0;
  let outside = 0;
  for (let k = 0; k < field.heights.length; k += 1) {
    const h = field.heights[k] as number;
    const p = part.heights[k] as number;
    if (Number.isFinite(p)) {
      if (h - p > tolerance) over += h - p;
    } else if (h > field.bottom) outside += h - field.bottom;
  }
  const area = field.dx * field.dy;
  return { over_part_mm3: over * area, outside_mm3: outside * area };
}

/** A height field of either simulation: cells of `cell` mm, heights at their centres. */
export interface SampledStock {
  cell: number;
  /** every cell's centre and height */
  forEach(visit: (x: number, y: number, height: number) => void): void;
  /** the highest height among the cells whose centres lie within `r` of (x, y) along each axis; -Infinity for none */
  highestNear(x: number, y: number, r: number): number;
}

/** A grid of cell-centre heights as a SampledStock; `height(i, j)` reads cell i along x, j along y. */
function gridStock(grid: {
  x0: number;
  y0: number;
  dx: number;
  dy: number;
  nx: number;
  ny: number;
  height(i: number, j: number): number;
}): SampledStock {
  return {
    cell: grid.dx,
    forEach(visit) {
      for (let j = 0; j < grid.ny; j += 1) {
        for (let i = 0; i < grid.nx; i += 1)
          visit(grid.x0 + (i + 0.5) * grid.dx, grid.y0 + (j + 0.5) * grid.dy, grid.height(i, j));
      }
    },
    highestNear(x, y, r) {
      const [i0, i1] = centresWithin(x - r, x + r, grid.x0, grid.dx, grid.nx);
      const [j0, j1] = centresWithin(y - r, y + r, grid.y0, grid.dy, grid.ny);
      let highest = -Infinity;
      for (let j = j0; j <= j1; j += 1)
        for (let i = i0; i <= i1; i += 1) highest = Math.max(highest, grid.height(i, j));
      return highest;
    },
  };
}

/** Our verification's stock after a setup: rows along x. */
export function ourStock(setup: OurSetup): SampledStock {
  const { field } = setup;
  return gridStock({ ...field, height: (i, j) => field.heights[j * field.nx + i] as number });
}

/** simcheck's stock after a setup (simcheck.ts): columns along y. */
export function simcheckStock(field: SimcheckField): SampledStock {
  return gridStock({
    x0: field.x0,
    y0: field.y0,
    dx: field.cell,
    dy: field.cell,
    nx: field.nx,
    ny: field.ny,
    height: (i, j) => field.heights[i * field.ny + j] as number,
  });
}

/**
 * Material `a` has that `b` lacks (mm³): over each of a's cells, how far a's height stands above
 * the highest of b's within `slack` mm, counted beyond `depth` and above the stock's `bottom`.
 * The slack lets a wall or a band of material left along one fall on the two grids' cells
 * differently (each sees it to half a cell); what is left is material only one of them has.
 */
export function materialBeyond(
  a: SampledStock,
  b: SampledStock,
  options: { bottom: number; slack: number; depth: number },
): number {
  let volume = 0;
  a.forEach((x, y, height) => {
    const top = Math.max(height, options.bottom);
    if (top <= options.bottom) return;
    const other = Math.max(b.highestNear(x, y, options.slack), options.bottom);
    if (top - other > options.depth) volume += top - other;
  });
  return volume * a.cell * a.cell;
}
