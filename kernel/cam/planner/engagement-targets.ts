/**
 * What each operation's radial engagement should be, against what the stock simulation measured
 * (simulation/engagement.ts): roughing and rest roughing aim at the stepover the planner chose;
 * facing takes its width by design and finishing its allowance, so neither has a target here.
 * An operation whose 99th percentile exceeds its target by more than ENGAGEMENT_MARGIN (and the
 * simulation's resolution) is reported (`engagement_over_target`): offset clearing still takes
 * more than its stepover where it steps into the material ahead and in inside corners.
 */
import type { PlanWarning } from "../plan-types.ts";
import type { Engagement, Operation } from "../types.ts";

/** over the target by more than this share is reported */
export const ENGAGEMENT_MARGIN = 0.1;

/** The radial engagement (mm) the operation aims at; null: none (it takes what its kind takes). */
export function engagementTarget(operation: Pick<Operation, "kind" | "parameters">): number | null {
  switch (operation.kind) {
    case "roughing":
    case "rest_roughing":
      return operation.parameters.stepover_mm;
    default:
      return null;
  }
}

/** The operations with the engagement measured for them (by id); the others as they are. */
export function withEngagement(operations: readonly Operation[], engagement: Record<string, Engagement>): Operation[] {
  return operations.map((operation) => {
    const measured = engagement[operation.id];
    return measured === undefined ? operation : { ...operation, engagement: measured };
  });
}

/**
 * The p99 the target is compared with: outside the slots the part makes, where the tool cuts at
 * full width between its walls because no narrower path fits (issue 37: slotting only there, at
 * a reduced depth); the whole length's in plans measured before that was told apart.
 */
export function comparedP99(measured: Pick<Engagement, "radial_p99_mm" | "radial_p99_beside_slots_mm">): number {
  return measured.radial_p99_beside_slots_mm ?? measured.radial_p99_mm;
}

/**
 * The p99 over the target: by more than ENGAGEMENT_MARGIN of it and more than the cells resolve
 * (an edge of a width is known to half a cell's diagonal, 0.07 mm: a tenth of a 1 mm end mill's
 * 0.4 mm stepover is 0.04 mm, under what the simulation can tell).
 */
export function overTarget(
  target: number,
  measured: Pick<Engagement, "radial_p99_mm" | "radial_p99_beside_slots_mm" | "resolution_mm">,
): boolean {
  return comparedP99(measured) > target * (1 + ENGAGEMENT_MARGIN) + (measured.resolution_mm ?? 0);
}

/** One warning per operation of the setup whose p99 radial engagement exceeds its target by more than the margin. */
export function engagementWarnings(setup: string, operations: readonly Operation[]): PlanWarning[] {
  const warnings: PlanWarning[] = [];
  for (const operation of operations) {
    const target = engagementTarget(operation);
    const measured = operation.engagement;
    if (target === null || measured === undefined || !(target > 0)) continue;
    if (!overTarget(target, measured)) continue;
    warnings.push({
      code: "engagement_over_target",
      message:
        `setup ${setup}: ${operation.name} (${operation.id}): 99 % of its length cut ` +
        `${measured.feature_slot_pct ? "outside the slots the part makes " : ""}engages up to ${comparedP99(measured)} mm ` +
        `radially (all of it: ${measured.radial_p99_mm} mm, ${measured.radial_p99_pct} % of the diameter; at most ${measured.radial_max_mm} mm), over its target of ` +
        `${target} mm (the stepover) by more than ${ENGAGEMENT_MARGIN * 100} %`,
      details: {
        operation_id: operation.id,
        setup,
        p99_mm: measured.radial_p99_mm,
        p99_pct: measured.radial_p99_pct,
        max_mm: measured.radial_max_mm,
        target_mm: target,
      },
    });
  }
  return warnings;
}
