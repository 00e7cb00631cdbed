/**
 * Exact decimal arithmetic for quotes. decimal.js: arbitrary-precision base-10 numbers (no
 * binary floating point: 0.1 + 0.2 is 0.3), no dependencies, maintained since 2014 and used by
 * Prisma and many finance libraries; its sibling big.js lacks the rounding control we need.
 *
 * Every intermediate value is kept exact (40 significant digits); money is rounded to cents once,
 * at the end, half away from zero (kaufmännisches Runden).
 */
import { Decimal as DecimalBase } from "decimal.js";

export const Decimal = DecimalBase.clone({ precision: 40, rounding: DecimalBase.ROUND_HALF_UP });
export type Decimal = InstanceType<typeof Decimal>;
export type DecimalInput = Decimal | number | string;

export const ZERO = new Decimal(0);
export const HUNDRED = new Decimal(100);

export function dec(value: DecimalInput): Decimal {
  return new Decimal(value);
}

/** to cents, half away from zero */
export function cents(value: Decimal): Decimal {
  return value.toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
}

export function sum(values: readonly Decimal[]): Decimal {
  return values.reduce((a, b) => a.plus(b), ZERO);
}

/** percent (15 = 15 %) of a value */
export function percentOf(value: Decimal, percent: DecimalInput): Decimal {
  return value.times(percent).dividedBy(HUNDRED);
}

/**
 * Rounds exact parts to cents so that they add up to `total` (cents) exactly: each part is
 * rounded down, then the cents still missing go to the parts with the largest remainders
 * (largest remainder method; ties by position). Every part ends within one cent of its exact
 * value when `total` is the rounded sum of the parts.
 */
export function allocateCents(parts: readonly Decimal[], total: Decimal): Decimal[] {
  if (parts.length === 0) return [];
  const floors = parts.map((p) => p.toDecimalPlaces(2, Decimal.ROUND_FLOOR));
  let missing = total.minus(sum(floors)).times(100).round().toNumber();
  const order = parts
    .map((p, i) => ({ i, rest: p.minus(floors[i]!) }))
    .sort((a, b) => b.rest.comparedTo(a.rest) || a.i - b.i);
  const result = [...floors];
  const step = new Decimal(missing >= 0 ? "0.01" : "-0.01");
  const byRest = missing >= 0 ? order : [...order].reverse();
  for (let k = 0; missing !== 0; k = (k + 1) % byRest.length) {
    const at = byRest[k]!.i;
    result[at] = result[at]!.plus(step);
    missing += missing > 0 ? -1 : 1;
  }
  return result;
}

/** a cent amount as a JSON number (its shortest form is the decimal itself: 12.3 -> 12.3) */
export function toMoneyNumber(value: Decimal): number {
  return cents(value).toNumber();
}
