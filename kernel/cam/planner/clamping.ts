/**
 * How a setup is held (issue 35, items 2 and 4): which two faces the jaws (or a plate's edge
 * clamps) close on, how deep, and where the holder's solids stand, as the plan's
 * WorkholdingSummary. Pure functions; hold-setup.ts calls them for each setup before its
 * toolpaths are made. What differs between a vise and a plate is the Holder (holders.ts): its
 * grip, what it takes across, its layout; the choice of faces is the same.
 *
 * The setup's frame (frames.ts): x along the jaws, y across them, z up the tool axis, the stock
 * at x, y >= 0, z <= 0. The jaws close across y, the frame's own; across x when the stock (or
 * what is left of it) is wider than the holder takes across y.
 *
 * - The first setup (firstClamping) grips the blank's two sides over its lowest `grip` mm. The
 *   generators will keep WORKHOLDING_KEEP_OUT_MM from the jaws, so the blank holds without the
 *   jaws' band reaching the part when the allowance below the part is at least grip + keep-out;
 *   else the plan needs more stock (stock_allowance_needed, with the clamping it would still
 *   have: the band then covers part of the part, left for the turned-over setup).
 * - A later setup (laterClamping) grips what the setups before it left: the outermost material
 *   in the band of its lowest `grip` mm, read from the voxel model across setups. A side at the
 *   stock box's face grips the blank there, where enough of the blank's own face is left; any
 *   other side snaps to the part's outermost plane at that extent (its plane exactly, so the
 *   jaws touch it), all its coplanar pieces together, finished where the band crosses them (no
 *   material thicker than the tolerance there), each reaching MIN_GRIP_MM up the band (sideOf).
 *   The grip reported is how far up the band the jaws touch. Soft jaws, when allowed, take a
 *   side no planar face gives. Words name the sides as the workpiece's ("the part's -Y side").
 */
import type { Feature } from "../../features/recognition/types.ts";
import { cross, directionName, dot, length, roundNumber, scale } from "../../math/vec3.ts";
import { MIN_GRIP_MM } from "../../workholding/grip.ts";
import { directionFromFrame, frameYAxis, fromFrame, setupAxes } from "../frames.ts";
import type { WorkholdingSummary } from "../plan-types.ts";
import { surfaceCovered } from "../simulation/thick-material.ts";
import type { VoxelStock } from "../simulation/voxel-stock.ts";
import type { Box3, Frame, TriangleSoup, Vec3 } from "../types.ts";
import { type Holder, type HolderLayout, SMALL_PART_CONTACT_SHARE } from "./holders.ts";
import { WORKHOLDING_KEEP_OUT_MM } from "./keep-out.ts";
import type { SetupPart } from "./setup-part.ts";

/** how far from parallel the two gripped faces (and each face's triangles) may be */
export const PARALLEL_TOLERANCE_DEG = 0.5;
/** positions are float32: a face "covering" the band is judged with this slack (mm) */
const GEOMETRY_SLACK_MM = 1e-3;
const COS_PARALLEL = Math.cos((PARALLEL_TOLERANCE_DEG * Math.PI) / 180);

/** The plan needs more stock below the part to grip the blank clear of it. */
export interface StockAllowanceNeeded {
  code: "stock_allowance_needed";
  message: string;
  /** the workpiece axis, with its sign, along which the stock must grow: the setup's -z ("-Z") */
  axis: string;
  given_mm: number;
  /** grip + keep-out */
  needed_mm: number;
  /** needed - given */
  missing_mm: number;
  /** the clamping the setup still has with the stock given: its jaws' band reaches into the part */
  summary: WorkholdingSummary;
}

/** No pair of faces the holder can hold. */
export interface WorkholdingUnavailable {
  code: "workholding_unavailable";
  message: string;
  /** the faces tried (part face ids), empty when only the blank was */
  faces: number[];
}

export type ClampingProblem = StockAllowanceNeeded | WorkholdingUnavailable;

/** A setup's clamping, or why it has none that holds as asked. */
export type Clamping = { summary: WorkholdingSummary } | { problem: ClampingProblem };

export interface FirstClampingInput {
  /** the setup's tool axis (workpiece coordinates): names the axis the stock must grow along */
  direction: Vec3;
  /** the stock box in the setup's frame */
  stock: Box3;
  /** the part's lowest z in the setup's frame */
  partBottomZ: number;
  holder: Holder;
}

