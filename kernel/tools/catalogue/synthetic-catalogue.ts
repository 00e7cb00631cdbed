/**
 * A synthetic external catalogue for the search benchmark (100,000 entries): fictitious makers,
 * realistic diameters (metric and inch), names and lengths, unique article numbers. The same
 * (count, seed) always gives the same entries, ids included.
 *
 * The makers are invented; none of the names belongs to a real vendor as far as we know.
 * Every entry is a valid assembly (the test checks a sample): lengths are derived so that the
 * holder always has shank to grip.
 */
import type { CuttingPreset } from "../cutting-data.ts";
import type { ToolMaterial, ToolParameters } from "../tool.ts";
import type { ToolType } from "../tool-types.ts";
import { centreDrillCut } from "./centre-drill.ts";
import { DIN_333_A, METRIC_COARSE, METRIC_FINE } from "./dimension-tables.ts";
import { articleDiameter, fmt, type CatalogueEntry } from "./entry.ts";
import { rangeEntry } from "./range-entry.ts";
import { holderForShank, shellMillArbor, tappingChuck, type StandardHolder } from "./standard-holders.ts";
import { drillFeedPerRevolution, reamerPreset, endMillFeedPerTooth, startingPreset } from "./starting-values.ts";
import { seededRandom } from "../../seeded-random.ts";

export const SYNTHETIC_MANUFACTURERS = [
  { name: "Brightwater Carbide", prefix: "BWC" },
  { name: "Kestrel Tooling", prefix: "KT" },
  { name: "Nordhavn Präzision", prefix: "NHP" },
  { name: "Ironbark Cutting Systems", prefix: "ICS" },
  { name: "Valcourt Outils", prefix: "VO" },
  { name: "Sakuragawa Seiko", prefix: "SGS" },
  { name: "Redfern & Holt", prefix: "RH" },
  { name: "Tessaro Utensili", prefix: "TU" },
  { name: "Quillon Micro Tools", prefix: "QMT" },
  { name: "Oxbow Industrial", prefix: "OXI" },
  { name: "Harzfeld Werkzeugbau", prefix: "HWB" },
  { name: "Cobalt Ridge", prefix: "CR" },
  { name: "Meridian Edge", prefix: "ME" },
  { name: "Stenvik Verktyg", prefix: "SV" },
  { name: "Lindqvist Hardmetall", prefix: "LHM" },
  { name: "Pacheco Herramientas", prefix: "PH" },
] as const;

const LINE_WORDS = [
  "Alu",
  "Steel",
  "Inox",
  "Hard",
  "Uni",
  "Micro",
  "Power",
  "Flex",
  "Speed",
  "Dyna",
  "Tri",
  "Vario",
  "Pro",
  "Max",
  "Cut",
  "Edge",
];

type Rng = () => number;
const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)]!;
const between = (rng: Rng, min: number, max: number) => min + rng() * (max - min);
const r2 = (value: number) => Math.round(value * 100) / 100;
const r1 = (value: number) => Math.round(value * 10) / 10;

const METRIC_SHANKS = [3, 4, 6, 8, 10, 12, 14, 16, 18, 20, 25, 32];
const INCH_SHANKS = [3.175, 6.35, 9.525, 12.7, 15.875, 19.05, 25.4];
const METRIC_MILL_DIAMETERS = [0.5, 0.8, 1, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10, 12, 14, 16, 18, 20, 25];
/** 1/32" .. 1" end mills */
const INCH_MILL_DIAMETERS = [
  0.79375, 1.5875, 2.38125, 3.175, 3.96875, 4.7625, 6.35, 7.9375, 9.525, 11.1125, 12.7, 15.875, 19.05, 25.4,
];

/** The smallest shank of the diameter's unit system that is not thinner than it (6 mm at least for carbide mills). */
function shankFor(d: number, inch: boolean, minimum: number): number {
  const shanks = inch ? INCH_SHANKS : METRIC_SHANKS;
  const shank = shanks.find((s) => s >= d - 1e-9 && s >= minimum) ?? shanks.at(-1)!;
  if (shank < d) throw new Error(`no shank for ${d} mm`);
  return shank;
}

/** Overall length that leaves the holder enough shank: reach, 2 mm, and at least 40 mm or three shank diameters. */
function overallFor(reach: number, shank: number, rng: Rng): number {
  return Math.ceil(reach + 2 + Math.max(40, 3 * shank) + between(rng, 0, 20));
}

