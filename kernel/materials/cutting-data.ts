/**
 * Cutting data for planning and quoting: cutting speed vc and feed per tooth fz per material,
 * tool family and tool material, the spindle speed and feed they give on a tool, clamped to
 * what a machine can do, and the power the cut takes (Kienzle).
 *
 * The model, kept small so one can check it by hand:
 *
 *   vc = base vc (material, tool material) · family vc factor · adjustment
 *   fz = base fz at D = 10 mm (material, tool material) · family fz factor · adjustment · curve(D)
 *   n  = vc · 1000 / (π · D)          vf = n · fz · z          (tap: vf = n · pitch)
 *
 * The base is a solid end mill roughing at the side of a wall (ap = 1·D, the material's ae).
 * curve(D) is the family's feed-per-tooth ratio to D = 10 mm, interpolated linearly between
 * reference diameters (DIAMETER_CURVES) and constant beyond the last one: for milling cutters fz
 * grows about like D^0.8 up to 10 mm and more slowly above (stiffness stops being the limit), for
 * drills about like D (feed per rev ≈ 0.02-0.025 · D in steel), and not at all for indexable face
 * mills. The figures are mid-range starting values of the kind tool makers' catalogues give
 * (Sandvik Coromant, Walter, Garant, Gühring for solid carbide; the German handbook tables,
 * Tabellenbuch Metall and its like, for HSS), for a rigid machine with flood coolant; a tool's
 * own data wins.
 *
 * Tables are JSON-shaped and snake_case (a database seed can hold them); the function results
 * are kernel values in camelCase.
 */
import { z } from "zod";
import { findMaterial, type Material, MATERIAL_ID } from "./materials.ts";

/**
 * What cutting data is kept for: finer than the tool library's families (kernel/tools: mill,
 * drill, ...), because roughing and finishing with the same end mill want different numbers.
 */
export const CuttingToolFamily = z.enum([
  "end_mill_roughing",
  "end_mill_finishing",
  "ball_mill",
  "slot_mill",
  "face_mill",
  "chamfer_mill",
  "thread_mill",
  "drill",
  "spot_drill",
  "centre_drill",
  "reamer",
  "tap",
]);
export type CuttingToolFamily = z.infer<typeof CuttingToolFamily>;

export const CuttingToolMaterial = z.enum(["carbide", "hss"]);
export type CuttingToolMaterial = z.infer<typeof CuttingToolMaterial>;

/**
 * The table a tool library's cutting material reads from: the HSS grades from HSS, everything
 * harder from carbide (conservative for cermet, ceramic, PCD and CBN, which run faster still).
 */
export function cuttingToolMaterialFor(toolMaterial: string): CuttingToolMaterial | undefined {
  if (toolMaterial === "hss" || toolMaterial.startsWith("hss_")) return "hss";
  if (["carbide", "cermet", "ceramic", "pcd", "cbn"].includes(toolMaterial)) return "carbide";
  return undefined;
}

/** How a family's fz follows its diameter; `pitch`: a tap's feed is its pitch. */
export const DiameterCurve = z.enum(["milling", "drilling", "flat", "pitch"]);
export type DiameterCurve = z.infer<typeof DiameterCurve>;

/** [diameter mm, fz / fz at 10 mm], ascending; (0, 0) first makes fz proportional to D for tiny tools. */
export const DIAMETER_CURVES: Readonly<
  Record<Exclude<DiameterCurve, "pitch">, readonly (readonly [number, number])[]>
> = {
  milling: [
    [0, 0],
    [1, 0.15],
    [2, 0.25],
    [3, 0.35],
    [4, 0.45],
    [6, 0.65],
    [8, 0.83],
    [10, 1],
    [12, 1.12],
    [16, 1.3],
    [20, 1.45],
    [25, 1.6],
    [32, 1.75],
    [50, 1.9],
  ],
  drilling: [
    [0, 0],
    [1, 0.1],
    [2, 0.2],
    [3, 0.3],
    [4, 0.4],
    [6, 0.6],
    [8, 0.8],
    [10, 1],
    [12, 1.15],
    [16, 1.4],
    [20, 1.6],
    [25, 1.75],
    [32, 1.9],
  ],
  // inserts carry the feed: a 50 mm and a 125 mm face mill take about the same fz
  flat: [[0, 1]],
};

