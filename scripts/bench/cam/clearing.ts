/**
 * bench:cam's clearing comparison: each part planned as the planner chooses (`clearing` absent,
 * so `auto`) beside the same part with `clearing: offset`, in the same run, with the same
 * library, machine and stock. Per pair: the roughing time (roughing and rest roughing
 * operations), the machining time, the planning time, the roughing operations over their
 * engagement target, and the largest scallop the 3D finishing left on the faces it finished
 * (measured by the plan's verification); and the issue's aims: roughing at least ROUGHING_GAIN
 * lower on the NIST parts, p99 engagement within the target, the scallop within its target plus
 * SCALLOP_MARGIN_MM, planning at most PLANNING_RATIO times the offset plan's.
 */
import { operationTime } from "../../../kernel/cam/machining-time.ts";
import type { PlanResult } from "../../../kernel/cam/plan-types.ts";
import { DEFAULT_SCALLOP_MM } from "../../../kernel/cam/planner/surface-finishing-step.ts";
import type { MachineArchetype } from "../../../kernel/machines/archetypes.ts";
import { round } from "../stats.ts";
import type { RoughingEngagement } from "./engagement.ts";

/** the roughing time the planner's own choice must save against offset clearing on the NIST parts */
export const ROUGHING_GAIN = 0.25;
/** planning may take at most this many times the offset plan's */
export const PLANNING_RATIO = 1.5;
/** the largest scallop may exceed the asked one by this much (mm) */
export const SCALLOP_MARGIN_MM = 0.005;

export type Clearing = "auto" | "adaptive" | "offset";

/** One plan of a part: held or not, and the clearing asked for (null: the planner's default). */
export interface Variant {
  held: boolean;
  clearing: Clearing | null;
}

/** The plans a run makes of each part. */
export function variants(workholding: "both" | "none" | "held", clearing: "compare" | Clearing): Variant[] {
  const held = workholding === "both" ? [false, true] : [workholding === "held"];
  const clearings: (Clearing | null)[] = clearing === "compare" ? [null, "offset"] : [clearing];
  return held.flatMap((h) => clearings.map((c) => ({ held: h, clearing: c })));
}

/** The row's name: the file, " (held)" in the workholding, " [offset]" and the like when a clearing is forced. */
export function variantName(file: string, variant: Variant): string {
  return `${file}${variant.held ? " (held)" : ""}${variant.clearing === null ? "" : ` [${variant.clearing}]`}`;
}

export interface ClearingFigures {
  /** seconds of the roughing and rest roughing operations */
  roughing_s: number;
  /** roughing operations by the clearing they use */
  adaptive_ops: number;
  offset_ops: number;
  /** the regions roughings chose their clearing for (Operation.clearing_regions), and those gone adaptive */
  regions: number;
  adaptive_regions: number;
  /** 3D finishing operations, and how many of them had a scallop measured */
  surface_ops: number;
  scallop_measured: number;
  /** the largest scallop measured (mm); null when none was */
  scallop_mm: number | null;
}

const ROUGHING = new Set(["roughing", "rest_roughing"]);

/** Each roughing operation timed on its own, from its own first position (tool changes aside). */
export function clearingFigures(result: PlanResult, machine: MachineArchetype): ClearingFigures {
  const roughing = result.setups.flatMap((s) => s.operations.filter((o) => ROUGHING.has(o.kind)));
  const adaptive = roughing.filter((o) => /adaptive/i.test(o.name)).length;
  const regions = roughing.flatMap((o) => o.clearing_regions ?? []);
  const surface = result.setups.flatMap((s) => s.operations.filter((o) => o.kind === "surface_finishing"));
  const scallops = surface.flatMap((o) => (o.scallop_mm === undefined ? [] : [o.scallop_mm]));
  return {
    roughing_s: round(
      roughing.reduce((n, o) => n + operationTime(o, machine).total_s, 0),
      1,
    ),
    adaptive_ops: adaptive,
    offset_ops: roughing.length - adaptive,
    regions: regions.length,
    adaptive_regions: regions.filter((r) => r.clearing === "adaptive").length,
    surface_ops: surface.length,
    scallop_measured: scallops.length,
    scallop_mm: scallops.length === 0 ? null : round(Math.max(...scallops), 4),
  };
}

interface Planned {
  part: string;
  plan_s: number;
  machining_time_s: number;
  gouges: number;
  clearing: ClearingFigures;
  engagement: readonly RoughingEngagement[];
}