interface Draft {
  type: ToolType;
  code: string;
  label: string;
  d: number;
  flutes: number;
  material: ToolMaterial;
  coating: string;
  params: ToolParameters;
  reach: number;
  mount: StandardHolder;
  preset: CuttingPreset;
}

const COATINGS = ["TiAlN", "AlTiN", "AlCrN", "TiCN", "DLC", "uncoated"];

function millDraft(rng: Rng, type: "CentreCuttingEndMill" | "BallEndMill" | "BullNoseEndMill"): Draft {
  const inch = rng() < 0.3;
  const d = pick(rng, inch ? INCH_MILL_DIAMETERS : METRIC_MILL_DIAMETERS);
  const shank = shankFor(d, inch, inch ? 3.175 : 3);
  const flute = r2(d * between(rng, 1.2, 4));
  const flutes = d < 3 ? 2 : type === "BallEndMill" ? pick(rng, [2, 2, 3, 4]) : pick(rng, [2, 3, 3, 4, 4, 5, 6]);
  const params: ToolParameters = {
    CuttingDiameter: d,
    DepthOfCutMaximum: flute,
    FluteLength: flute,
    ShankDiameter: shank,
    HelixAngle: pick(rng, [30, 35, 38, 45]),
  };
  let reach = flute;
  if (shank > d * 1.5 && rng() < 0.7) {
    params.NeckDiameter = r2(d * 0.95);
    params.NeckLength = r2(flute + d * between(rng, 1, 6));
    reach = params.NeckLength;
  }
  params.OverallLength = overallFor(reach, shank, rng);
  let label = "end mill";
  let code = "EM";
  if (type === "BallEndMill") {
    params.CornerRadius = d / 2;
    label = "ball end mill";
    code = "BM";
  }
  if (type === "BullNoseEndMill") {
    const radii = [0.1, 0.2, 0.25, 0.5, 0.75, 1, 1.5, 2, 3, 4].filter((r) => r <= d / 4);
    params.CornerRadius = radii.length > 0 ? pick(rng, radii) : r2(d / 5);
    label = `R${fmt(params.CornerRadius)} corner radius end mill`;
    code = "CR";
  }
  const coating = pick(rng, COATINGS);
  const workpiece = coating === "DLC" || coating === "uncoated" ? "aluminium" : "steel";
  return {
    type,
    code,
    label,
    d,
    flutes,
    material: "carbide",
    coating,
    params,
    reach,
    mount: holderForShank(shank, true),
    preset: startingPreset({
      workpiece,
      cuttingSpeed: workpiece === "steel" ? 120 : 350,
      diameter: d,
      coolant: "flood",
      feed: { perTooth: endMillFeedPerTooth(d, workpiece), flutes },
    }),
  };
}

function drillDraft(rng: Rng): Draft {
  const carbide = rng() < 0.5;
  const d =
    rng() < 0.2
      ? pick(
          rng,
          INCH_MILL_DIAMETERS.filter((x) => x >= 1 && x <= 20),
        )
      : Math.round(between(rng, 0.5, 20) * 20) / 20;
  const shank = carbide ? shankFor(d, false, 3) : d;
  const flute = r1(d * between(rng, 3, 9) + 4);
  const point = carbide ? pick(rng, [130, 135, 140, 140]) : pick(rng, [118, 118, 130, 135]);
  return {
    type: "Drill",
    code: "DR",
    label: carbide ? `carbide drill ${Math.max(3, Math.round((flute - 4) / d))}xD` : "HSS twist drill",
    d,
    flutes: 2,
    material: carbide ? "carbide" : pick(rng, ["hss", "hss_cobalt"] as const),
    coating: pick(rng, carbide ? ["TiAlN", "AlCrN", "TiSiN"] : ["uncoated", "TiN", "steam tempered"]),
    params: {
      CuttingDiameter: d,
      OverallLength: overallFor(flute, shank, rng),
      FluteLength: flute,
      DepthOfCutMaximum: Math.floor(flute * 0.85 * 10) / 10,
      ShankDiameter: shank,
      PointAngle: point,
    },
    reach: flute,
    mount: holderForShank(shank, false),
    preset: startingPreset({
      workpiece: "steel",
      cuttingSpeed: carbide ? 90 : 25,
      diameter: d,
      coolant: "flood",
      feed: { perRevolution: drillFeedPerRevolution(d, carbide) },
    }),
  };
}