/**
 * How the cut meets the material, for the power arithmetic: milling (a tooth takes a comma-shaped
 * chip), holemaking (edges cut an annulus from D - 2·ap to D), tapping (the thread's profile).
 */
export const CutKind = z.enum(["milling", "holemaking", "tapping"]);
export type CutKind = z.infer<typeof CutKind>;

const positive = z.number().positive();

export const ToolFamilyModel = z.strictObject({
  family: CuttingToolFamily,
  kind: CutKind,
  /** vc relative to the material's end-mill roughing vc for the same tool material */
  vc_factor: z.strictObject({ carbide: positive, hss: positive }),
  /** fz at 10 mm relative to the end-mill roughing fz at 10 mm (not used for taps) */
  fz_factor: positive,
  diameter_curve: DiameterCurve,
  /** default axial depth of cut as a fraction of D; holemaking: the radial width the edges cut; taps: unused (thread depth from the pitch) */
  ap_fraction: positive,
  /** default radial engagement as a fraction of D; null: the material's roughing ae */
  ae_fraction: positive.max(1).nullable(),
  /** cutting edge angle κr: a chip is thinner than fz by sin κr */
  entering_angle_deg: z.number().gt(0).max(90),
  /** face mills run over the middle of the face; everything else cuts from one side */
  radial_position: z.enum(["side", "centred"]),
});
export type ToolFamilyModel = z.infer<typeof ToolFamilyModel>;

/**
 * Per family, relative to an end mill roughing. Why the numbers are what they are:
 * finishing passes take a thin radial cut, so vc may rise and fz falls for the surface; ball and
 * chamfer mills cut with a slanted edge; slot mills (disc cutters) have many weak teeth;
 * indexable face mills run faster (carbide) at a per-insert feed; drills run slower with
 * a larger feed per edge; reamers and taps slowest (a small allowance, or a thread that a
 * broken tap ruins). A tap's ap is the thread depth, computed from the pitch.
 */
const FAMILY_MODELS_SEED: ToolFamilyModel[] = [
  {
    family: "end_mill_roughing",
    kind: "milling",
    vc_factor: { carbide: 1, hss: 1 },
    fz_factor: 1,
    diameter_curve: "milling",
    ap_fraction: 1,
    ae_fraction: null,
    entering_angle_deg: 90,
    radial_position: "side",
  },
  {
    family: "end_mill_finishing",
    kind: "milling",
    vc_factor: { carbide: 1.2, hss: 1.15 },
    fz_factor: 0.7,
    diameter_curve: "milling",
    ap_fraction: 1,
    ae_fraction: 0.05,
    entering_angle_deg: 90,
    radial_position: "side",
  },
  {
    family: "ball_mill",
    kind: "milling",
    vc_factor: { carbide: 1.1, hss: 1 },
    fz_factor: 0.6,
    diameter_curve: "milling",
    ap_fraction: 0.1,
    ae_fraction: 0.1,
    entering_angle_deg: 45,
    radial_position: "side",
  },
  {
    family: "slot_mill",
    kind: "milling",
    vc_factor: { carbide: 0.8, hss: 0.8 },
    fz_factor: 0.4,
    diameter_curve: "milling",
    ap_fraction: 0.15,
    ae_fraction: 0.1,
    entering_angle_deg: 90,
    radial_position: "side",
  },
  {
    family: "face_mill",
    kind: "milling",
    vc_factor: { carbide: 1.4, hss: 0.9 },
    fz_factor: 2.5,
    diameter_curve: "flat",
    ap_fraction: 0.03,
    ae_fraction: 0.7,
    entering_angle_deg: 45,
    radial_position: "centred",
  },
  {
    family: "chamfer_mill",
    kind: "milling",
    vc_factor: { carbide: 1, hss: 1 },
    fz_factor: 0.5,
    diameter_curve: "milling",
    ap_fraction: 0.1,
    ae_fraction: 0.1,
    entering_angle_deg: 45,
    radial_position: "side",
  },
  {
    family: "thread_mill",
    kind: "milling",
    vc_factor: { carbide: 0.8, hss: 0.8 },
    fz_factor: 0.4,
    diameter_curve: "milling",
    ap_fraction: 1,
    ae_fraction: 0.1,
    entering_angle_deg: 90,
    radial_position: "side",
  },
  {
    family: "drill",
    kind: "holemaking",
    vc_factor: { carbide: 0.7, hss: 0.85 },
    fz_factor: 2.5,
    diameter_curve: "drilling",
    ap_fraction: 0.5,
    ae_fraction: 1,
    entering_angle_deg: 70,
    radial_position: "centred",
  },
  {
    family: "spot_drill",
    kind: "holemaking",
    vc_factor: { carbide: 0.7, hss: 0.85 },
    fz_factor: 1,
    diameter_curve: "drilling",
    ap_fraction: 0.25,
    ae_fraction: 1,
    entering_angle_deg: 45,
    radial_position: "centred",
  },
  {
    family: "centre_drill",
    kind: "holemaking",
    vc_factor: { carbide: 0.5, hss: 0.6 },
    fz_factor: 1,
    diameter_curve: "drilling",
    ap_fraction: 0.5,
    ae_fraction: 1,
    entering_angle_deg: 30,
    radial_position: "centred",
  },
  {
    family: "reamer",
    kind: "holemaking",
    vc_factor: { carbide: 0.5, hss: 0.35 },
    fz_factor: 1,
    diameter_curve: "drilling",
    ap_fraction: 0.015,
    ae_fraction: 1,
    entering_angle_deg: 45,
    radial_position: "centred",
  },
  {
    family: "tap",
    kind: "tapping",
    vc_factor: { carbide: 0.2, hss: 0.4 },
    fz_factor: 1,
    diameter_curve: "pitch",
    ap_fraction: 0.05,
    ae_fraction: 1,
    entering_angle_deg: 30,
    radial_position: "centred",
  },
];

