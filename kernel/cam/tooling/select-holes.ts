/**
 * Tools for holes: a drill matching the bore (or a pre-drill and a reamer, or an end mill
 * boring it helically), a spot drill before every drill, an end mill for a counterbore, a
 * chamfer mill for a countersink, a tap for a modelled thread. Rules and tolerances: README.md.
 */
import type { Feature, HoleCallout } from "../../features/recognition/types.ts";
import {
  boreTipDepth,
  drillTipDepth,
  SPOT_EDGE_BREAK_MM,
  spotDiameterFor,
  spotTipDepth,
  tapTipDepth,
} from "../holes/depths.ts";
import type { Cutter } from "../types.ts";
import {
  featureName,
  FIT_EPSILON_MM,
  largest,
  mm,
  pick,
  reachFilters,
  refusal,
  smallest,
  type Chosen,
  type FeatureRef,
  type Filter,
  type Refusal,
  type Selection,
} from "./pick.ts";
import {
  missingChamferMill,
  missingDrill,
  missingEndMill,
  missingSpotDrill,
  missingTap,
  threadLabel,
  threadOfBore,
  type MissingTool,
} from "./missing.ts";
import { CHAMFER_ANGLE_TOLERANCE_DEG, selectChamferMill } from "./select-chamfer.ts";
import { holderReach } from "../cutter-shape.ts";

/**
 * A drill matches a hole from DRILL_UNDERSIZE_MM below to DRILL_OVERSIZE_MM above its diameter:
 * the model carries no tolerance, and +0/+0.1 mm is what H11-H12, the class of drilled clearance
 * and tap holes, allows up to 18 mm. Below only a measuring tolerance: a drill never cuts small.
 */
export const DRILL_OVERSIZE_MM = 0.1;
export const DRILL_UNDERSIZE_MM = 0.005;
/** A reamer matches a hole within this (a reamer cuts its own size, H7). */
export const REAMER_MATCH_MM = 0.01;
/** What a reamer takes off the diameter (makers: 0.1-0.2 mm below 5 mm, 0.2-0.3 mm to 20 mm); the pre-drill nearest the middle wins. */
export const REAM_ALLOWANCE_MM = { min: 0.1, max: 0.4, preferred: 0.2 } as const;
/** An end mill boring a hole or counterbore helically is at most this fraction of its diameter: an orbit to clear chips. */
export const HELICAL_MAX_DIAMETER_RATIO = 0.95;
/** A tap matches a hole when its core (nominal - pitch, the ISO tap drill) is within 0.1 pitch + 0.05 mm of the bore. */
export const TAP_CORE_TOLERANCE = { pitches: 0.1, mm: 0.05 } as const;

export interface HoleNeed {
  feature: FeatureRef;
  diameter_mm: number;
  /** entrance (top of a counterbore or countersink) to the bottom of the bore, drill point not included */
  depth_mm: number;
  through: boolean;
  drill_point_angle_deg: number | null;
  /** highest material near the hole down to the bottom of its bore; default depth_mm */
  clearance_depth_mm?: number;
  counterbore: { diameter_mm: number; depth_mm: number } | null;
  countersink: { diameter_mm: number; angle_deg: number } | null;
  thread: { pitch_mm: number | null } | null;
  /** the bore's size from the file's PMI: a callout tighter than a drill holds is reamed or bored */
  callout?: HoleCallout;
}

/** A hole feature's needs; null for features without hole data (round passages). */
export function holeNeedFor(feature: Feature, clearanceDepthMm?: number): HoleNeed | null {
  const hole = feature.hole;
  if (!hole) return null;
  const need: HoleNeed = {
    feature: { id: feature.id, class: feature.class },
    diameter_mm: hole.diameter_mm,
    depth_mm: hole.depth_mm,
    through: hole.through,
    drill_point_angle_deg: hole.drill_point_angle_deg ?? null,
    counterbore: hole.counterbore ?? null,
    countersink: hole.countersink ?? null,
    thread: hole.thread ? { pitch_mm: hole.thread.pitch_mm } : null,
  };
  if (clearanceDepthMm !== undefined) need.clearance_depth_mm = clearanceDepthMm;
  if (hole.callout) need.callout = hole.callout;
  return need;
}

