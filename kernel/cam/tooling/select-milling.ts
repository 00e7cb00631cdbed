/**
 * End mills for pockets, slots and steps, and face mills for facing. Lengths are the feature's
 * own (recognition's depth_mm, min_width_mm, corner radius), which do not depend on the setup
 * frame. `clearance_depth_mm` is from the highest material near the feature (what the holder
 * must stay above) down to the feature's floor; the planner knows it from the setup's stock,
 * and without it the feature's own top is taken.
 */
import type { Feature } from "../../features/recognition/types.ts";
import type { Cutter, CutterKind } from "../types.ts";
import {
  featureName,
  FIT_EPSILON_MM,
  mm,
  pick,
  reachFilters,
  refusal,
  smallest,
  type Chosen,
  type FeatureRef,
  type Filter,
  type Selection,
} from "./pick.ts";

export interface MillingNeed {
  feature: FeatureRef;
  /** floor to the top of the walls */
  depth_mm: number;
  /** highest material near the feature down to its floor; default depth_mm */
  clearance_depth_mm?: number;
  /** null: no internal vertical corners; 0: sharp ones */
  min_internal_corner_radius_mm: number | null;
  /** null: open (no opposite walls) */
  min_width_mm: number | null;
  /** the tool can come in from a side: end mills that do not cut at the centre qualify */
  open_sides: boolean;
}

/** A milled feature's needs as recognition reports them. */
export function millingNeedFor(feature: Feature, clearanceDepthMm?: number): MillingNeed {
  const need: MillingNeed = {
    feature: { id: feature.id, class: feature.class },
    depth_mm: feature.depth_mm ?? 0,
    min_internal_corner_radius_mm: feature.min_internal_corner_radius_mm,
    min_width_mm: feature.min_width_mm,
    open_sides: feature.open_sides.length > 0,
  };
  if (clearanceDepthMm !== undefined) need.clearance_depth_mm = clearanceDepthMm;
  return need;
}

export type EndMillChoice = (Chosen & { rest_machining: boolean }) | Exclude<Selection, Chosen>;

const END_MILL_TYPES = new Set(["CentreCuttingEndMill", "NonCentreCuttingEndMill", "BallEndMill", "BullNoseEndMill"]);

/**
 * The largest end mill for a pocket, slot or step. Finishing: radius at most the internal
 * corner radius, diameter at most the narrowest width, reach (flutes, relieved neck) at least the
 * depth, holder clear. Roughing: any radius (rest_machining says a smaller tool must finish the
 * corners). Closed features need a centre-cutting tool (it ramps or plunges in). `kinds`: which
 * end mills qualify (default flat: a bull nose or ball leaves its radius at the floor).
 */
export function selectEndMill(
  cutters: readonly Cutter[],
  need: MillingNeed,
  purpose: "roughing" | "finishing",
  options: { kinds?: CutterKind[] } = {},
): EndMillChoice {
  const kinds = new Set(options.kinds ?? ["flat"]);
  const radius = need.min_internal_corner_radius_mm;
  const width = need.min_width_mm;
  const filters: Filter[] = [];
  if (!need.open_sides) {
    filters.push({
      limit: "tool_kind",
      keep: (c) => c.centre_cutting,
      why: () => "it is closed and needs an end mill that cuts at the centre to ramp in; the library's do not",
    });
  }
  if (width !== null) {
    filters.push({
      limit: "width",
      keep: (c) => c.diameter <= width + FIT_EPSILON_MM,
      why: (before) =>
        `it is ${mm(width)} mm wide at its narrowest and the smallest end mill is ${mm(smallest(before, (c) => c.diameter))} mm`,
    });
  }
  if (purpose === "finishing" && radius !== null) {
    filters.push({
      limit: "corner_radius",
      keep: (c) => c.diameter / 2 <= radius + FIT_EPSILON_MM,
      why: (before) =>
        radius <= FIT_EPSILON_MM
          ? "its internal corners are sharp (0 mm radius), which no end mill cuts: give them a radius in the model, or plan them for EDM"
          : `its internal corners have a ${mm(radius)} mm radius and the smallest end mill is ${mm(smallest(before, (c) => c.diameter))} mm (radius ${mm(smallest(before, (c) => c.diameter / 2))} mm): add one of at most ${mm(2 * radius)} mm`,
    });
  }
  filters.push(
    ...reachFilters(
      () => need.depth_mm,
      Math.max(0, (need.clearance_depth_mm ?? need.depth_mm) - need.depth_mm),
      (c) => c.diameter,
    ),
  );
  const depth = need.depth_mm;
  const chosen = pick(
    cutters,
    (c) => END_MILL_TYPES.has(c.tool_type) && kinds.has(c.kind),
    filters,
    // largest first; then one whose flutes cut the whole depth in one pass
    (a, b) => b.diameter - a.diameter || Number(b.flute_length >= depth) - Number(a.flute_length >= depth),
    need.feature,
    purpose === "finishing" ? "finishing end mill" : "end mill",
  );
  if (!chosen.ok) return chosen;
  const rest = radius !== null && chosen.cutter.diameter / 2 > radius + FIT_EPSILON_MM;
  const notes = rest
    ? [
        `${featureName(need.feature)}: corners of ${mm(radius)} mm radius are left for rest machining with a smaller end mill`,
      ]
    : [];
  return { ...chosen, notes, rest_machining: rest };
}

/** A face mill covers a face this many times its width in one pass (engagement at most 5/6 of its diameter). */
export const FACE_MILL_COVER_RATIO = 1.2;

/**
 * A face mill for facing a face `width_mm` wide: the smallest covering it in one pass
 * (FACE_MILL_COVER_RATIO), else the largest; without face mills the largest flat end mill.
 */
export function selectFaceMill(cutters: readonly Cutter[], face: { feature: FeatureRef; width_mm: number }): Selection {
  const order = new Map(cutters.map((c, i) => [c, i]));
  const faceMills = cutters.filter((c) => c.tool_type === "FaceMill");
  if (faceMills.length > 0) {
    const cover = face.width_mm * FACE_MILL_COVER_RATIO;
    const covering = faceMills
      .filter((c) => c.diameter >= cover)
      .sort((a, b) => a.diameter - b.diameter || (order.get(a) ?? 0) - (order.get(b) ?? 0));
    const best =
      covering[0] ??
      [...faceMills].sort((a, b) => b.diameter - a.diameter || (order.get(a) ?? 0) - (order.get(b) ?? 0))[0];
    if (best)
      return {
        ok: true,
        cutter: best,
        notes:
          covering.length > 0
            ? []
            : [`${featureName(face.feature)} takes several passes: the largest face mill is ${mm(best.diameter)} mm`],
      };
  }
  const endMills = cutters.filter(
    (c) => c.kind === "flat" && (c.tool_type === "CentreCuttingEndMill" || c.tool_type === "NonCentreCuttingEndMill"),
  );
  const best = [...endMills].sort((a, b) => b.diameter - a.diameter || (order.get(a) ?? 0) - (order.get(b) ?? 0))[0];
  if (!best)
    return refusal(
      "no_tool_of_kind",
      "tool_kind",
      [face.feature],
      `The library has no face mill or flat end mill to face ${featureName(face.feature)}: add one.`,
    );
  return {
    ok: true,
    cutter: best,
    notes: [
      `no face mill in the library: ${featureName(face.feature)} is faced with the ${mm(best.diameter)} mm end mill`,
    ],
  };
}
