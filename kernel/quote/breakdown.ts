/**
 * The cost breakdown of a quote: computed on the fly from the layered inputs, never stored.
 * Every intermediate value is exact; money is rounded to cents at the end, and the lines are
 * reconciled with the rounded totals so they add up exactly (docs/quote.md, "Breakdown").
 *
 * Order of the calculation (a German job shop's "Zuschlagskalkulation"):
 *   direct cost     = machining + setup + the shop's labour and wear lines (cost-model.ts)
 *                     + material + additional costs (for the order)
 *   overhead        = direct cost * overhead_percentage            -> manufacturing_cost
 *   profit          = manufacturing_cost * profit                  -> price before discount
 *   discount        = price before discount * discount             -> net_price
 *   tax             = net_price * tax                              -> total_price
 *   unit_price      = net_price / quantity (net, rounded to cents; informative)
 */
import { cycleTimeS, jobCycleTimeS } from "../job/setup-facts.ts";
import type { Completeness } from "../cam/plan-types.ts";
import { planIncompleteMessage } from "./completeness-text.ts";
import { allocateCents, cents, dec, HUNDRED, percentOf, sum, ZERO, type Decimal, type DecimalInput } from "./money.ts";
import type { MhrSource, ResolvedSetupCost, SetupCostSource } from "./layers.ts";
import { droppedOverrideMessage, type DroppedSetupCost } from "./setup-cost-carry.ts";
import { cuttingSecondsByFamily, exactLine, laborAndWearLines, type ExactLine } from "./cost-lines.ts";
import type { ResolvedCostModel } from "./cost-model.ts";

export type { LineKind, LineUnit } from "./cost-lines.ts";

export interface BreakdownSetup {
  id: string;
  name: string;
  index: number;
  /** the whole setup per part, tool changes included (jobs.plan_summary) */
  machining_time_s: number;
  /** its operations' times by their tool's type, for tool wear; missing: no wear priced */
  operations?: readonly { tool_type: string; machining_time_s: number }[];
}

export interface AdditionalCostGroup {
  Title: string;
  per_unit: boolean;
  Costs: { label: string; cost: number }[];
}

export type MaterialInput =
  | { kind: "fixed"; price: DecimalInput }
  | {
      kind: "stock";
      /** stock box size, mm; null: no stock yet */
      stock_size_mm: readonly [number, number, number] | null;
      /** null: the project has no material */
      material: { id: string; density_kg_m3: DecimalInput; price_per_kg: DecimalInput } | null;
      surcharge_percentage: DecimalInput;
    };

export interface BreakdownInput {
  quantity: DecimalInput;
  mhr: { value: DecimalInput; source: MhrSource };
  /** null: the current job has no plan yet */
  setups: readonly BreakdownSetup[] | null;
  /** the plan's completeness; null without a plan, or for a plan saved before plans carried one */
  completeness: Completeness | null;
  /** the plan's warnings (jobs.plan_summary); empty without a plan. The quote repeats those that change its price */
  plan_warnings: readonly { code: string; message: string }[];
  /** the overrides the planning of the current job dropped (setup-cost-carry.ts) */
  setup_costs_dropped: readonly DroppedSetupCost[];
  /** one per setup, in the setups' order (layers.ts mergeSetupCosts) */
  setup_costs: readonly ResolvedSetupCost[];
  material: MaterialInput;
  additional_costs: Readonly<Record<string, AdditionalCostGroup>>;
  overhead_percentage: DecimalInput;
  profit: DecimalInput;
  discount: DecimalInput;
  tax: DecimalInput;
  /** the layered cost model (cost-model.ts resolveCostModel) */
  cost_model: ResolvedCostModel;
}

/**
 * A line as the breakdown answers it: `ref` is the setup of a machining or setup-cost line, the
 * group id of an additional cost, the family of tool wear; `quantity` is for the order, in `unit`,
 * exact (the JSON rounds it to 4 places); `rate` EUR per unit; `amount` for the order (all parts)
 * in cents, quantity x rate reconciled with direct_cost.
 */
export type BreakdownLine = Omit<ExactLine, "value"> & { amount: Decimal };