/** How much higher than the hole's entrance the material near it is. */
const aboveEntrance = (need: HoleNeed) => Math.max(0, (need.clearance_depth_mm ?? need.depth_mm) - need.depth_mm);

/** Usable length, flutes and holder for a drill or reamer going `tipDepth` below the entrance. */
function drillReach(need: HoleNeed, tipDepth: (c: Cutter) => number): Filter[] {
  const above = aboveEntrance(need);
  return [
    {
      limit: "depth",
      keep: (c) => c.max_stepdown + FIT_EPSILON_MM >= tipDepth(c),
      why: (before) =>
        `it is ${mm(need.depth_mm)} mm deep (${mm(smallest(before, tipDepth))} mm with the point) and the longest usable length among the matching tools is ${mm(largest(before, (c) => c.max_stepdown))} mm`,
    },
    ...reachFilters(tipDepth, above, (c) => c.diameter),
  ];
}

/** Orders cutters by how far their diameter is from the bore's, nearest first. */
const nearerTheBore =
  (need: HoleNeed) =>
  (a: Cutter, b: Cutter): number =>
    Math.abs(a.diameter - need.diameter_mm) - Math.abs(b.diameter - need.diameter_mm);

const isDrill = (c: Cutter): boolean => c.tool_type === "Drill" && c.kind === "drill";

const diameterFilter = (need: HoleNeed, below: number, above: number, what: string): Filter => ({
  limit: "diameter",
  keep: (c) => c.diameter >= need.diameter_mm - below && c.diameter <= need.diameter_mm + above,
  why: (before) => {
    const nearest = [...before].sort(nearerTheBore(need))[0];
    return `its bore is ${mm(need.diameter_mm)} mm and ${what} must be ${mm(need.diameter_mm - below)} to ${mm(need.diameter_mm + above)} mm; the nearest is ${mm(nearest?.diameter ?? 0)} mm`;
  },
});

/** The drill nearest the bore's diameter within DRILL_UNDERSIZE_MM / DRILL_OVERSIZE_MM that reaches. */
export function selectDrill(cutters: readonly Cutter[], need: HoleNeed): Selection {
  return nearestToBore(cutters, need, isDrill, DRILL_UNDERSIZE_MM, DRILL_OVERSIZE_MM, "drill");
}

/** A reamer of the bore's size (REAMER_MATCH_MM) that reaches through; through holes only (a reamer's blunt front cannot finish a drilled blind bottom). */
export function selectReamer(cutters: readonly Cutter[], need: HoleNeed): Selection {
  if (!need.through)
    return refusal(
      "no_tool_fits",
      "depth",
      [need.feature],
      `${featureName(need.feature)} is blind: it is not reamed (a reamer cannot reach a drilled hole's bottom)`,
    );
  const isReamer = (c: Cutter) => c.tool_type === "Reamer";
  return nearestToBore(cutters, need, isReamer, REAMER_MATCH_MM, REAMER_MATCH_MM, "reamer");
}

/**
 * The tool of a kind (drill or reamer) nearest the bore's diameter, no more than `under` below
 * and `over` above it, that reaches the drill's depth.
 */
function nearestToBore(
  cutters: readonly Cutter[],
  need: HoleNeed,
  ofKind: (c: Cutter) => boolean,
  under: number,
  over: number,
  kind: "drill" | "reamer",
): Selection {
  return pick(
    cutters,
    ofKind,
    [diameterFilter(need, under, over, `a ${kind}`), ...drillReach(need, (c) => drillTipDepth(need, c).depth_mm)],
    nearerTheBore(need),
    need.feature,
    kind,
  );
}

