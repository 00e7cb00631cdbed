/**
 * A STEP measure with its unit, in mm or degrees: MEASURE_WITH_UNIT (alone, as one of its kinds
 * LENGTH_MEASURE_WITH_UNIT..., or in a complex instance with REPRESENTATION_ITEM's name) and
 * MEASURE_REPRESENTATION_ITEM(name, value, unit).
 */
import { enumOf, partOf, refOf, type StepModel, type StepValue } from "./part21.ts";

export interface Measure {
  value: number;
  unit: "mm" | "deg" | null;
  /** the representation item's name ('nominal value', 'upper limit'...), "" when none */
  name: string;
}

const SI_PREFIX: Record<string, number> = {
  MILLI: 1e-3,
  CENTI: 1e-2,
  DECI: 1e-1,
  MICRO: 1e-6,
  KILO: 1e3,
};
const MEASURE_KINDS = [
  "MEASURE_WITH_UNIT",
  "LENGTH_MEASURE_WITH_UNIT",
  "PLANE_ANGLE_MEASURE_WITH_UNIT",
  "RATIO_MEASURE_WITH_UNIT",
];

/** The measure `id` names, converted; null when it is not a measure. */
export function measureOf(model: StepModel, id: number | null): Measure | null {
  if (id === null) return null;
  const entity = model.get(id);
  if (!entity) return null;
  let value: StepValue | undefined;
  let unitRef: number | null = null;
  let name = "";
  const item = partOf(entity, "MEASURE_REPRESENTATION_ITEM");
  if (item && item.length === 3) {
    [name, value] = [String(item[0] ?? ""), item[1]];
    unitRef = refOf(item[2]);
  } else {
    const withUnit = MEASURE_KINDS.map((kind) => partOf(entity, kind)).find((args) => args && args.length === 2);
    if (!withUnit) return null;
    value = withUnit[0];
    unitRef = refOf(withUnit[1]);
    const representation = partOf(entity, "REPRESENTATION_ITEM");
    if (typeof representation?.[0] === "string") name = representation[0];
  }
  const raw = numberIn(value);
  if (raw === null) return null;
  const unit = unitRef === null ? null : unitScale(model, unitRef);
  return unit ? { value: clean(raw * unit.factor), unit: unit.unit, name } : { value: raw, unit: null, name };
}

/** Rounds away the binary noise of a conversion (0.415 in is 10.541 mm, not 10.540999999999999). */
function clean(value: number): number {
  return Number(value.toPrecision(12));
}

/** The number of a typed value: LENGTH_MEASURE(3.5), POSITIVE_LENGTH_MEASURE(3.5), or a bare number. */
function numberIn(value: StepValue | undefined): number | null {
  if (typeof value === "number") return value;
  if (typeof value === "object" && value !== null && "type" in value) return numberIn(value.args[0]);
  return null;
}

/** What one of `unitId` is in mm or degrees. */
export function unitScale(model: StepModel, unitId: number, depth = 0): { unit: "mm" | "deg"; factor: number } | null {
  const entity = model.get(unitId);
  if (!entity || depth > 4) return null;
  const length = entity.parts.some((part) => part.type === "LENGTH_UNIT");
  const angle = entity.parts.some((part) => part.type === "PLANE_ANGLE_UNIT");
  const si = partOf(entity, "SI_UNIT");
  if (si) {
    const prefix = enumOf(si[0]);
    const scale = prefix === null ? 1 : (SI_PREFIX[prefix] ?? Number.NaN);
    const base = enumOf(si[1]);
    if (base === "METRE") return { unit: "mm", factor: scale * 1000 };
    if (base === "RADIAN") return { unit: "deg", factor: (scale * 180) / Math.PI };
    return null;
  }
  const conversion = partOf(entity, "CONVERSION_BASED_UNIT");
  if (conversion) {
    // CONVERSION_BASED_UNIT(name, conversion_factor): the factor is a measure in a base unit
    const factorEntity = model.get(refOf(conversion[1]) ?? -1);
    const args = MEASURE_KINDS.map((kind) => partOf(factorEntity, kind)).find((found) => found && found.length === 2);
    const factor = numberIn(args?.[0]);
    const base = refOf(args?.[1]);
    if (factor === null || base === null) return null;
    const baseScale = unitScale(model, base, depth + 1);
    if (!baseScale) return null;
    if ((length && baseScale.unit !== "mm") || (angle && baseScale.unit !== "deg")) return null;
    return { unit: baseScale.unit, factor: factor * baseScale.factor };
  }
  return null;
}