/** The first setup's clamping: the blank's two sides over its lowest grip (see the header). */
export function firstClamping(input: FirstClampingInput): Clamping {
  const { stock, holder } = input;
  const gripMm = holder.gripMm;
  const axis = (["y", "x"] as const).find((a) => holder.refusal(stock, a) === null);
  if (axis === undefined) return unavailable(holder, holder.refusesBlank(stock), []);
  const given = input.partBottomZ - stock.min[2];
  const needed = gripMm + WORKHOLDING_KEEP_OUT_MM;
  const layout = holder.layout(stock, axis);
  // float32 positions: 6.5 mm asked for may come back 6.49999 below the part
  const clear = given >= needed - GEOMETRY_SLACK_MM;
  const across = setupAxes(input.direction)[axis];
  const [low, high] = [directionName(scale(across, -1)), directionName(across)].sort(bySide);
  const sides = `the blank's ${low} and ${high} sides`;
  const summary = summaryOf(layout, axis, false, {
    description: clear
      ? `${sides} below the part`
      : `${sides}, the ${layout.type === "vise" ? "jaws" : "clamps"} reaching ${roundNumber(needed - given, 2)} mm within the part's keep-out`,
    grips: "stock",
    faces: [],
    features: [],
  });
  if (clear) return { summary };
  const workpieceAxis = directionName(scale(input.direction, -1));
  return {
    problem: {
      code: "stock_allowance_needed",
      message: `the stock needs ${roundNumber(needed - given, 2)} mm more along ${workpieceAxis}: ${roundNumber(given, 2)} mm below the part, ${roundNumber(needed, 2)} mm needed to grip ${roundNumber(gripMm, 2)} mm and keep ${WORKHOLDING_KEEP_OUT_MM} mm clear of the part`,
      axis: workpieceAxis,
      given_mm: given,
      needed_mm: needed,
      missing_mm: needed - given,
      summary,
    },
  };
}

export interface LaterClampingInput {
  /** the setup as setupParts gives it */
  setup: Pick<SetupPart, "frame" | "stock" | "soup" | "triangleFaces">;
  /** the voxel model after the setups before this one (plan.ts: acrossSetups) */
  acrossSetups: VoxelStock;
  /** per voxel, material thicker than the tolerance left after them (thickMaterialLeft's `thick`) */
  thick: Uint8Array;
  /** the finishing tolerance the plan measures material left with (mm) */
  tolerance_mm: number;
  /** the part's features (to name the ones the clamped faces belong to) */
  features: readonly Feature[];
  /** the names of the setups kept before this one, in order ("+Z") */
  earlier: readonly string[];
  holder: Holder;
}

/** The material left, seen in the setup's frame: its extent over all and in the grip band. */
interface Remaining {
  zLow: number;
  zHigh: number;
  /** per frame axis x, y: the band's lowest and highest material (voxel faces, not centres) */
  lo: [number, number];
  hi: [number, number];
  /** per frame axis: a voxel's extent along it */
  voxel: [number, number, number];
  /**
   * per side (sideKey): the band's material in the stock box's outermost layer of voxels there,
   * the blank's own face: its extent up the band (z) and along the jaws; null where none is left
   */
  blank: ({ z: [number, number]; along: [number, number] } | null)[];
}

/** One side's contact: the plane the jaw touches, and what it grips there. */
interface Side {
  at: number;
  /** part faces gripped; empty at the blank's face */
  faces: number[];
  /** outward unit normal (frame) of the gripped face */
  normal: Vec3;
  /** not planar: soft jaws machined to the part's profile */
  soft: boolean;
  /** how far up the band the jaw touches it, mm */
  depth: number;
}

