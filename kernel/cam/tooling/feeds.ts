/**
 * Speeds, feeds and engagement for an operation: the material's cutting data
 * (kernel/materials/cutting-data.ts) for the tool's family, material, diameter and flutes,
 * clamped to the machine's spindle and feed limits, the stepdown to what the tool is rated for.
 * Every clamp is listed, so the planner can warn that a cut runs below its recommended values.
 *
 * The tool's own cutting_data presets are not read: they name their workpiece in free text
 * ("N", "aluminium"), which nothing maps to a material id yet, and a Cutter does not carry them.
 */
import type { MachineArchetype } from "../../machines/archetypes.ts";
import { cuttingData, type CuttingConditions, type CuttingToolFamily } from "../../materials/cutting-data.ts";
import { findMaterial } from "../../materials/materials.ts";
import type { Cutter, CuttingParameters, OperationKind } from "../types.ts";
import { isCarbide } from "../cutter-shape.ts";

/** A straight plunge or ramp feeds at this fraction of the cutting feed: end teeth are weaker than the side's (makers say 25-50 %). */
export const PLUNGE_FEED_FRACTION = 0.3;
/**
 * Air moves (a descent beside a wall, a link down to the next level) where the stock model says
 * the tool meets nothing, away from the stock box's outer faces, feed at this multiple of the
 * cutting feed (within the machine's max feed). Not faster: what the tool could meet there is a
 * wall left a little thicker than the model, met radially and lightly at three times the feed
 * per tooth; at the machine's max feed a 1 mm end mill would take some 60 times its chip.
 * With the starter library on the vmc-850, partC's machining 18,274 s at the cutting feed and
 * 15,978 s at this one, NIST FTC-10's 8,140 s and 7,461 s.
 */
export const AIR_FEED_FACTOR = 3;
/** A floor pass steps over this fraction of the diameter: it takes the floor allowance axially, its stepover is a raster across the floor. */
export const FLOOR_STEPOVER_FRACTION = 0.7;
/**
 * Stock left by roughing on walls and floors (mm): enough for a finishing cut of stable
 * thickness after a roughing pass's deflection, small enough for the finishing tool's ae.
 */
export const ROUGHING_ALLOWANCE = { xy: 0.3, z: 0.2 } as const;

/** Stock each kind of operation leaves: roughing leaves ROUGHING_ALLOWANCE, a floor pass keeps off the not yet finished walls, the rest finish. */
export const ALLOWANCES: Readonly<Record<OperationKind, { xy: number; z: number }>> = {
  face_milling: { xy: 0, z: 0 },
  roughing: ROUGHING_ALLOWANCE,
  rest_roughing: ROUGHING_ALLOWANCE,
  wall_finishing: { xy: 0, z: 0 },
  surface_finishing: { xy: 0, z: 0 },
  floor_finishing: { xy: ROUGHING_ALLOWANCE.xy, z: 0 },
  contour: { xy: 0, z: 0 },
  spot_drilling: { xy: 0, z: 0 },
  drilling: { xy: 0, z: 0 },
  tapping: { xy: 0, z: 0 },
  helical_boring: { xy: 0, z: 0 },
  chamfering: { xy: 0, z: 0 },
};

export interface FeedOptions {
  /**
   * The diameter the cutting speed applies at, when smaller than the tool's: a chamfer mill at
   * the chamfer (default: the middle of its cone), a ball at a shallow cut, a spot drill making
   * a small spot. Default: the tool's diameter (a centre drill's pilot).
   */
  effective_diameter_mm?: number;
  /** at most the tool's max_stepdown and the table's ap */
  stepdown_mm?: number;
  /** at most the tool's diameter */
  stepover_mm?: number;
  allowance_xy_mm?: number;
  allowance_z_mm?: number;
  coolant?: CuttingParameters["coolant"];
  /** the tool has coolant channels and the machine through-spindle coolant: drills use it */
  through_tool_coolant?: boolean;
}

export type FeedClampCode = "max_spindle_rpm" | "min_spindle_rpm" | "max_feed" | "tool_max_stepdown" | "infeasible";