/** The drill before a reamer: REAM_ALLOWANCE_MM under the bore, nearest the preferred allowance. */
export function selectPredrill(cutters: readonly Cutter[], need: HoleNeed): Selection {
  const target = need.diameter_mm - REAM_ALLOWANCE_MM.preferred;
  const predrilled = { ...need, diameter_mm: target };
  return pick(
    cutters,
    isDrill,
    [
      {
        limit: "diameter",
        keep: (c) =>
          c.diameter >= need.diameter_mm - REAM_ALLOWANCE_MM.max &&
          c.diameter <= need.diameter_mm - REAM_ALLOWANCE_MM.min,
        why: () =>
          `a pre-drill for reaming ${mm(need.diameter_mm)} mm must be ${mm(need.diameter_mm - REAM_ALLOWANCE_MM.max)} to ${mm(need.diameter_mm - REAM_ALLOWANCE_MM.min)} mm`,
      },
      ...drillReach(predrilled, (c) => drillTipDepth({ ...need, diameter_mm: c.diameter }, c).depth_mm),
    ],
    (a, b) => Math.abs(a.diameter - target) - Math.abs(b.diameter - target),
    need.feature,
    "pre-drill",
  );
}

const isSpotDrill = (c: Cutter) => c.tool_type === "SpotDrill";

/**
 * The spotting tool for a drill: spot drills before centre drills; one whose point angle is at
 * least the drill's (the drill's chisel meets the spot first, its corners do not chip); one
 * that makes the whole spot (spotDiameterFor), the smallest of those, else the largest, which
 * only centres (a note says so). A centre drill's pilot must be narrower than the drill.
 */
export function selectSpotDrill(cutters: readonly Cutter[], need: HoleNeed, drill: Cutter): Selection {
  const wanted = drill.diameter + 2 * SPOT_EDGE_BREAK_MM;
  const covers = (c: Cutter) => c.diameter + FIT_EPSILON_MM >= wanted;
  const angleFits = (c: Cutter) => (c.tip_angle_deg ?? 0) + FIT_EPSILON_MM >= (drill.tip_angle_deg ?? 0);
  const above = aboveEntrance(need);
  const chosen = pick(
    cutters,
    (c) => c.kind === "drill" && (c.tool_type === "SpotDrill" || c.tool_type === "CentreDrill"),
    [
      {
        limit: "diameter",
        keep: (c) => c.tip_diameter < drill.diameter,
        why: () => `the centre drills' pilots are not narrower than the ${mm(drill.diameter)} mm drill`,
      },
      {
        limit: "holder_clearance",
        keep: (c) => holderReach(c) + FIT_EPSILON_MM >= above + spotTipDepth(c, spotDiameterFor(drill.diameter, c)),
        why: (before) =>
          `its entrance is ${mm(above)} mm below the material around it; the longest stick-out is ${mm(largest(before, (c) => c.stick_out))} mm`,
      },
    ],
    (a, b) =>
      Number(covers(b)) - Number(covers(a)) ||
      Number(isSpotDrill(b)) - Number(isSpotDrill(a)) ||
      Number(angleFits(b)) - Number(angleFits(a)) ||
      (covers(a) ? a.diameter - b.diameter : b.diameter - a.diameter),
    need.feature,
    "spot or centre drill",
  );
  if (chosen.ok && !covers(chosen.cutter)) {
    chosen.notes.push(
      `${featureName(need.feature)}: the ${mm(chosen.cutter.diameter)} mm spotting tool only centres the ${mm(drill.diameter)} mm drill (its spot is narrower)`,
    );
  }
  return chosen;
}

/**
 * The largest centre-cutting flat end mill for boring `diameter` helically to `depth` below the
 * entrance: at most HELICAL_MAX_DIAMETER_RATIO of the bore, reaching (flutes, relieved neck)
 * with the holder clear. Also counterbores (the bore is then the counterbore's).
 */
