/**
 * Links between adaptive paths that stay down: through cells where the tool touches no material
 * (front.ts freeCell), straight when that is clear, else along the shortest way through such
 * cells (a breadth-first search over the grid, 8 neighbours), pulled straight between the
 * corners it has to go round. The ends are where the tool stands or will start, beside the
 * material by construction: the cells within LINK_END_CELLS of them are not asked.
 */
import type { Vec2 } from "../../types.ts";
import { freeCell, type Front } from "./front.ts";

const LINK_END_CELLS = 1.5;

/** The tool goes straight from a to b through free cells (the ends' neighbourhoods aside). */
export function straightClear(front: Front, a: Vec2, b: Vec2): boolean {
  const { grid } = front;
  const length = Math.hypot(b[0] - a[0], b[1] - a[1]);
  const spacing = grid.cell / 2;
  const n = Math.ceil(length / spacing);
  const skip = LINK_END_CELLS * grid.cell;
  for (let k = 0; k <= n; k += 1) {
    const s = n === 0 ? 0 : (k / n) * length;
    const p: Vec2 = n === 0 ? a : [a[0] + ((b[0] - a[0]) * k) / n, a[1] + ((b[1] - a[1]) * k) / n];
    const index = grid.indexOf(p);
    if (index < 0 || front.allowed[index] !== 1) return false;
    if (s < skip || length - s < skip) continue;
    if (!freeCell(front, index)) return false;
  }
  return true;
}

/**
 * The points to feed through from a to b (b last) staying down, or null when the way through
 * free cells is longer than `maxLength` or there is none.
 */
export function stayDownLink(front: Front, a: Vec2, b: Vec2, maxLength: number): Vec2[] | null {
  if (straightClear(front, a, b)) return [b];
  const cells = cellPath(front, a, b, maxLength);
  if (cells === null) return null;
  const { grid } = front;
  const points: Vec2[] = [];
  let here = a;
  let i = 0;
  let length = 0;
  while (i < cells.length) {
    // the farthest cell straight from here
    let j = i;
    while (j + 1 < cells.length && straightClear(front, here, grid.centreOf(cells[j + 1] as number))) j += 1;
    const next = j === cells.length - 1 ? b : grid.centreOf(cells[j] as number);
    length += Math.hypot(next[0] - here[0], next[1] - here[1]);
    points.push(next);
    here = next;
    i = j + 1;
  }
  const last = points[points.length - 1] as Vec2;
  if (last[0] !== b[0] || last[1] !== b[1]) points.push(b);
  return length <= maxLength ? points : null;
}

/** The cells from a's to b's through free cells (a's own cell and b's may be any allowed one), or null. */
function cellPath(front: Front, a: Vec2, b: Vec2, maxLength: number): number[] | null {
  const { grid } = front;
  const source = grid.indexOf(a);
  const target = grid.indexOf(b);
  if (source < 0 || target < 0) return null;
  const parent = new Int32Array(grid.size).fill(-1);
  const queue = new Int32Array(grid.size);
  let head = 0;
  let tail = 0;
  queue[tail++] = source;
  parent[source] = source;
  const steps = Math.ceil(maxLength / grid.cell);
  const depth = new Int32Array(grid.size);
  const nearEnd = (index: number): boolean => {
    const c = grid.centreOf(index);
    const reach = LINK_END_CELLS * grid.cell + grid.cell;
    return Math.hypot(c[0] - a[0], c[1] - a[1]) < reach || Math.hypot(c[0] - b[0], c[1] - b[1]) < reach;
  };
  while (head < tail) {
    const index = queue[head++] as number;
    if (index === target) break;
    if ((depth[index] as number) >= steps) continue;
    const ix = index % grid.nx;
    const iy = (index - ix) / grid.nx;
    for (let dy = -1; dy <= 1; dy += 1) {
      for (let dx = -1; dx <= 1; dx += 1) {
        const x = ix + dx;
        const y = iy + dy;
        if ((dx === 0 && dy === 0) || x < 0 || y < 0 || x >= grid.nx || y >= grid.ny) continue;
        const next = y * grid.nx + x;
        if (parent[next] !== -1) continue;
        if (front.allowed[next] !== 1 || !(freeCell(front, next) || nearEnd(next))) continue;
        parent[next] = index;
        depth[next] = (depth[index] as number) + 1;
        queue[tail++] = next;
      }
    }
  }
  if (parent[target] === -1) return null;
  const path: number[] = [];
  for (let at = target; at !== source; at = parent[at] as number) path.push(at);
  return path.reverse();
}
