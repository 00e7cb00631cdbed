/**
 * bench:cam's engagement figures: each roughing and rest roughing operation's radial engagement
 * as the stock simulation measured it (maximum and 99th percentile, mm and % of the diameter),
 * its deepest cut, and its target (the stepover), marked where the 99th percentile is over it by
 * more than the margin the plan warns at.
 */
import {
  comparedP99,
  ENGAGEMENT_MARGIN,
  engagementTarget,
  overTarget,
} from "../../../kernel/cam/planner/engagement-targets.ts";
import type { PlanResult } from "../../../kernel/cam/plan-types.ts";

export interface RoughingEngagement {
  setup: string;
  operation: string;
  kind: string;
  tool: string;
  target_mm: number | null;
  max_mm: number;
  max_pct: number;
  p99_mm: number;
  p99_pct: number;
  axial_max_mm: number;
  /** the share of the length cut at 90 % of the diameter or more (null: measured before it was) */
  full_width_pct: number | null;
  /** the same deeper than half the diameter */
  full_width_deep_pct: number | null;
  /** the share at full width in slots the part makes (null: measured before it was) */
  feature_slot_pct: number | null;
  /** p99 outside those slots, what the target is compared with */
  p99_beside_slots_mm: number;
  cutting_length_mm: number;
  over_target: boolean;
}

export function roughingEngagement(result: PlanResult): RoughingEngagement[] {
  return result.setups.flatMap((setup) =>
    setup.operations.flatMap((operation) => {
      const measured = operation.engagement;
      if (measured === undefined || (operation.kind !== "roughing" && operation.kind !== "rest_roughing")) return [];
      const target = engagementTarget(operation);
      return [
        {
          setup: setup.name,
          operation: operation.id,
          kind: operation.kind,
          tool: operation.tool.name,
          target_mm: target,
          max_mm: measured.radial_max_mm,
          max_pct: measured.radial_max_pct,
          p99_mm: measured.radial_p99_mm,
          p99_pct: measured.radial_p99_pct,
          axial_max_mm: measured.axial_max_mm,
          full_width_pct: measured.full_width_pct ?? null,
          full_width_deep_pct: measured.full_width_deep_pct ?? null,
          feature_slot_pct: measured.feature_slot_pct ?? null,
          p99_beside_slots_mm: comparedP99(measured),
          cutting_length_mm: measured.cutting_length_mm,
          over_target: target !== null && overTarget(target, measured),
        },
      ];
    }),
  );
}

/** One line per roughing operation, under a heading per part. */
export function engagementLines(
  rows: readonly { part: string; engagement: readonly RoughingEngagement[] }[],
): string[] {
  const lines: string[] = [];
  for (const row of rows) {
    if (row.engagement.length === 0) continue;
    const over = row.engagement.filter((e) => e.over_target).length;
    lines.push(
      `  ${row.part}: ${over} of ${row.engagement.length} over their target; ${fullWidthShare(row.engagement, "full_width_pct")} % of the length cut at full width, ${fullWidthShare(row.engagement, "full_width_deep_pct")} % deeper than D/2, ${fullWidthShare(row.engagement, "feature_slot_pct")} % in the part's slots`,
    );
    for (const e of row.engagement)
      lines.push(
        `    ${e.setup} ${e.operation} ${e.kind} ${e.tool}: max ${e.max_mm} mm (${e.max_pct} %), p99 ${e.p99_mm} mm ` +
          `(${e.p99_pct} %; outside the part's slots ${e.p99_beside_slots_mm} mm), full width ${e.full_width_pct ?? "-"} % (deeper than D/2 ${e.full_width_deep_pct ?? "-"} %, in the part's slots ${e.feature_slot_pct ?? "-"} %), ap ${e.axial_max_mm} mm; target ${e.target_mm ?? "-"} mm${e.over_target ? ", over" : ""}`,
      );
  }
  return lines.length === 0
    ? []
    : [
        `\nRadial engagement of roughing (measured; over: p99 above the stepover by more than ${ENGAGEMENT_MARGIN * 100} % and the cells' resolution):`,
        ...lines,
      ];
}

/** The share (%) of all the operations' length cut that was at full width, weighted by each one's length. */
export function fullWidthShare(
  engagement: readonly RoughingEngagement[],
  field: "full_width_pct" | "full_width_deep_pct" | "feature_slot_pct",
): number {
  let length = 0;
  let full = 0;
  for (const e of engagement) {
    length += e.cutting_length_mm;
    full += ((e[field] ?? 0) * e.cutting_length_mm) / 100;
  }
  return length > 0 ? Math.round((10_000 * full) / length) / 100 : 0;
}
