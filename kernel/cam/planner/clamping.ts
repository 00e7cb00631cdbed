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
 *   stock box's face grips the blank there; any other side snaps to a planar part face at that
 *   extent (its plane exactly, so the jaws touch it), which must be finished (no material
 *   thicker than the tolerance on it). Soft jaws, when allowed, take a side no planar face gives.
 */
import type { Feature } from "../../features/recognition/types.ts";
import { cross, directionName, dot, length, scale } from "../../math/vec3.ts";
import { frameYAxis, fromFrame } from "../frames.ts";
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
  const clear = given >= needed;
  const summary = summaryOf(layout, axis, false, {
    description: clear
      ? "the blank's two sides below the part"
      : `the blank's two sides, the ${layout.type === "vise" ? "jaws" : "clamps"} reaching ${round2(needed - given)} mm within the part's keep-out`,
    grips: "stock",
    faces: [],
    features: [],
  });
  if (clear) return { summary };
  const workpieceAxis = directionName(scale(input.direction, -1));
  return {
    problem: {
      code: "stock_allowance_needed",
      message: `the stock needs ${round2(needed - given)} mm more along ${workpieceAxis}: ${round2(given)} mm below the part, ${round2(needed)} mm needed to grip ${round2(gripMm)} mm and keep ${WORKHOLDING_KEEP_OUT_MM} mm clear of the part`,
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
}

/** A later setup's clamping: the outermost material left in its grip band (see the header). */
export function laterClamping(input: LaterClampingInput): Clamping {
  const { setup, holder } = input;
  const gripMm = holder.gripMm;
  const left = remaining(input.acrossSetups, setup.frame, gripMm);
  if (left === null) return unavailable(holder, "no material is left to grip", []);
  // within a voxel of the part's lowest point the material's bottom is the part's own face,
  // which the stock stands on: its exact z rather than the voxels' reading of it
  const partLow = soupMinZ(setup.soup);
  const zLow = Math.abs(partLow - left.zLow) <= left.voxel[2] ? partLow : left.zLow;
  const band: [number, number] = [zLow, zLow + gripMm];
  const faces = facesOf(setup.soup, setup.triangleFaces);
  const tried = new Set<number>();
  const reasons: string[] = [];
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
    return {
      summary: summaryOf(layout, name, lo.soft || hi.soft, {
        description: clampedWords(lo, hi, input.earlier),
        grips: gripped.length > 0 ? "part" : "stock",
        faces: gripped,
        features: input.features
          .filter((f) => f.faces.some((face) => gripped.includes(face)))
          .map((f) => f.id)
          .sort((a, b) => a - b),
      }),
    };
  }
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
 * frame: the lowest and highest material, and the x and y extent of the material whose centre
 * lies in the lowest `gripMm`. Null when nothing is left.
 */
function remaining(stock: VoxelStock, frame: Frame, gripMm: number): Remaining | null {
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
  forEachLeft(stock, frame, (x, y, z) => {
    if (z > top) return;
    if (x < lo[0]) lo[0] = x;
    if (x > hi[0]) hi[0] = x;
    if (y < lo[1]) lo[1] = y;
    if (y > hi[1]) hi[1] = y;
  });
  return {
    zLow,
    zHigh: zMax + voxel[2] / 2,
    lo: [lo[0] - voxel[0] / 2, lo[1] - voxel[1] / 2],
    hi: [hi[0] + voxel[0] / 2, hi[1] + voxel[1] / 2],
    voxel,
  };
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
  // the voxels tile the stock box: the blank's own face is still there
  if (Math.abs(extent - stockFace) <= voxel / 2) return { at: stockFace, faces: [], normal: outward, soft: false };
  const other = axis === 1 ? 0 : 1;
  // a part shorter than the holder's contact along the side is gripped over most of its length (a 10 mm cube)
  const along = Math.min(
    holder.contactMm,
    SMALL_PART_CONTACT_SHARE * ((left.hi[other] as number) - (left.lo[other] as number)),
  );
  // faces reaching the band within a voxel of the extent: the ones a jaw there would touch
  const near = faces.filter(
    (face) =>
      face.min[2] <= band[1] &&
      face.max[2] >= band[0] &&
      Math.abs((sign < 0 ? face.min[axis] : face.max[axis]) - extent) <= voxel,
  );
  for (const face of near) tried.add(face.id);
  const planar = near.filter(
    (face) =>
      face.normal !== null &&
      dot(face.normal, outward) >= COS_PARALLEL &&
      face.min[2] <= band[0] + GEOMETRY_SLACK_MM &&
      face.max[2] >= band[1] - GEOMETRY_SLACK_MM &&
      (face.max[other] as number) - (face.min[other] as number) >= along,
  );
  const finished = planar.filter((face) => isFinished(input, face));
  if (finished.length > 0) {
    // the outermost plane: a jaw touches it first
    const plane = (face: FaceGeometry) => (sign < 0 ? face.min[axis] : face.max[axis]) as number;
    const at = sign < 0 ? Math.min(...finished.map(plane)) : Math.max(...finished.map(plane));
    const on = finished.filter((face) => Math.abs(plane(face) - at) <= GEOMETRY_SLACK_MM);
    return { at, faces: on.map((f) => f.id), normal: (on[0] as FaceGeometry).normal as Vec3, soft: false };
  }
  if (holder.softJawsAllowed && near.length > 0) {
    return { at: extent, faces: near.map((f) => f.id), normal: outward, soft: true };
  }
  if (planar.length > 0) {
    return `the ${sideName} side's faces ${planar.map((f) => f.id).join(", ")} still carry material thicker than ${input.tolerance_mm} mm`;
  }
  return near.length > 0
    ? `no planar face on the ${sideName} side covers the ${round2(band[1] - band[0])} mm grip over ${round2(along)} mm along the jaws`
    : `the ${sideName} side's outermost material is stock left, neither at the blank's face nor at a part face`;
}

/** No triangle of the face lies under material thicker than the tolerance (thick-material.ts). */
function isFinished(input: LaterClampingInput, face: FaceGeometry): boolean {
  const { frame, soup } = input.setup;
  const positions = new Float32Array(face.triangles.length * 9);
  face.triangles.forEach((t, n) => {
    const [a, b, c] = corners(soup, t);
    positions.set(fromFrame(frame, a), 9 * n);
    positions.set(fromFrame(frame, b), 9 * n + 3);
    positions.set(fromFrame(frame, c), 9 * n + 6);
  });
  const indices = Uint32Array.from({ length: face.triangles.length * 3 }, (_, i) => i);
  const covered = surfaceCovered(input.acrossSetups, input.thick, {
    soup: { positions, indices },
    tolerance_mm: input.tolerance_mm,
    exclude: [],
  });
  return covered.covered_mm2 === 0;
}

/** "faces 1 and 2 of the part, finished in setup +Z", "the blank's -y side and face 12 of the part, ..." */
function clampedWords(lo: Side, hi: Side, earlier: readonly string[]): string {
  const faces = [...new Set([...lo.faces, ...hi.faces])].sort((a, b) => a - b);
  if (faces.length === 0) return "the blank's two sides, left by the setups before";
  const named = faces.length === 1 ? `face ${faces[0]}` : `faces ${faces.slice(0, -1).join(", ")} and ${faces.at(-1)}`;
  const by = earlier.length === 0 ? "" : `, finished in setup${earlier.length > 1 ? "s" : ""} ${earlier.join(", ")}`;
  const soft = lo.soft || hi.soft ? " in soft jaws machined to its profile" : "";
  const blank = lo.faces.length === 0 || hi.faces.length === 0 ? "the blank's side and " : "";
  return `${blank}${named} of the part${by}${soft}`;
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}