interface Pair {
  part: string;
  chosen: Planned;
  offset: Planned;
  roughing_ratio: number;
  planning_ratio: number;
}

function pairs(rows: readonly Planned[]): Pair[] {
  return rows.flatMap((chosen) => {
    if (chosen.part.endsWith("]")) return [];
    const offset = rows.find((r) => r.part === `${chosen.part} [offset]`);
    if (offset === undefined) return [];
    return [
      {
        part: chosen.part,
        chosen,
        offset,
        roughing_ratio: offset.clearing.roughing_s > 0 ? chosen.clearing.roughing_s / offset.clearing.roughing_s : 1,
        planning_ratio: offset.plan_s > 0 ? chosen.plan_s / offset.plan_s : 1,
      },
    ];
  });
}

/** The comparison's lines and its aims (null when no part was planned both ways). */
export function clearingLines(rows: readonly Planned[]): { lines: string[]; aims: ClearingAims | null } {
  const all = pairs(rows);
  if (all.length === 0) return { lines: [], aims: null };
  const lines = ["\nClearing: the planner's choice against offset clearing (same part, library and run):"];
  for (const p of all) {
    const c = p.chosen;
    const o = p.offset;
    const over = (e: readonly RoughingEngagement[]) => `${e.filter((x) => x.over_target).length}/${e.length}`;
    lines.push(
      `  ${p.part}: roughing ${round(c.clearing.roughing_s / 60, 1)} min (${c.clearing.adaptive_ops} adaptive, ` +
        `${c.clearing.offset_ops} offset operations; ${c.clearing.adaptive_regions} of ${c.clearing.regions} regions adaptive) against ${round(o.clearing.roughing_s / 60, 1)} min ` +
        `(${signedPct(p.roughing_ratio)}); machining ${round(c.machining_time_s / 60, 1)} against ${round(o.machining_time_s / 60, 1)} min; ` +
        `planning ${c.plan_s} against ${o.plan_s} s (${round(p.planning_ratio, 2)}x); roughing over target ${over(c.engagement)} against ${over(o.engagement)}; ` +
        `3D finishing ${c.clearing.surface_ops} operations, largest scallop ${c.clearing.scallop_mm ?? "-"} mm (${c.clearing.scallop_measured} measured)`,
    );
  }
  const nist = all.filter((p) => p.part.startsWith("nist"));
  const aims: ClearingAims = {
    roughing: nist.length > 0 && nist.every((p) => p.roughing_ratio <= 1 - ROUGHING_GAIN + 1e-9),
    engagement: all.every((p) => p.chosen.engagement.every((e) => !e.over_target)),
    scallop: all.every((p) => (p.chosen.clearing.scallop_mm ?? 0) <= DEFAULT_SCALLOP_MM + SCALLOP_MARGIN_MM + 1e-9),
    planning: all.every((p) => p.planning_ratio <= PLANNING_RATIO),
    gouges: all.every((p) => p.chosen.gouges === 0 && p.offset.gouges === 0),
  };
  const met = (ok: boolean) => (ok ? "met" : "missed");
  lines.push(
    `  ${nist.length === 0 ? "not measured" : met(aims.roughing)}: roughing at least ${ROUGHING_GAIN * 100} % shorter on the NIST parts (${nist.map((p) => `${p.part.split("_").slice(0, 3).join("_")} ${signedPct(p.roughing_ratio)}`).join(", ") || "no NIST part planned"})`,
    `  ${met(aims.engagement)}: every roughing operation's p99 engagement within its target`,
    `  ${met(aims.scallop)}: the largest scallop measured within ${DEFAULT_SCALLOP_MM} + ${SCALLOP_MARGIN_MM} mm (${all.reduce((n, p) => n + p.chosen.clearing.scallop_measured, 0)} operations measured of ${all.reduce((n, p) => n + p.chosen.clearing.surface_ops, 0)})`,
    `  ${met(aims.planning)}: planning at most ${PLANNING_RATIO} times the offset plan's (largest ${round(Math.max(...all.map((p) => p.planning_ratio)), 2)}x)`,
    `  ${met(aims.gouges)}: no gouge in either plan`,
  );
  return { lines, aims };
}

export interface ClearingAims {
  roughing: boolean;
  engagement: boolean;
  scallop: boolean;
  planning: boolean;
  gouges: boolean;
}

const signedPct = (ratio: number): string => {
  const pct = round((ratio - 1) * 100, 1);
  return `${pct > 0 ? "+" : ""}${pct} %`;
};