/** A later setup's clamping: the outermost material left in its grip band (see the header). */
export function laterClamping(input: LaterClampingInput): Clamping {
  const { setup, holder } = input;
  const gripMm = holder.gripMm;
  const left = remaining(input.acrossSetups, setup.frame, setup.stock, gripMm);
  if (left === null) return unavailable(holder, "no material is left to grip", []);
  // within a voxel of the part's lowest point the material's bottom is the part's own face,
  // which the stock stands on: its exact z rather than the voxels' reading of it
  const partLow = soupMinZ(setup.soup);
  const zLow = Math.abs(partLow - left.zLow) <= left.voxel[2] ? partLow : left.zLow;
  const band: [number, number] = [zLow, zLow + gripMm];
  const faces = facesOf(setup.soup, setup.triangleFaces);
  const tried = new Set<number>();
  const reasons: string[] = [];
  // both ways round: hard jaws before soft ones, then the deeper grip, across y when even
  let best: WorkholdingSummary | null = null;
  const rank = (summary: WorkholdingSummary) => (summary.soft_jaws ? 0 : 1e6) + summary.grip_mm;
  for (const axis of [1, 0] as const) {
    const lo = sideOf(input, faces, left, band, axis, -1, tried);
    const hi = sideOf(input, faces, left, band, axis, 1, tried);
    const name = axis === 1 ? "y" : "x";
    if (typeof lo === "string" || typeof hi === "string") {
      reasons.push(`across ${name}: ${typeof lo === "string" ? lo : hi}`);
      continue;
    }
    if (!(lo.soft || hi.soft) && dot(lo.normal, hi.normal) > -COS_PARALLEL) {
      reasons.push(`across ${name}: the two sides are not parallel within ${PARALLEL_TOLERANCE_DEG} degrees`);
      continue;
    }
    const other = axis === 1 ? 0 : 1;
    const min: Vec3 = [0, 0, zLow];
    const max: Vec3 = [0, 0, left.zHigh];
    min[axis] = lo.at;
    max[axis] = hi.at;
    min[other] = left.lo[other];
    max[other] = left.hi[other];
    const refusal = holder.refusal({ min, max }, name);
    if (refusal !== null) {
      reasons.push(`across ${name}: ${refusal}`);
      continue;
    }
    const layout = holder.layout({ min, max }, name);
    const gripped = [...new Set([...lo.faces, ...hi.faces])].sort((a, b) => a - b);
    const summary = summaryOf(layout, name, lo.soft || hi.soft, {
      description: clampedWords(lo, hi, setup.frame, input.earlier),
      grips: gripped.length > 0 ? "part" : "stock",
      faces: gripped,
      features: input.features
        .filter((f) => f.faces.some((face) => gripped.includes(face)))
        .map((f) => f.id)
        .sort((a, b) => a - b),
    });
    // the jaws reach the band's top; they hold as deep as they touch (a face may end within the band)
    const held = { ...summary, grip_mm: Math.min(layout.grip_mm, lo.depth, hi.depth) };
    if (best === null || rank(held) > rank(best) + GEOMETRY_SLACK_MM) best = held;
  }
  if (best !== null) return { summary: best };
  return unavailable(
    holder,
    reasons.join("; "),
    [...tried].sort((a, b) => a - b),
  );
}

/** A holder's layout as the plan reports it, gripping across `axis`, with what it clamps. */
export function summaryOf(
  layout: HolderLayout,
  axis: "x" | "y",
  soft: boolean,
  clamped: WorkholdingSummary["clamped"],
): WorkholdingSummary {
  return {
    type: layout.type,
    soft_jaws: soft,
    jaws: layout.jaws,
    supports: layout.supports,
    clamps: layout.clamps,
    grip_axis: axis,
    grip_mm: layout.grip_mm,
    parallel_height_mm: layout.parallel_height_mm,
    opening_mm: layout.opening_mm,
    stick_out_mm: layout.stick_out_mm,
    clamped,
  };
}

function unavailable(holder: Holder, reason: string, faces: number[]): Clamping {
  return {
    problem: {
      code: "workholding_unavailable",
      message: `no pair of faces the ${holder.name} can hold: ${reason}${faces.length > 0 ? ` (faces tried: ${faces.join(", ")})` : ""}`,
      faces,
    },
  };
}

/**
 * What is left (every voxel not removed: the part and the stock around it) in the setup's
 * frame: the lowest and highest material, the x and y extent of the material whose centre lies
 * in the lowest `gripMm`, and what of that lies in the stock box's outermost layers. Null when
 * nothing is left.
 */
