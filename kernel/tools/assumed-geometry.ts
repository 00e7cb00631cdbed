/**
 * The geometry assumed where a holder or tool does not give it. The spec shows only a holder's
 * uuid, name, stacking_group and manufacturer, and a tool's tool_type, flute_count and
 * CuttingDiameter, DepthOfCutMaximum, OverallLength; the planner needs more (a holder's profile,
 * a drill's point, a shank, a stick-out). completion.ts fills it in from here, lists every value
 * it took, and never stores it: a later update that gives the value replaces the assumption.
 *
 * Every value makes the planner's checks stricter than the real item of that type would: a
 * holder at least as fat and long as the common ones for the shank, tools that reach no further
 * than the shortest standard series, points and cones that cut no more at the planned depth
 * than the real tool's. Where no value is safe (a chamfer mill's angle is the tool), nothing is
 * assumed and the tool is not planned. docs/equipment-libraries.md shows the same table.
 */
import { DIN_6527_K, DIN_6537_K, METRIC_COARSE, rowFor, TAP_BODIES } from "./catalogue/dimension-tables.ts";
import { SHELL_MILL_ARBORS } from "./catalogue/standard-holders.ts";
import type { HolderSegment, StackingGroup } from "./holder.ts";
import type { ToolType } from "./tool-types.ts";

/** A value and where it comes from, as the API's `assumed` entries show it. */
export interface AssumedValue<T> {
  value: T;
  reason: string;
}

// ---------------------------------------------------------------------------------------------
// Holders

/** SK40 (DIN 69871), BT40 and HSK-A63 flanges: 63 mm across, 15.9 mm below the gauge line. */
export const HOLDER_FLANGE = { length_mm: 15.9, diameter_mm: 63 } as const;

/**
 * A holder's nose (and body) diameter by the shank it clamps, mm. Each is at least the widest
 * common holder for those shanks: ER collet nuts (DIN 6499 / ISO 15488: ER16 32, ER25 42,
 * ER32 50, ER40 63), Weldon noses (catalogue/standard-holders.ts: Ø16 48, Ø20 52, Ø25 65,
 * Ø32 72) and shrink-fit noses, which are narrower still.
 */
export const HOLDER_NOSE_BY_SHANK: readonly { shankUpTo: number; diameter: number; like: string }[] = [
  { shankUpTo: 16, diameter: 50, like: "an ER32 collet nut" },
  { shankUpTo: 20, diameter: 52, like: "a Weldon holder for 20 mm shanks" },
  { shankUpTo: 26, diameter: 65, like: "a Weldon holder for 25 mm shanks (an ER40 nut is 63 mm)" },
  { shankUpTo: 32, diameter: 72, like: "a Weldon holder for 32 mm shanks" },
];
/** Beyond the table: the 32 mm row's ratio. */
export const HOLDER_NOSE_PER_SHANK = 2.25;

/** A holder's gauge length: A100, the longer of the two common lengths of SK40/BT40 chucks (A70, A100). */
export const HOLDER_GAUGE_LENGTH_MM = 100;
/** A tapping chuck's: synchro chucks with length compensation run 90 to 110 mm (catalogue/standard-holders.ts). */
export const TAPPING_CHUCK_GAUGE_LENGTH_MM = 110;
/**
 * An Extension's or Adapter's length: an ER32 nut's height. Anything that clamps a shank is at
 * least that long, and a shorter extension keeps the holder above it nearer the part.
 */
export const EXTENSION_LENGTH_MM = 22;
/** A holder on its own, with neither a clamping range nor a tool below it, is assumed to clamp shanks up to this (an ER32's range). */
export const STANDALONE_HOLDER_SHANK_MM = 20;

/** Face mills (ISO 6462) by diameter: the arbor bore; the arbor's collar from catalogue/standard-holders.ts. */
export const FACE_MILL_BORE_BY_DIAMETER: readonly { diameterUpTo: number; bore: number }[] = [
  { diameterUpTo: 40, bore: 16 },
  { diameterUpTo: 63, bore: 22 },
  { diameterUpTo: 80, bore: 27 },
  { diameterUpTo: 100, bore: 32 },
  { diameterUpTo: Number.POSITIVE_INFINITY, bore: 40 },
];

/** What an assumed holder profile is for: the shank it clamps, or the face mill it carries. */
export interface HolderNeed {
  stacking_group: StackingGroup;
  /** the shank it clamps, mm */
  shank_mm: number;
  /** a face mill's diameter: the holder is a shell mill arbor */
  face_mill_diameter_mm?: number;
  tap?: boolean;
  /** the holder's own gauge length, when it gives one */
  gauge_length_mm?: number;
}

