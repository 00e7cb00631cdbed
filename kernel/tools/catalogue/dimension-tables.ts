/**
 * Published dimension standards the standard range is built from. All values mm.
 *
 * How sure each table is, since the standards themselves are paywalled:
 * - DIN 338 (jobber drills): every row; rows 1..10 mm agree with two independent public
 *   catalogue extracts (Würth and Dormer) quoted in open-source CAM projects.
 * - DIN 6527 L (carbide end mills, long): rows 3, 4, 5, 6, 8, 10, 12, 16, 20 agree with two public
 *   sources (Hepyc/Datron and a Jongen range); rows 14, 18, 25 are from the standard's table as
 *   recalled. DIN 6527 K (short): as recalled, not cross-checked.
 * - DIN 6537 L (carbide drills 5xD): overall and usable lengths from a manufacturer's DIN 6537 L
 *   range (Ceratizit WPC UNI), flute length 28 at 3 mm from Hoffmann's; the other flute lengths
 *   and the whole K (3xD) table are as recalled.
 * - DIN 333 form A (centre drills, = ISO 866) and the ISO 261/262 pitches: as published.
 * - DIN 371/376 taps: overall length and shank as recalled; thread lengths are typical catalogue
 *   values, the standard leaves them to the maker's form.
 * Rows marked "as recalled" are worth checking against the DIN documents before anyone machines
 * to them; the catalogue only needs them realistic.
 */

/** DIN 338 type N jobber drills: [d over, d up to] -> overall l1, flute l2 (the table's ranges). */
export const DIN_338: readonly { upTo: number; overall: number; flute: number }[] = [
  { upTo: 1.06, overall: 34, flute: 12 },
  { upTo: 1.18, overall: 36, flute: 14 },
  { upTo: 1.32, overall: 38, flute: 16 },
  { upTo: 1.5, overall: 40, flute: 18 },
  { upTo: 1.7, overall: 43, flute: 20 },
  { upTo: 1.9, overall: 46, flute: 22 },
  { upTo: 2.12, overall: 49, flute: 24 },
  { upTo: 2.36, overall: 53, flute: 27 },
  { upTo: 2.65, overall: 57, flute: 30 },
  { upTo: 3.0, overall: 61, flute: 33 },
  { upTo: 3.35, overall: 65, flute: 36 },
  { upTo: 3.75, overall: 70, flute: 39 },
  { upTo: 4.25, overall: 75, flute: 43 },
  { upTo: 4.75, overall: 80, flute: 47 },
  { upTo: 5.3, overall: 86, flute: 52 },
  { upTo: 6.0, overall: 93, flute: 57 },
  { upTo: 6.7, overall: 101, flute: 63 },
  { upTo: 7.5, overall: 109, flute: 69 },
  { upTo: 8.5, overall: 117, flute: 75 },
  { upTo: 9.5, overall: 125, flute: 81 },
  { upTo: 10.6, overall: 133, flute: 87 },
  { upTo: 11.8, overall: 142, flute: 94 },
  { upTo: 13.2, overall: 151, flute: 101 },
  { upTo: 14.0, overall: 160, flute: 108 },
  { upTo: 15.0, overall: 169, flute: 114 },
  { upTo: 16.0, overall: 178, flute: 120 },
  { upTo: 17.0, overall: 184, flute: 125 },
  { upTo: 18.0, overall: 191, flute: 130 },
  { upTo: 19.0, overall: 198, flute: 135 },
  { upTo: 20.0, overall: 205, flute: 140 },
];