function remaining(stock: VoxelStock, frame: Frame, box: Box3, gripMm: number): Remaining | null {
  const voxel = [frame.x_axis, frameYAxis(frame), frame.z_axis].map(
    (a) => Math.abs(a[0]) * stock.d[0] + Math.abs(a[1]) * stock.d[1] + Math.abs(a[2]) * stock.d[2],
  ) as [number, number, number];
  let zMin = Infinity;
  let zMax = -Infinity;
  forEachLeft(stock, frame, (_x, _y, z) => {
    if (z < zMin) zMin = z;
    if (z > zMax) zMax = z;
  });
  if (zMin === Infinity) return null;
  const zLow = zMin - voxel[2] / 2;
  const top = zLow + gripMm;
  const lo: [number, number] = [Infinity, Infinity];
  const hi: [number, number] = [-Infinity, -Infinity];
  const blank: Remaining["blank"] = [null, null, null, null];
  const inLayer = (side: number, along: number, z: number) => {
    const layer = blank[side];
    if (layer === null || layer === undefined) blank[side] = { z: [z, z], along: [along, along] };
    else {
      layer.z = [Math.min(layer.z[0], z), Math.max(layer.z[1], z)];
      layer.along = [Math.min(layer.along[0], along), Math.max(layer.along[1], along)];
    }
  };
  forEachLeft(stock, frame, (x, y, z) => {
    if (z > top) return;
    if (x < lo[0]) lo[0] = x;
    if (x > hi[0]) hi[0] = x;
    if (y < lo[1]) lo[1] = y;
    if (y > hi[1]) hi[1] = y;
    if (x - box.min[0] < voxel[0]) inLayer(sideKey(0, -1), y, z);
    if (box.max[0] - x < voxel[0]) inLayer(sideKey(0, 1), y, z);
    if (y - box.min[1] < voxel[1]) inLayer(sideKey(1, -1), x, z);
    if (box.max[1] - y < voxel[1]) inLayer(sideKey(1, 1), x, z);
  });
  // centres to voxel faces
  const grown = (layer: Remaining["blank"][number], along: number): Remaining["blank"][number] =>
    layer === null || layer === undefined
      ? null
      : {
          z: [layer.z[0] - voxel[2] / 2, layer.z[1] + voxel[2] / 2],
          along: [layer.along[0] - along / 2, layer.along[1] + along / 2],
        };
  return {
    zLow,
    zHigh: zMax + voxel[2] / 2,
    lo: [lo[0] - voxel[0] / 2, lo[1] - voxel[1] / 2],
    hi: [hi[0] + voxel[0] / 2, hi[1] + voxel[1] / 2],
    voxel,
    blank: blank.map((layer, side) => grown(layer, side < 2 ? voxel[1] : voxel[0])),
  };
}

/** A side's index in Remaining.blank: -x, +x, -y, +y. */
function sideKey(axis: 0 | 1, sign: -1 | 1): number {
  return 2 * axis + (sign < 0 ? 0 : 1);
}

/** Every voxel not removed, its centre in the setup's frame. */
function forEachLeft(stock: VoxelStock, frame: Frame, visit: (x: number, y: number, z: number) => void): void {
  const [X, Y, Z] = [frame.x_axis, frameYAxis(frame), frame.z_axis];
  const [nx, ny, nz] = stock.n;
  const centre = (v: number, a: 0 | 1 | 2): number => stock.box.min[a] + (v + 0.5) * stock.d[a] - frame.origin[a];
  for (let k = 0; k < nz; k += 1) {
    const z = centre(k, 2);
    for (let j = 0; j < ny; j += 1) {
      const y = centre(j, 1);
      const row = (k * ny + j) * nx;
      for (let i = 0; i < nx; i += 1) {
        if (stock.removed[row + i] === 1) continue;
        const x = centre(i, 0);
        visit(x * X[0] + y * X[1] + z * X[2], x * Y[0] + y * Y[1] + z * Y[2], x * Z[0] + y * Z[1] + z * Z[2]);
      }
    }
  }
}

/** A part face in the setup's frame: its triangles, its bounds and, when planar, its normal. */
interface FaceGeometry {
  id: number;
  triangles: number[];
  min: Vec3;
  max: Vec3;
  /** area-weighted unit normal; null when a triangle strays more than the parallel tolerance from it */
  normal: Vec3 | null;
}