export const TOOL_FAMILY_MODELS: Readonly<Record<CuttingToolFamily, ToolFamilyModel>> = Object.freeze(
  Object.fromEntries(FAMILY_MODELS_SEED.map((m) => [m.family, Object.freeze(ToolFamilyModel.parse(m))])) as Record<
    CuttingToolFamily,
    ToolFamilyModel
  >,
);

const BaseCut = z.strictObject({
  /** end mill roughing cutting speed (m/min) */
  vc_m_min: positive,
  /** end mill roughing feed per tooth at D = 10 mm (mm) */
  fz_mm: positive,
});

/** A correction where the factors above misjudge a material; factors multiply. */
export const CuttingAdjustment = z.strictObject({
  tool_family: CuttingToolFamily,
  /** null: both tool materials */
  tool_material: CuttingToolMaterial.nullable(),
  vc_factor: positive,
  fz_factor: positive,
  reason: z.string().min(1),
});
export type CuttingAdjustment = z.infer<typeof CuttingAdjustment>;

export const MaterialCuttingBase = z.strictObject({
  material_id: z.string().regex(MATERIAL_ID),
  carbide: BaseCut,
  hss: BaseCut,
  /** radial engagement for conventional side roughing (fraction of D): less where heat or hardness limit it */
  roughing_ae_fraction: positive.max(1),
  adjustments: z.array(CuttingAdjustment),
});
export type MaterialCuttingBase = z.infer<typeof MaterialCuttingBase>;

