/**
 * The shop's labour and wear lines of a breakdown, exact, each as quantity x rate for the order:
 * loading and unloading, operator attendance, programming and review, tool wear by family,
 * deburring, inspection (docs/quote.md, "Cost model"). Setup time per clamping is priced with
 * each setup's setup cost in breakdown.ts, as the setup-cost entries may replace it.
 */
import { WEAR_FAMILIES, WEAR_FAMILY_NAMES, wearFamily, type CostModel, type WearFamily } from "./cost-model.ts";
import { dec, HUNDRED, type Decimal } from "./money.ts";

export type LineKind =
  | "machining"
  | "setup_cost"
  | "loading"
  | "operator_attendance"
  | "programming"
  | "tool_wear"
  | "deburring"
  | "inspection"
  | "material"
  | "additional_cost";

/** h: hours, min: minutes, kg, part: per part, order: once per order */
export type LineUnit = "h" | "min" | "kg" | "part" | "order";

export interface ExactLine {
  kind: LineKind;
  label: string;
  ref: string | null;
  quantity: Decimal;
  unit: LineUnit;
  rate: Decimal;
  /** quantity x rate, exact */
  value: Decimal;
}

export function exactLine(line: Omit<ExactLine, "value">): ExactLine {
  return { ...line, value: line.quantity.times(line.rate) };
}

const MINUTES_PER_HOUR = dec(60);
const SECONDS_PER_HOUR = dec(3600);

interface LaborInput {
  model: CostModel;
  quantity: Decimal;
  /** the plan's clampings (its setups) */
  clampings: number;
  /** per part, all setups, s */
  machining_time_s: number;
  /** per part, s of cutting by the family of the tool; families without time are left out */
  cutting_s: Partial<Record<WearFamily, number>>;
}

/** the lines in the order the breakdown lists them (after the setups' lines, before material) */
export function laborAndWearLines(input: LaborInput): ExactLine[] {
  const { model, quantity } = input;
  const operatorRate = dec(model.operator_rate);
  const perPartHours = (minutes: number) => dec(minutes).dividedBy(MINUTES_PER_HOUR).times(quantity);
  const lines: ExactLine[] = [
    exactLine({
      kind: "loading",
      label: `loading and unloading: ${model.loading_min} min x ${input.clampings} clampings per part`,
      ref: null,
      quantity: perPartHours(model.loading_min).times(input.clampings),
      unit: "h",
      rate: operatorRate,
    }),
    exactLine({
      kind: "operator_attendance",
      label: `operator attendance: ${model.operator_attendance_percentage} % of the machining time`,
      ref: null,
      quantity: dec(input.machining_time_s)
        .dividedBy(SECONDS_PER_HOUR)
        .times(model.operator_attendance_percentage)
        .dividedBy(HUNDRED)
        .times(quantity),
      unit: "h",
      rate: operatorRate,
    }),
    exactLine({
      kind: "programming",
      label: "programming and review",
      ref: null,
      quantity: dec(model.programming_time_h),
      unit: "h",
      rate: dec(model.programming_rate),
    }),
  ];
  for (const family of WEAR_FAMILIES) {
    const seconds = input.cutting_s[family] ?? 0;
    if (seconds <= 0) continue;
    lines.push(
      exactLine({
        kind: "tool_wear",
        label: `tool wear: ${WEAR_FAMILY_NAMES.en[family]}`,
        ref: family,
        quantity: dec(seconds).dividedBy(MINUTES_PER_HOUR).times(quantity),
        unit: "min",
        rate: dec(model.tool_wear[family]),
      }),
    );
  }
  lines.push(
    exactLine({
      kind: "deburring",
      label: `deburring: ${model.deburring_min} min per part`,
      ref: null,
      quantity: perPartHours(model.deburring_min),
      unit: "h",
      rate: operatorRate,
    }),
    exactLine({
      kind: "inspection",
      label: `inspection: ${model.inspection_min} min per part`,
      ref: null,
      quantity: perPartHours(model.inspection_min),
      unit: "h",
      rate: operatorRate,
    }),
  );
  return lines;
}

/** per part, the seconds each wear family cuts over all setups */
export function cuttingSecondsByFamily(
  setups: readonly { operations?: readonly { tool_type: string; machining_time_s: number }[] }[],
): Partial<Record<WearFamily, number>> {
  const byFamily: Partial<Record<WearFamily, number>> = {};
  for (const setup of setups) {
    for (const op of setup.operations ?? []) {
      const family = wearFamily(op.tool_type);
      byFamily[family] = (byFamily[family] ?? 0) + op.machining_time_s;
    }
  }
  return byFamily;
}