/** DIN 6537 solid carbide drills, shank DIN 6535 HA; ranges as in the makers' tables. */
export interface Din6537Row {
  upTo: number;
  shank: number;
  overall: number;
  flute: number;
  /** usable drilling depth */
  usable: number;
}
export const DIN_6537_K: readonly Din6537Row[] = [
  { upTo: 3.99, shank: 6, overall: 62, flute: 20, usable: 14 },
  { upTo: 4.99, shank: 6, overall: 66, flute: 24, usable: 17 },
  { upTo: 6.0, shank: 6, overall: 66, flute: 28, usable: 20 },
  { upTo: 8.0, shank: 8, overall: 79, flute: 34, usable: 24 },
  { upTo: 10.0, shank: 10, overall: 89, flute: 40, usable: 30 },
  { upTo: 12.0, shank: 12, overall: 102, flute: 47, usable: 36 },
  { upTo: 14.0, shank: 14, overall: 107, flute: 47, usable: 42 },
  { upTo: 16.0, shank: 16, overall: 115, flute: 55, usable: 48 },
  { upTo: 18.0, shank: 18, overall: 123, flute: 55, usable: 54 },
  { upTo: 20.0, shank: 20, overall: 131, flute: 61, usable: 60 },
];
export const DIN_6537_L: readonly Din6537Row[] = [
  { upTo: 3.99, shank: 6, overall: 66, flute: 28, usable: 23 },
  { upTo: 4.99, shank: 6, overall: 74, flute: 36, usable: 29 },
  { upTo: 6.0, shank: 6, overall: 82, flute: 44, usable: 35 },
  { upTo: 8.0, shank: 8, overall: 91, flute: 53, usable: 43 },
  { upTo: 10.0, shank: 10, overall: 103, flute: 61, usable: 49 },
  { upTo: 12.0, shank: 12, overall: 118, flute: 71, usable: 56 },
  { upTo: 14.0, shank: 14, overall: 124, flute: 77, usable: 60 },
  { upTo: 16.0, shank: 16, overall: 133, flute: 83, usable: 63 },
  { upTo: 18.0, shank: 18, overall: 143, flute: 93, usable: 71 },
  { upTo: 20.0, shank: 20, overall: 153, flute: 101, usable: 77 },
];

/** DIN 6527 solid carbide end mills, shank DIN 6535 HA: d1 -> flute l2, overall l1, shank d2. */
export interface Din6527Row {
  flute: number;
  overall: number;
  shank: number;
}
export const DIN_6527_K: Readonly<Record<number, Din6527Row>> = {
  3: { flute: 5, overall: 54, shank: 6 },
  4: { flute: 8, overall: 54, shank: 6 },
  5: { flute: 9, overall: 54, shank: 6 },
  6: { flute: 10, overall: 54, shank: 6 },
  8: { flute: 12, overall: 58, shank: 8 },
  10: { flute: 14, overall: 66, shank: 10 },
  12: { flute: 16, overall: 73, shank: 12 },
  14: { flute: 18, overall: 75, shank: 14 },
  16: { flute: 22, overall: 82, shank: 16 },
  18: { flute: 24, overall: 84, shank: 18 },
  20: { flute: 26, overall: 92, shank: 20 },
  25: { flute: 32, overall: 104, shank: 25 },
};
export const DIN_6527_L: Readonly<Record<number, Din6527Row>> = {
  3: { flute: 8, overall: 57, shank: 6 },
  4: { flute: 11, overall: 57, shank: 6 },
  5: { flute: 13, overall: 57, shank: 6 },
  6: { flute: 13, overall: 57, shank: 6 },
  8: { flute: 19, overall: 63, shank: 8 },
  10: { flute: 22, overall: 72, shank: 10 },
  12: { flute: 26, overall: 83, shank: 12 },
  14: { flute: 26, overall: 83, shank: 14 },
  16: { flute: 32, overall: 92, shank: 16 },
  18: { flute: 32, overall: 92, shank: 18 },
  20: { flute: 38, overall: 104, shank: 20 },
  25: { flute: 45, overall: 121, shank: 25 },
};

/** DIN 333 form A (ISO 866) centre drills, 60 degrees: pilot d1, body d2, overall l1, pilot length l2. */
export const DIN_333_A: readonly { pilot: number; body: number; overall: number; pilotLength: number }[] = [
  { pilot: 1.0, body: 3.15, overall: 31.5, pilotLength: 1.3 },
  { pilot: 1.25, body: 3.15, overall: 31.5, pilotLength: 1.6 },
  { pilot: 1.6, body: 4.0, overall: 35.5, pilotLength: 2.0 },
  { pilot: 2.0, body: 5.0, overall: 40.0, pilotLength: 2.5 },
  { pilot: 2.5, body: 6.3, overall: 45.0, pilotLength: 3.1 },
  { pilot: 3.15, body: 8.0, overall: 50.0, pilotLength: 3.9 },
  { pilot: 4.0, body: 10.0, overall: 56.0, pilotLength: 5.0 },
  { pilot: 5.0, body: 12.5, overall: 63.0, pilotLength: 6.3 },
  { pilot: 6.3, body: 16.0, overall: 71.0, pilotLength: 8.0 },
  { pilot: 8.0, body: 20.0, overall: 80.0, pilotLength: 10.1 },
  { pilot: 10.0, body: 25.0, overall: 100.0, pilotLength: 12.8 },
];

