/**
 * The milling tools of the standard range: solid carbide end mills after DIN 6527 (flat, ball,
 * bull nose; short K and long L series; several grades), HSS non centre cutting end mills,
 * chamfer mills, indexable face mills and slot mills.
 */
import type { CuttingPreset } from "../cutting-data.ts";
import type { ToolMaterial, ToolParameters } from "../tool.ts";
import type { ToolType } from "../tool-types.ts";
import { DIN_6527_K, DIN_6527_L, type Din6527Row } from "./dimension-tables.ts";
import { articleDiameter, fmt, type CatalogueEntry } from "./entry.ts";
import { rangeEntry } from "./range-entry.ts";
import { holderForShank, shellMillArbor, type StandardHolder } from "./standard-holders.ts";
import { endMillFeedPerTooth, startingPreset } from "./starting-values.ts";

export const END_MILL_DIAMETERS = [1, 1.5, 2, 2.5, 3, 4, 5, 6, 7, 8, 9, 10, 12, 14, 16, 18, 20, 25] as const;
export type Series = "K" | "L";

interface EndMillBody {
  flute: number;
  overall: number;
  shank: number;
  neck: { diameter: number; length: number } | undefined;
  standard: string | null;
}

const round2 = (value: number) => Math.round(value * 100) / 100;

/**
 * DIN 6527 body of a diameter. Sizes the standard does not list are the range's own: micro end
 * mills (below 3 mm) on a 6 mm shank with a relieved neck, 7 and 9 mm on the next larger body.
 */
export function endMillBody(d: number, series: Series): EndMillBody {
  const table = series === "K" ? DIN_6527_K : DIN_6527_L;
  const row = table[d];
  if (row) return { ...row, neck: undefined, standard: `DIN 6527 ${series}` };
  if (d < 3) {
    const flute = series === "K" ? round2(Math.max(1, 1.5 * d)) : round2(3 * d);
    return {
      flute,
      overall: series === "K" ? 54 : 57,
      shank: 6,
      neck: { diameter: round2(0.95 * d), length: round2(flute + (series === "K" ? 2.5 : 3) * d) },
      standard: null,
    };
  }
  const below: Din6527Row | undefined = table[d - 1];
  const above: Din6527Row | undefined = table[d + 1];
  if (!below || !above) throw new Error(`no end mill body for ${d} mm`);
  return {
    flute: Math.round((below.flute + above.flute) / 2),
    overall: above.overall,
    shank: above.shank,
    neck: undefined,
    standard: null,
  };
}

interface Grade {
  code: string;
  label: string;
  material: ToolMaterial;
  coating: string;
  workpiece: "steel" | "aluminium";
  helix: number;
}

const GRADES = {
  TA: { code: "TA", label: "carbide TiAlN", material: "carbide", coating: "TiAlN", workpiece: "steel", helix: 30 },
  AC: { code: "AC", label: "carbide AlCrN", material: "carbide", coating: "AlCrN", workpiece: "steel", helix: 35 },
  UC: {
    code: "UC",
    label: "carbide uncoated, polished",
    material: "carbide",
    coating: "uncoated",
    workpiece: "aluminium",
    helix: 45,
  },
  HC: { code: "HC", label: "HSS-Co8", material: "hss_cobalt", coating: "uncoated", workpiece: "steel", helix: 30 },
} as const satisfies Record<string, Grade>;

function millPreset(d: number, flutes: number, grade: Grade, speedFactor = 1): CuttingPreset {
  const cuttingSpeed = (grade.material === "hss_cobalt" ? 30 : grade.workpiece === "steel" ? 120 : 400) * speedFactor;
  return startingPreset({
    workpiece: grade.workpiece,
    cuttingSpeed,
    diameter: d,
    coolant: grade.workpiece === "steel" ? "flood" : "mist",
    feed: { perTooth: endMillFeedPerTooth(d, grade.workpiece), flutes },
  });
}

interface MillSpec {
  article: string;
  name: string;
  type: ToolType;
  flutes: number;
  grade: Grade;
  params: ToolParameters;
  shank: number;
  reach: number;
  standard: string | null;
  mount?: StandardHolder;
  preset: CuttingPreset;
}

function millEntry(spec: MillSpec): CatalogueEntry {
  return rangeEntry({
    ...spec,
    material: spec.grade.material,
    coating: spec.grade.coating,
    coolant: "external",
    mount: spec.mount ?? holderForShank(spec.shank, true),
  });
}

