/**
 * Semantic PMI from the entities of an AP242 file, as the CAx-IF recommended practices for PMI
 * representation lay it out:
 *
 * - a dimension (DIMENSIONAL_SIZE: applies_to a shape aspect; DIMENSIONAL_LOCATION: from a
 *   relating to a related aspect) gets its values from DIMENSIONAL_CHARACTERISTIC_REPRESENTATION,
 *   whose SHAPE_DIMENSION_REPRESENTATION holds measures named 'nominal value', 'upper limit',
 *   'lower limit'; PLUS_MINUS_TOLERANCE joins it to a TOLERANCE_VALUE (lower and upper
 *   deviation) or to LIMITS_AND_FITS (an ISO 286 class such as H7);
 * - a geometric tolerance (GEOMETRIC_TOLERANCE, simple or in a complex instance with its kind:
 *   POSITION_TOLERANCE...) has a magnitude and a toleranced shape aspect, and datums through
 *   DATUM_SYSTEM and DATUM_REFERENCE_COMPARTMENT;
 * - a shape aspect names its faces through GEOMETRIC_ITEM_SPECIFIC_USAGE (identified_item: the
 *   ADVANCED_FACE), and a composite aspect (all the faces of a pattern of holes) through
 *   SHAPE_ASPECT_RELATIONSHIP to its members.
 *
 * Values are converted to mm (the unit the measure names: SI with its prefix, or a conversion
 * based unit such as INCH through its factor) and angles to degrees.
 */
import { facesResolver } from "./faces.ts";
import { parsePart21, partOf, refOf, refsOf, enumOf, type StepModel, type StepValue } from "./part21.ts";
import type { PmiDimension, PmiGeometricTolerance, PmiRead, PmiRecord } from "./types.ts";
import { measureOf } from "./units.ts";

const SIZE_TYPES = ["DIMENSIONAL_SIZE", "DIMENSIONAL_SIZE_WITH_PATH", "ANGULAR_SIZE"];
const LOCATION_TYPES = ["DIMENSIONAL_LOCATION", "DIMENSIONAL_LOCATION_WITH_PATH", "ANGULAR_LOCATION"];
/** parts of a geometric tolerance that say how it is qualified, not what kind it is */
const QUALIFYING_PARTS = new Set([
  "GEOMETRIC_TOLERANCE",
  "GEOMETRIC_TOLERANCE_WITH_DATUM_REFERENCE",
  "GEOMETRIC_TOLERANCE_WITH_MODIFIERS",
  "GEOMETRIC_TOLERANCE_WITH_DEFINED_UNIT",
  "GEOMETRIC_TOLERANCE_WITH_DEFINED_AREA_UNIT",
  "GEOMETRIC_TOLERANCE_WITH_MAXIMUM_TOLERANCE",
  "MODIFIED_GEOMETRIC_TOLERANCE",
  "UNEQUALLY_DISPOSED_GEOMETRIC_TOLERANCE",
  "REPRESENTATION_ITEM",
]);
/** simple instances that are geometric tolerances: GEOMETRIC_TOLERANCE's arguments come first */
const TOLERANCE_KINDS = new Set([
  "ANGULARITY_TOLERANCE",
  "CIRCULAR_RUNOUT_TOLERANCE",
  "COAXIALITY_TOLERANCE",
  "CONCENTRICITY_TOLERANCE",
  "CYLINDRICITY_TOLERANCE",
  "FLATNESS_TOLERANCE",
  "LINE_PROFILE_TOLERANCE",
  "PARALLELISM_TOLERANCE",
  "PERPENDICULARITY_TOLERANCE",
  "POSITION_TOLERANCE",
  "ROUNDNESS_TOLERANCE",
  "STRAIGHTNESS_TOLERANCE",
  "SURFACE_PROFILE_TOLERANCE",
  "SYMMETRY_TOLERANCE",
  "TOTAL_RUNOUT_TOLERANCE",
  "GEOMETRIC_TOLERANCE",
  "GEOMETRIC_TOLERANCE_WITH_DATUM_REFERENCE",
]);
/** PMI the reader does not interpret, reported so that a caller knows it was there */
const UNREAD_TYPES = ["SURFACE_TEXTURE_REPRESENTATION", "THREAD", "EXTERNALLY_DEFINED_ITEM"];

