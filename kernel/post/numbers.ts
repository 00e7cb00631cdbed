/** Numbers as the controls' words write them: rounded to a number of decimals, compared and formatted as whole units. */

/**
 * A word's value: rounded to `decimals` (half away from zero, as toFixed), trailing zeros
 * dropped; a whole number keeps its point when `wholeWithPoint` (Fanuc reads X10 as 10 units of
 * its least increment, 0.01 mm, unless told otherwise: X10. is 10 mm everywhere). Never "-0".
 */
export function formatNumber(value: number, decimals: number, wholeWithPoint: boolean): string {
  return formatUnits(toUnits(value, decimals), decimals, wholeWithPoint);
}

const POWERS = [1, 10, 100, 1000, 10000, 100000, 1000000];

/** A value as a whole number of 10^-decimals: what is written, and what modal words compare. */
export function toUnits(value: number, decimals: number): number {
  const units = Math.round(Math.abs(value) * (POWERS[decimals] as number));
  return value < 0 && units !== 0 ? -units : units;
}

/**
 * toUnits's whole number written with its point: integer arithmetic, no toFixed and no regular
 * expression (a program of a million blocks formats three million numbers).
 */
export function formatUnits(units: number, decimals: number, wholeWithPoint: boolean): string {
  const scale = POWERS[decimals] as number;
  const magnitude = units < 0 ? -units : units;
  const whole = Math.floor(magnitude / scale);
  let fraction = magnitude - whole * scale;
  let text = String(whole);
  if (fraction > 0) {
    let digits = decimals;
    while (fraction % 10 === 0) {
      fraction /= 10;
      digits -= 1;
    }
    const part = String(fraction);
    text += part.length < digits ? `.${"0".repeat(digits - part.length)}${part}` : `.${part}`;
  } else if (wholeWithPoint) text += ".";
  return units < 0 ? `-${text}` : text;
}
