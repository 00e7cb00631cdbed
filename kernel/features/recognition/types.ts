/**
 * What feature recognition says about a part: one class per face and the machining features the
 * faces form. Field names are snake_case because they are the JSON contract of `cli features`.
 * README.md in this folder gives the rules behind every class.
 */
import type { BoundingBox, Vec3 } from "../types.ts";

/** The MFCAD++ taxonomy (Colligan et al. 2022): 24 machining features. */
export const FEATURE_CLASSES = [
  "chamfer",
  "through_hole",
  "triangular_passage",
  "rectangular_passage",
  "6sides_passage",
  "triangular_through_slot",
  "rectangular_through_slot",
  "circular_through_slot",
  "rectangular_through_step",
  "2sides_through_step",
  "slanted_through_step",
  "o_ring",
  "blind_hole",
  "triangular_pocket",
  "rectangular_pocket",
  "6sides_pocket",
  "circular_end_pocket",
  "rectangular_blind_slot",
  "vertical_circular_end_blind_slot",
  "horizontal_circular_end_blind_slot",
  "triangular_blind_step",
  "circular_blind_step",
  "rectangular_blind_step",
  "round",
] as const;

export type FeatureClass = (typeof FEATURE_CLASSES)[number];

/**
 * A face's class: its feature's class, "stock" for faces of the original stock (on the stock box),
 * or "other" for a face no rule explains (a boss, a free-form blend...; a warning names them).
 */
export type FaceClass = FeatureClass | "stock" | "other";

export const FACE_CLASSES: readonly FaceClass[] = [...FEATURE_CLASSES, "stock", "other"];

export interface HoleInfo {
  /** the bore's diameter (the smallest of a stepped hole), mm */
  diameter_mm: number;
  /** from the entrance (the top of a counterbore or countersink) to the bottom of the bore, mm; the drill point not included */
  depth_mm: number;
  through: boolean;
  /** a larger coaxial bore at the entrance, ending on a flat shoulder */
  counterbore?: { diameter_mm: number; depth_mm: number };
  /** through holes: a larger coaxial bore at the far end (made from that end) */
  far_counterbore?: { diameter_mm: number; depth_mm: number };
  /** a cone at the entrance: its largest diameter and included angle */
  countersink?: { diameter_mm: number; angle_deg: number };
  /** a blind hole's conical bottom: its included angle (118 degrees for a twist drill) */
  drill_point_angle_deg?: number;
  /** threads are only reported when the solid models them (it rarely does: cosmetic threads are not geometry) */
  thread?: { modelled: true; pitch_mm: number | null };
  /** a point on the axis at the entrance, and the unit axis pointing out of the material there */
  axis: { origin: Vec3; direction: Vec3 };
  /** the bore's size as the file's PMI calls it out (kernel/features/pmi), where the file has one */
  callout?: HoleCallout;
}

/** A bore's allowed diameters from a drawing callout: what decides between drilling, reaming and boring. */
export interface HoleCallout {
  min_mm: number;
  max_mm: number;
  /** an ISO 286 class ("H7") when the callout gives one */
  fit: string | null;
  /** the callout in words, with the STEP entity it was read from: "⌀3.5 G6 (3.504 to 3.511 mm, PMI #20119)" */
  label: string;
}

export interface Feature {
  id: number;
  class: FeatureClass;
  /** face ids, ascending */
  faces: number[];
  /** unit tool axis from which the feature is machined, pointing out of the material (from the floor to the tool); null when no single direction applies (a chamfer's bisector is given) */
  access_direction: Vec3 | null;
  /** other directions the feature is open to along its axis (the far end of a through feature) */
  other_access_directions: Vec3[];
  /** along access_direction from the floor (or the far end of a through feature) to the top of the walls, mm */
  depth_mm: number | null;
  /** faces facing the access direction at the bottom of the feature */
  floor_faces: number[];
  /** faces parallel to the access direction bounding the feature */
  wall_faces: number[];
  /** the smallest radius of the feature's internal vertical corners: 0 for sharp corners, null when it has none */
  min_internal_corner_radius_mm: number | null;
  /** the narrowest place a tool must pass: between opposite walls, or the profile's inscribed diameter; null when open */
  min_width_mm: number | null;
  /** unit directions, perpendicular to the access direction, in which the feature's profile has no wall (where a tool can run out sideways) */
  open_sides: Vec3[];
  /** holes only */
  hole?: HoleInfo;
  /** the rules that made the feature, in words (rule id: what was found) */
  reasons: string[];
}

export interface RecognitionWarning {
  code: string;
  message: string;
  faces?: number[];
}

export interface Recognition {
  /** per face id: its class (exactly one) */
  faceClasses: FaceClass[];
  /** per face id: the feature it belongs to, or null (stock and "other" faces) */
  faceFeature: (number | null)[];
  features: Feature[];
  /** the box the stock faces were found on */
  stockBox: BoundingBox | null;
  warnings: RecognitionWarning[];
  /** milliseconds */
  timeMs: number;
}

export interface RecognitionOptions {
  /** the stock box; default: the part's bounding box */
  stockBox?: BoundingBox;
  /** mm; default 1e-4 of the box diagonal, at least 1e-4 mm */
  distanceTolerance?: number;
  /** radians; default 0.5 degree: normals this close are parallel, this close to 90 degrees perpendicular */
  angleTolerance?: number;
}
