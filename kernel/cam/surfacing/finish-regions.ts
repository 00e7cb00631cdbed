/**
 * What 3D finishing of some faces works on: the faces' triangles split by slope into shallow ones
 * (parallel passes) and steep ones (waterline), each kind as clusters of XY boxes, and whether a
 * cutter location touches the faces.
 *
 * A CL point touches the faces when the drop against their triangles alone equals the drop
 * against everything (part, plugs, workholding): the faces lift the cutter there and nothing
 * else lifts it higher. Passes are clipped to such points, so they leave the flat floors and
 * walls around the faces to the 2.5D finishing and never run over the jaws.
 */
import { triangleCross } from "../../math/triangle.ts";
import type { TriangleSoup } from "../types.ts";
import type { SurfaceCutter } from "./cutters.ts";
import { DropCutter } from "./drop-cutter.ts";
import type { BoxXY } from "./triangle-grid.ts";

/** the faces' drop within this of the whole drop: the faces are what the cutter touches (mm) */
const CONTACT_MM = 1e-6;
/**
 * A triangle this close to the split (in the normal's z) is shallow: a plane at the split angle
 * itself (NIST CTC-01's 45° faces) had its triangles dealt to both classes by rounding, each
 * class's passes cut to its own triangles, and strips of it left 0.19 to 0.55 mm uncut.
 */
const SPLIT_SLACK = 1e-4;
/** the faces' own drop where none of them is under the cutter: far below anything */
const NOWHERE = -1e9;

/** One face's triangles of one slope class: their box, heights and whether a CL point touches them. */
export interface SlopeClass {
  /** the triangles' XY box grown by the cutter's radius: where CL points touching them lie */
  box: BoxXY;
  /** the triangles' lowest and highest z */
  low: number;
  high: number;
  touches(x: number, y: number, z: number): boolean;
}

export interface FinishRegions {
  shallow: SlopeClass[];
  steep: SlopeClass[];
}

export interface FacesToFinish {
  /** the part's triangles in the setup's frame (facing out) */
  part: TriangleSoup;
  /** per triangle of `part`: its face id */
  triangleFaces: Uint32Array;
  faces: readonly number[];
}

/**
 * The faces' triangles split at `splitDeg` from level (the header's classes), per face: a face's
 * own drop-cutter is small, and its passes cover it alone (a box round several faces took in
 * the floors between them, a whole NIST part).
 */
export function finishRegions(target: FacesToFinish, cutter: SurfaceCutter, splitDeg: number): FinishRegions {
  const wanted = new Set(target.faces);
  const cosSplit = Math.cos((splitDeg * Math.PI) / 180);
  const { positions, indices } = target.part;
  const shallow = new Map<number, number[]>();
  const steep = new Map<number, number[]>();
  for (let t = 0; t < indices.length / 3; t += 1) {
    const face = target.triangleFaces[t] as number;
    if (!wanted.has(face)) continue;
    const [, nz] = areaAndNormalZ(positions, indices, t);
    if (nz <= 0) continue;
    const into = nz >= cosSplit - SPLIT_SLACK ? shallow : steep;
    const corners = into.get(face) ?? [];
    corners.push(indices[3 * t] as number, indices[3 * t + 1] as number, indices[3 * t + 2] as number);
    into.set(face, corners);
  }
  const classes = (byFace: Map<number, number[]>) =>
    [...byFace.keys()].sort((a, b) => a - b).map((face) => slopeClass(positions, byFace.get(face) as number[], cutter));
  return { shallow: classes(shallow), steep: classes(steep) };
}

function slopeClass(positions: Float32Array, corners: number[], cutter: SurfaceCutter): SlopeClass {
  const soup: TriangleSoup = { positions, indices: Uint32Array.from(corners) };
  const drop = new DropCutter(soup, cutter, { floor: NOWHERE });
  const box = { minX: Infinity, minY: Infinity, maxX: -Infinity, maxY: -Infinity };
  let low = Infinity;
  let high = -Infinity;
  for (const corner of corners) {
    const x = positions[3 * corner] as number;
    const y = positions[3 * corner + 1] as number;
    const z = positions[3 * corner + 2] as number;
    box.minX = Math.min(box.minX, x - cutter.radius);
    box.maxX = Math.max(box.maxX, x + cutter.radius);
    box.minY = Math.min(box.minY, y - cutter.radius);
    box.maxY = Math.max(box.maxY, y + cutter.radius);
    low = Math.min(low, z);
    high = Math.max(high, z);
  }
  return { box, low, high, touches: (x, y, z) => drop.dropAt(x, y) >= z - CONTACT_MM };
}

/** A triangle's area and the z of its unit normal (the part's triangles face out: planner/read-part.ts facingOut). */
export function areaAndNormalZ(positions: ArrayLike<number>, indices: ArrayLike<number>, t: number): [number, number] {
  const [nx, ny, nz] = triangleCross(
    positions,
    3 * (indices[3 * t] as number),
    3 * (indices[3 * t + 1] as number),
    3 * (indices[3 * t + 2] as number),
  );
  const length = Math.hypot(nx, ny, nz);
  return length === 0 ? [0, 0] : [length / 2, nz / length];
}