function bodyParams(d: number, body: EndMillBody, grade: Grade): ToolParameters {
  const params: ToolParameters = {
    CuttingDiameter: d,
    DepthOfCutMaximum: body.flute,
    OverallLength: body.overall,
    FluteLength: body.flute,
    ShankDiameter: body.shank,
    HelixAngle: grade.helix,
  };
  if (body.neck) {
    params.NeckDiameter = body.neck.diameter;
    params.NeckLength = body.neck.length;
  }
  return params;
}

const standardNote = (standard: string | null) => (standard ? ` (${standard})` : "");

function flatEndMills(): CatalogueEntry[] {
  const out: CatalogueEntry[] = [];
  const variants: [Grade, number[]][] = [
    [GRADES.TA, [2, 3, 4]],
    [GRADES.AC, [3, 4]],
    [GRADES.UC, [2, 3]],
  ];
  for (const d of END_MILL_DIAMETERS) {
    for (const series of ["K", "L"] as const) {
      const body = endMillBody(d, series);
      for (const [grade, flutesList] of variants) {
        for (const z of flutesList) {
          if (z === 4 && d < 2) continue; // four flutes do not fit a 1.5 mm core
          out.push(
            millEntry({
              article: `SSR-EM${z}-${articleDiameter(d)}-${series}-${grade.code}`,
              name: `End mill Ø${fmt(d)} x ${fmt(body.flute)} x ${fmt(body.overall)}, ${z} flutes, ${grade.label}${standardNote(body.standard)}`,
              type: "CentreCuttingEndMill",
              flutes: z,
              grade,
              params: bodyParams(d, body, grade),
              shank: body.shank,
              reach: body.neck?.length ?? body.flute,
              standard: body.standard,
              preset: millPreset(d, z, grade),
            }),
          );
        }
      }
    }
  }
  return out;
}

/**
 * Long-neck flat end mills: short flutes (1.5 D) on a neck relieved to 0.95 D that reaches
 * where a DIN 6527 L end mill's shank stops it: deep corners, narrow slots and passages. The
 * reach per diameter is the longest a job shop commonly stocks (5 to 12 D, as the makers' long
 * neck ranges offer); a 6 mm shank. The planner takes one only where the stubbier end mill of
 * its diameter does not reach (kernel/cam/planner/milling-operations.ts).
 */
export const LONG_NECK_REACH: Readonly<Record<number, number>> = {
  1: 12,
  1.5: 12,
  2: 16,
  2.5: 20,
  3: 20,
  4: 25,
  5: 30,
  6: 30,
};

export function longNeckBody(d: number): EndMillBody {
  const reach = LONG_NECK_REACH[d];
  if (reach === undefined) throw new Error(`no long-neck end mill of ${d} mm`);
  const overall = Math.max(57, 5 * Math.ceil((reach + 40) / 5));
  return {
    flute: round2(1.5 * d),
    overall,
    shank: 6,
    neck: { diameter: round2(0.95 * d), length: reach },
    standard: null,
  };
}

function longNeckEndMills(): CatalogueEntry[] {
  const out: CatalogueEntry[] = [];
  const variants: [Grade, number][] = [
    [GRADES.TA, 3],
    [GRADES.UC, 2],
  ];
  for (const d of Object.keys(LONG_NECK_REACH).map(Number)) {
    const body = longNeckBody(d);
    const reach = body.neck?.length ?? body.flute;
    for (const [grade, z] of variants) {
      out.push(
        millEntry({
          article: `SSR-EM${z}-${articleDiameter(d)}-N${fmt(reach)}-${grade.code}`,
          name: `Long-neck end mill Ø${fmt(d)} x ${fmt(body.flute)}, reach ${fmt(reach)}, ${fmt(body.overall)} long, ${z} flutes, ${grade.label}`,
          type: "CentreCuttingEndMill",
          flutes: z,
          grade,
          params: bodyParams(d, body, grade),
          shank: body.shank,
          reach,
          standard: null,
          preset: millPreset(d, z, grade),
        }),
      );
    }
  }
  return out;
}