function spotDrillDraft(rng: Rng): Draft {
  const d = pick(rng, [2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 3.175, 6.35, 9.525, 12.7]);
  const angle = pick(rng, [90, 90, 120, 142]);
  const flute = r1(2.5 * d);
  return {
    type: "SpotDrill",
    code: "SP",
    label: `NC spot drill ${angle}°`,
    d,
    flutes: 2,
    material: "carbide",
    coating: pick(rng, ["TiAlN", "uncoated"]),
    params: {
      CuttingDiameter: d,
      OverallLength: overallFor(flute, d, rng),
      FluteLength: flute,
      DepthOfCutMaximum: r2(d / 2 / Math.tan((angle * Math.PI) / 360)),
      ShankDiameter: d,
      PointAngle: angle,
    },
    reach: flute,
    mount: holderForShank(d, false),
    preset: startingPreset({
      workpiece: "steel",
      cuttingSpeed: 70,
      diameter: d,
      coolant: "flood",
      feed: { perRevolution: drillFeedPerRevolution(d, true) / 2 },
    }),
  };
}

function centreDrillDraft(rng: Rng): Draft {
  const row = pick(rng, DIN_333_A);
  const cut = centreDrillCut(row);
  return {
    type: "CentreDrill",
    code: "CD",
    label: `centre drill A${fmt(row.pilot)}`,
    d: row.body,
    flutes: 2,
    material: pick(rng, ["hss", "hss_cobalt"] as const),
    coating: "uncoated",
    params: cut.params,
    reach: cut.depth,
    mount: holderForShank(row.body, false),
    preset: cut.preset,
  };
}

function chamferDraft(rng: Rng): Draft {
  const d = pick(rng, [3, 4, 5, 6, 8, 10, 12, 16, 20, 25, 6.35, 9.525, 12.7]);
  const angle = pick(rng, [30, 45, 45, 60]);
  const tip = r2(Math.min(d / 4, between(rng, 0.1, 1)));
  const cone = r2((d - tip) / 2 / Math.tan((angle * Math.PI) / 180));
  const flutes = pick(rng, [2, 3, 4]);
  return {
    type: "ChamferMill",
    code: "CH",
    label: `chamfer mill ${angle * 2}°`,
    d,
    flutes,
    material: "carbide",
    coating: pick(rng, COATINGS),
    params: {
      CuttingDiameter: d,
      OverallLength: overallFor(cone, d, rng),
      ChamferAngle: angle,
      TipDiameter: tip,
      FluteLength: cone,
      DepthOfCutMaximum: cone,
      ShankDiameter: d,
    },
    reach: cone,
    mount: holderForShank(d, true),
    preset: startingPreset({
      workpiece: "steel",
      cuttingSpeed: 100,
      diameter: d,
      coolant: "flood",
      feed: { perTooth: 0.03, flutes },
    }),
  };
}

function faceMillDraft(rng: Rng): Draft {
  const d = pick(rng, [32, 40, 50, 52, 63, 66, 80, 100, 125, 160]);
  const arbor = d <= 40 ? 16 : d <= 66 ? 22 : d <= 80 ? 27 : d <= 125 ? 32 : 40;
  const lead = pick(rng, [45, 75, 90]);
  const ap = lead === 90 ? pick(rng, [8, 10, 15]) : 6;
  const height = d <= 66 ? 40 : d <= 100 ? 50 : 63;
  const inserts = Math.max(3, Math.round((d / 12) * between(rng, 0.6, 1.2)));
  return {
    type: "FaceMill",
    code: "FM",
    label: `face mill ${lead}°`,
    d,
    flutes: inserts,
    material: "carbide",
    coating: pick(rng, ["TiAlN", "CVD TiCN-Al2O3", "PVD TiAlN"]),
    params: {
      CuttingDiameter: d,
      OverallLength: height,
      DepthOfCutMaximum: ap,
      FluteLength: ap,
      LeadAngle: lead,
      CornerRadius: pick(rng, [0.4, 0.8, 1.2]),
      ShankDiameter: arbor,
    },
    reach: height,
    mount: shellMillArbor(arbor),
    preset: startingPreset({
      workpiece: "steel",
      cuttingSpeed: 220,
      diameter: d,
      coolant: "air",
      feed: { perTooth: 0.15, flutes: inserts },
    }),
  };
}