function facesOf(soup: TriangleSoup, triangleFaces: Uint32Array): FaceGeometry[] {
  const byFace = new Map<number, { triangles: number[]; min: Vec3; max: Vec3; sum: Vec3; normals: Vec3[] }>();
  for (let t = 0; t < triangleFaces.length; t += 1) {
    const id = triangleFaces[t] as number;
    let face = byFace.get(id);
    if (face === undefined) {
      face = {
        triangles: [],
        min: [Infinity, Infinity, Infinity],
        max: [-Infinity, -Infinity, -Infinity],
        sum: [0, 0, 0],
        normals: [],
      };
      byFace.set(id, face);
    }
    const [a, b, c] = corners(soup, t);
    for (const p of [a, b, c]) {
      for (let m = 0; m < 3; m += 1) {
        face.min[m] = Math.min(face.min[m] as number, p[m] as number);
        face.max[m] = Math.max(face.max[m] as number, p[m] as number);
      }
    }
    const n = cross([b[0] - a[0], b[1] - a[1], b[2] - a[2]], [c[0] - a[0], c[1] - a[1], c[2] - a[2]]);
    const size = length(n);
    face.triangles.push(t);
    if (size === 0) continue;
    face.sum = [face.sum[0] + n[0], face.sum[1] + n[1], face.sum[2] + n[2]];
    face.normals.push(scale(n, 1 / size));
  }
  return [...byFace].map(([id, face]) => {
    const size = length(face.sum);
    const normal = size > 0 ? scale(face.sum, 1 / size) : null;
    const planar = normal !== null && face.normals.every((n) => dot(n, normal) >= COS_PARALLEL);
    return { id, triangles: face.triangles, min: face.min, max: face.max, normal: planar ? normal : null };
  });
}

function corners(soup: TriangleSoup, t: number): [Vec3, Vec3, Vec3] {
  const at = (m: number): Vec3 => {
    const v = 3 * (soup.indices[3 * t + m] as number);
    return [soup.positions[v] as number, soup.positions[v + 1] as number, soup.positions[v + 2] as number];
  };
  return [at(0), at(1), at(2)];
}

/** The lowest z of a soup's vertices: a setup's part bottom in its frame. */
export function soupMinZ(soup: TriangleSoup): number {
  let z = Infinity;
  for (let i = 2; i < soup.positions.length; i += 3) z = Math.min(z, soup.positions[i] as number);
  return z;
}

/**
 * The contact on one side (`sign` -1: the low side along `axis`, +1: the high side), or why
 * there is none. Adds the faces it looked at to `tried`.
 *
 * At the stock box's face the jaw grips the blank, where the blank's own face is left up at
 * least MIN_GRIP_MM of the band and MIN_CONTACT_LENGTH_MM along the jaws. Elsewhere it grips the
 * part's outermost plane in the band: every planar face there, coplanar pieces together (partC's
 * end either side of its slot), reaching at least MIN_GRIP_MM up the band and together spanning
 * the contact length, each finished where the band crosses it (what lies outside the band, such
 * as the skin a first setup's jaws kept, the jaws never touch).
 */
