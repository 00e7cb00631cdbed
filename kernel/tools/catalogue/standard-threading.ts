/**
 * The threading tools of the standard range: machine taps for ISO metric coarse (M2..M20) and
 * common fine pitches in three flute forms and two grades, each with its tap drill; solid
 * carbide single-pitch thread mills.
 */
import type { ToolMaterial } from "../tool.ts";
import { METRIC_COARSE, METRIC_FINE, TAP_BODIES, type MetricThread } from "./dimension-tables.ts";
import { fmt, type CatalogueEntry } from "./entry.ts";
import { rangeEntry } from "./range-entry.ts";
import { holderForShank, tappingChuck } from "./standard-holders.ts";
import { startingPreset } from "./starting-values.ts";

export const METRIC_THREADS: readonly MetricThread[] = [...METRIC_COARSE, ...METRIC_FINE];

/** "M6", "M10x1.25": a coarse thread is named without its pitch. */
export function threadName(thread: MetricThread): string {
  return thread.coarse ? `M${fmt(thread.nominal)}` : `M${fmt(thread.nominal)}x${fmt(thread.pitch)}`;
}

function threadCode(thread: MetricThread): string {
  return `M${fmt(thread.nominal).replace(".", "")}X${String(Math.round(thread.pitch * 100)).padStart(3, "0")}`;
}

const TAP_FORMS = [
  { code: "SP", label: "spiral point, through holes" },
  { code: "SF", label: "spiral flute 40°, blind holes" },
  { code: "ST", label: "straight flute, short-chipping materials" },
] as const;

const TAP_GRADES: readonly { code: string; label: string; material: ToolMaterial; coating: string; speed: number }[] = [
  { code: "HSSE", label: "HSS-E", material: "hss_cobalt", coating: "steam tempered", speed: 10 },
  { code: "PM-TIN", label: "HSS-E-PM TiN", material: "hss_pm", coating: "TiN", speed: 15 },
];

function taps(): CatalogueEntry[] {
  const out: CatalogueEntry[] = [];
  for (const thread of METRIC_THREADS) {
    const body = TAP_BODIES[thread.nominal];
    if (!body) throw new Error(`no tap body for M${thread.nominal}`);
    // fine taps (DIN 374) are given the body of the coarse tap of their size
    const standard = thread.coarse ? body.standard : "DIN 374";
    const z = thread.nominal < 3 ? 2 : thread.nominal < 12 ? 3 : 4;
    for (const form of TAP_FORMS) {
      for (const grade of TAP_GRADES) {
        out.push(
          rangeEntry({
            article: `SSR-TP-${threadCode(thread)}-${form.code}-${grade.code}`,
            name: `Machine tap ${threadName(thread)} ISO 2 (6H), ${form.label}, ${grade.label}, ${standard}, tap drill Ø${fmt(thread.tapDrill)}`,
            type: "Tap",
            flutes: z,
            material: grade.material,
            coating: grade.coating,
            coolant: "external",
            params: {
              CuttingDiameter: thread.nominal,
              OverallLength: body.overall,
              FluteLength: body.thread,
              ShankDiameter: body.shank,
              ThreadPitch: thread.pitch,
              ThreadProfileAngle: 60,
              TapDrillDiameter: thread.tapDrill,
            },
            mount: tappingChuck(body.shank),
            reach: body.thread,
            standard,
            // a tap advances one pitch per revolution
            preset: startingPreset({
              workpiece: "steel",
              cuttingSpeed: grade.speed,
              diameter: thread.nominal,
              coolant: "flood",
              feed: { perRevolution: thread.pitch },
            }),
          }),
        );
      }
    }
  }
  return out;
}

/** Pitches of the thread mills, each with the smallest coarse thread it is made for. */
const THREAD_MILL_THREADS: readonly MetricThread[] = METRIC_COARSE.filter((t) =>
  [3, 4, 5, 6, 8, 10, 12, 16, 20].includes(t.nominal),
);

/** Shanks and lengths of the thread mills follow DIN 6527 L bodies. */
const THREAD_MILL_BODIES: readonly { upTo: number; shank: number; overall: number }[] = [
  { upTo: 6, shank: 6, overall: 57 },
  { upTo: 8, shank: 8, overall: 63 },
  { upTo: 10, shank: 10, overall: 72 },
  { upTo: 12, shank: 12, overall: 83 },
  { upTo: 16, shank: 16, overall: 92 },
];

function threadMills(): CatalogueEntry[] {
  const out: CatalogueEntry[] = [];
  for (const thread of THREAD_MILL_THREADS) {
    // the teeth must orbit inside the tap drill hole
    const d = Math.round(0.8 * thread.tapDrill * 10) / 10;
    const body = THREAD_MILL_BODIES.find((b) => d <= b.upTo);
    if (!body) throw new Error(`no thread mill body for ${d} mm`);
    const length = Math.round((2 * thread.nominal + 2 * thread.pitch) * 100) / 100;
    const z = d < 6 ? 3 : 4;
    for (const through of [false, true]) {
      out.push(
        rangeEntry({
          article: `SSR-TM-${threadCode(thread)}-${through ? "IC" : "EX"}`,
          name: `Thread mill ${fmt(thread.pitch)} ISO from ${threadName(thread)}, Ø${fmt(d)} x ${fmt(length)}, ${z} flutes, carbide TiAlN${through ? ", through coolant" : ""}`,
          type: "ThreadMill",
          flutes: z,
          material: "carbide",
          coating: "TiAlN",
          coolant: through ? "through_tool" : "external",
          params: {
            CuttingDiameter: d,
            OverallLength: body.overall,
            FluteLength: length,
            DepthOfCutMaximum: length,
            ShankDiameter: body.shank,
            ThreadPitch: thread.pitch,
            ThreadProfileAngle: 60,
            HelixAngle: 15,
          },
          mount: holderForShank(body.shank, true),
          reach: length,
          standard: null,
          preset: startingPreset({
            workpiece: "steel",
            cuttingSpeed: 100,
            diameter: d,
            coolant: through ? "through_tool" : "flood",
            feed: { perTooth: 0.03, flutes: z },
          }),
        }),
      );
    }
  }
  return out;
}

export function standardThreading(): CatalogueEntry[] {
  return [...taps(), ...threadMills()];
}
