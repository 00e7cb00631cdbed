/**
 * Test inputs and a small height-map check for the milling tests (not used in production).
 *
 * Parts are unions of boxes in the setup frame (stock 70 x 50 x 25 at x, y >= 0, z <= 0). The
 * height map is a grid of material tops that flat tools cut by their tip: it counts gouges
 * (the tool below the part's top at a cell centre within its radius), rapids into material and
 * vertical feeds into material, and measures the material left. It is deliberately independent
 * of the milling code: it knows the boxes, not the slicer. partC, a real part, comes from its STL
 * fixture in a setup's frame.
 */
import { cubeCorners, fixture } from "../../geometry/test-support.ts";
import { readStl } from "../../geometry/stl.ts";
import { setupFrame, soupToFrame } from "../frames.ts";
import { distanceToBoxXY } from "../../math/box3.ts";
import type { Box3, Cutter, CuttingParameters, Move, TriangleSoup, Vec3 } from "../types.ts";

/** partC's stock: its bounding box with 3 mm round it and 2 mm under it. */
export const PART_C_STOCK: Box3 = { min: [-3, -3, -2], max: [88.6, 47.7, 29.6] };

/** partC's triangles (the STL fixture) in the frame of a setup from `direction` over PART_C_STOCK. */
export function partCFrom(direction: Vec3): TriangleSoup {
  const workpiece = readStl(fixture("partC.stl"), "ascii");
  return soupToFrame(setupFrame(direction, PART_C_STOCK), {
    positions: workpiece.mesh.positions,
    indices: workpiece.mesh.indices,
  });
}

export const STOCK: Box3 = { min: [0, 0, -25], max: [70, 50, 0] };

/** The triangles of boxes (counter-clockwise from outside), as one soup. */
export function boxesSoup(boxes: Box3[]): TriangleSoup {
  const unit = cubeCorners(1);
  const positions: number[] = [];
  for (const box of boxes) {
    for (let i = 0; i < unit.length; i += 3) {
      for (let k = 0; k < 3; k += 1)
        positions.push(
          (box.min[k] as number) + (unit[i + k] as number) * ((box.max[k] as number) - (box.min[k] as number)),
        );
    }
  }
  const indices = Uint32Array.from({ length: positions.length / 3 }, (_, i) => i);
  return { positions: new Float32Array(positions), indices };
}

/** A 60 x 40 block (top z -2, bottom -22) with a closed 20 x 14 pocket, floor at -10. */
export const POCKET = { min: [25, 18] as [number, number], max: [45, 32] as [number, number], floor: -10 };
export const POCKETED_BLOCK: Box3[] = [
  { min: [5, 5, -22], max: [65, 45, -10] },
  { min: [5, 5, -10], max: [25, 45, -2] },
  { min: [45, 5, -10], max: [65, 45, -2] },
  { min: [25, 5, -10], max: [45, 18, -2] },
  { min: [25, 32, -10], max: [45, 45, -2] },
];

/** The same block with a step along its front (y 5..15 down to -12) and a through slot (y 24..30 down to -8). */
export const STEPPED_BLOCK: Box3[] = [
  { min: [5, 5, -22], max: [65, 45, -12] },
  { min: [5, 15, -12], max: [65, 45, -8] },
  { min: [5, 15, -8], max: [65, 24, -2] },
  { min: [5, 30, -8], max: [65, 45, -2] },
];

export function endMill(diameter: number, overrides: Partial<Cutter> = {}): Cutter {
  return {
    kind: "flat",
    assembly_uuid: `test-${diameter}`,
    name: `${diameter} mm end mill`,
    tool_type: "CentreCuttingEndMill",
    diameter,
    corner_radius: 0,
    tip_angle_deg: null,
    tip_diameter: 0,
    chamfer_angle_deg: null,
    pitch_mm: null,
    flute_length: 3 * diameter,
    max_stepdown: 2 * diameter,
    neck_diameter: 0,
    neck_length: 0,
    shank_diameter: diameter,
    stick_out: 4 * diameter + 10,
    flutes: 3,
    centre_cutting: true,
    tool_material: "carbide",
    holder: [{ length: 40, lower_diameter: 32, upper_diameter: 40 }],
    ...overrides,
  };
}

