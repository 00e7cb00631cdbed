/**
 * bench:cam's workholding figures: how a part planned in the machine's workholding (its vise,
 * else its table) is held (one clamping per setup, each setup's holder, grip and what it grips),
 * the warnings the clamping gave, and the lines that set it beside the part's plan with nothing
 * holding it.
 */
import type { PlanResult } from "../../../kernel/cam/plan-types.ts";
import { round } from "../stats.ts";

export interface HeldFigures {
  /** one per setup kept: each is clamped once */
  clampings: number;
  /** per setup: its name, what holds it, grip (mm) and whether it grips the blank or part faces */
  grips: { setup: string; type: string; grip_mm: number; grips: "stock" | "part" }[];
  stock_allowance_needed: number;
  /** setups left out because no clamping holds them */
  unheld: number;
  workholding_collisions: number;
}

export function heldFigures(result: PlanResult): HeldFigures {
  return {
    clampings: result.setups.filter((s) => s.workholding !== undefined).length,
    grips: result.setups.flatMap((s) =>
      s.workholding
        ? [
            {
              setup: s.name,
              type: s.workholding.type,
              grip_mm: s.workholding.grip_mm,
              grips: s.workholding.clamped.grips,
            },
          ]
        : [],
    ),
    stock_allowance_needed: result.warnings.filter((w) => w.code === "stock_allowance_needed").length,
    unheld: result.unmachined.filter((u) => u.code === "workholding_unavailable").length,
    workholding_collisions: result.setups.reduce((n, s) => n + (s.verification.workholding_collisions ?? 0), 0),
  };
}

interface Planned {
  part: string;
  setups: number;
  machining_time_s: number;
  removed_pct: number;
  held: HeldFigures | null;
}

/** One line per part planned both ways: the held plan against the one nothing held. */
export function heldLines(rows: readonly Planned[], belowMm: number): string[] {
  const lines: string[] = [];
  for (const held of rows) {
    if (held.held === null) continue;
    const free = rows.find((r) => r.held === null && r.part === held.part.replace(" (held)", ""));
    const h = held.held;
    const grips = h.grips.map(
      (g) => `${g.setup} ${g.type} ${g.grip_mm} mm on the ${g.grips === "stock" ? "blank" : "part"}`,
    );
    const time = round(held.machining_time_s / 60, 1);
    const versus =
      free === undefined
        ? ""
        : `; nothing holding it: ${free.setups} setups, ${round(free.machining_time_s / 60, 1)} min (${signed(round(((held.machining_time_s - free.machining_time_s) / free.machining_time_s) * 100, 1))} %), ${free.removed_pct} % removed`;
    lines.push(
      `  ${held.part}: ${h.clampings} clampings (${grips.join(", ")}), ${time} min, ${held.removed_pct} % removed, ` +
        `${h.unheld} setups no clamping holds, ${h.stock_allowance_needed} stock_allowance_needed, ${h.workholding_collisions} moves near the workholding${versus}`,
    );
  }
  return lines.length === 0
    ? []
    : [`\nHeld in the machine's workholding (stock ${belowMm} mm below the part):`, ...lines];
}

const signed = (value: number): string => (value > 0 ? `+${value}` : String(value));