/** The semantic PMI of a STEP file's text. */
export function readPmi(text: string): PmiRead {
  return readPmiModel(parsePart21(text));
}

export function readPmiModel(model: StepModel): PmiRead {
  const facesOf = facesResolver(model);
  const characteristics = characteristicIndex(model);
  const records: PmiRecord[] = [];
  const unread = new Set<string>();
  for (const entity of model.values()) {
    const simple = entity.parts.length === 1 ? (entity.parts[0]?.type ?? "") : "";
    if (SIZE_TYPES.includes(simple) || LOCATION_TYPES.includes(simple)) {
      records.push(dimension(model, entity.id, characteristics, facesOf));
    } else if (partOf(entity, "GEOMETRIC_TOLERANCE") || TOLERANCE_KINDS.has(simple)) {
      records.push(geometricTolerance(model, entity.id, facesOf));
    }
    for (const part of entity.parts) if (UNREAD_TYPES.some((type) => part.type.startsWith(type))) unread.add(part.type);
  }
  records.sort((a, b) => a.entity - b.entity);
  return { records, unread: [...unread].sort() };
}

interface Characteristics {
  /** dimension -> its SHAPE_DIMENSION_REPRESENTATION */
  representation: Map<number, number>;
  /** dimension -> the range of its PLUS_MINUS_TOLERANCE (a TOLERANCE_VALUE or LIMITS_AND_FITS) */
  tolerance: Map<number, number>;
}

function characteristicIndex(model: StepModel): Characteristics {
  const representation = new Map<number, number>();
  const tolerance = new Map<number, number>();
  for (const entity of model.values()) {
    const dcr = partOf(entity, "DIMENSIONAL_CHARACTERISTIC_REPRESENTATION");
    if (dcr) {
      const dim = refOf(dcr[0]);
      const rep = refOf(dcr[1]);
      if (dim !== null && rep !== null) representation.set(dim, rep);
    }
    const pm = partOf(entity, "PLUS_MINUS_TOLERANCE");
    if (pm) {
      const range = refOf(pm[0]);
      const dim = refOf(pm[1]);
      if (dim !== null && range !== null) tolerance.set(dim, range);
    }
  }
  return { representation, tolerance };
}

function dimension(
  model: StepModel,
  id: number,
  characteristics: Characteristics,
  facesOf: (id: number) => number[],
): PmiDimension {
  const part = model.get(id)?.parts[0];
  const type = part?.type ?? "";
  const args = part?.args ?? [];
  const size = SIZE_TYPES.includes(type);
  // DIMENSIONAL_SIZE(applies_to, name); DIMENSIONAL_LOCATION(name, description, relating, related)
  const name = String((size ? args[1] : args[0]) ?? "");
  const aspects = size ? [refOf(args[0])] : [refOf(args[2]), refOf(args[3])];
  const faces = sortedUnique(aspects.flatMap((aspect) => (aspect === null ? [] : facesOf(aspect))));

  let nominal: number | null = null;
  let unit: PmiDimension["unit"] = null;
  let upperLimit: number | null = null;
  let lowerLimit: number | null = null;
  const rep = characteristics.representation.get(id);
  const items = rep === undefined ? [] : refsOf(partOf(model.get(rep), "SHAPE_DIMENSION_REPRESENTATION")?.[1]);
  for (const item of items) {
    const measure = measureOf(model, item);
    if (!measure) continue;
    unit = measure.unit;
    if (measure.name === "upper limit") upperLimit = measure.value;
    else if (measure.name === "lower limit") lowerLimit = measure.value;
    else nominal ??= measure.value;
  }
  const limits = upperLimit !== null && lowerLimit !== null ? { lower: lowerLimit, upper: upperLimit } : null;

  let plusMinus: PmiDimension["plusMinus"] = null;
  let fit: PmiDimension["fit"] = null;
  const range = characteristics.tolerance.get(id);
  const rangeEntity = range === undefined ? undefined : model.get(range);
  const bounds = partOf(rangeEntity, "TOLERANCE_VALUE");
  if (bounds) {
    const lower = measureOf(model, refOf(bounds[0]));
    const upper = measureOf(model, refOf(bounds[1]));
    if (lower && upper) plusMinus = { lower: lower.value, upper: upper.value };
  }
  const limitsAndFits = partOf(rangeEntity, "LIMITS_AND_FITS");
  if (limitsAndFits) fit = fitClass(limitsAndFits);

  return {
    kind: "dimension",
    entity: id,
    dimension: size ? "size" : "location",
    name,
    nominal,
    unit,
    plusMinus,
    limits,
    fit,
    faces,
  };
}