export function cutting(overrides: Partial<CuttingParameters> = {}): CuttingParameters {
  return {
    spindle_rpm: 8000,
    feed_mm_min: 1200,
    plunge_feed_mm_min: 400,
    stepdown_mm: 4,
    stepover_mm: 3,
    allowance_xy_mm: 0,
    allowance_z_mm: 0,
    coolant: "flood",
    ...overrides,
  };
}

export interface HeightMapReport {
  gouges: number;
  /** deepest gouge (mm) */
  worstGouge: number;
  rapidsIntoMaterial: number;
  verticalFeedsIntoMaterial: number;
  /** indices of the moves counted above */
  offending: number[];
}

/** Material tops on a grid over the stock, cut by flat tools. */
export class HeightMap {
  readonly cell: number;
  readonly nx: number;
  readonly ny: number;
  readonly top: Float64Array;
  readonly partTop: Float64Array;
  readonly stock: Box3;
  /** cells lowered by the last run */
  changed: Set<number> = new Set();

  constructor(stock: Box3, part: Box3[], cell = 0.25) {
    this.stock = stock;
    this.cell = cell;
    this.nx = Math.round((stock.max[0] - stock.min[0]) / cell);
    this.ny = Math.round((stock.max[1] - stock.min[1]) / cell);
    this.top = new Float64Array(this.nx * this.ny).fill(stock.max[2]);
    this.partTop = new Float64Array(this.nx * this.ny).fill(-Infinity);
    for (let j = 0; j < this.ny; j += 1) {
      for (let i = 0; i < this.nx; i += 1) {
        const [x, y] = this.centre(i, j);
        for (const box of part) {
          if (x > box.min[0] && x < box.max[0] && y > box.min[1] && y < box.max[1]) {
            this.partTop[j * this.nx + i] = Math.max(this.partTop[j * this.nx + i] as number, box.max[2]);
          }
        }
      }
    }
  }

  centre(i: number, j: number): [number, number] {
    return [this.stock.min[0] + (i + 0.5) * this.cell, this.stock.min[1] + (j + 0.5) * this.cell];
  }

  /** Runs an operation's moves (starting at its clearance over the first point). */
  run(moves: Move[], radius: number, clearance: number): HeightMapReport {
    const report: HeightMapReport = {
      gouges: 0,
      worstGouge: 0,
      rapidsIntoMaterial: 0,
      verticalFeedsIntoMaterial: 0,
      offending: [],
    };
    this.changed = new Set();
    const first = moves[0];
    if (!first || first.kind === "drill") return report;
    let at: Vec3 = [first.to[0], first.to[1], clearance];
    for (const [index, move] of moves.entries()) {
      if (move.kind === "drill") continue;
      const points = this.samples(at, move);
      const vertical = move.kind === "linear" && move.to[0] === at[0] && move.to[1] === at[1] && move.to[2] < at[2];
      let hit = false;
      for (const p of points) {
        const result = this.stamp(p, radius, report);
        hit = hit || result;
      }
      if (hit && move.kind === "rapid") report.rapidsIntoMaterial += 1;
      if (hit && vertical) report.verticalFeedsIntoMaterial += 1;
      if (hit && (vertical || move.kind === "rapid")) report.offending.push(index);
      at = move.to;
    }
    return report;
  }

  private samples(from: Vec3, move: Exclude<Move, { kind: "drill" }>): Vec3[] {
    return pointsAlong(from, move, this.cell / 2).slice(1);
  }

  /**
   * Cuts the cells within radius of p down to p's z; true when more than 0.02 mm of material was
   * there at a cell two cells or more inside the tool's edge (a tool that only touches material
   * with its edge, as the grid sees it, has not gone into it).
   */
  private stamp(p: Vec3, radius: number, report: HeightMapReport): boolean {
    const inner = Math.max(0, radius - 2 * this.cell);
    const i0 = Math.max(0, Math.floor((p[0] - radius - this.stock.min[0]) / this.cell));
    const i1 = Math.min(this.nx - 1, Math.ceil((p[0] + radius - this.stock.min[0]) / this.cell));
    const j0 = Math.max(0, Math.floor((p[1] - radius - this.stock.min[1]) / this.cell));
    const j1 = Math.min(this.ny - 1, Math.ceil((p[1] + radius - this.stock.min[1]) / this.cell));
    let hit = false;
    for (let j = j0; j <= j1; j += 1) {
      for (let i = i0; i <= i1; i += 1) {
        const [x, y] = this.centre(i, j);
        if ((x - p[0]) ** 2 + (y - p[1]) ** 2 > radius * radius) continue;
        const c = j * this.nx + i;
        const part = this.partTop[c] as number;
        if (part > p[2] + 0.01) {
          report.gouges += 1;
          report.worstGouge = Math.max(report.worstGouge, part - p[2]);
        }
        if ((this.top[c] as number) > p[2] + 1e-6) {
          if ((this.top[c] as number) > p[2] + 0.02 && (x - p[0]) ** 2 + (y - p[1]) ** 2 <= inner * inner) hit = true;
          this.top[c] = p[2];
          this.changed.add(c);
        }
      }
    }
    return hit;
  }