const round = (value: number, places = 3) => Math.round(value * 10 ** places) / 10 ** places;
const cylinder = (length: number, diameter: number): HolderSegment => ({
  length_mm: round(length),
  upper_diameter_mm: diameter,
  lower_diameter_mm: diameter,
});

function noseFor(need: HolderNeed): { diameter: number; like: string } {
  if (need.face_mill_diameter_mm !== undefined) {
    const d = need.face_mill_diameter_mm;
    const { bore } = FACE_MILL_BORE_BY_DIAMETER.find((row) => d <= row.diameterUpTo)!;
    return {
      diameter: SHELL_MILL_ARBORS[bore]!.collar,
      like: `the collar of a shell mill arbor for a ${bore} mm bore (ISO 6462 face mills of ${d} mm)`,
    };
  }
  const row = HOLDER_NOSE_BY_SHANK.find((r) => need.shank_mm <= r.shankUpTo);
  return (
    row ?? {
      diameter: round(HOLDER_NOSE_PER_SHANK * need.shank_mm, 1),
      like: `${HOLDER_NOSE_PER_SHANK} times the shank`,
    }
  );
}

function defaultGauge(need: HolderNeed): number {
  if (need.stacking_group !== "Holder") return EXTENSION_LENGTH_MM;
  if (need.face_mill_diameter_mm !== undefined) {
    const { bore } = FACE_MILL_BORE_BY_DIAMETER.find((row) => need.face_mill_diameter_mm! <= row.diameterUpTo)!;
    return SHELL_MILL_ARBORS[bore]!.gauge;
  }
  return need.tap ? TAPPING_CHUCK_GAUGE_LENGTH_MM : HOLDER_GAUGE_LENGTH_MM;
}

/**
 * The profile assumed for a holder without segments: for a Holder the flange, then a cylinder as
 * wide as the nose all the way down (real bodies taper to it); an Extension or Adapter is one
 * cylinder. Its length is the holder's own gauge length when given.
 */
export function assumedHolderProfile(need: HolderNeed): AssumedValue<HolderSegment[]> & { gauge_length_mm: number } {
  const gauge = need.gauge_length_mm ?? defaultGauge(need);
  const nose = noseFor(need);
  const what = need.face_mill_diameter_mm !== undefined ? "its face mill" : `a shank of ${round(need.shank_mm)} mm`;
  let segments: HolderSegment[];
  if (need.stacking_group !== "Holder") segments = [cylinder(gauge, nose.diameter)];
  else if (gauge <= HOLDER_FLANGE.length_mm)
    segments = [cylinder(gauge, Math.max(HOLDER_FLANGE.diameter_mm, nose.diameter))];
  else
    segments = [
      cylinder(HOLDER_FLANGE.length_mm, Math.max(HOLDER_FLANGE.diameter_mm, nose.diameter)),
      cylinder(gauge - HOLDER_FLANGE.length_mm, nose.diameter),
    ];
  const shape =
    need.stacking_group === "Holder"
      ? `a ${HOLDER_FLANGE.diameter_mm} mm SK40/BT40 flange, then ${nose.diameter} mm (${nose.like}) down to the nose`
      : `one ${nose.diameter} mm cylinder (${nose.like})`;
  return {
    value: segments,
    gauge_length_mm: round(gauge),
    reason: `no segments: the profile assumed for ${what}, ${shape}, ${round(gauge)} mm long; at least as wide and long as the common holders, so collision checks are stricter than with the real one`,
  };
}

// ---------------------------------------------------------------------------------------------
// Tools

/** DIN 6535 HA (h6) shank diameters; 6 mm is the smallest DIN 6527 end mills and DIN 6537 drills get. */
export const DIN_6535_SHANKS_MM = [6, 8, 10, 12, 14, 16, 18, 20, 25, 32, 40] as const;

