/**
 * Semantic PMI of a part, as records that name the B-rep faces they apply to by STEP entity
 * (n of `#n = ADVANCED_FACE`: a face's `stepEntity` in the analysis).
 */

/** A size or location dimension (DIMENSIONAL_SIZE, DIMENSIONAL_LOCATION and their kinds). */
export interface PmiDimension {
  kind: "dimension";
  /** the STEP entity of the dimension */
  entity: number;
  /** "size" or "location" */
  dimension: "size" | "location";
  /** the file's name for what is measured: diameter, radius, thickness, linear distance, angle... */
  name: string;
  /** the nominal value in mm (degrees for angles), or null when the file gives none */
  nominal: number | null;
  unit: "mm" | "deg" | null;
  /** deviations from nominal: lower (usually negative) and upper, mm (degrees) */
  plusMinus: { lower: number; upper: number } | null;
  /** the limits the file gives instead of a nominal and deviations */
  limits: { lower: number; upper: number } | null;
  /** an ISO 286 tolerance class (LIMITS_AND_FITS): "H7", for a hole or a shaft */
  fit: { designation: string; zone: "hole" | "shaft" | null } | null;
  /** ADVANCED_FACE entities the dimension applies to (both ends of a location) */
  faces: number[];
}

/** A geometric tolerance (GEOMETRIC_TOLERANCE and its kinds: flatness, position...). */
export interface PmiGeometricTolerance {
  kind: "geometric_tolerance";
  entity: number;
  /** the tolerance's kind in lower case without "_tolerance": flatness, position, perpendicularity... */
  characteristic: string;
  /** the zone's width, mm; null when the file gives none */
  value: number | null;
  /** the file's modifiers, as named: MAXIMUM_MATERIAL_REQUIREMENT... */
  modifiers: string[];
  /** the names of the datums the frame refers to, in order (A, B, C) */
  datums: string[];
  name: string;
  faces: number[];
}

export type PmiRecord = PmiDimension | PmiGeometricTolerance;

export interface PmiRead {
  records: PmiRecord[];
  /** entity types the reader met and does not interpret (thread callouts would appear here) */
  unread: string[];
}