export interface SetupLine {
  setup_id: string;
  name: string;
  index: number;
  machining_time_s: number;
  machining_cost: Decimal;
  setup_cost: {
    name: string;
    /** setup_rate: no entry, priced at the cost model's setup rate */
    source: SetupCostSource | "setup_rate";
    is_fixed_price: boolean;
    /** EUR/h when not a fixed price */
    rate: Decimal;
    /** setup time priced at the rate, h; zero for a fixed price */
    hours: Decimal;
    fix_price: Decimal;
    unit: string;
    amount: Decimal;
  };
}

export interface Breakdown {
  currency: "EUR";
  quantity: Decimal;
  mhr: { value: Decimal; source: MhrSource };
  /** per part, all setups */
  machining_time_s: number;
  setups: SetupLine[];
  material: {
    kind: "fixed" | "stock" | "none";
    weight_kg: Decimal | null;
    price_per_kg: Decimal | null;
    surcharge_percentage: Decimal | null;
    /** exact cost of one part's material, before rounding */
    unit_cost: Decimal;
    amount: Decimal;
  };
  additional_costs: { group_id: string; title: string; per_unit: boolean; amount: Decimal }[];
  lines: BreakdownLine[];
  direct_cost: Decimal;
  overhead_percentage: Decimal;
  overhead: Decimal;
  manufacturing_cost: Decimal;
  profit_percentage: Decimal;
  profit: Decimal;
  price_before_discount: Decimal;
  discount_percentage: Decimal;
  discount: Decimal;
  net_price: Decimal;
  tax_percentage: Decimal;
  tax: Decimal;
  total_price: Decimal;
  unit_price: Decimal;
  warnings: { code: string; message: string }[];
  /** the layered cost model the lines used, with each value's layer */
  cost_model: ResolvedCostModel;
}

const SECONDS_PER_HOUR = dec(3600);