/** A drill's point: the flattest common one (140°, carbide drills, DIN 6537); a 118° (DIN 338) or 130° drill's full diameter then stops above where the planner put it, never below. */
export const DRILL_POINT_ANGLE_DEG = 140;
/** An NC spot drill's point: the flattest sold (90°, 120°, 142°): at the planned depth a real one's spot is no wider. */
export const SPOT_DRILL_POINT_ANGLE_DEG = 142;
/** A centre drill's countersink: 90°, the wider of the two the rules allow (DIN 333 form A is 60°): at the planned depth a 60° one's spot is narrower. */
export const CENTRE_DRILL_POINT_ANGLE_DEG = 90;
/** DIN 333 form A body over pilot diameter is 2.5 to 2.54: the pilot assumed is the widest for the body. */
export const CENTRE_DRILL_BODY_PER_PILOT = 2.5;
/** Pilot length over pilot diameter, below DIN 333 A's 1.24 to 1.3: a real, longer pilot puts the countersink higher and the spot narrower. */
export const CENTRE_DRILL_PILOT_LENGTH_PER_PILOT = 1.2;
/** Drills: the 3xD class (DIN 6537 K), the shortest drills with a standard: 4 D of flutes, at most the K row's; 3 D beyond its 20 mm ... */
export const DRILL_FLUTE_LENGTH_PER_D = 4;
export const LARGE_DRILL_FLUTE_LENGTH_PER_D = 3;
/** ... of which the usable depth is 0.70 to 0.77 (DIN 6537 K rows): 0.7. */
export const DRILL_USABLE_PER_FLUTE = 0.7;
/** Spot drills cut with their point only (at 142° about 0.17 D deep); one diameter of flutes. */
export const SPOT_DRILL_FLUTE_LENGTH_PER_D = 1;
/** Machine reamers: DIN 212 HSS ones have 2.5 to 4.3 D of flutes, solid carbide ones about 1.5 D + 6 mm: 1.5 D. */
export const REAMER_FLUTE_LENGTH_PER_D = 1.5;
/** Taps of a size TAP_BODIES lacks: DIN 371/376 thread lengths are 1.85 to 3.7 D: 1.8 D. */
export const TAP_THREAD_LENGTH_PER_D = 1.8;
/**
 * 1.5 diameters: the flutes of end mills below DIN 6527 K's smallest row (3 mm, the short micro
 * end mills'), and of the long-neck end mills up to LONG_NECK_MAX_DIAMETER_MM, shorter than the
 * K row of their size (a 3 mm one has 4.5 mm, K 5 mm): an end mill of that size may be one.
 */
export const SMALL_END_MILL_FLUTE_LENGTH_PER_D = 1.5;
/** The largest long-neck end mill of the standard range (catalogue/standard-mills.ts, LONG_NECK_REACH). */
export const LONG_NECK_MAX_DIAMETER_MM = 6;
/**
 * A bull nose's corner radius: 0.5 mm, at most D/10, the small end of catalogue radii. It keeps
 * the tool a bull nose (never used to finish a flat floor) with an envelope near a flat end
 * mill's: a real, larger radius removes less, not more.
 */
export const BULL_NOSE_CORNER_RADIUS_MM = 0.5;
export const BULL_NOSE_CORNER_RADIUS_PER_D = 0.1;
/** A chamfer mill's flat tip: D/10, about the widest catalogues give; a real, narrower tip cuts a smaller chamfer at the planned depth, never a larger one. */
export const CHAMFER_MILL_TIP_PER_D = 0.1;
/** A face mill's depth of cut: 4 mm (12 mm inserts at 45°, SEKT 1204, take about 6 mm), at most D/8 for the small ones. */
export const FACE_MILL_DEPTH_OF_CUT_MM = 4;
export const FACE_MILL_DEPTH_OF_CUT_PER_D = 1 / 8;
/** A face mill's body height: 40 mm, the lowest of ISO 6462 / DIN 8030 (40 to 63 mm): its arbor sits nearest the part. */
export const FACE_MILL_BODY_HEIGHT_MM = 40;
/** Flutes when neither flute_count nor NumberOfFlutes is given: 2, a lower feed per minute rather than a higher one. */
export const ASSUMED_FLUTES = 2;
/** tool_material when missing: HSS, the slower cutting data. */
export const ASSUMED_TOOL_MATERIAL = "hss";
/** A tool sticks out of its holder this much beyond its cutting length and neck (the shortest a holder allows). */
export const STICK_OUT_MARGIN_MM = 2;

/** The types whose shank follows DIN 6535 HA (at least 6 mm, the next size up from D). */
const DIN_6535_TYPES: ReadonlySet<ToolType> = new Set<ToolType>([
  "CentreCuttingEndMill",
  "NonCentreCuttingEndMill",
  "BallEndMill",
  "BullNoseEndMill",
  "ChamferMill",
  "Drill",
  "SpotDrill",
  "Reamer",
]);

const END_MILLS: ReadonlySet<ToolType> = new Set<ToolType>([
  "CentreCuttingEndMill",
  "NonCentreCuttingEndMill",
  "BallEndMill",
  "BullNoseEndMill",
]);