const MATERIAL_BASES_SEED: MaterialCuttingBase[] = [
  {
    material_id: "aluminium-6061",
    carbide: { vc_m_min: 300, fz_mm: 0.08 },
    hss: { vc_m_min: 100, fz_mm: 0.06 },
    roughing_ae_fraction: 0.4,
    adjustments: [
      {
        tool_family: "tap",
        tool_material: "hss",
        vc_factor: 0.6,
        fz_factor: 1,
        reason: "HSS taps gall and weld in aluminium above about 25 m/min",
      },
    ],
  },
  {
    material_id: "aluminium-7075",
    carbide: { vc_m_min: 280, fz_mm: 0.07 },
    hss: { vc_m_min: 90, fz_mm: 0.05 },
    roughing_ae_fraction: 0.4,
    adjustments: [
      {
        tool_family: "tap",
        tool_material: "hss",
        vc_factor: 0.6,
        fz_factor: 1,
        reason: "HSS taps gall and weld in aluminium above about 25 m/min",
      },
    ],
  },
  {
    material_id: "steel-c45",
    carbide: { vc_m_min: 160, fz_mm: 0.05 },
    hss: { vc_m_min: 25, fz_mm: 0.04 },
    roughing_ae_fraction: 0.3,
    adjustments: [],
  },
  {
    material_id: "steel-42crmo4",
    carbide: { vc_m_min: 110, fz_mm: 0.045 },
    hss: { vc_m_min: 15, fz_mm: 0.03 },
    roughing_ae_fraction: 0.25,
    adjustments: [],
  },
  {
    material_id: "stainless-1.4301",
    carbide: { vc_m_min: 90, fz_mm: 0.04 },
    hss: { vc_m_min: 15, fz_mm: 0.03 },
    roughing_ae_fraction: 0.2,
    adjustments: [
      {
        tool_family: "end_mill_finishing",
        tool_material: null,
        vc_factor: 1,
        fz_factor: 1.2,
        reason: "a chip too thin rubs and work-hardens the surface",
      },
    ],
  },
  {
    material_id: "brass-cuzn39pb3",
    carbide: { vc_m_min: 250, fz_mm: 0.06 },
    hss: { vc_m_min: 70, fz_mm: 0.05 },
    roughing_ae_fraction: 0.4,
    adjustments: [],
  },
  {
    material_id: "titanium-grade5",
    carbide: { vc_m_min: 50, fz_mm: 0.04 },
    hss: { vc_m_min: 10, fz_mm: 0.03 },
    roughing_ae_fraction: 0.15,
    adjustments: [
      {
        tool_family: "drill",
        tool_material: null,
        vc_factor: 1,
        fz_factor: 0.6,
        reason: "drills in titanium seize at steel-like feeds per rev",
      },
      {
        tool_family: "face_mill",
        tool_material: null,
        vc_factor: 0.8,
        fz_factor: 1,
        reason: "a full-width face cut keeps each edge hot longer",
      },
    ],
  },
  {
    material_id: "plastic-pom-c",
    carbide: { vc_m_min: 300, fz_mm: 0.1 },
    hss: { vc_m_min: 150, fz_mm: 0.08 },
    roughing_ae_fraction: 0.5,
    adjustments: [
      {
        tool_family: "drill",
        tool_material: null,
        vc_factor: 1,
        fz_factor: 0.6,
        reason: "large feeds per rev melt and grab in plastics",
      },
      {
        tool_family: "tap",
        tool_material: "hss",
        vc_factor: 0.6,
        fz_factor: 1,
        reason: "plastic threads tear when tapped fast",
      },
    ],
  },
  {
    material_id: "plastic-peek",
    carbide: { vc_m_min: 200, fz_mm: 0.08 },
    hss: { vc_m_min: 100, fz_mm: 0.06 },
    roughing_ae_fraction: 0.4,
    adjustments: [
      {
        tool_family: "drill",
        tool_material: null,
        vc_factor: 1,
        fz_factor: 0.6,
        reason: "large feeds per rev melt and grab in plastics",
      },
      {
        tool_family: "tap",
        tool_material: "hss",
        vc_factor: 0.6,
        fz_factor: 1,
        reason: "plastic threads tear when tapped fast",
      },
    ],
  },
];

export const MATERIAL_CUTTING_BASES: readonly MaterialCuttingBase[] = Object.freeze(
  MATERIAL_BASES_SEED.map((b) => Object.freeze(MaterialCuttingBase.parse(b))),
);

/** One row of the expanded table: what `cuttingData` starts from before it looks at the diameter. */
export const CuttingDataEntry = z.strictObject({
  material_id: z.string().regex(MATERIAL_ID),
  tool_family: CuttingToolFamily,
  tool_material: CuttingToolMaterial,
  vc_m_min: positive,
  /** feed per tooth at D = 10 mm; for taps unused (the pitch is the feed) */
  fz_ref_mm: positive,
  diameter_curve: DiameterCurve,
  ap_fraction: positive,
  ae_fraction: positive.max(1),
});
export type CuttingDataEntry = z.infer<typeof CuttingDataEntry>;

