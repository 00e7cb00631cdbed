/**
 * The holemaking tools of the standard range: HSS jobber drills after DIN 338 and solid carbide
 * drills after DIN 6537 (short and long), both 0.1 mm apart; NC spot drills; DIN 333 form A
 * centre drills; solid carbide H7 reamers.
 */
import { centreDrillCut } from "./centre-drill.ts";
import { DIN_333_A, DIN_338, DIN_6537_K, DIN_6537_L, rowFor } from "./dimension-tables.ts";
import { articleDiameter, fmt, type CatalogueEntry } from "./entry.ts";
import { rangeEntry } from "./range-entry.ts";
import { erColletChuck } from "./standard-holders.ts";
import { drillFeedPerRevolution, reamerPreset, startingPreset } from "./starting-values.ts";
import type { ToolMaterial } from "../tool.ts";

/** d from first to last mm in steps of a tenth, as exact tenths (no 0.30000000000000004). */
export function tenths(first: number, last: number): number[] {
  const out: number[] = [];
  for (let t = Math.round(first * 10); t <= Math.round(last * 10); t++) out.push(t / 10);
  return out;
}

/** DIN 338 covers 0.2 to 20 mm; the range offers 1.0 to 20.0. */
export const DIN_338_DIAMETERS = tenths(1, 20);
/** DIN 6537 starts at 3 mm (smaller carbide drills are a maker's own). */
export const DIN_6537_DIAMETERS = tenths(3, 20);

const DIN_338_GRADES: readonly {
  code: string;
  label: string;
  material: ToolMaterial;
  coating: string;
  point: number;
}[] = [
  { code: "HSS", label: "HSS bright, 118°", material: "hss", coating: "uncoated", point: 118 },
  { code: "HSS-TIN", label: "HSS TiN, 118°", material: "hss", coating: "TiN", point: 118 },
  { code: "HSCO", label: "HSS-Co5 split point, 135°", material: "hss_cobalt", coating: "uncoated", point: 135 },
  {
    code: "HSCO-TIALN",
    label: "HSS-Co5 TiAlN split point, 135°",
    material: "hss_cobalt",
    coating: "TiAlN",
    point: 135,
  },
];

function jobberDrills(): CatalogueEntry[] {
  const out: CatalogueEntry[] = [];
  for (const d of DIN_338_DIAMETERS) {
    const row = rowFor(DIN_338, d);
    for (const grade of DIN_338_GRADES) {
      out.push(
        rangeEntry({
          article: `SSR-DR338-${articleDiameter(d)}-${grade.code}`,
          name: `Twist drill Ø${fmt(d)} x ${row.flute} x ${row.overall}, DIN 338 type N, ${grade.label}`,
          type: "Drill",
          flutes: 2,
          material: grade.material,
          coating: grade.coating,
          coolant: "external",
          params: {
            CuttingDiameter: d,
            OverallLength: row.overall,
            FluteLength: row.flute,
            // chips need room: the flutes' last tenth stays out of the hole
            DepthOfCutMaximum: Math.floor(row.flute * 0.9),
            ShankDiameter: d,
            PointAngle: grade.point,
            HelixAngle: 30,
          },
          mount: erColletChuck(d),
          reach: row.flute,
          standard: "DIN 338",
          preset: startingPreset({
            workpiece: "steel",
            cuttingSpeed: grade.material === "hss" ? 25 : 30,
            diameter: d,
            coolant: "flood",
            feed: { perRevolution: drillFeedPerRevolution(d, false) },
          }),
        }),
      );
    }
  }
  return out;
}

/** TiAlN for steel and cast iron, AlCrN for stainless and hardened steel; the through-coolant ones drill deeper faster. */
const CARBIDE_DRILL_GRADES = [
  { through: false, coating: "TiAlN", code: "EX" },
  { through: true, coating: "TiAlN", code: "IC" },
  { through: true, coating: "AlCrN", code: "IC-ACR" },
] as const;

function carbideDrills(): CatalogueEntry[] {
  const out: CatalogueEntry[] = [];
  for (const d of DIN_6537_DIAMETERS) {
    for (const [series, table] of [
      ["K", DIN_6537_K],
      ["L", DIN_6537_L],
    ] as const) {
      const row = rowFor(table, d);
      for (const { through, coating, code } of CARBIDE_DRILL_GRADES) {
        out.push(
          rangeEntry({
            article: `SSR-DR6537${series}-${articleDiameter(d)}-${code}`,
            name: `Carbide drill Ø${fmt(d)} ${series === "K" ? "3xD" : "5xD"} x ${row.flute} x ${row.overall}, DIN 6537 ${series}, 140°, ${coating}${through ? ", through coolant" : ""}`,
            type: "Drill",
            flutes: 2,
            material: "carbide",
            coating,
            coolant: through ? "through_tool" : "external",
            params: {
              CuttingDiameter: d,
              OverallLength: row.overall,
              FluteLength: row.flute,
              DepthOfCutMaximum: row.usable,
              ShankDiameter: row.shank,
              PointAngle: 140,
              HelixAngle: 30,
            },
            mount: erColletChuck(row.shank),
            reach: row.flute,
            standard: `DIN 6537 ${series}`,
            preset: startingPreset({
              workpiece: "steel",
              cuttingSpeed: through ? 100 : 80,
              diameter: d,
              coolant: through ? "through_tool" : "flood",
              feed: { perRevolution: drillFeedPerRevolution(d, true) },
            }),
          }),
        );
      }
    }
  }
  return out;
}

