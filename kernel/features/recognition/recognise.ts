/**
 * Rule-based machining feature recognition over a face analysis (PartAnalysis). In order:
 *
 * 1. stock faces: planes on the stock box (stock.ts);
 * 2. holes and O-rings: coaxial stacks around bores (holes.ts);
 * 3. rounds: convex blends running smoothly into their neighbours (edge-features.ts); other
 *    convex curved faces (bosses, shafts) are "other";
 * 4. the remaining faces join into groups across concave edges (groups.ts); a group of one face
 *    is a chamfer when it bevels an edge; larger groups are read as 2.5D removals and classed by
 *    their profile (interpret.ts, profile.ts, prismatic.ts); a group all of whose planes are
 *    planes of a larger group is a piece of that feature a crossing feature cut off, and joins
 *    it (fragments.ts).
 *
 * Every face gets exactly one class: the class of the one feature it belongs to, "stock", or
 * "other" when no rule explains it (a warning names those faces). A face never belongs to two
 * features: groups are disjoint, and faces a hole claims leave the groups before they form.
 * Where features cut into each other, each face stays with the feature whose faces it meets at
 * concave edges (MFCAD labels a face modified by a later feature with its original feature,
 * which agrees: the later feature meets it at convex edges).
 */
import type { BoundingBox, PartAnalysis, Vec3 } from "../types.ts";
import { chamferOf, looseBevelOf, roundOf } from "./edge-features.ts";
import { mergeFragments } from "./fragments.ts";
import { concaveGroups } from "./groups.ts";
import { findHoles } from "./holes.ts";
import { measurePrismatic } from "./measure.ts";
import { PartIndex } from "./part-index.ts";
import { classifyPrismatic } from "./prismatic.ts";
import { findStockFaces } from "./stock.ts";
import type { FaceClass, Feature, Recognition, RecognitionOptions, RecognitionWarning } from "./types.ts";
import { roundNumber, rounded } from "../../math/vec3.ts";

const DEFAULT_ANGLE_TOLERANCE = (0.5 * Math.PI) / 180;

export function recogniseFeatures(analysis: PartAnalysis, options: RecognitionOptions = {}): Recognition {
  const started = performance.now();
  const warnings: RecognitionWarning[] = [];
  const box = options.stockBox ?? analysis.bbox;
  const faceCount = analysis.faces.length;
  const faceClasses: FaceClass[] = new Array<FaceClass>(faceCount).fill("other");
  const faceFeature: (number | null)[] = new Array<number | null>(faceCount).fill(null);
  const features: Feature[] = [];
  if (box === null || faceCount === 0) {
    return {
      faceClasses,
      faceFeature,
      features,
      stockBox: null,
      warnings: [{ code: "no_faces", message: "The part has no faces to recognise features on." }],
      timeMs: performance.now() - started,
    };
  }
  const diagonal = Math.hypot(box.max[0] - box.min[0], box.max[1] - box.min[1], box.max[2] - box.min[2]);
  const angle = options.angleTolerance ?? DEFAULT_ANGLE_TOLERANCE;
  const index = new PartIndex(analysis, {
    distance: options.distanceTolerance ?? Math.max(1e-4, diagonal * 1e-4),
    parallelCos: Math.cos(angle),
    perpendicularCos: Math.sin(angle),
  });
  if (!analysis.complete)
    warnings.push({
      code: "analysis_incomplete",
      message: "The face analysis is incomplete; features were recognised on the faces it has.",
    });
  if (!analysis.closed)
    warnings.push({
      code: "open_part",
      message:
        "The part is not a closed solid; features next to its open or non-manifold edges may be missing or misread.",
    });

  // 1. stock
  const candidates = new Set<number>();
  const stock = new Set(findStockFaces(index, box).map((s) => s.face));
  for (const face of analysis.faces) {
    if (stock.has(face.id)) faceClasses[face.id] = "stock";
    else if (face.area > 0 || face.edges.length > 0) candidates.add(face.id);
  }
  const add = (feature: Omit<Feature, "id">): void => {
    const id = features.length;
    const full: Feature = { id, ...feature, faces: [...feature.faces].sort((a, b) => a - b) };
    features.push(full);
    for (const face of full.faces) {
      faceClasses[face] = full.class;
      faceFeature[face] = id;
    }
  };

  // 2. holes and O-rings
  for (const hole of findHoles(index, candidates)) {
    add({
      class: hole.class,
      faces: hole.faces,
      access_direction: hole.access_direction,
      other_access_directions: hole.other_access_directions,
      depth_mm: hole.depth_mm,
      floor_faces: hole.floor_faces,
      wall_faces: hole.wall_faces,
      min_internal_corner_radius_mm: null,
      min_width_mm: hole.min_width_mm,
      open_sides: [],
      ...(hole.hole ? { hole: hole.hole } : {}),
      reasons: hole.reasons,
    });
  }

  // 3. rounds
  for (const id of [...candidates]) {
    const face = index.face(id);
    const round = roundOf(index, face);
    if (round === null) continue;
    candidates.delete(id);
    add(edgeFeature(id, round.class, round.access_direction, round.width_mm, round.reasons));
  }

  // bosses, shafts, domes: convex curved faces that are no round. The taxonomy has no class for
  // them, and in a group they would pass for walls of a pocket
  const convex: number[] = [];
  for (const id of [...candidates]) {
    const face = index.face(id);
    if (face.surface !== "plane" && face.sense === "convex" && chamferOf(index, face) === null) {
      candidates.delete(id);
      convex.push(id);
    }
  }
  if (convex.length > 0) {
    warnings.push({
      code: "convex_faces",
      message: `${convex.length} convex curved faces (bosses, shafts) are no machining feature of the taxonomy; their class is "other".`,
      faces: convex,
    });
  }

  // 4. concave groups: lone faces (chamfers, ring grooves), then 2.5D removals
  const prismatic: { group: number[]; result: NonNullable<ReturnType<typeof classifyPrismatic>> }[] = [];
  for (const group of concaveGroups(index, candidates)) {
    if (group.length === 1) {
      const face = index.face(group[0] as number);
      const chamfer = chamferOf(index, face) ?? looseBevelOf(index, face);
      if (chamfer !== null) {
        add(edgeFeature(face.id, "chamfer", chamfer.access_direction, chamfer.width_mm, chamfer.reasons));
        continue;
      }
      if (face.surface === "torus" && face.sense === "concave") {
        add({
          ...edgeFeature(
            face.id,
            "o_ring",
            face.axis?.direction ?? null,
            face.minorRadius !== null ? 2 * face.minorRadius : null,
            ["R-o-ring-torus: a concave torus on its own: a round-profiled ring groove"],
          ),
          depth_mm: face.minorRadius,
        });
        continue;
      }
    }
    const result = classifyPrismatic(index, group);
    if (result !== null) prismatic.push({ group, result });
  }
  for (const { group, result } of mergeFragments(index, prismatic)) {
    const measures = measurePrismatic(index, group, result);
    add({ class: result.class, faces: group, ...measures, reasons: result.reasons });
  }

  const unexplained = faceClasses.flatMap((cls, id) => (cls === "other" && !convex.includes(id) ? [id] : []));
  if (unexplained.length > 0) {
    warnings.push({
      code: "faces_unexplained",
      message: `${unexplained.length} faces fit no feature rule; their class is "other".`,
      faces: unexplained,
    });
  }
  return {
    faceClasses,
    faceFeature,
    features: features.map(tidy),
    stockBox: box,
    warnings,
    timeMs: performance.now() - started,
  };
}