export function computeBreakdown(input: BreakdownInput): Breakdown {
  const quantity = dec(input.quantity);
  const mhr = dec(input.mhr.value);
  const warnings: Breakdown["warnings"] = [];
  const setups = input.setups ?? [];
  // first: a quote of a plan that does not finish the part must not be sent unread
  const incomplete = planIncompleteMessage(input.completeness);
  if (incomplete) warnings.push({ code: "plan_incomplete", message: incomplete });
  // the material is priced on the stock given, which the plan says is too small to grip
  for (const warning of input.plan_warnings) {
    if (warning.code === "stock_allowance_needed")
      warnings.push({
        code: "stock_allowance_needed",
        message: `material is priced on too little stock: ${warning.message}`,
      });
  }
  if (input.setups === null) {
    warnings.push({
      code: "no_plan",
      message: "the current CAM job has no plan yet: machining time and setup costs are zero",
    });
  }
  for (const dropped of input.setup_costs_dropped) {
    warnings.push({ code: "setup_cost_override_dropped", message: droppedOverrideMessage(dropped) });
  }

  // exact amounts for the order, by line
  const model = input.cost_model.values;
  const setupTime = dec(model.setup_time_h);
  const exact: ExactLine[] = [];
  const setupExact = setups.map((setup, i) => {
    const hours = dec(cycleTimeS(setup)).dividedBy(SECONDS_PER_HOUR);
    const resolved = input.setup_costs[i];
    const entry = resolved?.entry ?? null;
    const fixed = entry?.is_fixed_price === "true";
    // an hourly entry prices the setup time per clamping (once per order), as does the setup rate without one
    const rate = fixed ? ZERO : entry ? dec(entry.value) : dec(model.setup_rate);
    const fixPrice = entry && fixed ? dec(entry.fix_price) : ZERO;
    const source: SetupLine["setup_cost"]["source"] = entry
      ? (resolved?.source ?? "none")
      : rate.isZero()
        ? "none"
        : "setup_rate";
    if (source === "none")
      warnings.push({
        code: "setup_cost_missing",
        message: `no setup cost for ${setup.name}: neither the quote job nor the machine has one, and the setup rate is zero`,
      });
    exact.push(
      exactLine({
        kind: "machining",
        label: setup.name,
        ref: setup.id,
        quantity: hours.times(quantity),
        unit: "h",
        rate: mhr,
      }),
    );
    exact.push(
      fixed
        ? exactLine({
            kind: "setup_cost",
            label: entry?.name || setup.name,
            ref: setup.id,
            quantity: dec(1),
            unit: "order",
            rate: fixPrice,
          })
        : exactLine({
            kind: "setup_cost",
            label: entry?.name || setup.name,
            ref: setup.id,
            quantity: setupTime,
            unit: "h",
            rate,
          }),
    );
    return { setup, entry, fixed, rate, fixPrice, hours: fixed ? ZERO : setupTime, source };
  });
  exact.push(
    ...laborAndWearLines({
      model,
      quantity,
      clampings: setups.length,
      machining_time_s: jobCycleTimeS(setups),
      cutting_s: cuttingSecondsByFamily(setups),
    }),
  );

  let material: Breakdown["material"];
  if (input.material.kind === "fixed") {
    const unit = dec(input.material.price);
    material = {
      kind: "fixed",
      weight_kg: null,
      price_per_kg: null,
      surcharge_percentage: null,
      unit_cost: unit,
      amount: ZERO,
    };
  } else if (!input.material.material || !input.material.stock_size_mm) {
    if (!input.material.material)
      warnings.push({ code: "material_missing", message: "the project has no material: material cost is zero" });
    if (!input.material.stock_size_mm)
      warnings.push({ code: "stock_missing", message: "the current CAM job has no stock: material cost is zero" });
    material = {
      kind: "none",
      weight_kg: null,
      price_per_kg: null,
      surcharge_percentage: null,
      unit_cost: ZERO,
      amount: ZERO,
    };
  } else {
    const [x, y, z] = input.material.stock_size_mm;
    const volumeM3 = dec(x).times(y).times(z).dividedBy(1e9);
    const weight = volumeM3.times(input.material.material.density_kg_m3);
    const pricePerKg = dec(input.material.material.price_per_kg);
    const surcharge = dec(input.material.surcharge_percentage);
    const unit = weight.times(pricePerKg).times(HUNDRED.plus(surcharge)).dividedBy(HUNDRED);
    material = {
      kind: "stock",
      weight_kg: weight,
      price_per_kg: pricePerKg,
      surcharge_percentage: surcharge,
      unit_cost: unit,
      amount: ZERO,
    };
  }
  exact.push(materialLine(material, quantity));

  // by group id: a stored map (jsonb) keeps no order of its own
  const groups = Object.entries(input.additional_costs).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (const [id, group] of groups) {
    const groupSum = sum(group.Costs.map((c) => dec(c.cost)));
    exact.push(
      exactLine({
        kind: "additional_cost",
        label: group.Title,
        ref: id,
        quantity: group.per_unit ? quantity : dec(1),
        unit: group.per_unit ? "part" : "order",
        rate: groupSum,
      }),
    );
  }

  // totals: exact, then rounded once
  const directExact = sum(exact.map((e) => e.value));
  const manufacturingExact = directExact.plus(percentOf(directExact, input.overhead_percentage));
  const beforeDiscountExact = manufacturingExact.plus(percentOf(manufacturingExact, input.profit));
  const netExact = beforeDiscountExact.minus(percentOf(beforeDiscountExact, input.discount));

  const direct = cents(directExact);
  const manufacturing = cents(manufacturingExact);
  const beforeDiscount = cents(beforeDiscountExact);
  const net = cents(netExact);
  // tax on the net amount as the invoice shows it
  const tax = cents(percentOf(net, input.tax));
  const total = net.plus(tax);

  const amounts = allocateCents(
    exact.map((e) => e.value),
    direct,
  );
  const lines: BreakdownLine[] = exact.map((e, i) => ({
    kind: e.kind,
    label: e.label,
    ref: e.ref,
    quantity: e.quantity,
    unit: e.unit,
    rate: e.rate,
    amount: amounts[i]!,
  }));
  material.amount = lines.find((l) => l.kind === "material")!.amount;

  return {
    currency: "EUR",
    quantity,
    mhr: { value: mhr, source: input.mhr.source },
    machining_time_s: jobCycleTimeS(setups),
    setups: setupExact.map(({ setup, entry, fixed, rate, fixPrice, hours, source }) => ({
      setup_id: setup.id,
      name: setup.name,
      index: setup.index,
      machining_time_s: cycleTimeS(setup),
      machining_cost: lines.find((l) => l.kind === "machining" && l.ref === setup.id)!.amount,
      setup_cost: {
        name: entry?.name ?? "",
        source,
        is_fixed_price: fixed,
        rate,
        hours,
        fix_price: fixPrice,
        unit: entry?.unit ?? (source === "setup_rate" ? "EUR/h" : ""),
        amount: lines.find((l) => l.kind === "setup_cost" && l.ref === setup.id)!.amount,
      },
    })),
    material,
    additional_costs: groups.map(([id, group]) => ({
      group_id: id,
      title: group.Title,
      per_unit: group.per_unit,
      amount: lines.find((l) => l.kind === "additional_cost" && l.ref === id)!.amount,
    })),
    lines,
    direct_cost: direct,
    overhead_percentage: dec(input.overhead_percentage),
    overhead: manufacturing.minus(direct),
    manufacturing_cost: manufacturing,
    profit_percentage: dec(input.profit),
    profit: beforeDiscount.minus(manufacturing),
    price_before_discount: beforeDiscount,
    discount_percentage: dec(input.discount),
    discount: beforeDiscount.minus(net),
    net_price: net,
    tax_percentage: dec(input.tax),
    tax,
    total_price: total,
    unit_price: cents(net.dividedBy(quantity)),
    warnings,
    cost_model: input.cost_model,
  };
}

