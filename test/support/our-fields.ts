/**
 * The planner's own verification, kept for a test to read: planning hooks whose checks are the
 * production verification in the planner's thread (inlineChecks), each setup's remembered, so
 * the stock it left (its height field) can be set beside an independent verifier's.
 */
import { inlineChecks } from "../../kernel/cam/plan.ts";
import type { PlanHooks } from "../../kernel/cam/plan-types.ts";
import type { OperationCheck, SimulatedSetup } from "../../kernel/cam/planner/verify.ts";
import { partHeights, type PartHeights } from "../../kernel/cam/simulation/part-heights.ts";
import type { HeightField } from "../../kernel/cam/simulation/height-field.ts";

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