export interface FeedClamp {
  code: FeedClampCode;
  message: string;
}

export interface FeedResult {
  parameters: CuttingParameters;
  /** limits that changed the table's values, for warnings */
  clamps: FeedClamp[];
  /** what cutting data answered (clamped), for reports */
  conditions: CuttingConditions;
}

/** The feed of air moves for a cutting feed on a machine (AIR_FEED_FACTOR). */
export function airFeed(feed: number, machine: MachineArchetype): number {
  return Math.max(feed, Math.min(machine.max_feed_mm_min, round1(feed * AIR_FEED_FACTOR)));
}

const HOLEMAKING: ReadonlySet<OperationKind> = new Set<OperationKind>(["spot_drilling", "drilling", "tapping"]);

/** The cutting data family of a tool doing an operation. */
export function toolFamilyFor(cutter: Cutter, kind: OperationKind): CuttingToolFamily {
  switch (cutter.tool_type) {
    case "FaceMill":
      return "face_mill";
    case "SlotMill":
      return "slot_mill";
    case "ChamferMill":
      return "chamfer_mill";
    case "SpotDrill":
      return "spot_drill";
    case "CentreDrill":
      return "centre_drill";
    case "Reamer":
      return "reamer";
    case "Drill":
      return "drill";
    case "Tap":
      return "tap";
    case "ThreadMill":
      return "thread_mill";
  }
  if (cutter.kind === "ball") return "ball_mill";
  // a rougher takes the full ae; finishing passes, profiles and light facing cuts take the finishing table
  return kind === "roughing" || kind === "rest_roughing" || kind === "helical_boring"
    ? "end_mill_roughing"
    : "end_mill_finishing";
}

/** The diameter the cutting speed applies at by default (see FeedOptions.effective_diameter_mm). */
function defaultEffectiveDiameter(cutter: Cutter): number {
  if (cutter.kind === "chamfer") return (cutter.diameter + cutter.tip_diameter) / 2;
  if (cutter.tool_type === "CentreDrill" && cutter.tip_diameter > 0) return cutter.tip_diameter;
  return cutter.diameter;
}

const round1 = (value: number) => Math.round(value * 10) / 10;
const round3 = (value: number) => Math.round(value * 1000) / 1000;

function defaultCoolant(materialId: string, family: CuttingToolFamily, carbide: boolean): CuttingParameters["coolant"] {
  const category = findMaterial(materialId)?.category;
  // plastics melt and swell with emulsion on them; chips are blown clear
  if (category === "plastic") return "air";
  // carbide inserts crack from the heat cycles of coolant in an interrupted face cut in steels
  if (family === "face_mill" && carbide && category !== "aluminium" && category !== "brass") return "air";
  return "flood";
}

/**
 * Speeds, feeds and engagement for `cutter` doing `kind` in `materialId` on `machine`:
 * - rpm and feed: cuttingData for the tool's family (toolFamilyFor), carbide or HSS table,
 *   effective diameter, flutes (taps: feed = rpm x pitch), within the machine's min and max rpm
 *   and max feed;
 * - plunge feed: PLUNGE_FEED_FRACTION of the feed for milling; the feed itself for holemaking
 *   (a drill's feed is its plunge);
 * - stepdown: milling: the table's ap, at most the tool's max_stepdown (DepthOfCutMaximum);
 *   holemaking: the peck, one diameter, at most max_stepdown; taps: one pass (max_stepdown);
 * - stepover: the table's ae (a floor pass: FLOOR_STEPOVER_FRACTION of D), at most D;
 * - allowances: ALLOWANCES by kind; coolant: flood, air for plastics and for carbide face mills
 *   in steels, through the tool for drills when the options say the tool and machine have it.
 */