export interface MetricThread {
  nominal: number;
  pitch: number;
  /** the common tap drill for a cutting tap (DIN 336 / ISO 2306 practice: about D - P) */
  tapDrill: number;
  coarse: boolean;
}

/** ISO 261/262 coarse pitches M2..M20 with their usual tap drills. */
export const METRIC_COARSE: readonly MetricThread[] = [
  { nominal: 2, pitch: 0.4, tapDrill: 1.6, coarse: true },
  { nominal: 2.5, pitch: 0.45, tapDrill: 2.05, coarse: true },
  { nominal: 3, pitch: 0.5, tapDrill: 2.5, coarse: true },
  { nominal: 4, pitch: 0.7, tapDrill: 3.3, coarse: true },
  { nominal: 5, pitch: 0.8, tapDrill: 4.2, coarse: true },
  { nominal: 6, pitch: 1.0, tapDrill: 5.0, coarse: true },
  { nominal: 8, pitch: 1.25, tapDrill: 6.8, coarse: true },
  { nominal: 10, pitch: 1.5, tapDrill: 8.5, coarse: true },
  { nominal: 12, pitch: 1.75, tapDrill: 10.2, coarse: true },
  { nominal: 14, pitch: 2.0, tapDrill: 12.0, coarse: true },
  { nominal: 16, pitch: 2.0, tapDrill: 14.0, coarse: true },
  { nominal: 18, pitch: 2.5, tapDrill: 15.5, coarse: true },
  { nominal: 20, pitch: 2.5, tapDrill: 17.5, coarse: true },
];

/** Common ISO 261/262 fine pitches in the same span; the tap drill is D - P. */
export const METRIC_FINE: readonly MetricThread[] = (
  [
    [4, 0.5],
    [5, 0.5],
    [6, 0.75],
    [8, 1.0],
    [10, 1.0],
    [10, 1.25],
    [12, 1.0],
    [12, 1.25],
    [12, 1.5],
    [14, 1.5],
    [16, 1.5],
    [18, 1.5],
    [20, 1.5],
    [20, 2.0],
  ] as const
).map(([nominal, pitch]) => ({ nominal, pitch, tapDrill: Math.round((nominal - pitch) * 100) / 100, coarse: false }));

/**
 * Machine taps: DIN 371 (M2..M10, shank at least the thread's size) and DIN 376 (M12 and up,
 * shank below the thread so it passes through the hole); fine taps (DIN 374) take the body of the
 * nearest coarse size. nominal -> overall l1, shank d1, thread length l2.
 */
export const TAP_BODIES: Readonly<
  Record<number, { overall: number; shank: number; thread: number; standard: string }>
> = {
  2: { overall: 45, shank: 2.8, thread: 8, standard: "DIN 371" },
  2.5: { overall: 50, shank: 2.8, thread: 9, standard: "DIN 371" },
  3: { overall: 56, shank: 3.5, thread: 11, standard: "DIN 371" },
  4: { overall: 63, shank: 4.5, thread: 13, standard: "DIN 371" },
  5: { overall: 70, shank: 6, thread: 16, standard: "DIN 371" },
  6: { overall: 80, shank: 6, thread: 19, standard: "DIN 371" },
  8: { overall: 90, shank: 8, thread: 22, standard: "DIN 371" },
  10: { overall: 100, shank: 10, thread: 24, standard: "DIN 371" },
  12: { overall: 110, shank: 9, thread: 29, standard: "DIN 376" },
  14: { overall: 110, shank: 11, thread: 30, standard: "DIN 376" },
  16: { overall: 110, shank: 12, thread: 32, standard: "DIN 376" },
  18: { overall: 125, shank: 14, thread: 37, standard: "DIN 376" },
  20: { overall: 140, shank: 16, thread: 37, standard: "DIN 376" },
};

/** The table row whose range holds d; ranges are "over the previous bound, up to upTo". */
export function rowFor<T extends { upTo: number }>(table: readonly T[], d: number): T {
  // hundredths as integers: 3.0 must fall in "up to 3.00", not next to it by float noise
  const hundredths = Math.round(d * 100);
  const row = table.find((r) => hundredths <= Math.round(r.upTo * 100));
  if (!row) throw new Error(`no row for ${d} mm`);
  return row;
}
