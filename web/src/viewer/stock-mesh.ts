/**
 * The simulated stock (api/viewer-stock.ts) as triangles a scene draws: the top of every cell
 * with material, and the walls where a cell stands above its neighbour (or the stock's edge),
 * down to the neighbour's top or the stock's bottom, so the stock reads as a solid. Positions
 * are in the part's coordinates (the setup's frame applied), colours per vertex: a cell's top by
 * its class (blue left beyond the tolerance, green within it, red cut into the part, grey beside
 * the part), the walls in STOCK_SIDE. A height field compares the top of each column only: a
 * wall coloured as its cell's top would claim a comparison nobody made. Pure arrays, no
 * three.js: a BufferGeometry takes them as they are (non-indexed).
 */
import type { StockField, Vec3 } from "../api/viewer-stock.ts";

export interface StockMesh {
  /** x, y, z per vertex; three vertices a triangle */
  positions: Float32Array;
  /** r, g, b (0..1) per vertex */
  colours: Float32Array;
  triangles: number;
}

/** per class (STOCK_CLASSES' order): left, within, cut into, no part */
export const STOCK_COLOURS: readonly Vec3[] = [
  [0.2, 0.45, 0.95],
  [0.2, 0.75, 0.3],
  [0.9, 0.15, 0.15],
  [0.72, 0.72, 0.72],
];

/** the walls between cells and at the stock's edge: stock, not compared with the part */
export const STOCK_SIDE: Vec3 = [0.6, 0.6, 0.62];

/** a cell at the bottom holds no material */
const EMPTY_SLACK = 1e-4;

export function stockMesh(field: StockField): StockMesh {
  const { nx, ny, heights, classes } = field;
  const height = (i: number, j: number): number =>
    i < 0 || j < 0 || i >= nx || j >= ny ? field.bottom : Math.max(field.bottom, heights[j * nx + i] as number);
  // counted first, so the arrays are allocated once
  let quads = 0;
  for (let j = 0; j < ny; j += 1) {
    for (let i = 0; i < nx; i += 1) {
      const h = height(i, j);
      if (h <= field.bottom + EMPTY_SLACK) continue;
      quads += 1;
      for (const [di, dj] of SIDES) if (height(i + di, j + dj) < h) quads += 1;
    }
  }
  const positions = new Float32Array(quads * 18);
  const colours = new Float32Array(quads * 18);
  const y = cross(field.frame.z_axis, field.frame.x_axis);
  const { origin, x_axis: x, z_axis: z } = field.frame;
  let v = 0;
  const vertex = (px: number, py: number, pz: number, colour: Vec3) => {
    for (let a = 0; a < 3; a += 1) {
      positions[v + a] = origin[a]! + px * x[a]! + py * y[a]! + pz * z[a]!;
      colours[v + a] = colour[a]!;
    }
    v += 3;
  };
  // two triangles, counter-clockwise seen from outside: corners in that order
  const quad = (corners: Vec3[], colour: Vec3) => {
    for (const c of [0, 1, 2, 0, 2, 3]) {
      const p = corners[c]!;
      vertex(p[0], p[1], p[2], colour);
    }
  };
  for (let j = 0; j < ny; j += 1) {
    for (let i = 0; i < nx; i += 1) {
      const h = height(i, j);
      if (h <= field.bottom + EMPTY_SLACK) continue;
      const colour = STOCK_COLOURS[classes[j * nx + i] as number] ?? STOCK_COLOURS[3]!;
      const x0 = field.x0 + i * field.dx;
      const x1 = x0 + field.dx;
      const y0 = field.y0 + j * field.dy;
      const y1 = y0 + field.dy;
      quad(
        [
          [x0, y0, h],
          [x1, y0, h],
          [x1, y1, h],
          [x0, y1, h],
        ],
        colour,
      );
      for (const [di, dj] of SIDES) {
        const below = height(i + di, j + dj);
        if (below >= h) continue;
        quad(wall(di, dj, { x0, x1, y0, y1 }, below, h), STOCK_SIDE);
      }
    }
  }
  return { positions, colours, triangles: quads * 2 };
}

const SIDES: readonly [number, number][] = [
  [1, 0],
  [-1, 0],
  [0, 1],
  [0, -1],
];

/** The wall on a cell's side towards (di, dj), from `low` up to `high`, facing that way. */
function wall(
  di: number,
  dj: number,
  cell: { x0: number; x1: number; y0: number; y1: number },
  low: number,
  high: number,
): Vec3[] {
  const { x0, x1, y0, y1 } = cell;
  if (di === 1)
    return [
      [x1, y0, low],
      [x1, y1, low],
      [x1, y1, high],
      [x1, y0, high],
    ];
  if (di === -1)
    return [
      [x0, y1, low],
      [x0, y0, low],
      [x0, y0, high],
      [x0, y1, high],
    ];
  if (dj === 1)
    return [
      [x1, y1, low],
      [x0, y1, low],
      [x0, y1, high],
      [x1, y1, high],
    ];
  return [
    [x0, y0, low],
    [x1, y0, low],
    [x1, y0, high],
    [x0, y0, high],
  ];
}

function cross(a: Vec3, b: Vec3): Vec3 {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}
