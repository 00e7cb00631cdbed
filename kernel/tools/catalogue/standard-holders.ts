/**
 * The holders of the standard range, all SK40 (DIN 69871), the taper most shops with a
 * 40-taper mill have: ER collet chucks by shank size, Weldon (side-lock, DIN 1835 B) holders for
 * the larger milling shanks, shell mill arbors for face mills and synchro tapping chucks for taps.
 *
 * Profiles run from the gauge line down: the 63 mm flange, the body, the nut or nose. The
 * diameters are the makers' usual ones rounded, good enough for a first collision check.
 */
import type { HolderSegment, ShapedHolder } from "../holder.ts";
import { STANDARD_MANUFACTURER as MANUFACTURER } from "./entry.ts";

export interface StandardHolder {
  holder: Omit<ShapedHolder, "uuid"> & { manufacturer: string; article_number: string };
  /** how deep a shank goes into it (mm): the tool's stick-out is its length minus this */
  clampDepth: number;
}

const INTERFACE = "SK40 DIN 69871";
/** SK40 flange: diameter and height below the gauge line */
const FLANGE: HolderSegment = { length_mm: 15.9, upper_diameter_mm: 63, lower_diameter_mm: 63 };

const cylinder = (length: number, diameter: number): HolderSegment => ({
  length_mm: length,
  upper_diameter_mm: diameter,
  lower_diameter_mm: diameter,
});
const cone = (length: number, upper: number, lower: number): HolderSegment => ({
  length_mm: length,
  upper_diameter_mm: upper,
  lower_diameter_mm: lower,
});

/** flange, a body tapering to the nose diameter, and the nose with a 3 mm chamfer */
function profile(gauge: number, bodyDiameter: number, noseDiameter: number, noseLength: number): HolderSegment[] {
  const body = gauge - FLANGE.length_mm - noseLength;
  if (body <= 0) throw new Error(`a ${gauge} mm holder has no room for its body`);
  const round = (value: number) => Math.round(value * 1000) / 1000;
  return [
    FLANGE,
    cone(round(body), bodyDiameter, noseDiameter),
    cylinder(noseLength - 3, noseDiameter),
    cone(3, noseDiameter, noseDiameter - 6),
  ];
}

interface ColletSize {
  size: "ER16" | "ER25" | "ER32" | "ER40";
  range: [number, number];
  nut: number;
  nutLength: number;
  gauge: number;
  clampDepth: number;
}

/** ER collets (DIN 6499 / ISO 15488): clamping ranges, nut diameters and a usual A dimension. */
const ER: readonly ColletSize[] = [
  { size: "ER16", range: [0.5, 10], nut: 32, nutLength: 18, gauge: 70, clampDepth: 18 },
  { size: "ER25", range: [1, 16], nut: 42, nutLength: 20, gauge: 70, clampDepth: 24 },
  { size: "ER32", range: [2, 20], nut: 50, nutLength: 22, gauge: 70, clampDepth: 28 },
  { size: "ER40", range: [3, 26], nut: 63, nutLength: 25, gauge: 80, clampDepth: 36 },
];

/** The smallest ER chuck that grips shank comfortably (not at the top of its range but for ER40). */
export function erColletChuck(shank: number): StandardHolder {
  const limits = { ER16: 8, ER25: 14, ER32: 20, ER40: 26 } as const;
  const er = ER.find((c) => shank <= limits[c.size] && shank >= c.range[0]);
  if (!er) throw new Error(`no ER collet chuck takes a ${shank} mm shank`);
  return {
    clampDepth: er.clampDepth,
    holder: {
      name: `SK40 ${er.size} collet chuck A${er.gauge}`,
      stacking_group: "Holder",
      manufacturer: MANUFACTURER,
      article_number: `SSR-H-SK40-${er.size}-${er.gauge}`,
      description: `ER collet chuck DIN 69871 SK40, ${er.size} (DIN 6499), clamping ${er.range[0]}..${er.range[1]} mm`,
      clamping: "collet_chuck",
      spindle_interface: INTERFACE,
      clamping_range_mm: { min: er.range[0], max: er.range[1] },
      gauge_length_mm: er.gauge,
      segments: profile(er.gauge, Math.max(er.nut, 44), er.nut, er.nutLength),
    },
  };
}

/** Side-lock holders (DIN 1835 B shanks): bore -> gauge length, nose diameter, clamp depth. */
const WELDON: Readonly<Record<number, { gauge: number; nose: number; clampDepth: number }>> = {
  16: { gauge: 63, nose: 48, clampDepth: 48 },
  18: { gauge: 63, nose: 50, clampDepth: 50 },
  20: { gauge: 63, nose: 52, clampDepth: 50 },
  25: { gauge: 100, nose: 65, clampDepth: 56 },
};