export function cuttingParametersFor(
  cutter: Cutter,
  materialId: string,
  machine: MachineArchetype,
  kind: OperationKind,
  options: FeedOptions = {},
): FeedResult {
  const family = toolFamilyFor(cutter, kind);
  const carbide = isCarbide(cutter);
  const diameter = Math.min(cutter.diameter, options.effective_diameter_mm ?? defaultEffectiveDiameter(cutter));
  const query = {
    toolFamily: family,
    toolMaterial: carbide ? ("carbide" as const) : ("hss" as const),
    diameterMm: diameter,
    flutes: Math.min(64, Math.max(1, Math.round(cutter.flutes))),
    ...(family === "tap" && cutter.pitch_mm !== null ? { pitchMm: cutter.pitch_mm } : {}),
  };
  const conditions = cuttingData(materialId, query, {
    maxSpindleRpm: machine.max_spindle_rpm,
    minSpindleRpm: machine.min_spindle_rpm,
    maxFeedMmPerMin: machine.max_feed_mm_min,
  });
  const clamps: FeedClamp[] = conditions.clamped.map((code) => ({
    code,
    message: clampMessage(code, cutter, conditions, machine),
  }));
  if (!conditions.feasible) {
    clamps.push({
      code: "infeasible",
      message: `${cutter.name}: ${machine.name} cannot run it within both its feed and spindle limits`,
    });
  }

  const holemaking = HOLEMAKING.has(kind) && cutter.kind !== "flat";
  const tableStepdown = family === "tap" ? cutter.max_stepdown : holemaking ? cutter.diameter : conditions.apMm;
  let stepdown = Math.min(tableStepdown, options.stepdown_mm ?? Infinity);
  if (cutter.max_stepdown < stepdown) {
    // a rated depth below the table's is the tool's limit, worth saying when it is the reason a cut is shallower
    if (!holemaking && family !== "tap") {
      clamps.push({
        code: "tool_max_stepdown",
        message: `${cutter.name}: ${round3(stepdown)} mm deep passes limited to its rated ${round3(cutter.max_stepdown)} mm`,
      });
    }
    stepdown = cutter.max_stepdown;
  }
  const tableStepover =
    kind === "floor_finishing" || (kind === "face_milling" && family !== "face_mill")
      ? FLOOR_STEPOVER_FRACTION * cutter.diameter
      : conditions.aeMm;
  const stepover = Math.min(cutter.diameter, options.stepover_mm ?? tableStepover);

  const feed = conditions.feedMmPerMin;
  const allowance = ALLOWANCES[kind];
  const coolant =
    options.coolant ??
    (options.through_tool_coolant && (kind === "drilling" || kind === "spot_drilling")
      ? "through_tool"
      : defaultCoolant(materialId, family, carbide));
  const parameters: CuttingParameters = {
    spindle_rpm: conditions.spindleRpm,
    feed_mm_min: feed,
    plunge_feed_mm_min: holemaking || family === "tap" ? feed : round1(feed * PLUNGE_FEED_FRACTION),
    stepdown_mm: round3(stepdown),
    stepover_mm: round3(stepover),
    allowance_xy_mm: options.allowance_xy_mm ?? allowance.xy,
    allowance_z_mm: options.allowance_z_mm ?? allowance.z,
    coolant,
  };
  return { parameters, clamps, conditions };
}

function clampMessage(
  code: "max_spindle_rpm" | "min_spindle_rpm" | "max_feed",
  cutter: Cutter,
  c: CuttingConditions,
  machine: MachineArchetype,
): string {
  const r = c.recommended;
  switch (code) {
    case "max_spindle_rpm":
      return `${cutter.name}: ${r.spindleRpm} rpm recommended, ${machine.name} turns at most ${machine.max_spindle_rpm} rpm (cutting speed ${c.vcMPerMin} instead of ${r.vcMPerMin} m/min)`;
    case "min_spindle_rpm":
      return `${cutter.name}: ${r.spindleRpm} rpm recommended, ${machine.name} turns at least ${machine.min_spindle_rpm} rpm`;
    case "max_feed":
      return `${cutter.name}: ${r.feedMmPerMin} mm/min recommended, ${machine.name} feeds at most ${machine.max_feed_mm_min} mm/min`;
  }
}