export function selectHelicalEndMill(
  cutters: readonly Cutter[],
  need: HoleNeed,
  bore: { diameter_mm: number; depth_mm: number } = { diameter_mm: need.diameter_mm, depth_mm: boreTipDepth(need) },
): Selection {
  const limit = bore.diameter_mm * HELICAL_MAX_DIAMETER_RATIO;
  return pick(
    cutters,
    (c) => c.kind === "flat" && c.tool_type === "CentreCuttingEndMill",
    [
      {
        limit: "diameter",
        keep: (c) => c.diameter <= limit + FIT_EPSILON_MM,
        why: (before) =>
          `boring ${mm(bore.diameter_mm)} mm needs an end mill of at most ${mm(limit)} mm and the smallest is ${mm(smallest(before, (c) => c.diameter))} mm`,
      },
      ...reachFilters(
        () => bore.depth_mm,
        aboveEntrance(need),
        (c) => c.diameter,
      ),
    ],
    (a, b) =>
      b.diameter - a.diameter || Number(b.flute_length >= bore.depth_mm) - Number(a.flute_length >= bore.depth_mm),
    need.feature,
    "centre-cutting end mill",
  );
}

/**
 * A tap for a modelled thread: its pitch the thread's (when the model gives one), its core
 * (nominal - pitch) the bore within TAP_CORE_TOLERANCE, reaching the tapped depth with a shank
 * that passes the bore or stays above it. Nearest core first, then the coarse pitch.
 */
export function selectTap(cutters: readonly Cutter[], need: HoleNeed): Selection {
  const thread = need.thread;
  if (!thread)
    return refusal("no_tool_fits", "thread", [need.feature], `${featureName(need.feature)} has no modelled thread`);
  const core = (c: Cutter) => c.diameter - (c.pitch_mm ?? 0);
  const miss = (c: Cutter) => Math.abs(core(c) - need.diameter_mm);
  const filters: Filter[] = [];
  if (thread.pitch_mm !== null) {
    const pitch = thread.pitch_mm;
    filters.push({
      limit: "thread",
      keep: (c) => c.pitch_mm !== null && Math.abs(c.pitch_mm - pitch) <= FIT_EPSILON_MM,
      why: (before) =>
        `its thread has a ${mm(pitch)} mm pitch and the taps have ${[...new Set(before.map((c) => mm(c.pitch_mm ?? 0)))].join(", ")} mm`,
    });
  }
  filters.push({
    limit: "diameter",
    keep: (c) => miss(c) <= TAP_CORE_TOLERANCE.pitches * (c.pitch_mm ?? 0) + TAP_CORE_TOLERANCE.mm,
    why: (before) => {
      const nearest = [...before].sort((a, b) => miss(a) - miss(b))[0];
      return `its core hole is ${mm(need.diameter_mm)} mm and the nearest tap (${nearest?.name ?? "none"}) wants ${mm(nearest ? core(nearest) : 0)} mm`;
    },
  });
  const tipDepth = (c: Cutter) => tapTipDepth(need, c);
  filters.push(...reachFilters(tipDepth, aboveEntrance(need), () => need.diameter_mm));
  // the coarse pitch (the larger one for a size) when the model does not say
  return pick(
    cutters,
    (c) => c.kind === "tap",
    filters,
    (a, b) => miss(a) - miss(b) || (b.pitch_mm ?? 0) - (a.pitch_mm ?? 0),
    need.feature,
    "tap",
  );
}

export interface HoleTools {
  ok: true;
  feature: FeatureRef;
  /** how the bore is made */
  method: "drill" | "drill_and_ream" | "helical";
  /** before the drill (or pre-drill); null for helical bores or a library without one (warnings) */
  spot: Cutter | null;
  /** the drill, or the pre-drill when reaming */
  drill: Cutter | null;
  reamer: Cutter | null;
  /** helical boring */
  end_mill: Cutter | null;
  counterbore: Cutter | null;
  countersink: Cutter | null;
  tap: Cutter | null;
  /** parts of the hole that no tool makes (the bore itself is made), each with the tool that would have made it when one would */
  unmachined: Refusal[];
  notes: string[];
  warnings: { code: string; message: string }[];
  /** tools the hole is made without that it would have been made with (a spot drill) */
  missing: MissingTool[];
}