export function weldonHolder(shank: number): StandardHolder {
  const w = WELDON[shank];
  if (!w) throw new Error(`no Weldon holder for a ${shank} mm shank`);
  return {
    clampDepth: w.clampDepth,
    holder: {
      name: `SK40 Weldon holder Ø${shank} A${w.gauge}`,
      stacking_group: "Holder",
      manufacturer: MANUFACTURER,
      article_number: `SSR-H-SK40-WD${shank}-${w.gauge}`,
      description: `side-lock holder DIN 69871 SK40 for DIN 1835 B / DIN 6535 HB shanks, Ø${shank} mm`,
      clamping: "weldon",
      spindle_interface: INTERFACE,
      clamping_range_mm: { min: shank, max: shank },
      gauge_length_mm: w.gauge,
      segments: profile(w.gauge, Math.max(w.nose, 44), w.nose, 20),
    },
  };
}

/** Combi shell mill arbors (DIN 6357 style): arbor diameter -> gauge length, collar diameter. */
export const SHELL_MILL_ARBORS: Readonly<Record<number, { gauge: number; collar: number }>> = {
  16: { gauge: 50, collar: 32 },
  22: { gauge: 50, collar: 40 },
  27: { gauge: 55, collar: 48 },
  32: { gauge: 60, collar: 58 },
  40: { gauge: 65, collar: 70 },
};

export function shellMillArbor(arbor: number): StandardHolder {
  const a = SHELL_MILL_ARBORS[arbor];
  if (!a) throw new Error(`no shell mill arbor of ${arbor} mm`);
  return {
    // a face mill sits on the collar: all of it is below the holder
    clampDepth: 0,
    holder: {
      name: `SK40 shell mill arbor Ø${arbor} A${a.gauge}`,
      stacking_group: "Holder",
      manufacturer: MANUFACTURER,
      article_number: `SSR-H-SK40-SMA${arbor}-${a.gauge}`,
      description: `combi shell mill arbor DIN 69871 SK40, arbor Ø${arbor} mm`,
      clamping: "shell_mill_arbor",
      spindle_interface: INTERFACE,
      clamping_range_mm: { min: arbor, max: arbor },
      gauge_length_mm: a.gauge,
      segments: profile(a.gauge, 50, a.collar, 12),
    },
  };
}

/** Synchro tapping chucks with ER tap collets (square drive), by the tap's shank. */
export function tappingChuck(shank: number): StandardHolder {
  const small = shank <= 12;
  const size = small ? "ER20" : "ER32";
  const range: [number, number] = small ? [2.5, 13] : [3.5, 20];
  const gauge = small ? 90 : 110;
  return {
    clampDepth: small ? 20 : 26,
    holder: {
      name: `SK40 synchro tapping chuck ${size} A${gauge}`,
      stacking_group: "Holder",
      manufacturer: MANUFACTURER,
      article_number: `SSR-H-SK40-TC${size}-${gauge}`,
      description: `synchro tapping chuck DIN 69871 SK40 with ${size} GB tap collets, minimal length compensation`,
      clamping: "tapping_chuck",
      spindle_interface: INTERFACE,
      clamping_range_mm: { min: range[0], max: range[1] },
      gauge_length_mm: gauge,
      segments: profile(gauge, small ? 44 : 50, small ? 35 : 50, 20),
    },
  };
}

/**
 * The holder a standard-range tool goes in: Weldon for milling shanks of 16 mm and up (side
 * lock keeps them from pulling out under load), an ER collet chuck otherwise. Face mills and
 * taps have holders of their own (shellMillArbor, tappingChuck).
 */
export function holderForShank(shank: number, milling: boolean): StandardHolder {
  if (milling && shank >= 16 && WELDON[shank]) return weldonHolder(shank);
  return erColletChuck(shank);
}

/**
 * How far a tool sticks out of its holder (mm): its length minus what the holder grips, while
 * keeping reach (flutes, neck) and 2 mm more outside the nose.
 */
export function stickOut(mount: StandardHolder, overall: number, reach: number): number {
  const clamp = Math.min(mount.clampDepth, overall - reach - 2);
  if (mount.clampDepth > 0 && clamp < 0.4 * mount.clampDepth) {
    throw new Error(`a ${overall} mm tool reaching ${reach} mm leaves too little shank for ${mount.holder.name}`);
  }
  return Math.round((overall - Math.max(0, clamp)) * 1000) / 1000;
}