const UNIFIED = [
  { name: "#10-24 UNC", nominal: 4.826, pitch: 1.058, tapDrill: 3.8 },
  { name: "1/4-20 UNC", nominal: 6.35, pitch: 1.27, tapDrill: 5.1 },
  { name: "5/16-18 UNC", nominal: 7.9375, pitch: 1.4111, tapDrill: 6.6 },
  { name: "3/8-16 UNC", nominal: 9.525, pitch: 1.5875, tapDrill: 7.9 },
  { name: "1/2-13 UNC", nominal: 12.7, pitch: 1.9538, tapDrill: 10.7 },
  { name: "1/4-28 UNF", nominal: 6.35, pitch: 0.9071, tapDrill: 5.5 },
];

function tapDraft(rng: Rng): Draft {
  const metric = rng() < 0.8;
  const thread = metric ? pick(rng, [...METRIC_COARSE, ...METRIC_FINE]) : pick(rng, UNIFIED);
  const name =
    "name" in thread
      ? thread.name
      : thread.coarse
        ? `M${fmt(thread.nominal)}`
        : `M${fmt(thread.nominal)}x${fmt(thread.pitch)}`;
  const d = thread.nominal;
  const shank = d <= 10 ? r1(Math.max(2.5, d * 0.9)) : r1(d * 0.75);
  const length = r1(d * between(rng, 1.5, 3));
  const flutes = d < 3 ? 2 : d < 12 ? 3 : 4;
  return {
    type: "Tap",
    code: "TP",
    label: `${pick(rng, ["spiral flute", "spiral point", "straight flute"])} tap ${name}`,
    d,
    flutes,
    material: pick(rng, ["hss_cobalt", "hss_pm", "carbide"] as const),
    coating: pick(rng, ["TiN", "TiCN", "steam tempered", "uncoated"]),
    params: {
      CuttingDiameter: d,
      OverallLength: overallFor(length, shank, rng),
      FluteLength: length,
      ShankDiameter: shank,
      ThreadPitch: thread.pitch,
      ThreadProfileAngle: 60,
      TapDrillDiameter: thread.tapDrill,
    },
    reach: length,
    mount: tappingChuck(shank),
    preset: startingPreset({
      workpiece: "steel",
      cuttingSpeed: 12,
      diameter: d,
      coolant: "flood",
      feed: { perRevolution: thread.pitch },
    }),
  };
}

function threadMillDraft(rng: Rng): Draft {
  const pitch = pick(rng, [0.5, 0.7, 0.75, 0.8, 1, 1.25, 1.5, 1.75, 2, 2.5, 3]);
  const d = r1(Math.max(2, pitch * between(rng, 4, 8)));
  const shank = shankFor(d, false, 4);
  const length = r1(d * between(rng, 1.5, 3));
  const flutes = d < 6 ? 3 : 4;
  return {
    type: "ThreadMill",
    code: "TM",
    label: `thread mill ${fmt(pitch)} ISO`,
    d,
    flutes,
    material: "carbide",
    coating: pick(rng, ["TiAlN", "AlCrN"]),
    params: {
      CuttingDiameter: d,
      OverallLength: overallFor(length, shank, rng),
      FluteLength: length,
      DepthOfCutMaximum: length,
      ShankDiameter: shank,
      ThreadPitch: pitch,
      ThreadProfileAngle: 60,
    },
    reach: length,
    mount: holderForShank(shank, true),
    preset: startingPreset({
      workpiece: "steel",
      cuttingSpeed: 100,
      diameter: d,
      coolant: "flood",
      feed: { perTooth: 0.03, flutes },
    }),
  };
}

function reamerDraft(rng: Rng): Draft {
  const d = r2(between(rng, 1, 25));
  const shank = shankFor(d, false, 3);
  const length = r1(1.5 * d + 6);
  const flutes = d < 6 ? 4 : d < 12 ? 6 : 8;
  return {
    type: "Reamer",
    code: "RM",
    label: `reamer ${pick(rng, ["H7", "H6", "H8"])}`,
    d,
    flutes,
    material: pick(rng, ["carbide", "hss_cobalt", "cermet"] as const),
    coating: "uncoated",
    params: {
      CuttingDiameter: d,
      OverallLength: overallFor(length, shank, rng),
      FluteLength: length,
      DepthOfCutMaximum: length,
      ShankDiameter: shank,
    },
    reach: length,
    mount: holderForShank(shank, false),
    preset: reamerPreset(d),
  };
}