/** HSS-Co end mills with four flutes that do not meet in the centre: side milling, no plunging. */
function nonCentreCuttingEndMills(): CatalogueEntry[] {
  const out: CatalogueEntry[] = [];
  for (const d of END_MILL_DIAMETERS) {
    if (d < 3) continue;
    for (const series of ["K", "L"] as const) {
      const body = endMillBody(d, series);
      const grade = GRADES.HC;
      out.push(
        millEntry({
          article: `SSR-EN4-${articleDiameter(d)}-${series}-${grade.code}`,
          name: `End mill Ø${fmt(d)} x ${fmt(body.flute)} x ${fmt(body.overall)}, 4 flutes, non centre cutting, ${grade.label}`,
          type: "NonCentreCuttingEndMill",
          flutes: 4,
          grade,
          params: bodyParams(d, body, grade),
          shank: body.shank,
          reach: body.flute,
          standard: null,
          preset: millPreset(d, 4, grade),
        }),
      );
    }
  }
  return out;
}

function ballEndMills(): CatalogueEntry[] {
  const out: CatalogueEntry[] = [];
  const variants: [Grade, number[]][] = [
    [GRADES.TA, [2, 4]],
    [GRADES.AC, [2]],
    [GRADES.UC, [2]],
  ];
  for (const d of END_MILL_DIAMETERS) {
    for (const series of ["K", "L"] as const) {
      const body = endMillBody(d, series);
      for (const [grade, flutesList] of variants) {
        for (const z of flutesList) {
          if (z === 4 && d < 3) continue;
          out.push(
            millEntry({
              article: `SSR-BM${z}-${articleDiameter(d)}-${series}-${grade.code}`,
              name: `Ball end mill R${fmt(d / 2)} (Ø${fmt(d)}) x ${fmt(body.flute)} x ${fmt(body.overall)}, ${z} flutes, ${grade.label}${standardNote(body.standard)}`,
              type: "BallEndMill",
              flutes: z,
              grade,
              params: { ...bodyParams(d, body, grade), CornerRadius: d / 2 },
              shank: body.shank,
              reach: body.neck?.length ?? body.flute,
              standard: body.standard,
              // the ball cuts at a smaller effective diameter: start slower than a flat end mill
              preset: millPreset(d, z, grade, 0.8),
            }),
          );
        }
      }
    }
  }
  return out;
}

/** Corner radii offered, kept to a quarter of the diameter at most. */
export const BULL_NOSE_RADII = [0.2, 0.5, 1, 1.5, 2, 3, 4] as const;

function bullNoseEndMills(): CatalogueEntry[] {
  const out: CatalogueEntry[] = [];
  for (const d of END_MILL_DIAMETERS) {
    for (const series of ["K", "L"] as const) {
      const body = endMillBody(d, series);
      for (const grade of [GRADES.TA, GRADES.AC, GRADES.UC]) {
        for (const r of BULL_NOSE_RADII) {
          if (r > d / 4) continue;
          const z = d < 3 ? 2 : 4;
          out.push(
            millEntry({
              article: `SSR-BN${z}-${articleDiameter(d)}-R${String(Math.round(r * 100)).padStart(3, "0")}-${series}-${grade.code}`,
              name: `Bull nose end mill Ø${fmt(d)} R${fmt(r)} x ${fmt(body.flute)} x ${fmt(body.overall)}, ${z} flutes, ${grade.label}${standardNote(body.standard)}`,
              type: "BullNoseEndMill",
              flutes: z,
              grade,
              params: { ...bodyParams(d, body, grade), CornerRadius: r },
              shank: body.shank,
              reach: body.neck?.length ?? body.flute,
              standard: body.standard,
              preset: millPreset(d, z, grade),
            }),
          );
        }
      }
    }
  }
  return out;
}

/** Chamfer mills by the angle of their edge to the axis: 45 (90 degree countersinks), 30 and 60. */
function chamferMills(): CatalogueEntry[] {
  const out: CatalogueEntry[] = [];
  for (const d of [3, 4, 6, 8, 10, 12, 16, 20]) {
    for (const angle of [45, 30, 60]) {
      for (const grade of [GRADES.TA, GRADES.UC]) {
        const tip = d < 6 ? 0.2 : 0.5;
        const cone = round2((d - tip) / 2 / Math.tan((angle * Math.PI) / 180));
        const overall = d <= 6 ? 50 : d <= 10 ? 60 : d <= 16 ? 75 : 100;
        const z = d <= 4 ? 2 : grade === GRADES.UC ? 3 : 4;
        out.push(
          millEntry({
            article: `SSR-CH${String(angle).padStart(3, "0")}-${articleDiameter(d)}-Z${z}-${grade.code}`,
            name: `Chamfer mill Ø${fmt(d)} ${angle}° to the axis (${angle * 2}° included), ${z} flutes, ${grade.label}`,
            type: "ChamferMill",
            flutes: z,
            grade,
            params: {
              CuttingDiameter: d,
              OverallLength: overall,
              ChamferAngle: angle,
              TipDiameter: tip,
              FluteLength: cone,
              DepthOfCutMaximum: cone,
              ShankDiameter: d,
            },
            shank: d,
            reach: cone,
            standard: null,
            preset: millPreset(d, z, grade, 0.8),
          }),
        );
      }
    }
  }
  return out;
}

