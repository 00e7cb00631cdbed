/**
 * A setup's sloped and curved faces in groups, each finished by an operation of its own
 * (surface-finishing-step.ts): the simulation judges an operation as one message on its thread,
 * which the planner gives up on after a minute without progress (verify-thread.ts), and NIST
 * STC-06's domes finished whole in one operation outran it.
 *
 * Faces whose XY boxes, grown by the tool's radius, overlap belong together (a dome and the
 * fillet round its foot: one pass crosses both); those groups are taken in order along X and
 * packed into operations of at most GROUP_PASS_MM of passes each, estimated from the faces'
 * area over the passes' spacing. A group larger than that is cut between its faces, taken in
 * order along its longer side; a single face larger than that (a NIST STC-06 dome) is cut into
 * bands of the tip's height, equally high, an operation each.
 */
import { areaAndNormalZ } from "../surfacing/finish-regions.ts";
import type { ZBand } from "../surfacing/surface-passes.ts";
import type { TriangleSoup } from "../types.ts";

/**
 * The passes' length an operation is given at most (mm), estimated: NIST STC-06's +Z 3D
 * finishing with its domes reached whole ran about 100,000 moves; at 8 m a group of its made
 * 24,000 moves, which the simulation thread judged in 30 s beside a loaded planner, half its
 * minute.
 */
export const GROUP_PASS_MM = 4_000;

interface FaceBox {
  face: number;
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
  /** the face's area facing up (mm²) */
  area: number;
  /** its lowest and highest point */
  low: number;
  high: number;
}

/** Faces an operation finishes, within a band of the tip's heights when one face is cut in several. */
export interface SurfaceGroup {
  faces: number[];
  band: ZBand | null;
}

export interface FaceGroupsInput {
  soup: TriangleSoup;
  triangleFaces: Uint32Array;
  faces: readonly number[];
  /** the tool's radius (mm): faces this close in XY share passes */
  radius: number;
  /** the passes' spacing (mm): the faces' area over it estimates their passes' length */
  spacing: number;
  /** the most passes' length (mm) a group is given; GROUP_PASS_MM by default */
  passMm?: number;
}

/** The faces in groups, each's faces ascending; every face in exactly one group, or in each band of one. */
export function faceGroups(input: FaceGroupsInput): SurfaceGroup[] {
  const budget = (input.passMm ?? GROUP_PASS_MM) * input.spacing;
  const boxes = faceBoxes(input);
  const clusters = overlapping(boxes, input.radius).sort((a, b) => centreX(a) - centreX(b));
  const groups: SurfaceGroup[] = [];
  let current: FaceBox[] = [];
  let area = 0;
  const close = () => {
    if (current.length > 0) groups.push({ faces: current.map((b) => b.face).sort((a, b) => a - b), band: null });
    current = [];
    area = 0;
  };
  for (const cluster of clusters) {
    for (const piece of cut(cluster, budget)) {
      const pieceArea = areaOf(piece);
      const alone = piece[0] as FaceBox;
      if (piece.length === 1 && pieceArea > budget) {
        groups.push(...bands(alone, Math.ceil(pieceArea / budget), input.radius));
        continue;
      }
      if (area + pieceArea > budget) close();
      current.push(...piece);
      area += pieceArea;
    }
  }
  close();
  return groups;
}

/** A face in `count` bands of the tip's height, from a radius below its lowest point to its top, the outer ones open. */
function bands(box: FaceBox, count: number, radius: number): SurfaceGroup[] {
  const low = box.low - radius;
  const height = (box.high - low) / count;
  return Array.from({ length: count }, (_, k) => ({
    faces: [box.face],
    band: { low: k === 0 ? -Infinity : low + k * height, high: k === count - 1 ? Infinity : low + (k + 1) * height },
  }));
}

