/**
 * Stock faces: planar faces lying on a face of the stock box with their normal pointing out of
 * it. A stock face a feature cut into (a slot across the top) is still on its box plane, so it
 * stays stock however many pieces the features left of it.
 */
import type { BoundingBox, FaceAnalysis, Vec3 } from "../types.ts";
import type { PartIndex } from "./part-index.ts";

export interface StockFace {
  face: number;
  /** the box side: "+X" ... "-Z" */
  side: string;
}

const SIDES: { name: string; axis: 0 | 1 | 2; sign: 1 | -1 }[] = [
  { name: "+X", axis: 0, sign: 1 },
  { name: "-X", axis: 0, sign: -1 },
  { name: "+Y", axis: 1, sign: 1 },
  { name: "-Y", axis: 1, sign: -1 },
  { name: "+Z", axis: 2, sign: 1 },
  { name: "-Z", axis: 2, sign: -1 },
];

/** The box side `face` lies on, or null. */
export function stockSide(face: FaceAnalysis, box: BoundingBox, index: PartIndex): string | null {
  if (face.surface !== "plane" || face.normal === null || face.area <= 0) return null;
  const tol = index.tolerance.distance;
  for (const side of SIDES) {
    const axisDirection: Vec3 = [0, 0, 0];
    axisDirection[side.axis] = side.sign;
    if (!index.sameDirection(face.normal, axisDirection)) continue;
    const plane = side.sign > 0 ? box.max[side.axis] : box.min[side.axis];
    // on the plane: its centroid, and its box (enlarged by the face's tolerance) is flat there
    const flat = (face.bbox.max[side.axis] as number) - (face.bbox.min[side.axis] as number) <= 2 * tol;
    if (flat && Math.abs(face.centroid[side.axis] - (plane as number)) <= tol) {
      return side.name;
    }
  }
  return null;
}

export function findStockFaces(index: PartIndex, box: BoundingBox): StockFace[] {
  const found: StockFace[] = [];
  for (const face of index.faces) {
    const side = stockSide(face, box, index);
    if (side !== null) found.push({ face: face.id, side });
  }
  return found;
}