/** The ISO 261 coarse thread of nominal size d, if d is one. */
export function coarseThread(d: number): (typeof METRIC_COARSE)[number] | undefined {
  return METRIC_COARSE.find((thread) => Math.abs(thread.nominal - d) <= 0.01);
}

/** The shank assumed for a tool of type and diameter d; null where the type's cutter does not read one (face mills: the body). */
export function assumedShankDiameter(type: ToolType, d: number): AssumedValue<number> | null {
  if (DIN_6535_TYPES.has(type)) {
    const shank = DIN_6535_SHANKS_MM.find((size) => size >= d) ?? d;
    return {
      value: shank,
      reason: `no ShankDiameter: the next DIN 6535 HA shank at or above the diameter, at least 6 mm (a wider shank reaches less deep)`,
    };
  }
  if (type === "Tap") {
    const body = coarseThread(d) ? TAP_BODIES[coarseThread(d)!.nominal] : undefined;
    return {
      value: Math.max(d, body?.shank ?? d),
      reason:
        "no ShankDiameter: the DIN 371 shank of the size, at least the thread's (a DIN 376 tap's reduced shank would reach deeper)",
    };
  }
  if (type === "CentreDrill" || type === "SlotMill")
    return { value: d, reason: "no ShankDiameter: as wide as the tool (a centre drill's body is its shank)" };
  return null;
}

/** The cutting length assumed for a type when neither FluteLength nor DepthOfCutMaximum is given; null where the shape gives it (chamfer mills, centre drills). */
export function assumedFluteLength(type: ToolType, d: number): AssumedValue<number> | null {
  if (END_MILLS.has(type)) {
    const rows = Object.keys(DIN_6527_K)
      .map(Number)
      .sort((a, b) => a - b);
    const row = rows.filter((size) => size <= d + 1e-9).at(-1);
    if (row === undefined)
      return {
        value: round(SMALL_END_MILL_FLUTE_LENGTH_PER_D * d),
        reason: "no FluteLength: 1.5 diameters, a short micro end mill's (below DIN 6527 K's 3 mm)",
      };
    const short = DIN_6527_K[row]!.flute;
    const neck = d <= LONG_NECK_MAX_DIAMETER_MM + 1e-9 ? round(SMALL_END_MILL_FLUTE_LENGTH_PER_D * d) : Infinity;
    if (neck < short)
      return {
        value: neck,
        reason: `no FluteLength: 1.5 diameters, a long-neck end mill's, shorter than DIN 6527 K's ${short} mm for ${row} mm`,
      };
    return {
      value: short,
      reason: `no FluteLength: DIN 6527 K (short series) for ${row} mm, the largest row not above the diameter`,
    };
  }
  switch (type) {
    case "Drill": {
      const row = d <= DIN_6537_K.at(-1)!.upTo ? rowFor(DIN_6537_K, d) : undefined;
      const value = row ? Math.min(DRILL_FLUTE_LENGTH_PER_D * d, row.flute) : LARGE_DRILL_FLUTE_LENGTH_PER_D * d;
      return {
        value: round(value),
        reason:
          "no FluteLength: a 3xD drill's (DIN 6537 K, the shortest series): 4 diameters, at most the K table's, 3 diameters above 20 mm",
      };
    }
    case "SpotDrill":
      return {
        value: round(SPOT_DRILL_FLUTE_LENGTH_PER_D * d),
        reason: "no FluteLength: one diameter (a spot drill cuts with its point)",
      };
    case "Reamer":
      return {
        value: round(REAMER_FLUTE_LENGTH_PER_D * d),
        reason: "no FluteLength: 1.5 diameters, below DIN 212 and solid carbide machine reamers",
      };
    case "Tap": {
      const body = coarseThread(d) ? TAP_BODIES[coarseThread(d)!.nominal] : undefined;
      return body
        ? { value: body.thread, reason: `no FluteLength: the thread length of a ${body.standard} M${d} tap` }
        : {
            value: round(TAP_THREAD_LENGTH_PER_D * d),
            reason: "no FluteLength: 1.8 diameters, below DIN 371/376 thread lengths",
          };
    }
    case "FaceMill":
      return {
        value: round(Math.min(FACE_MILL_DEPTH_OF_CUT_MM, FACE_MILL_DEPTH_OF_CUT_PER_D * d)),
        reason:
          "no FluteLength or DepthOfCutMaximum: 4 mm (at most D/8), below the 6 mm that 12 mm inserts at 45° take",
      };
    default:
      return null;
  }
}

