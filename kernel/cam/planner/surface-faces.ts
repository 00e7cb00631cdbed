/**
 * The faces of a setup that 3D finishing takes (surfacing/surface-finishing.ts): of the faces the
 * setup plan chose the setup for, those neither flat floors (normal along +Z) nor vertical walls
 * (normal across Z) that face up: sloped planes, domes, fillets, cones, free-form faces. Floors
 * and walls stay with the 2.5D finishing, troughs with the ball along their axis (troughs.ts),
 * a hole's faces (countersinks, cones at a drilled bottom) with the hole making.
 *
 * A face's slope is its triangles' in the setup's frame, so a face belongs by how it lies in
 * this setup, whatever its surface type: a cylinder standing upright is a wall, one lying across
 * the axis (a fillet between a floor and a wall) is curved.
 */
import type { FaceAnalysis } from "../../features/types.ts";
import { areaAndNormalZ } from "../surfacing/finish-regions.ts";
import type { TriangleSoup } from "../types.ts";

/** a triangle within this of level (cos of about 1.1°) is a floor's */
const LEVEL_NZ = 0.9998;
/** a triangle within this of upright (about 1°) is a wall's */
const UPRIGHT_NZ = 0.0175;
/**
 * A face is curved or sloped when this share of its area is neither level nor upright and faces
 * up: a fillet's tessellation has a level strip at its floor and an upright one at its wall.
 */
const SLOPED_SHARE = 0.2;

/** The sloped and curved faces a setup finishes in 3D. */
export interface SurfaceFaces {
  /** face ids, ascending */
  faces: number[];
  /** the tightest concave radius among them (mm), where their surfaces say; null when none does */
  concave_radius_mm: number | null;
}

export interface SurfaceFaceSource {
  /** the part's triangles in the setup's frame, and each one's face */
  soup: TriangleSoup;
  triangleFaces: Uint32Array;
  /** the faces the setup plan chose this setup for */
  faces: readonly number[];
}

/** See the header; `excluded` faces (troughs, holes) are left to their own operations. */
export function surfaceFaces(
  setup: SurfaceFaceSource,
  analysis: readonly FaceAnalysis[],
  excluded: ReadonlySet<number>,
): SurfaceFaces {
  const owned = new Set(setup.faces.filter((face) => !excluded.has(face)));
  const total = new Map<number, number>();
  const sloped = new Map<number, number>();
  const { positions, indices } = setup.soup;
  for (let t = 0; t < indices.length / 3; t += 1) {
    const face = setup.triangleFaces[t] as number;
    if (!owned.has(face)) continue;
    const [area, nz] = areaAndNormalZ(positions, indices, t);
    total.set(face, (total.get(face) ?? 0) + area);
    if (nz > UPRIGHT_NZ && nz < LEVEL_NZ) sloped.set(face, (sloped.get(face) ?? 0) + area);
  }
  const faces = [...sloped.keys()]
    .filter((face) => (sloped.get(face) as number) >= SLOPED_SHARE * (total.get(face) as number))
    .sort((a, b) => a - b);
  const byId = new Map(analysis.map((face) => [face.id, face]));
  const radii = faces.flatMap((id) => {
    const radius = concaveRadius(byId.get(id));
    return radius === null ? [] : [radius];
  });
  return { faces, concave_radius_mm: radii.length > 0 ? Math.min(...radii) : null };
}

/** The radius a tool must fit in a concave face: a cylinder's or sphere's, a torus's tube; null when convex or unknown. */
function concaveRadius(face: FaceAnalysis | undefined): number | null {
  if (face === undefined || face.sense !== "concave") return null;
  if (face.surface === "torus") return face.minorRadius;
  if (face.surface === "cylinder" || face.surface === "sphere") return face.radius;
  return null;
}