  /** Volume (mm³) of material above the part (or above `floor` where there is no part). */
  materialAbovePart(floor: number): number {
    let volume = 0;
    for (let c = 0; c < this.top.length; c += 1) {
      const base = Math.max(this.partTop[c] as number, floor);
      volume += Math.max(0, (this.top[c] as number) - base);
    }
    return volume * this.cell * this.cell;
  }
}

export interface Sample {
  point: Vec3;
  /** index of the move in the operation */
  move: number;
  kind: "rapid" | "linear" | "arc";
}

/** Points along an operation's moves, no more than `step` apart (arcs followed as arcs). */
export function samplePath(moves: Move[], clearance: number, step = 0.25): Sample[] {
  const first = moves[0];
  if (!first || first.kind === "drill") return [];
  let at: Vec3 = [first.to[0], first.to[1], clearance];
  const out: Sample[] = [];
  moves.forEach((move, index) => {
    if (move.kind === "drill") return;
    for (const point of pointsAlong(at, move, step)) out.push({ point, move: index, kind: move.kind });
    at = move.to;
  });
  return out;
}

/** Points along a move from `from`, the first `from` itself, no more than `step` apart (arcs followed as arcs). */
function pointsAlong(from: Vec3, move: Exclude<Move, { kind: "drill" }>, step: number): Vec3[] {
  if (move.kind !== "arc") {
    const length = Math.hypot(move.to[0] - from[0], move.to[1] - from[1], move.to[2] - from[2]);
    const n = Math.max(1, Math.ceil(length / step));
    return Array.from({ length: n + 1 }, (_, k) => {
      const t = k / n;
      return [
        from[0] + (move.to[0] - from[0]) * t,
        from[1] + (move.to[1] - from[1]) * t,
        from[2] + (move.to[2] - from[2]) * t,
      ] as Vec3;
    });
  }
  const [cx, cy] = move.centre;
  const r = Math.hypot(from[0] - cx, from[1] - cy);
  const a0 = Math.atan2(from[1] - cy, from[0] - cx);
  const a1 = Math.atan2(move.to[1] - cy, move.to[0] - cx);
  let sweep = move.clockwise ? a0 - a1 : a1 - a0;
  sweep -= 2 * Math.PI * Math.floor(sweep / (2 * Math.PI));
  if (sweep < 1e-9) sweep = 2 * Math.PI;
  const n = Math.max(1, Math.ceil((sweep * r) / step));
  return Array.from({ length: n + 1 }, (_, k) => {
    const t = k / n;
    const a = a0 + (move.clockwise ? -1 : 1) * sweep * t;
    return [cx + r * Math.cos(a), cy + r * Math.sin(a), from[2] + (move.to[2] - from[2]) * t] as Vec3;
  });
}

/** Distance from (x, y) to the nearest point of boxes whose top is above z (0 inside one). */
export function distanceToBoxesAbove(boxes: Box3[], x: number, y: number, z: number): number {
  let best = Infinity;
  for (const box of boxes) {
    if (box.max[2] <= z + 1e-9) continue;
    best = Math.min(best, distanceToBoxXY(box, x, y));
  }
  return best;
}

/** Total length of feed moves at constant height (the cutting, not the ins and outs). */
export function levelFeedLength(moves: Move[]): number {
  let length = 0;
  let at: Vec3 | null = null;
  for (const move of moves) {
    if (move.kind === "drill") continue;
    if (at && move.kind === "linear" && move.to[2] === at[2])
      length += Math.hypot(move.to[0] - at[0], move.to[1] - at[1]);
    at = move.to;
  }
  return length;
}