/** Whether what a drill of the bore's size makes (+0 to +DRILL_OVERSIZE_MM) lies within the callout. */
export function drillHolds(callout: HoleCallout, diameterMm: number): boolean {
  return (
    callout.min_mm <= diameterMm + FIT_EPSILON_MM && callout.max_mm + FIT_EPSILON_MM >= diameterMm + DRILL_OVERSIZE_MM
  );
}

/** The plan's record of a method the PMI chose (code pmi_hole_method): which callout, which method. */
function calloutDecision(need: HoleNeed, callout: HoleCallout, method: string): { code: string; message: string } {
  return {
    code: "pmi_hole_method",
    message: `${featureName(need.feature)}: its callout ${callout.label} is tighter than a drill holds (+0 to +${mm(DRILL_OVERSIZE_MM)} mm): ${method}.`,
  };
}

/** Limits a longer tool of the wanted size would have passed. */
const isReach = (refusal: Refusal) => refusal.limit === "depth" || refusal.limit === "holder_clearance";

/** The refusal with the tool that would have done, when one would. */
const withMissing = (refusal: Refusal, wanted: MissingTool | null): Refusal =>
  wanted === null ? refusal : { ...refusal, missing: wanted };

/** A blind bore the model ends on a flat floor (no drill point): partC's 3.8 mm hole, 4.8 mm deep. */
const flatBottomed = (need: HoleNeed): boolean =>
  !need.through && need.drill_point_angle_deg === null && need.thread === null;

/**
 * Every tool a hole needs. The bore: a matching drill; else for through holes a reamer and its
 * pre-drill; else helical boring with an end mill. Refused only when the bore cannot be made;
 * a counterbore, countersink or thread without a tool is listed in `unmachined`.
 */