function sideOf(
  input: LaterClampingInput,
  faces: readonly FaceGeometry[],
  left: Remaining,
  band: [number, number],
  axis: 0 | 1,
  sign: -1 | 1,
  tried: Set<number>,
): Side | string {
  const { setup, holder } = input;
  const outward: Vec3 = [0, 0, 0];
  outward[axis] = sign;
  const extent = sign < 0 ? left.lo[axis] : left.hi[axis];
  const stockFace = sign < 0 ? setup.stock.min[axis] : setup.stock.max[axis];
  const voxel = left.voxel[axis] as number;
  const sideName = `${sign < 0 ? "-" : "+"}${axis === 1 ? "y" : "x"}`;
  const other = axis === 1 ? 0 : 1;
  // a part shorter than the holder's contact along the side is gripped over most of its length (a 10 mm cube)
  const along = Math.min(
    holder.contactMm,
    SMALL_PART_CONTACT_SHARE * ((left.hi[other] as number) - (left.lo[other] as number)),
  );
  const needs = `${MIN_GRIP_MM} mm of the ${roundNumber(band[1] - band[0], 2)} mm grip over ${roundNumber(along, 2)} mm along the jaws`;
  // the voxels tile the stock box: the blank's own face is still there
  if (Math.abs(extent - stockFace) <= voxel / 2) {
    const layer = left.blank[sideKey(axis, sign)];
    const depth = layer ? Math.min(layer.z[1], band[1]) - Math.max(layer.z[0], band[0]) : 0;
    if (layer && depth >= MIN_GRIP_MM - GEOMETRY_SLACK_MM && layer.along[1] - layer.along[0] >= along)
      return { at: stockFace, faces: [], normal: outward, soft: false, depth };
    return `the blank's face left on the ${sideName} side covers less than ${needs}`;
  }
  // a face within this of the outermost material is at it: the voxels read a plane up to a
  // voxel out, and material thinner than the tolerance may be left on a finished face
  const reach = Math.max(voxel, voxel / 2 + input.tolerance_mm);
  const plane = (face: FaceGeometry) => (sign < 0 ? face.min[axis] : face.max[axis]) as number;
  const near = faces.filter(
    (face) => face.min[2] <= band[1] && face.max[2] >= band[0] && Math.abs(plane(face) - extent) <= reach,
  );
  for (const face of near) tried.add(face.id);
  const soft = (): Side | null =>
    holder.softJawsAllowed && near.length > 0
      ? { at: extent, faces: near.map((f) => f.id), normal: outward, soft: true, depth: band[1] - band[0] }
      : null;
  const facing = near.filter((face) => face.normal !== null && dot(face.normal, outward) >= COS_PARALLEL);
  if (facing.length === 0) {
    return (
      soft() ??
      (near.length > 0
        ? `no planar face on the ${sideName} side covers ${needs}`
        : `the ${sideName} side's outermost material is stock left, neither at the blank's face nor at a part face`)
    );
  }
  // the outermost plane: a jaw touches it first, and nothing of the part may stand out of it in the band
  const at = sign < 0 ? Math.min(...facing.map(plane)) : Math.max(...facing.map(plane));
  const inBand = near.map((face) => ({ face, polygons: clippedToBand(setup.soup, face, band) }));
  const beyond = inBand
    .filter(({ polygons }) =>
      polygons.some((polygon) => polygon.some((p) => sign * ((p[axis] as number) - at) > GEOMETRY_SLACK_MM)),
    )
    .sort((a, b) => a.face.id - b.face.id);
  const pieces = inBand.filter(
    ({ face, polygons }) =>
      facing.includes(face) && Math.abs(plane(face) - at) <= GEOMETRY_SLACK_MM && polygons.length > 0,
  );
  const unfinished = pieces
    .filter(({ polygons }) => !isFinished(input, polygons))
    .sort((a, b) => a.face.id - b.face.id);
  const holding = pieces
    .map(({ face, polygons }) => ({ face, ...spanOf(polygons, other) }))
    .filter((piece) => piece.depth >= MIN_GRIP_MM - GEOMETRY_SLACK_MM);
  const from = Math.min(...holding.map((piece) => piece.along[0]));
  const to = Math.max(...holding.map((piece) => piece.along[1]));
  if (beyond.length === 0 && unfinished.length === 0 && holding.length > 0 && to - from >= along) {
    return {
      at,
      faces: holding.map(({ face }) => face.id).sort((a, b) => a - b),
      normal: (holding[0] as { face: FaceGeometry }).face.normal as Vec3,
      soft: false,
      depth: Math.max(...holding.map((piece) => piece.depth)),
    };
  }
  const fallback = soft();
  if (fallback !== null) return fallback;
  if (beyond.length > 0)
    return `the ${sideName} side's faces ${beyond.map(({ face }) => face.id).join(", ")} stand out of its outermost plane`;
  if (unfinished.length > 0)
    return `the ${sideName} side's faces ${unfinished.map(({ face }) => face.id).join(", ")} still carry material thicker than ${input.tolerance_mm} mm`;
  return `no planar face on the ${sideName} side covers ${needs}`;
}

/** A face's triangles cut to the band (frame z within it): the part of the face a jaw there can touch. */
function clippedToBand(soup: TriangleSoup, face: FaceGeometry, band: [number, number]): Vec3[][] {
  const polygons: Vec3[][] = [];
  for (const t of face.triangles) {
    let polygon: Vec3[] = corners(soup, t);
    polygon = clipped(polygon, (p) => (p[2] as number) - band[0]);
    polygon = clipped(polygon, (p) => band[1] - (p[2] as number));
    if (polygon.length >= 3) polygons.push(polygon);
  }
  return polygons;
}

