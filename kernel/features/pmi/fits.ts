/**
 * The limits of an ISO 286 tolerance class ("H7", "g6") for a nominal size up to 500 mm, from the
 * standard's own formulas (ISO 286-1): the tolerance unit i = 0.45 D^(1/3) + 0.001 D micrometres
 * with D the geometric mean of the size range, the grade's multiple of it, and the fundamental
 * deviation of the letter. The published tables round these; the result is within a micrometre
 * or two of them, which is below what a tool choice depends on.
 */

/** upper bounds of the nominal size ranges, mm (the first range starts at 1 for D) */
const RANGES = [3, 6, 10, 18, 30, 50, 80, 120, 180, 250, 315, 400, 500];
/** the grade's multiple of i (IT5 to IT16) */
const GRADE_MULTIPLE: Record<number, number> = {
  5: 7,
  6: 10,
  7: 16,
  8: 25,
  9: 40,
  10: 64,
  11: 100,
  12: 160,
  13: 250,
  14: 400,
  15: 640,
  16: 1000,
};
/** fundamental deviations (micrometres) of the letters the formulas give: hole EI, or minus shaft es */
const DEVIATION: Record<string, (d: number) => number> = {
  e: (d) => 11 * d ** 0.41,
  f: (d) => 5.5 * d ** 0.41,
  g: (d) => 2.5 * d ** 0.34,
  h: () => 0,
};

export interface FitLimits {
  /** deviations from nominal, mm */
  lower: number;
  upper: number;
  /** the tolerance grade: 7 for H7 */
  grade: number;
}

/** The deviations of class `designation` at `nominal` mm; null for a class these formulas do not cover. */
export function fitLimits(designation: string, nominal: number): FitLimits | null {
  const match = /^([A-Za-z]{1,2})(\d{1,2})$/.exec(designation.trim());
  if (!match || !(nominal > 0) || nominal > 500) return null;
  const letter = match[1] as string;
  const grade = Number(match[2]);
  const multiple = GRADE_MULTIPLE[grade];
  if (multiple === undefined) return null;
  const index = RANGES.findIndex((upper) => nominal <= upper);
  const low = index === 0 ? 1 : (RANGES[index - 1] as number);
  const d = Math.sqrt(low * (RANGES[index] as number));
  const it = Math.round(multiple * (0.45 * Math.cbrt(d) + 0.001 * d)) / 1000;
  const hole = letter === letter.toUpperCase();
  const key = letter.toLowerCase();
  if (key === "js") return { lower: -it / 2, upper: it / 2, grade };
  const deviation = DEVIATION[key];
  if (!deviation) return null;
  const fundamental = Math.round(deviation(d)) / 1000;
  // holes lie above nominal by EI, shafts below by es
  return hole
    ? { lower: fundamental, upper: fundamental + it, grade }
    : { lower: -fundamental - it, upper: -fundamental, grade };
}