function faceBoxes(input: FaceGroupsInput): FaceBox[] {
  const wanted = new Set(input.faces);
  const byFace = new Map<number, FaceBox>();
  const { positions, indices } = input.soup;
  for (let t = 0; t < indices.length / 3; t += 1) {
    const face = input.triangleFaces[t] as number;
    if (!wanted.has(face)) continue;
    const [area, nz] = areaAndNormalZ(positions, indices, t);
    if (nz <= 0) continue;
    let box = byFace.get(face);
    if (box === undefined) {
      box = {
        face,
        minX: Infinity,
        minY: Infinity,
        maxX: -Infinity,
        maxY: -Infinity,
        area: 0,
        low: Infinity,
        high: -Infinity,
      };
      byFace.set(face, box);
    }
    box.area += area;
    for (let k = 0; k < 3; k += 1) {
      const v = indices[3 * t + k] as number;
      box.minX = Math.min(box.minX, positions[3 * v] as number);
      box.maxX = Math.max(box.maxX, positions[3 * v] as number);
      box.minY = Math.min(box.minY, positions[3 * v + 1] as number);
      box.maxY = Math.max(box.maxY, positions[3 * v + 1] as number);
      box.low = Math.min(box.low, positions[3 * v + 2] as number);
      box.high = Math.max(box.high, positions[3 * v + 2] as number);
    }
  }
  // a face with no triangle facing up still goes somewhere: alone, of no area
  for (const face of input.faces)
    if (!byFace.has(face)) byFace.set(face, { face, minX: 0, minY: 0, maxX: 0, maxY: 0, area: 0, low: 0, high: 0 });
  return [...byFace.values()];
}

/** The boxes in clusters whose boxes grown by `by` overlap (union-find; a setup has tens of faces). */
function overlapping(boxes: readonly FaceBox[], by: number): FaceBox[][] {
  const parent = boxes.map((_, k) => k);
  const root = (k: number): number => {
    let r = k;
    while (parent[r] !== r) r = parent[r] as number;
    parent[k] = r;
    return r;
  };
  for (let a = 0; a < boxes.length; a += 1)
    for (let b = a + 1; b < boxes.length; b += 1) {
      const p = boxes[a] as FaceBox;
      const q = boxes[b] as FaceBox;
      const apart =
        p.minX - by > q.maxX + by ||
        q.minX - by > p.maxX + by ||
        p.minY - by > q.maxY + by ||
        q.minY - by > p.maxY + by;
      if (!apart) parent[root(a)] = root(b);
    }
  const clusters = new Map<number, FaceBox[]>();
  boxes.forEach((box, k) => {
    const r = root(k);
    clusters.set(r, [...(clusters.get(r) ?? []), box]);
  });
  return [...clusters.values()];
}

/** A cluster cut into pieces of at most `budget` area, its faces in order along its longer side. */
function cut(cluster: FaceBox[], budget: number): FaceBox[][] {
  if (areaOf(cluster) <= budget) return [cluster];
  const wide = Math.max(...cluster.map((b) => b.maxX)) - Math.min(...cluster.map((b) => b.minX));
  const deep = Math.max(...cluster.map((b) => b.maxY)) - Math.min(...cluster.map((b) => b.minY));
  const along = wide >= deep ? centreX : centreY;
  const pieces: FaceBox[][] = [];
  let piece: FaceBox[] = [];
  let area = 0;
  for (const box of [...cluster].sort((a, b) => along([a]) - along([b]))) {
    if (piece.length > 0 && area + box.area > budget) {
      pieces.push(piece);
      piece = [];
      area = 0;
    }
    piece.push(box);
    area += box.area;
  }
  if (piece.length > 0) pieces.push(piece);
  return pieces;
}

const areaOf = (boxes: readonly FaceBox[]) => boxes.reduce((sum, b) => sum + b.area, 0);
const centreX = (boxes: readonly FaceBox[]) => boxes.reduce((sum, b) => sum + b.minX + b.maxX, 0) / (2 * boxes.length);
const centreY = (boxes: readonly FaceBox[]) => boxes.reduce((sum, b) => sum + b.minY + b.maxY, 0) / (2 * boxes.length);
