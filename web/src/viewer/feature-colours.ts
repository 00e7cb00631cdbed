/**
 * The part's faces coloured by the recognised features (api/viewer-data.ts): each face takes its
 * feature's family colour (holes, pockets, slots, steps, passages, edges, O-ring grooves), the
 * faces of the chosen operation's features a bright highlight, the rest the part's grey. Pure
 * arrays keyed by the GLB's per-vertex face ids, no three.js.
 */
import type { Vec3 } from "../api/viewer-stock.ts";

/** what the colouring uses of the features route's feature (api/viewer-data.ts) */
interface ViewerFeature {
  id: number;
  class: string;
  faces: number[];
}

export const FEATURE_FAMILIES = ["hole", "pocket", "slot", "step", "passage", "edge", "o_ring"] as const;
export type FeatureFamily = (typeof FEATURE_FAMILIES)[number];

/** per family, r g b (0..1); none blue or green, so they do not read as the stock's classes */
export const FAMILY_COLOURS: Record<FeatureFamily, Vec3> = {
  hole: [0.95, 0.5, 0.1],
  pocket: [0.58, 0.4, 0.74],
  slot: [0.85, 0.35, 0.6],
  step: [0.74, 0.74, 0.13],
  passage: [0.55, 0.34, 0.29],
  edge: [0.6, 0.6, 0.45],
  o_ring: [0.9, 0.2, 0.9],
};
/** the part's own grey, as PART_MATERIAL draws it */
export const PART_GREY: Vec3 = [0.73, 0.75, 0.77];
/** the faces of the chosen operation's features */
export const HIGHLIGHT: Vec3 = [1, 0.84, 0];

/** The family of an MFCAD++ class (kernel/features/recognition/types.ts). */
export function featureFamily(featureClass: string): FeatureFamily {
  if (featureClass.endsWith("_hole")) return "hole";
  if (featureClass.endsWith("_pocket")) return "pocket";
  if (featureClass.endsWith("_slot")) return "slot";
  if (featureClass.endsWith("_step")) return "step";
  if (featureClass.endsWith("_passage")) return "passage";
  if (featureClass === "o_ring") return "o_ring";
  return "edge";
}

export const familyCss = (family: FeatureFamily): string =>
  `rgb(${FAMILY_COLOURS[family].map((c) => Math.round(c * 255)).join(" ")})`;

/** face id -> the feature it belongs to (a face in two features: the first) */
export function featuresByFace<F extends ViewerFeature>(features: readonly F[]): Map<number, F> {
  const byFace = new Map<number, F>();
  for (const feature of features) for (const face of feature.faces) if (!byFace.has(face)) byFace.set(face, feature);
  return byFace;
}

export interface PartColouring {
  /** the GLB's face id per vertex */
  faceIds: ArrayLike<number>;
  byFace: ReadonlyMap<number, ViewerFeature>;
  /** colour faces by their feature's family */
  classes: boolean;
  /** ids of the features whose faces are highlighted */
  highlighted: ReadonlySet<number>;
}

/** r, g, b per vertex */
export function partColours({ faceIds, byFace, classes, highlighted }: PartColouring): Float32Array {
  const colours = new Float32Array(faceIds.length * 3);
  for (let v = 0; v < faceIds.length; v += 1) {
    const feature = byFace.get(Math.round(faceIds[v] as number));
    let colour = PART_GREY;
    if (feature && highlighted.has(feature.id)) colour = HIGHLIGHT;
    else if (feature && classes) colour = FAMILY_COLOURS[featureFamily(feature.class)];
    colours.set(colour, 3 * v);
  }
  return colours;
}

/** the families the part's features fall in, in the legend's order */
export function familiesPresent(features: readonly ViewerFeature[]): FeatureFamily[] {
  const present = new Set(features.map((feature) => featureFamily(feature.class)));
  return FEATURE_FAMILIES.filter((family) => present.has(family));
}
