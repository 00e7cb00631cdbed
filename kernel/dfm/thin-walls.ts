/**
 * Walls (and floors) thinner than the material allows, measured on the geometry: from sample
 * points on each planar face a ray runs along the inward normal through the material; where it
 * leaves through a planar face parallel to the first (within 5°), the distance is the wall's
 * thickness there. One item per pair of faces, with the thinnest sample. Walls against a curved
 * face (a hole near an edge) are not measured.
 */
import { DirectionalRays } from "../features/setups/raycast.ts";
import type { FaceAnalysis } from "../features/types.ts";
import { dot, type Vec3 } from "../math/vec3.ts";
import type { DesignFeedbackInput, DesignFeedbackItem, FacedMesh } from "./types.ts";
import { minWallMm } from "./wall-limits.ts";

/** the far face is this parallel to the near one */
const PARALLEL = Math.cos((5 * Math.PI) / 180);
/** triangles sampled per face, at most (evenly spread over its triangles) */
const MAX_TRIANGLES_PER_FACE = 48;
/** a ray starts this far inside the face, past its own triangles */
const T_MIN_MM = 1e-3;

export function thinWalls(input: Pick<DesignFeedbackInput, "analysis" | "mesh" | "material">): DesignFeedbackItem[] {
  const limit = minWallMm(input.material);
  return wallThicknesses(input, limit).map((wall) => ({
    kind: "thin_wall",
    severity: "warning",
    faces: wall.faces,
    feature: null,
    measured: { value: round2(wall.mm), unit: "mm" },
    limit: { value: limit, unit: "mm" },
    details: { material: input.material ?? "unknown" },
    message_key: "thin_wall",
  }));
}

export interface WallThickness {
  /** the two faces, the lower id first */
  faces: [number, number];
  /** the thinnest sample between them */
  mm: number;
}

/** Pairs of opposite parallel planar faces with less than `belowMm` of material between them, thinnest first. */
export function wallThicknesses(
  input: Pick<DesignFeedbackInput, "analysis" | "mesh">,
  belowMm: number,
): WallThickness[] {
  const limit = belowMm;
  const { faces } = input.analysis;
  const triangles = trianglesByFace(input.mesh, faces.length);
  const rays = new Map<string, DirectionalRays>();
  const thinnest = new Map<string, WallThickness>();
  for (const face of faces) {
    if (face.surface !== "plane" || face.normal === null) continue;
    const inward: Vec3 = [-face.normal[0], -face.normal[1], -face.normal[2]];
    const key = inward.map((c) => c.toFixed(4)).join(",");
    let caster = rays.get(key);
    if (caster === undefined) {
      caster = new DirectionalRays(input.mesh, inward);
      rays.set(key, caster);
    }
    for (const point of samplePoints(input.mesh, triangles[face.id] ?? [])) {
      const hit = caster.firstHit(point, T_MIN_MM);
      if (hit === null || hit.t >= limit) continue;
      const far = faces[input.mesh.faceIds[input.mesh.indices[3 * hit.triangle] as number] as number];
      if (far === undefined || far.id === face.id || !parallelOpposite(far, inward)) continue;
      const pair: [number, number] = face.id < far.id ? [face.id, far.id] : [far.id, face.id];
      const id = pair.join("/");
      const known = thinnest.get(id);
      if (known === undefined || hit.t < known.mm) thinnest.set(id, { faces: pair, mm: hit.t });
    }
  }
  return [...thinnest.values()].sort((a, b) => a.mm - b.mm || a.faces[0] - b.faces[0]);
}

/** the far face is a plane facing along the ray: the material ends there */
function parallelOpposite(face: FaceAnalysis, inward: Vec3): boolean {
  return face.surface === "plane" && face.normal !== null && dot(face.normal, inward) > PARALLEL;
}

function trianglesByFace(mesh: FacedMesh, faceCount: number): number[][] {
  const byFace: number[][] = Array.from({ length: faceCount }, () => []);
  for (let t = 0; t < mesh.indices.length / 3; t++) {
    byFace[mesh.faceIds[mesh.indices[3 * t] as number] as number]?.push(t);
  }
  return byFace;
}

/** per sampled triangle its centroid and the three points halfway between it and the corners */
function samplePoints(mesh: FacedMesh, triangles: readonly number[]): Vec3[] {
  const step = Math.max(1, Math.ceil(triangles.length / MAX_TRIANGLES_PER_FACE));
  const points: Vec3[] = [];
  for (let i = 0; i < triangles.length; i += step) {
    const t = triangles[i] as number;
    const corners = [0, 1, 2].map((k) => vertex(mesh, mesh.indices[3 * t + k] as number));
    const centroid: Vec3 = [0, 1, 2].map(
      (axis) => (corners[0]![axis]! + corners[1]![axis]! + corners[2]![axis]!) / 3,
    ) as Vec3;
    points.push(centroid);
    for (const corner of corners) {
      points.push([(centroid[0] + corner[0]) / 2, (centroid[1] + corner[1]) / 2, (centroid[2] + corner[2]) / 2]);
    }
  }
  return points;
}

function vertex(mesh: FacedMesh, v: number): Vec3 {
  return [mesh.positions[3 * v] as number, mesh.positions[3 * v + 1] as number, mesh.positions[3 * v + 2] as number];
}

const round2 = (x: number): number => Math.round(x * 100) / 100;