/** The part of a convex polygon where `inside` is not negative (one plane of Sutherland-Hodgman). */
function clipped(polygon: readonly Vec3[], inside: (p: Vec3) => number): Vec3[] {
  const out: Vec3[] = [];
  polygon.forEach((p, i) => {
    const q = polygon[(i + 1) % polygon.length] as Vec3;
    const [a, b] = [inside(p), inside(q)];
    if (a >= 0) out.push(p);
    if (a >= 0 !== b >= 0) {
      const t = a / (a - b);
      out.push([p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1]), p[2] + t * (q[2] - p[2])]);
    }
  });
  return out;
}

/** How far up (z) and along the frame axis `other` polygons reach. */
function spanOf(polygons: readonly Vec3[][], other: 0 | 1): { depth: number; along: [number, number] } {
  const points = polygons.flat();
  const z = points.map((p) => p[2]);
  const along = points.map((p) => p[other] as number);
  return { depth: Math.max(...z) - Math.min(...z), along: [Math.min(...along), Math.max(...along)] };
}

/** No part of the polygons (a face cut to the band) lies under material thicker than the tolerance (thick-material.ts). */
function isFinished(input: LaterClampingInput, polygons: readonly Vec3[][]): boolean {
  const { frame } = input.setup;
  const triangles = polygons.flatMap((polygon) =>
    polygon.slice(2).map((p, i) => [polygon[0] as Vec3, polygon[i + 1] as Vec3, p]),
  );
  const positions = new Float32Array(triangles.length * 9);
  triangles.forEach((triangle, n) => {
    triangle.forEach((p, m) => {
      positions.set(fromFrame(frame, p), 9 * n + 3 * m);
    });
  });
  const indices = Uint32Array.from({ length: triangles.length * 3 }, (_, i) => i);
  const covered = surfaceCovered(input.acrossSetups, input.thick, {
    soup: { positions, indices },
    tolerance_mm: input.tolerance_mm,
    exclude: [],
  });
  return covered.covered_mm2 === 0;
}

/**
 * The gripped sides in the workpiece's terms, as the setter finds them on the part: "the part's
 * -Y and +Y sides (faces 1 and 2), finished in setup +Z", "the blank's -X side and the part's
 * +X side (face 12), ...", "the blank's -Y and +Y sides, left by the setups before".
 */
function clampedWords(lo: Side, hi: Side, frame: Frame, earlier: readonly string[]): string {
  const [first, second] = [lo, hi]
    .map((side) => ({ side, name: workpieceSide(frame, side.normal) }))
    .sort((a, b) => bySide(a.name, b.name)) as [NamedSide, NamedSide];
  const faces = [...new Set([...lo.faces, ...hi.faces])].sort((a, b) => a - b);
  const soft = lo.soft || hi.soft ? " in soft jaws machined to their profile" : "";
  if (faces.length === 0) return `the blank's ${first.name} and ${second.name} sides, left by the setups before`;
  const named = (ids: readonly number[]) =>
    ids.length === 1 ? `face ${ids[0]}` : `faces ${ids.slice(0, -1).join(", ")} and ${ids.at(-1)}`;
  const by = earlier.length === 0 ? "" : `, finished in setup${earlier.length > 1 ? "s" : ""} ${earlier.join(", ")}`;
  const both =
    first.side.faces.length > 0 && second.side.faces.length > 0
      ? `the part's ${first.name} and ${second.name} sides (${named(faces)})`
      : [first, second]
          .map(({ side, name }) =>
            side.faces.length === 0 ? `the blank's ${name} side` : `the part's ${name} side (${named(side.faces)})`,
          )
          .join(" and ");
  return `${both}${by}${soft}`;
}

interface NamedSide {
  side: Side;
  name: string;
}

/** Sides named in reading order: "-Y" before "+Y", X before Y. */
function bySide(a: string, b: string): number {
  const key = (name: string) => `${name.slice(1)}${name.startsWith("-") ? 0 : 1}`;
  return key(a).localeCompare(key(b));
}

/** A frame direction named as the workpiece's axis it lies along ("+Y"). */
function workpieceSide(frame: Frame, normal: Vec3): string {
  return directionName(directionFromFrame(frame, normal), 1 - COS_PARALLEL);
}
