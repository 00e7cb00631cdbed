/**
 * The outline of many small counter-clockwise polygons that tile a surface (a mesh's triangles,
 * projected): the same region under the NonZero rule, as a few loops instead of thousands.
 *
 * Two neighbours' projections share their common edge, walked one way by one and the other way
 * by the other. As a sum of directed edges (a 1-chain), each pair cancels: the winding number
 * everywhere stays the count of pieces covering the point, so the NonZero region is unchanged.
 * What is left is balanced at every vertex (as many edges leave as arrive), so it chains into
 * closed loops. Where two pieces fold over each other (a silhouette) or their edges do not match
 * exactly (a T-junction), nothing cancels and the edges stay: the result is still right, only
 * longer.
 *
 * Why: Clipper's sweep pays for every coincident edge. Uniting one NIST part's band of 24,000
 * triangle slivers took 880 ms; their outline is a few hundred loops. Points and edges are
 * numbered in open-addressing tables of integer pairs: keyed by strings, the numbering had been
 * most of the outline's time.
 */
import type { Path64, Paths64 } from "./polygons.ts";

type Point = { x: number; y: number };

/** `pieces` counter-clockwise (positive area), each without repeated consecutive points. */
export function outline(pieces: Paths64): Paths64 {
  let corners = 0;
  for (const piece of pieces) corners += piece.length;
  const points = new PairTable(corners);
  const at: Point[] = [];
  // directed edges (from, to) with their count: a → b and b → a cancel
  const edges = new PairTable(corners);
  const counts: number[] = [];
  for (const piece of pieces) {
    const n = piece.length;
    let first = -1;
    let previous = -1;
    for (let i = 0; i <= n; i += 1) {
      let id: number;
      if (i < n) {
        const p = piece[i] as Point;
        id = points.slot(p.x, p.y);
        if (id === at.length) at.push(p);
        if (i === 0) first = id;
      } else id = first;
      if (i > 0 && previous !== id) {
        const reverse = edges.find(id, previous);
        if (reverse >= 0 && (counts[reverse] as number) > 0) counts[reverse] = (counts[reverse] as number) - 1;
        else {
          const edge = edges.slot(previous, id);
          counts[edge] = (counts[edge] ?? 0) + 1;
        }
      }
      previous = id;
    }
  }
  const from: number[] = [];
  const to: number[] = [];
  for (let edge = 0; edge < counts.length; edge += 1) {
    for (let k = 0; k < (counts[edge] as number); k += 1) {
      from.push(edges.first(edge));
      to.push(edges.second(edge));
    }
  }
  return chain(at, from, to);
}

/**
 * Integer pairs (each within ±2^31) numbered 0, 1, 2, ... in the order first seen: open
 * addressing with linear probing, at least twice as many slots as the most pairs it will hold
 * (`most`: the pieces' corner count bounds both their points and their edges).
 */
class PairTable {
  private readonly keys: Int32Array;
  private readonly slots: Int32Array;
  private readonly firsts: number[] = [];
  private readonly seconds: number[] = [];

  constructor(most: number) {
    let size = 16;
    while (size < 2 * most) size *= 2;
    this.keys = new Int32Array(2 * size);
    this.slots = new Int32Array(size).fill(-1);
  }

  /** the pair's number, given a new one if it has none */
  slot(a: number, b: number): number {
    const found = this.find(a, b);
    if (found >= 0) return found;
    const id = this.firsts.length;
    this.firsts.push(a);
    this.seconds.push(b);
    this.place(a, b, id);
    return id;
  }

  /** the pair's number, -1 when it has none */
  find(a: number, b: number): number {
    const mask = this.slots.length - 1;
    for (let h = hash(a, b) & mask; ; h = (h + 1) & mask) {
      const id = this.slots[h] as number;
      if (id < 0) return -1;
      if (this.keys[2 * h] === a && this.keys[2 * h + 1] === b) return id;
    }
  }

  first(id: number): number {
    return this.firsts[id] as number;
  }

  second(id: number): number {
    return this.seconds[id] as number;
  }

  private place(a: number, b: number, id: number): void {
    const mask = this.slots.length - 1;
    let h = hash(a, b) & mask;
    while ((this.slots[h] as number) >= 0) h = (h + 1) & mask;
    this.slots[h] = id;
    this.keys[2 * h] = a;
    this.keys[2 * h + 1] = b;
  }
}

function hash(a: number, b: number): number {
  return (Math.imul(a, 0x9e3779b1) ^ Math.imul(b ^ (b >>> 15), 0x85ebca77)) >>> 0;
}

/** Balanced directed edges joined into closed loops. */
function chain(points: Point[], from: number[], to: number[]): Paths64 {
  const leaving = new Map<number, number[]>();
  for (let e = 0; e < from.length; e += 1) {
    const a = from[e] as number;
    const list = leaving.get(a);
    if (list) list.push(e);
    else leaving.set(a, [e]);
  }
  const used = new Uint8Array(from.length);
  const loops: Paths64 = [];
  for (let start = 0; start < from.length; start += 1) {
    if (used[start]) continue;
    const loop: Path64 = [];
    let e: number | undefined = start;
    while (e !== undefined && !used[e]) {
      used[e] = 1;
      loop.push(points[from[e] as number] as Point);
      e = nextUnused(leaving.get(to[e] as number), used);
    }
    if (loop.length >= 3) loops.push(loop);
  }
  return loops;
}

function nextUnused(list: number[] | undefined, used: Uint8Array): number | undefined {
  if (!list) return undefined;
  while (list.length > 0) {
    const e = list.pop() as number;
    if (!used[e]) return e;
  }
  return undefined;
}
