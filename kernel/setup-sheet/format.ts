/**
 * Numbers as the setup sheet prints them: millimetres to a hundredth without trailing zeros,
 * speeds and feeds whole, long lengths whole. One place, so the HTML and the PDF agree to the
 * digit and a table's column reads alike.
 */

/** 12.5, 40, -0.15: mm to a hundredth */
export function mm(value: number): string {
  return String(Math.round(value * 100) / 100 + 0);
}

/** "89.52 × 48.62 × 40.53 mm" */
export function size(values: readonly number[]): string {
  return `${values.map(mm).join(" × ")} mm`;
}

/** a length of travel, whole millimetres: "12345" */
export function wholeMm(value: number): string {
  return String(Math.round(value));
}

/** -40.53 .. 5 */
export function range(low: number, high: number): string {
  return `${mm(low)} .. ${mm(high)}`;
}

export function whole(value: number): string {
  return String(Math.round(value));
}