/** Face mill diameter -> arbor bore, body height, teeth (coarse, fine pitch). */
const FACE_MILLS: Readonly<Record<number, { arbor: number; height: number; teeth: [number, number] }>> = {
  40: { arbor: 16, height: 40, teeth: [3, 4] },
  50: { arbor: 22, height: 40, teeth: [4, 5] },
  63: { arbor: 22, height: 40, teeth: [5, 6] },
  80: { arbor: 27, height: 50, teeth: [6, 8] },
  100: { arbor: 32, height: 50, teeth: [7, 10] },
  125: { arbor: 40, height: 63, teeth: [8, 12] },
};

function faceMills(): CatalogueEntry[] {
  const out: CatalogueEntry[] = [];
  for (const [key, f] of Object.entries(FACE_MILLS)) {
    const d = Number(key);
    for (const lead of [45, 90]) {
      for (const z of f.teeth) {
        const ap = lead === 45 ? 6 : d <= 63 ? 10 : 15;
        const mount = shellMillArbor(f.arbor);
        out.push(
          millEntry({
            article: `SSR-FM${lead}-${String(d).padStart(3, "0")}-Z${String(z).padStart(2, "0")}`,
            name: `Face mill Ø${d}, ${lead}° lead, ${z} inserts, arbor Ø${f.arbor}`,
            type: "FaceMill",
            flutes: z,
            grade: {
              code: "IN",
              label: "indexable carbide inserts",
              material: "carbide",
              coating: "TiAlN",
              workpiece: "steel",
              helix: 0,
            },
            params: {
              CuttingDiameter: d,
              OverallLength: f.height,
              DepthOfCutMaximum: ap,
              FluteLength: ap,
              LeadAngle: lead,
              CornerRadius: 0.8,
              ShankDiameter: f.arbor,
            },
            shank: f.arbor,
            reach: f.height,
            standard: null,
            mount,
            preset: startingPreset({
              workpiece: "steel",
              cuttingSpeed: 200,
              diameter: d,
              coolant: "air",
              feed: { perTooth: lead === 45 ? 0.2 : 0.15, flutes: z },
            }),
          }),
        );
      }
    }
  }
  return out;
}

/** Solid carbide slot mills: a toothed disc of the given width on a relieved neck. */
function slotMills(): CatalogueEntry[] {
  const out: CatalogueEntry[] = [];
  for (const d of [10, 12, 16, 20, 25, 32]) {
    for (const width of [1, 1.5, 2, 3, 4, 5]) {
      if (width > d / 4) continue;
      const depth = d <= 12 ? 2.5 : d <= 20 ? 4 : 6;
      const shank = d <= 16 ? 10 : 16;
      const overall = d <= 16 ? 60 : d <= 20 ? 80 : 100;
      const z = d <= 12 ? 6 : d <= 20 ? 8 : d <= 25 ? 10 : 12;
      const grade = GRADES.TA;
      out.push(
        millEntry({
          article: `SSR-SL-${articleDiameter(d)}-W${String(Math.round(width * 10)).padStart(3, "0")}`,
          name: `Slot mill Ø${d} x ${fmt(width)}, slot depth ${fmt(depth)}, ${z} teeth, ${grade.label}`,
          type: "SlotMill",
          flutes: z,
          grade,
          params: {
            CuttingDiameter: d,
            FluteLength: width,
            OverallLength: overall,
            NeckDiameter: d - 2 * depth,
            NeckLength: 2 * d,
            ShankDiameter: shank,
          },
          shank,
          reach: 2 * d,
          standard: null,
          preset: millPreset(d, z, grade, 0.8),
        }),
      );
    }
  }
  return out;
}

export function standardMills(): CatalogueEntry[] {
  return [
    ...flatEndMills(),
    ...longNeckEndMills(),
    ...nonCentreCuttingEndMills(),
    ...ballEndMills(),
    ...bullNoseEndMills(),
    ...chamferMills(),
    ...faceMills(),
    ...slotMills(),
  ];
}