export function selectHoleTools(cutters: readonly Cutter[], need: HoleNeed): HoleTools | Refusal {
  const tools: HoleTools = {
    ok: true,
    feature: need.feature,
    method: "drill",
    spot: null,
    drill: null,
    reamer: null,
    end_mill: null,
    counterbore: null,
    countersink: null,
    tap: null,
    unmachined: [],
    notes: [],
    warnings: [],
    missing: [],
  };
  const thread = need.thread ? threadOfBore(need.diameter_mm, need.thread.pitch_mm, TAP_CORE_TOLERANCE) : null;
  const keep = (chosen: Chosen) => {
    tools.notes.push(...chosen.notes);
    return chosen.cutter;
  };
  const drill = selectDrill(cutters, need);
  // a callout a drill cannot hold is reamed (through) or bored (blind); drilled when neither can be
  const tight = need.callout && !drillHolds(need.callout, need.diameter_mm) ? need.callout : null;
  if (drill.ok && !tight) tools.drill = keep(drill);
  else {
    const reamer = selectReamer(cutters, need);
    const predrill = reamer.ok ? selectPredrill(cutters, need) : null;
    const helical = reamer.ok && predrill?.ok ? null : selectHelicalEndMill(cutters, need);
    if (reamer.ok && predrill?.ok) {
      tools.method = "drill_and_ream";
      tools.reamer = keep(reamer);
      tools.drill = keep(predrill);
      const how = `pre-drilled ${mm(predrill.cutter.diameter)} mm and reamed with the ${mm(reamer.cutter.diameter)} mm reamer`;
      if (tight) tools.warnings.push(calloutDecision(need, tight, how));
    } else if (helical?.ok) {
      tools.method = "helical";
      tools.end_mill = keep(helical);
      const how = `bored helically with the ${mm(helical.cutter.diameter)} mm end mill`;
      if (tight) tools.warnings.push(calloutDecision(need, tight, how));
      else
        tools.notes.push(`${featureName(need.feature)}: no drill of ${mm(need.diameter_mm)} mm in the library, ${how}`);
    } else if (drill.ok) {
      // only a tight callout gets here with a drill: nothing else can make the bore
      tools.drill = keep(drill);
      tools.warnings.push({
        code: "callout_not_held",
        message: `${featureName(need.feature)}: its callout ${tight?.label ?? ""} is tighter than a drill holds (+0 to +${mm(DRILL_OVERSIZE_MM)} mm), and no reamer or end mill in the library can finish it: it is only drilled.`,
      });
    } else {
      const wanted = missingDrill({
        feature: need.feature,
        diameter_mm: need.diameter_mm,
        depth_mm: need.depth_mm,
        undersize_mm: DRILL_UNDERSIZE_MM,
        oversize_mm: DRILL_OVERSIZE_MM,
        thread: need.thread ? threadLabel(thread, need.diameter_mm) : null,
        tip_depth: isReach(drill) ? (c) => drillTipDepth(need, c).depth_mm : null,
      });
      return withMissing(
        {
          ...drill,
          message: `${drill.message} Nor can it be bored helically: ${helical?.ok === false ? helical.message : ""}`,
        },
        wanted,
      );
    }
  }
  if (tools.method === "drill" && flatBottomed(need)) {
    // a drill leaves its point's cone on a flat bottom: an end mill bores it to the bottom after it
    const flat = selectHelicalEndMill(cutters, need);
    if (flat.ok) {
      tools.end_mill = keep(flat);
      tools.notes.push(
        `${featureName(need.feature)}: its flat bottom is bored helically with the ${mm(flat.cutter.diameter)} mm end mill after drilling`,
      );
    }
  }
  if (tools.drill) {
    const spot = selectSpotDrill(cutters, need, tools.drill);
    if (spot.ok) tools.spot = keep(spot);
    else {
      tools.warnings.push({
        code: spot.code === "no_tool_of_kind" ? "no_spot_drill" : "spot_drill_unfit",
        message: `${spot.message} The hole is drilled without spotting.`,
      });
      const wanted = missingSpotDrill(need.feature, tools.drill.diameter);
      if (wanted !== null) tools.missing.push(wanted);
    }
  }
  if (need.counterbore) {
    const { diameter_mm, depth_mm } = need.counterbore;
    const cb = selectHelicalEndMill(cutters, need, { diameter_mm, depth_mm });
    if (cb.ok) tools.counterbore = keep(cb);
    else {
      const wanted = missingEndMill({
        at_most_mm: diameter_mm * HELICAL_MAX_DIAMETER_RATIO,
        ...(isReach(cb) ? { reach_mm: depth_mm } : {}),
        purpose: `bore ${mm(diameter_mm)} mm counterbores ${mm(depth_mm)} mm deep`,
        features: [need.feature],
      });
      tools.unmachined.push(
        withMissing({ ...cb, message: `Counterbore of ${featureName(need.feature)}: ${cb.message}` }, wanted),
      );
    }
  }
  if (need.countersink) {
    const half = need.countersink.angle_deg / 2;
    const radial = (need.countersink.diameter_mm - need.diameter_mm) / 2;
    const sink = selectChamferMill(cutters, {
      feature: need.feature,
      angle_to_axis_deg: half,
      width_mm: radial / Math.sin((half * Math.PI) / 180),
      hole_diameter_mm: need.diameter_mm,
      countersink_diameter_mm: need.countersink.diameter_mm,
    });
    if (sink.ok) tools.countersink = keep(sink);
    else {
      const wanted = missingChamferMill(
        {
          feature: need.feature,
          angle_to_axis_deg: half,
          radial_mm: radial,
          angle_tolerance_deg: CHAMFER_ANGLE_TOLERANCE_DEG,
          countersink_diameter_mm: need.countersink.diameter_mm,
        },
        `countersink holes to ${mm(need.countersink.diameter_mm)} mm`,
      );
      tools.unmachined.push(
        withMissing({ ...sink, message: `Countersink of ${featureName(need.feature)}: ${sink.message}` }, wanted),
      );
    }
  }
  if (need.thread) {
    const tap = selectTap(cutters, need);
    if (tap.ok) tools.tap = keep(tap);
    else
      tools.unmachined.push(
        withMissing(
          { ...tap, message: `Thread of ${featureName(need.feature)}: ${tap.message}` },
          isReach(tap) ? null : missingTap(need.feature, thread),
        ),
      );
  }
  return tools;
}