/** material for the order: kg at the price per kg with the surcharge, or parts at the fixed price */
function materialLine(material: Breakdown["material"], quantity: Decimal): ExactLine {
  if (material.kind === "stock" && material.weight_kg && material.price_per_kg && material.surcharge_percentage) {
    const perKg = material.price_per_kg.times(HUNDRED.plus(material.surcharge_percentage)).dividedBy(HUNDRED);
    return exactLine({
      kind: "material",
      label: "material",
      ref: null,
      quantity: material.weight_kg.times(quantity),
      unit: "kg",
      rate: perKg,
    });
  }
  return exactLine({
    kind: "material",
    label: "material",
    ref: null,
    quantity,
    unit: "part",
    rate: material.unit_cost,
  });
}

/** the breakdown as the API answers it: money as numbers in cents, percentages as numbers */
export function breakdownJson(b: Breakdown) {
  const n = (d: Decimal) => d.toNumber();
  return {
    currency: b.currency,
    quantity: n(b.quantity),
    mhr: n(b.mhr.value),
    mhr_source: b.mhr.source,
    machining_time_s: b.machining_time_s,
    setups: b.setups.map((s) => ({
      setup_id: s.setup_id,
      name: s.name,
      index: s.index,
      machining_time_s: s.machining_time_s,
      machining_cost: n(s.machining_cost),
      setup_cost: {
        name: s.setup_cost.name,
        source: s.setup_cost.source,
        is_fixed_price: s.setup_cost.is_fixed_price,
        rate: n(s.setup_cost.rate),
        hours: n(s.setup_cost.hours),
        fix_price: n(s.setup_cost.fix_price),
        unit: s.setup_cost.unit,
        amount: n(s.setup_cost.amount),
      },
    })),
    material: {
      kind: b.material.kind,
      weight_kg: b.material.weight_kg === null ? null : n(b.material.weight_kg.toDecimalPlaces(4)),
      price_per_kg: b.material.price_per_kg === null ? null : n(b.material.price_per_kg),
      surcharge_percentage: b.material.surcharge_percentage === null ? null : n(b.material.surcharge_percentage),
      amount: n(b.material.amount),
    },
    additional_costs: b.additional_costs.map((g) => ({ ...g, amount: n(g.amount) })),
    lines: b.lines.map((l) => ({
      kind: l.kind,
      label: l.label,
      ref: l.ref,
      quantity: n(l.quantity.toDecimalPlaces(4)),
      unit: l.unit,
      rate: n(l.rate.toDecimalPlaces(4)),
      amount: n(l.amount),
    })),
    cost_model: { ...b.cost_model.values, sources: b.cost_model.sources },
    direct_cost: n(b.direct_cost),
    overhead_percentage: n(b.overhead_percentage),
    overhead: n(b.overhead),
    manufacturing_cost: n(b.manufacturing_cost),
    profit_percentage: n(b.profit_percentage),
    profit: n(b.profit),
    price_before_discount: n(b.price_before_discount),
    discount_percentage: n(b.discount_percentage),
    discount: n(b.discount),
    net_price: n(b.net_price),
    tax_percentage: n(b.tax_percentage),
    tax: n(b.tax),
    total_price: n(b.total_price),
    unit_price: n(b.unit_price),
    warnings: b.warnings,
  };
}
export type BreakdownJson = ReturnType<typeof breakdownJson>;