/** NC spot drills (no DIN; the makers' usual lengths): diameter -> overall, flute length. */
const SPOT_DRILLS: Readonly<Record<number, { overall: number; flute: number }>> = {
  3: { overall: 46, flute: 10 },
  4: { overall: 55, flute: 12 },
  5: { overall: 62, flute: 14 },
  6: { overall: 66, flute: 20 },
  8: { overall: 79, flute: 24 },
  10: { overall: 89, flute: 28 },
  12: { overall: 102, flute: 32 },
  16: { overall: 115, flute: 40 },
  20: { overall: 131, flute: 50 },
};

function spotDrills(): CatalogueEntry[] {
  const out: CatalogueEntry[] = [];
  for (const [key, size] of Object.entries(SPOT_DRILLS)) {
    const d = Number(key);
    // 142 degrees spots for 140 degree carbide drills
    for (const angle of [90, 120, 142]) {
      for (const carbide of [true, false]) {
        // the depth at which the spot reaches the tool's full diameter
        const fullDepth = Math.round((d / 2 / Math.tan((angle * Math.PI) / 360)) * 100) / 100;
        out.push(
          rangeEntry({
            article: `SSR-SP${String(angle).padStart(3, "0")}-${articleDiameter(d)}-${carbide ? "VHM" : "HSS"}`,
            name: `NC spot drill Ø${d} ${angle}°, ${carbide ? "carbide TiAlN" : "HSS-E"}`,
            type: "SpotDrill",
            flutes: 2,
            material: carbide ? "carbide" : "hss_cobalt",
            coating: carbide ? "TiAlN" : "uncoated",
            coolant: "external",
            params: {
              CuttingDiameter: d,
              OverallLength: size.overall,
              FluteLength: size.flute,
              DepthOfCutMaximum: fullDepth,
              ShankDiameter: d,
              PointAngle: angle,
            },
            mount: erColletChuck(d),
            reach: size.flute,
            standard: null,
            preset: startingPreset({
              workpiece: "steel",
              cuttingSpeed: carbide ? 80 : 25,
              diameter: d,
              coolant: "flood",
              feed: { perRevolution: drillFeedPerRevolution(d, carbide) / 2 },
            }),
          }),
        );
      }
    }
  }
  return out;
}

function centreDrills(): CatalogueEntry[] {
  const out: CatalogueEntry[] = [];
  for (const row of DIN_333_A) {
    for (const cobalt of [false, true]) {
      const cut = centreDrillCut(row);
      out.push(
        rangeEntry({
          article: `SSR-CD333A-${articleDiameter(row.pilot)}-${cobalt ? "HSCO" : "HSS"}`,
          name: `Centre drill A${fmt(row.pilot)} x ${fmt(row.body)}, DIN 333 form A 60°, ${cobalt ? "HSS-Co5" : "HSS"}`,
          type: "CentreDrill",
          flutes: 2,
          material: cobalt ? "hss_cobalt" : "hss",
          coating: "uncoated",
          coolant: "external",
          params: cut.params,
          mount: erColletChuck(row.body),
          reach: cut.depth,
          standard: "DIN 333 A",
          preset: cut.preset,
        }),
      );
    }
  }
  return out;
}

/** Reamer diameters: 3 to 20 mm in half millimetres, all H7. */
export const REAMER_DIAMETERS = tenths(3, 20).filter((d) => Math.round(d * 10) % 5 === 0);

function reamers(): CatalogueEntry[] {
  return REAMER_DIAMETERS.map((d) => {
    const row = rowFor(DIN_6537_L, d);
    const flute = Math.round(1.5 * d + 6);
    const z = d < 6 ? 4 : d < 12 ? 6 : 8;
    return rangeEntry({
      article: `SSR-RM-${articleDiameter(d)}-H7`,
      name: `Machine reamer Ø${fmt(d)} H7, ${z} flutes, solid carbide`,
      type: "Reamer",
      flutes: z,
      material: "carbide",
      coating: "uncoated",
      coolant: "external",
      params: {
        CuttingDiameter: d,
        OverallLength: row.overall,
        FluteLength: flute,
        DepthOfCutMaximum: flute,
        ShankDiameter: row.shank,
        HelixAngle: 0,
      },
      mount: erColletChuck(row.shank),
      reach: flute,
      standard: null,
      preset: reamerPreset(d),
    });
  });
}

export function standardHolemaking(): CatalogueEntry[] {
  return [...jobberDrills(), ...carbideDrills(), ...spotDrills(), ...centreDrills(), ...reamers()];
}
