/**
 * Starting cutting data for the standard range: one preset per tool, for general steel (ISO P,
 * about 700 N/mm²) or aluminium (ISO N) where the tool is made for it. Handbook values a
 * machinist starts from, not optimised ones; spindle speed is capped at what an SK40 spindle
 * commonly does.
 */
import type { CoolantMode, CuttingPreset } from "../cutting-data.ts";

export const SPINDLE_MAX_RPM = 12000;

export interface StartingValues {
  workpiece: "steel" | "aluminium";
  /** m/min */
  cuttingSpeed: number;
  diameter: number;
  coolant: CoolantMode;
  feed: { perTooth: number; flutes: number } | { perRevolution: number };
}

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

/** A preset whose numbers agree with each other (cutting-data.ts checks that they do). */
export function startingPreset(values: StartingValues): CuttingPreset {
  const n = Math.min(
    SPINDLE_MAX_RPM,
    Math.max(1, Math.round((1000 * values.cuttingSpeed) / (Math.PI * values.diameter))),
  );
  const vc = round((Math.PI * values.diameter * n) / 1000, 2);
  const preset: CuttingPreset = {
    name: values.workpiece === "steel" ? "Steel (ISO P), starting values" : "Aluminium (ISO N), starting values",
    workpiece_material: values.workpiece === "steel" ? "P" : "N",
    spindle_speed_rpm: n,
    cutting_speed_m_min: vc,
    coolant: values.coolant,
  };
  if ("perTooth" in values.feed) {
    preset.feed_per_tooth_mm = round(values.feed.perTooth, 4);
    preset.feed_rate_mm_min = round(preset.feed_per_tooth_mm * values.feed.flutes * n, 1);
  } else {
    preset.feed_per_revolution_mm = round(values.feed.perRevolution, 4);
    preset.feed_rate_mm_min = round(preset.feed_per_revolution_mm * n, 1);
  }
  return preset;
}

/** Feed per tooth of a solid end mill (mm), roughly 0.5 % to 1 % of its diameter. */
export function endMillFeedPerTooth(diameter: number, workpiece: "steel" | "aluminium"): number {
  const share = workpiece === "steel" ? 0.006 : 0.01;
  return Math.min(0.15, Math.max(0.004, diameter * share));
}

/** Feed per revolution of a twist drill (mm): about 1.5 % (HSS) to 2 % (carbide) of its diameter. */
export function drillFeedPerRevolution(diameter: number, carbide: boolean): number {
  return Math.min(0.4, Math.max(0.01, diameter * (carbide ? 0.02 : 0.015)));
}

/** A solid carbide reamer in steel: 40 m/min, 0.1 mm/rev and 0.01 more per mm of diameter. */
export function reamerPreset(diameter: number): CuttingPreset {
  return startingPreset({
    workpiece: "steel",
    cuttingSpeed: 40,
    diameter,
    coolant: "flood",
    feed: { perRevolution: 0.1 + 0.01 * diameter },
  });
}