function edgeFeature(
  face: number,
  cls: "chamfer" | "round" | "o_ring",
  access: Vec3 | null,
  width: number | null,
  reasons: string[],
): Omit<Feature, "id"> {
  return {
    class: cls,
    faces: [face],
    access_direction: access,
    other_access_directions: [],
    depth_mm: null,
    floor_faces: [],
    wall_faces: [],
    min_internal_corner_radius_mm: null,
    min_width_mm: width,
    open_sides: [],
    reasons,
  };
}

/** Rounded numbers for output (lengths to 0.1 µm, directions to 1e-6). */
function tidy(feature: Feature): Feature {
  const dir = (d: Vec3) => rounded(d, 6);
  const num = (x: number | null) => (x === null || !Number.isFinite(x) ? null : roundNumber(x, 4));
  const out: Feature = {
    ...feature,
    access_direction: feature.access_direction === null ? null : dir(feature.access_direction),
    other_access_directions: feature.other_access_directions.map(dir),
    depth_mm: num(feature.depth_mm),
    min_internal_corner_radius_mm: num(feature.min_internal_corner_radius_mm),
    min_width_mm: num(feature.min_width_mm),
    open_sides: feature.open_sides.map(dir),
  };
  if (feature.hole) {
    const h = feature.hole;
    out.hole = {
      ...h,
      diameter_mm: roundNumber(h.diameter_mm, 4),
      depth_mm: roundNumber(h.depth_mm, 4),
      axis: { origin: rounded(h.axis.origin, 4), direction: dir(h.axis.direction) },
      ...(h.counterbore
        ? {
            counterbore: {
              diameter_mm: roundNumber(h.counterbore.diameter_mm, 4),
              depth_mm: roundNumber(h.counterbore.depth_mm, 4),
            },
          }
        : {}),
      ...(h.countersink
        ? {
            countersink: {
              diameter_mm: roundNumber(h.countersink.diameter_mm, 4),
              angle_deg: roundNumber(h.countersink.angle_deg, 2),
            },
          }
        : {}),
      ...(h.drill_point_angle_deg !== undefined
        ? { drill_point_angle_deg: roundNumber(h.drill_point_angle_deg, 2) }
        : {}),
    };
  }
  return out;
}

export type { BoundingBox };