/** The depth of cut assumed from the flute length: drills' usable depth is a part of their flutes. */
export function assumedDepthOfCut(type: ToolType, fluteLength: number): AssumedValue<number> {
  if (type === "Drill")
    return {
      value: round(DRILL_USABLE_PER_FLUTE * fluteLength),
      reason: "no DepthOfCutMaximum: 0.7 of the flute length, a drill's usable depth (DIN 6537 K: 0.70 to 0.77)",
    };
  return { value: fluteLength, reason: "no DepthOfCutMaximum: the flute length" };
}

/** What the type's shape needs and the tool lacks, assumed; names the parameters the tool gave. */
export function assumedShape(
  type: ToolType,
  d: number,
  given: ReadonlySet<string>,
): Partial<Record<"CornerRadius" | "PointAngle" | "TipDiameter" | "ThreadPitch", AssumedValue<number>>> {
  switch (type) {
    case "BullNoseEndMill":
      return given.has("CornerRadius")
        ? {}
        : {
            CornerRadius: {
              value: round(Math.min(BULL_NOSE_CORNER_RADIUS_MM, BULL_NOSE_CORNER_RADIUS_PER_D * d)),
              reason:
                "no CornerRadius: 0.5 mm (at most D/10), the small end of catalogue radii: the tool removes no more than the real one and never finishes a flat floor",
            },
          };
    case "Drill":
      return given.has("PointAngle")
        ? {}
        : {
            PointAngle: {
              value: DRILL_POINT_ANGLE_DEG,
              reason:
                "no PointAngle: 140°, the flattest common point: a pointier real drill's full diameter stops above the planned depth, never below",
            },
          };
    case "SpotDrill":
      return given.has("PointAngle")
        ? {}
        : {
            PointAngle: {
              value: SPOT_DRILL_POINT_ANGLE_DEG,
              reason:
                "no PointAngle: 142°, the flattest NC spot drill: a pointier real one makes a narrower spot at the planned depth, never a wider one",
            },
          };
    case "CentreDrill":
      return {
        ...(given.has("PointAngle")
          ? {}
          : {
              PointAngle: {
                value: CENTRE_DRILL_POINT_ANGLE_DEG,
                reason:
                  "no PointAngle: 90°, the wider countersink: a real 60° one (DIN 333 A) makes a narrower spot at the planned depth",
              },
            }),
        ...(given.has("TipDiameter")
          ? {}
          : {
              TipDiameter: {
                value: round(d / CENTRE_DRILL_BODY_PER_PILOT, 2),
                reason: "no TipDiameter: the body over 2.5, DIN 333 A's widest pilot for the body",
              },
            }),
      };
    case "ChamferMill":
      return given.has("TipDiameter")
        ? {}
        : {
            TipDiameter: {
              value: round(CHAMFER_MILL_TIP_PER_D * d),
              reason:
                "no TipDiameter: D/10, about the widest flat tip catalogues give: a real, narrower tip cuts a smaller chamfer at the planned depth",
            },
          };
    case "Tap": {
      const thread = coarseThread(d);
      return given.has("ThreadPitch") || !thread
        ? {}
        : {
            ThreadPitch: {
              value: thread.pitch,
              reason: `no ThreadPitch: ISO 261 coarse for M${thread.nominal} (a metric size without a pitch means coarse)`,
            },
          };
    }
    default:
      return {};
  }
}

/**
 * What a type cannot be planned without and no value can stand in for, as the parameter names
 * missing: a chamfer mill's angle (its cone is the tool), a tap's pitch off the ISO coarse sizes,
 * a slot mill's width and neck.
 */
export function unassumable(
  type: ToolType,
  d: number,
  given: ReadonlySet<string>,
): { names: string[]; why: string } | null {
  if (type === "ChamferMill" && !given.has("ChamferAngle"))
    return {
      names: ["ChamferAngle"],
      why: "a chamfer mill's angle is its shape: any assumed angle could cut a wider chamfer than the real one",
    };
  if (type === "Tap" && !given.has("ThreadPitch") && !coarseThread(d))
    return { names: ["ThreadPitch"], why: `a ${d} mm tap is no ISO coarse size whose pitch could be assumed` };
  if (type === "SlotMill") {
    const names = ["FluteLength", "NeckDiameter"].filter((name) => !given.has(name));
    if (names.length > 0) return { names, why: "a slot mill's disc width (FluteLength) and neck are its shape" };
  }
  return null;
}

/** Face mills hang below an arbor with their whole body: the body height assumed. */
export function assumedFaceMillHeight(): AssumedValue<number> {
  return {
    value: FACE_MILL_BODY_HEIGHT_MM,
    reason: "no OverallLength: 40 mm, the lowest ISO 6462 face mill body: the arbor sits nearest the part",
  };
}