function slotMillDraft(rng: Rng): Draft {
  const d = pick(rng, [10, 12, 16, 20, 25, 32, 40]);
  const width = pick(
    rng,
    [0.5, 1, 1.5, 2, 2.5, 3, 4, 5, 6].filter((w) => w <= d / 4),
  );
  const depth = r1(d * between(rng, 0.15, 0.3));
  const shank = d <= 16 ? 10 : 16;
  const neckLength = r1(d * between(rng, 1, 2.5));
  const flutes = Math.max(4, Math.round(d / 3));
  return {
    type: "SlotMill",
    code: "SL",
    label: `slot mill ${fmt(width)} mm`,
    d,
    flutes,
    material: "carbide",
    coating: "TiAlN",
    params: {
      CuttingDiameter: d,
      FluteLength: width,
      OverallLength: overallFor(neckLength, shank, rng),
      NeckDiameter: r1(d - 2 * depth),
      NeckLength: neckLength,
      ShankDiameter: shank,
    },
    reach: neckLength,
    mount: holderForShank(shank, true),
    preset: startingPreset({
      workpiece: "steel",
      cuttingSpeed: 100,
      diameter: d,
      coolant: "flood",
      feed: { perTooth: 0.02, flutes },
    }),
  };
}

/** Families by share of a typical catalogue (drills and end mills dominate). */
const FAMILIES: readonly [number, (rng: Rng) => Draft][] = [
  [25, (rng) => millDraft(rng, "CentreCuttingEndMill")],
  [8, (rng) => millDraft(rng, "BallEndMill")],
  [10, (rng) => millDraft(rng, "BullNoseEndMill")],
  [28, drillDraft],
  [3, spotDrillDraft],
  [2, centreDrillDraft],
  [4, chamferDraft],
  [3, faceMillDraft],
  [8, tapDraft],
  [3, threadMillDraft],
  [4, reamerDraft],
  [2, slotMillDraft],
];
const TOTAL_WEIGHT = FAMILIES.reduce((sum, [weight]) => sum + weight, 0);

function draftOf(rng: Rng): Draft {
  let at = rng() * TOTAL_WEIGHT;
  for (const [weight, draft] of FAMILIES) {
    at -= weight;
    if (at < 0) return draft(rng);
  }
  return FAMILIES[0]![1](rng);
}

/**
 * count entries from seed. Article numbers are unique across the whole catalogue: each carries
 * the entry's index (base 36) after the maker's prefix.
 */
export function generateSyntheticCatalogue(count: number, seed: number): CatalogueEntry[] {
  if (!Number.isInteger(count) || count < 0) throw new Error(`count must be a whole number, is ${count}`);
  const rng = seededRandom(seed);
  const lines = SYNTHETIC_MANUFACTURERS.map(() => `${pick(rng, LINE_WORDS)}${pick(rng, LINE_WORDS).toLowerCase()}`);
  const out: CatalogueEntry[] = [];
  for (let index = 0; index < count; index++) {
    const m = Math.floor(rng() * SYNTHETIC_MANUFACTURERS.length);
    const maker = SYNTHETIC_MANUFACTURERS[m]!;
    const draft = draftOf(rng);
    const series = `${lines[m]} ${Math.floor(between(rng, 1, 9)) * 100 + (draft.flutes % 10) * 10}`;
    out.push(
      rangeEntry({
        manufacturer: maker.name,
        article: `${maker.prefix}-${draft.code}${index.toString(36).toUpperCase().padStart(5, "0")}-${articleDiameter(draft.d)}`,
        name: `${series} ${draft.label} Ø${fmt(draft.d)}, ${draft.flutes} ${draft.type === "FaceMill" ? "inserts" : "flutes"}, ${draft.coating}`,
        type: draft.type,
        flutes: draft.flutes,
        material: draft.material,
        coating: draft.coating,
        coolant: "external",
        params: draft.params,
        mount: draft.mount,
        reach: draft.reach,
        standard: null,
        preset: draft.preset,
      }),
    );
  }
  return out;
}