/**
 * LIMITS_AND_FITS(form_variance, zone_variance, grade, source). The practice is form variance
 * 'H', grade '7', zone variance 'hole'; writers also put the whole class into form_variance
 * ('G6', 'hole', '', ''), so the two are joined.
 */
function fitClass(args: StepValue[]): PmiDimension["fit"] {
  const text = (value: StepValue | undefined): string => (typeof value === "string" ? value.trim() : "");
  const formVariance = text(args[0]);
  const zone = text(args[1]).toLowerCase();
  const grade = text(args[2]);
  const designation = formVariance + grade;
  if (designation === "") return null;
  return { designation, zone: zone === "hole" || zone === "shaft" ? zone : null };
}

function geometricTolerance(model: StepModel, id: number, facesOf: (id: number) => number[]): PmiGeometricTolerance {
  const entity = model.get(id);
  const parts = entity?.parts ?? [];
  // a simple instance carries GEOMETRIC_TOLERANCE's (name, description, magnitude, target) first
  const base = partOf(entity, "GEOMETRIC_TOLERANCE") ?? parts[0]?.args ?? [];
  const kindPart = parts.find((part) => !QUALIFYING_PARTS.has(part.type)) ?? parts[0];
  const characteristic = (kindPart?.type ?? "geometric_tolerance").replace(/_TOLERANCE$/, "").toLowerCase();
  const magnitude = measureOf(model, refOf(base[2]));
  const target = refOf(base[3]);

  const modifiers: string[] = [];
  for (const part of parts) {
    if (part.type === "GEOMETRIC_TOLERANCE_WITH_MODIFIERS" || part.type === "MODIFIED_GEOMETRIC_TOLERANCE") {
      for (const value of [part.args].flat(2)) {
        const name = enumOf(value);
        if (name) modifiers.push(name);
      }
    }
  }
  // a simple instance's datum system follows GEOMETRIC_TOLERANCE's arguments
  const datumSystem =
    parts.length === 1 ? parts[0]?.args[4] : partOf(entity, "GEOMETRIC_TOLERANCE_WITH_DATUM_REFERENCE")?.[0];
  return {
    kind: "geometric_tolerance",
    entity: id,
    characteristic,
    value: magnitude?.value ?? null,
    modifiers,
    datums: refsOf(datumSystem).flatMap((ref) => datumNames(model, ref)),
    name: typeof base[0] === "string" ? base[0] : "",
    faces: target === null ? [] : sortedUnique(facesOf(target)),
  };
}

/** The identifications of the datums a DATUM_SYSTEM, compartment or reference names. */
function datumNames(model: StepModel, id: number, seen = new Set<number>()): string[] {
  if (seen.has(id)) return [];
  seen.add(id);
  const entity = model.get(id);
  const datum = partOf(entity, "DATUM");
  if (datum) return typeof datum[4] === "string" ? [datum[4]] : [];
  const system = partOf(entity, "DATUM_SYSTEM");
  if (system) return refsOf(system[4]).flatMap((ref) => datumNames(model, ref, seen));
  // DATUM_REFERENCE_COMPARTMENT / _ELEMENT(name, description, of_shape, product_definitional, base, modifiers)
  const compartment = partOf(entity, "DATUM_REFERENCE_COMPARTMENT") ?? partOf(entity, "DATUM_REFERENCE_ELEMENT");
  if (compartment) return refsOf(compartment[4]).flatMap((ref) => datumNames(model, ref, seen));
  // DATUM_REFERENCE(precedence, referenced_datum)
  const reference = partOf(entity, "DATUM_REFERENCE");
  if (reference) return refsOf(reference[1]).flatMap((ref) => datumNames(model, ref, seen));
  return [];
}

function sortedUnique(values: number[]): number[] {
  return [...new Set(values)].sort((a, b) => a - b);
}