function round(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

function expand(base: MaterialCuttingBase): CuttingDataEntry[] {
  return CuttingToolFamily.options.flatMap((family) =>
    CuttingToolMaterial.options.map((toolMaterial) => {
      const model = TOOL_FAMILY_MODELS[family];
      let vc = base[toolMaterial].vc_m_min * model.vc_factor[toolMaterial];
      let fz = base[toolMaterial].fz_mm * model.fz_factor;
      for (const a of base.adjustments) {
        if (a.tool_family === family && (a.tool_material === null || a.tool_material === toolMaterial)) {
          vc *= a.vc_factor;
          fz *= a.fz_factor;
        }
      }
      return CuttingDataEntry.parse({
        material_id: base.material_id,
        tool_family: family,
        tool_material: toolMaterial,
        vc_m_min: round(vc, 1),
        fz_ref_mm: round(fz, 4),
        diameter_curve: model.diameter_curve,
        ap_fraction: model.ap_fraction,
        ae_fraction: model.ae_fraction ?? base.roughing_ae_fraction,
      });
    }),
  );
}

/** Every material × tool family × tool material. */
export const CUTTING_DATA: readonly CuttingDataEntry[] = Object.freeze(
  MATERIAL_CUTTING_BASES.flatMap(expand).map((e) => Object.freeze(e)),
);

export function findCuttingDataEntry(
  materialId: string,
  family: CuttingToolFamily,
  toolMaterial: CuttingToolMaterial,
): CuttingDataEntry | undefined {
  return CUTTING_DATA.find(
    (e) => e.material_id === materialId && e.tool_family === family && e.tool_material === toolMaterial,
  );
}

/** fz at `diameterMm` relative to fz at 10 mm. */
export function diameterFactor(curve: Exclude<DiameterCurve, "pitch">, diameterMm: number): number {
  const points = DIAMETER_CURVES[curve];
  const first = points[0];
  if (!first) throw new Error(`diameter curve ${curve} is empty`);
  if (diameterMm <= first[0]) return first[1];
  for (let i = 1; i < points.length; i++) {
    const lo = points[i - 1];
    const hi = points[i];
    if (lo && hi && diameterMm <= hi[0]) return lo[1] + ((hi[1] - lo[1]) * (diameterMm - lo[0])) / (hi[0] - lo[0]);
  }
  return points[points.length - 1]?.[1] ?? first[1];
}

/** ISO 261 coarse pitches (mm) by nominal diameter (mm): the thread a tap is for when no pitch is given. */
export const ISO_METRIC_COARSE_PITCH_MM: Readonly<Record<number, number>> = Object.freeze({
  1: 0.25,
  1.2: 0.25,
  1.6: 0.35,
  2: 0.4,
  2.5: 0.45,
  3: 0.5,
  4: 0.7,
  5: 0.8,
  6: 1,
  8: 1.25,
  10: 1.5,
  12: 1.75,
  14: 2,
  16: 2,
  18: 2.5,
  20: 2.5,
  22: 2.5,
  24: 3,
  27: 3,
  30: 3.5,
  33: 3.5,
  36: 4,
  42: 4.5,
  48: 5,
  56: 5.5,
  64: 6,
});

export function coarsePitchMm(nominalDiameterMm: number): number | undefined {
  for (const [d, pitch] of Object.entries(ISO_METRIC_COARSE_PITCH_MM)) {
    if (Math.abs(Number(d) - nominalDiameterMm) < 1e-6) return pitch;
  }
  return undefined;
}

export const ToolQuery = z.strictObject({
  toolFamily: CuttingToolFamily,
  toolMaterial: CuttingToolMaterial,
  /**
   * Cutting diameter. Ball mill: the diameter vc should apply at (the effective one at a shallow
   * ap, if the caller wants it); chamfer mill: the effective diameter at the chamfer; centre
   * drill: the pilot (d1), its vc factor allowing for the countersink turning faster; tap: the
   * nominal thread diameter.
   */
  diameterMm: z.number().positive().max(500),
  /** cutting edges (flutes, inserts) */
  flutes: z.number().int().min(1).max(64),
  /** taps only: thread pitch; default the ISO coarse pitch of the nominal diameter */
  pitchMm: z.number().positive().max(10).optional(),
});
export type ToolQuery = z.infer<typeof ToolQuery>;

export const MachineLimits = z.strictObject({
  maxSpindleRpm: z.number().positive().optional(),
  minSpindleRpm: z.number().nonnegative().optional(),
  maxFeedMmPerMin: z.number().positive().optional(),
});
export type MachineLimits = z.infer<typeof MachineLimits>;

/** Which machine limit changed the table's values. */
export const ClampReason = z.enum(["max_spindle_rpm", "min_spindle_rpm", "max_feed"]);
export type ClampReason = z.infer<typeof ClampReason>;

export const CuttingConditions = z.object({
  materialId: z.string(),
  toolFamily: CuttingToolFamily,
  toolMaterial: CuttingToolMaterial,
  diameterMm: z.number(),
  flutes: z.number().int(),
  /** the cutting speed the clamped spindle speed gives */
  vcMPerMin: z.number(),
  /** the feed per tooth the clamped feed gives; for taps pitch / flutes */
  fzMm: z.number(),
  /** fz · z; for taps the pitch */
  feedPerRevMm: z.number(),
  spindleRpm: z.number().int(),
  feedMmPerMin: z.number(),
  apMm: z.number(),
  aeMm: z.number(),
  /** taps only */
  pitchMm: z.number().nullable(),
  /** empty when the table's values fit the machine */
  clamped: z.array(ClampReason),
  /** false when the limits contradict each other for this tool (a tap whose feed limit needs an rpm below the minimum) */
  feasible: z.boolean(),
  /** the table's values before clamping */
  recommended: z.object({
    vcMPerMin: z.number(),
    fzMm: z.number(),
    spindleRpm: z.number().int(),
    feedMmPerMin: z.number(),
  }),
});
export type CuttingConditions = z.infer<typeof CuttingConditions>;

function requireMaterial(materialId: string): Material {
  const material = findMaterial(materialId);
  if (!material) throw new RangeError(`unknown material ${JSON.stringify(materialId)}`);
  return material;
}

function rpmFor(vcMPerMin: number, diameterMm: number): number {
  return (vcMPerMin * 1000) / (Math.PI * diameterMm);
}

/**
 * Speeds and feeds for one tool in one material, optionally within a machine's limits.
 *
 * A spindle that cannot turn fast enough keeps fz (the chip) and loses vc and feed; a feed limit
 * keeps n and thins the chip. A tap's feed is locked to its pitch, so a feed limit lowers the rpm.
 * n is rounded to whole rpm before vf is computed, as the program will run it.
 */
export function cuttingData(materialId: string, tool: ToolQuery, limits: MachineLimits = {}): CuttingConditions {
  requireMaterial(materialId);
  const query = ToolQuery.parse(tool);
  const machine = MachineLimits.parse(limits);
  const entry = findCuttingDataEntry(materialId, query.toolFamily, query.toolMaterial);
  if (!entry) throw new RangeError(`no cutting data for ${materialId} / ${query.toolFamily} / ${query.toolMaterial}`);
  const d = query.diameterMm;
  const z_ = query.flutes;

  let pitch: number | null = null;
  let fzTable: number;
  let apMm = entry.ap_fraction * d;
  if (entry.diameter_curve === "pitch") {
    const p = query.pitchMm ?? coarsePitchMm(d);
    if (p === undefined) throw new RangeError(`no ISO coarse pitch for a ${d} mm tap: give pitchMm`);
    pitch = p;
    fzTable = p / z_;
    // ISO 68-1 basic thread depth H1 = 5/8 · H = 0.5413 · P
    apMm = 0.5413 * p;
  } else {
    fzTable = entry.fz_ref_mm * diameterFactor(entry.diameter_curve, d);
  }
  const aeMm = entry.ae_fraction * d;

  const nTable = Math.round(rpmFor(entry.vc_m_min, d));
  const recommended = {
    vcMPerMin: entry.vc_m_min,
    fzMm: round(fzTable, 4),
    spindleRpm: nTable,
    feedMmPerMin: round(nTable * fzTable * z_, 1),
  };

  const clamped: ClampReason[] = [];
  let n = nTable;
  if (machine.maxSpindleRpm !== undefined && n > machine.maxSpindleRpm) {
    n = Math.floor(machine.maxSpindleRpm);
    clamped.push("max_spindle_rpm");
  }
  if (machine.minSpindleRpm !== undefined && n < machine.minSpindleRpm) {
    n = Math.ceil(machine.minSpindleRpm);
    clamped.push("min_spindle_rpm");
  }
  let fz = fzTable;
  let vf = n * fz * z_;
  let feasible = true;
  if (machine.maxFeedMmPerMin !== undefined && vf > machine.maxFeedMmPerMin) {
    clamped.push("max_feed");
    if (pitch !== null) {
      n = Math.floor(machine.maxFeedMmPerMin / pitch);
      vf = n * pitch;
      if (machine.minSpindleRpm !== undefined && n < machine.minSpindleRpm) feasible = false;
    } else {
      vf = machine.maxFeedMmPerMin;
      fz = vf / (n * z_);
    }
  }
  if (
    machine.minSpindleRpm !== undefined &&
    machine.maxSpindleRpm !== undefined &&
    machine.minSpindleRpm > machine.maxSpindleRpm
  )
    feasible = false;

  return {
    materialId,
    toolFamily: query.toolFamily,
    toolMaterial: query.toolMaterial,
    diameterMm: d,
    flutes: z_,
    vcMPerMin: round((n * Math.PI * d) / 1000, 1),
    fzMm: round(fz, 4),
    feedPerRevMm: round(pitch ?? fz * z_, 4),
    spindleRpm: n,
    feedMmPerMin: round(vf, 1),
    apMm: round(apMm, 3),
    aeMm: round(aeMm, 3),
    pitchMm: pitch,
    clamped,
    feasible,
    recommended,
  };
}

/** What the power arithmetic needs of a cut; a CuttingConditions has all of it. */
export interface CutGeometry {
  toolFamily: CuttingToolFamily;
  diameterMm: number;
  flutes: number;
  spindleRpm: number;
  fzMm: number;
  apMm: number;
  aeMm: number;
  /** taps only */
  pitchMm?: number | null;
}

export interface CuttingLoad {
  /** the chip thickness kc is taken at (mm): mean hm for milling, per edge for holemaking */
  chipThicknessMm: number;
  /** kc = kc1.1 · h^-mc · (1 - γ0/100) (N/mm²) */
  kcNPerMm2: number;
  /** net power at the cutting edges (kW) */
  powerKw: number;
  torqueNm: number;
  mrrCm3PerMin: number;
}

export interface PowerOptions {
  /** rake angle γ0 of the tool (degrees): kc falls about 1 % per degree; 0 (the default) errs high */
  rakeAngleDeg?: number;
}

/** Kienzle, with a floor on h: below a micrometre the power law says nothing useful. */
function specificCuttingForce(material: Material, hMm: number, rakeAngleDeg: number): number {
  const h = Math.max(hMm, 0.001);
  return material.kc1_1_n_mm2 * h ** -material.mc * (1 - rakeAngleDeg / 100);
}

/**
 * The force and power a cut takes (Sandvik Coromant's formulas, which are Kienzle's):
 * - milling: hm = 2·fz·sin κr·(ae/D)/φ with φ = arccos(1 - 2·ae/D) the engagement angle in
 *   radians (from one side), or hm = fz·sin κr·(ae/D)/arcsin(ae/D) for a centred face mill;
 *   P = ap·ae·vf·kc / 60e6 kW;
 * - holemaking (drill, spot and centre drill, reamer): the edges cut the annulus from
 *   d0 = D - 2·ap to D with h = f/z·sin κr; M = kc·f·(D² - d0²)/8000 N·m, P = kc·f·vc·(D² - d0²)/(240e3·D) kW;
 * - tapping: M = kc·P²·D/8000 N·m (the tap makers' formula), kc at h = P/10, a conservative
 *   guess at the chip a chamfer tooth takes.
 */
export function cuttingLoad(materialId: string, cut: CutGeometry, options: PowerOptions = {}): CuttingLoad {
  const material = requireMaterial(materialId);
  const model = TOOL_FAMILY_MODELS[cut.toolFamily];
  const rake = options.rakeAngleDeg ?? 0;
  const d = cut.diameterMm;
  const n = cut.spindleRpm;
  const sinK = Math.sin((model.entering_angle_deg * Math.PI) / 180);
  const omega = (2 * Math.PI * n) / 60;
  const vc = (Math.PI * d * n) / 1000;

  if (model.kind === "tapping") {
    const pitch = cut.pitchMm ?? coarsePitchMm(d);
    if (pitch === undefined || pitch === null) throw new RangeError(`no pitch for a ${d} mm tap`);
    const h = pitch / 10;
    const kc = specificCuttingForce(material, h, rake);
    const torqueNm = (kc * pitch ** 2 * d) / 8000;
    // groove cross-section ≈ half the basic depth times the pitch, swept once per revolution
    const mrr = (0.5 * 0.5413 * pitch * pitch * Math.PI * (d - 0.5413 * pitch) * n) / 1000;
    return { chipThicknessMm: h, kcNPerMm2: kc, powerKw: (torqueNm * omega) / 1000, torqueNm, mrrCm3PerMin: mrr };
  }

  if (model.kind === "holemaking") {
    const f = cut.fzMm * cut.flutes;
    const d0 = Math.max(0, d - 2 * Math.min(cut.apMm, d / 2));
    const h = cut.fzMm * sinK;
    const kc = specificCuttingForce(material, h, rake);
    const annulus = d * d - d0 * d0;
    const powerKw = (kc * f * vc * annulus) / (240_000 * d);
    const torqueNm = (kc * f * annulus) / 8000;
    const mrr = ((Math.PI / 4) * annulus * f * n) / 1000;
    return { chipThicknessMm: h, kcNPerMm2: kc, powerKw, torqueNm, mrrCm3PerMin: mrr };
  }

  const ratio = Math.min(cut.aeMm / d, 1);
  const hm =
    model.radial_position === "centred"
      ? (cut.fzMm * sinK * ratio) / Math.asin(ratio)
      : (2 * cut.fzMm * sinK * ratio) / Math.acos(1 - 2 * ratio);
  const kc = specificCuttingForce(material, hm, rake);
  const vf = n * cut.fzMm * cut.flutes;
  const mrrMm3PerMin = cut.apMm * Math.min(cut.aeMm, d) * vf;
  const powerKw = (mrrMm3PerMin * kc) / 60e6;
  const torqueNm = n > 0 ? (powerKw * 1000) / omega : 0;
  return { chipThicknessMm: hm, kcNPerMm2: kc, powerKw, torqueNm, mrrCm3PerMin: mrrMm3PerMin / 1000 };
}

/** Net cutting power (kW) of a cut, at the tool: what the spindle must deliver before its losses. */
export function materialRemovalPowerKw(materialId: string, cut: CutGeometry, options: PowerOptions = {}): number {
  return cuttingLoad(materialId, cut, options).powerKw;
}

export interface SpindlePowerCheck {
  cuttingPowerKw: number;
  /** cutting power over the drive's efficiency */
  requiredSpindlePowerKw: number;
  spindlePowerKw: number;
  ok: boolean;
}

/**
 * Whether a spindle rated `spindlePowerKw` (continuous) can take the cut. Efficiency 0.8 stands
 * for motor, belt and bearings. Torque at low rpm is not checked: below its base speed a spindle
 * gives less than its rated power, which needs the machine's torque curve.
 */
export function checkSpindlePower(
  materialId: string,
  cut: CutGeometry,
  spindlePowerKw: number,
  options: PowerOptions & { efficiency?: number } = {},
): SpindlePowerCheck {
  const efficiency = options.efficiency ?? 0.8;
  if (!(efficiency > 0 && efficiency <= 1)) throw new RangeError(`efficiency ${efficiency} is not in (0, 1]`);
  const cuttingPowerKw = materialRemovalPowerKw(materialId, cut, options);
  const requiredSpindlePowerKw = cuttingPowerKw / efficiency;
  return { cuttingPowerKw, requiredSpindlePowerKw, spindlePowerKw, ok: requiredSpindlePowerKw <= spindlePowerKw };
}
