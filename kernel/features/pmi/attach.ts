/**
 * PMI onto recognised features. A record applies to a feature when one of its faces (by STEP
 * entity, the analysis's `stepEntity`) belongs to the feature: a pattern's callout ("4X ⌀6")
 * names the faces of every hole in it, so it reaches each of them.
 *
 * For a hole, a diameter dimension is the bore's when its nominal is the bore's diameter and the
 * counterbore's when it is the counterbore's; which one it is and its limits (from the nominal and
 * the deviations, the limits the file gives, or the ISO 286 class) are what a planner chooses
 * tools by.
 */
import type { Feature, Recognition } from "../recognition/types.ts";
import type { PartAnalysis } from "../types.ts";
import { fitLimits } from "./fits.ts";
import type { PmiDimension, PmiRecord } from "./types.ts";

/** a diameter within this of the recognised one (mm, or this share of it) is that diameter */
const DIAMETER_MATCH_MM = 0.05;
const DIAMETER_MATCH_SHARE = 0.01;

export type PmiOnFaces = PmiRecord & {
  /** the analysis's face ids of `faces` (the STEP entities) */
  faceIds: number[];
};

export interface HoleSize {
  /** which diameter of the hole the dimension is */
  target: "bore" | "counterbore";
  nominal_mm: number;
  /** the smallest and largest diameter the callout allows, mm; null when it gives no tolerance */
  min_mm: number | null;
  max_mm: number | null;
  /** the ISO 286 class when the callout gives one: "H7" */
  fit: string | null;
  /** the STEP entity of the dimension */
  entity: number;
}

export interface FeaturePmi {
  feature: number;
  /** every record touching the feature's faces */
  records: PmiOnFaces[];
  /** holes: the sizes their diameter callouts give */
  holeSizes: HoleSize[];
  /** the tightest geometric tolerance on the feature's faces (its value, mm), null when none */
  tightestTolerance_mm: number | null;
}

export interface PmiAttachment {
  records: PmiOnFaces[];
  /** features with PMI, by feature id */
  features: FeaturePmi[];
  /** records none of whose faces belongs to a feature (the stock's faces, faces not in the part) */
  unattached: number[];
}

export function attachPmi(
  records: readonly PmiRecord[],
  analysis: PartAnalysis,
  recognition: Recognition,
): PmiAttachment {
  const faceOfEntity = new Map<number, number>();
  for (const face of analysis.faces) if (face.stepEntity !== null) faceOfEntity.set(face.stepEntity, face.id);
  const featureById = new Map(recognition.features.map((feature) => [feature.id, feature]));

  const onFaces: PmiOnFaces[] = records.map((record) => ({
    ...record,
    faceIds: record.faces.flatMap((entity) => {
      const id = faceOfEntity.get(entity);
      return id === undefined ? [] : [id];
    }),
  }));
  const byFeature = new Map<number, PmiOnFaces[]>();
  const unattached: number[] = [];
  for (const record of onFaces) {
    const features = new Set(record.faceIds.flatMap((id) => recognition.faceFeature[id] ?? []));
    if (features.size === 0) unattached.push(record.entity);
    for (const id of features) {
      const list = byFeature.get(id);
      if (list) list.push(record);
      else byFeature.set(id, [record]);
    }
  }

  const features: FeaturePmi[] = [...byFeature.entries()]
    .sort(([a], [b]) => a - b)
    .map(([id, list]) => {
      const feature = featureById.get(id) as Feature;
      const tolerances = list.flatMap((record) =>
        record.kind === "geometric_tolerance" && record.value !== null && record.value > 0 ? [record.value] : [],
      );
      return {
        feature: id,
        records: list,
        holeSizes: distinctSizes(list.flatMap((record) => holeSize(feature, record))),
        tightestTolerance_mm: tolerances.length > 0 ? Math.min(...tolerances) : null,
      };
    });
  return { records: onFaces, features, unattached };
}

function holeSize(feature: Feature, record: PmiRecord): HoleSize[] {
  if (!feature.hole || record.kind !== "dimension" || record.dimension !== "size" || record.name !== "diameter")
    return [];
  if (record.nominal === null) return [];
  const matches = (diameter: number | undefined) =>
    diameter !== undefined &&
    Math.abs(diameter - (record.nominal as number)) <= Math.max(DIAMETER_MATCH_MM, DIAMETER_MATCH_SHARE * diameter);
  const target = matches(feature.hole.diameter_mm)
    ? "bore"
    : matches(feature.hole.counterbore?.diameter_mm)
      ? "counterbore"
      : null;
  if (target === null) return [];
  const [min, max] = sizeLimits(record);
  return [
    {
      target,
      nominal_mm: record.nominal,
      min_mm: min,
      max_mm: max,
      fit: record.fit?.designation ?? null,
      entity: record.entity,
    },
  ];
}

/** Without the binary noise of a sum (14.2875 - 0.2032 is 14.0843). */
function clean(value: number): number {
  return Number(value.toPrecision(12));
}

/** One size per bore: a hole with a counterbore at each end has the same callout twice. */
function distinctSizes(sizes: HoleSize[]): HoleSize[] {
  const seen = new Set<string>();
  return sizes.filter((size) => {
    const key = `${size.target} ${size.min_mm} ${size.max_mm} ${size.fit}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function sizeLimits(record: PmiDimension): [number | null, number | null] {
  if (record.limits) return [record.limits.lower, record.limits.upper];
  if (record.plusMinus && record.nominal !== null)
    return [clean(record.nominal + record.plusMinus.lower), clean(record.nominal + record.plusMinus.upper)];
  if (record.fit && record.nominal !== null) {
    const limits = fitLimits(record.fit.designation, record.nominal);
    if (limits) return [clean(record.nominal + limits.lower), clean(record.nominal + limits.upper)];
  }
  return [null, null];
}

/**
 * Sets each hole's `callout` from its bore's sizes: the narrowest band when several callouts name
 * the bore (a diameter tolerance and a limits-and-fits class). Holes without one keep none.
 */
export function applyHoleCallouts(attachment: PmiAttachment, recognition: Recognition): void {
  const features = new Map(recognition.features.map((feature) => [feature.id, feature]));
  for (const entry of attachment.features) {
    const hole = features.get(entry.feature)?.hole;
    if (!hole) continue;
    const bores = entry.holeSizes.filter(
      (size): size is HoleSize & { min_mm: number; max_mm: number } =>
        size.target === "bore" && size.min_mm !== null && size.max_mm !== null,
    );
    const narrowest = bores.sort((a, b) => a.max_mm - a.min_mm - (b.max_mm - b.min_mm))[0];
    if (!narrowest) continue;
    const fit = narrowest.fit ? ` ${narrowest.fit}` : "";
    hole.callout = {
      min_mm: narrowest.min_mm,
      max_mm: narrowest.max_mm,
      fit: narrowest.fit,
      label: `⌀${narrowest.nominal_mm}${fit} (${narrowest.min_mm} to ${narrowest.max_mm} mm, PMI #${narrowest.entity})`,
    };
  }
}
