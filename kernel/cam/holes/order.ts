/**
 * The order holes are made in: holes that one canned cycle can make (same top, bottom and
 * cycle) form a group; groups and the holes in them follow the nearest neighbour from where
 * the tool is. Greedy, not shortest: good enough for the tens of holes of a setup and
 * predictable for whoever reads the program.
 */
import type { Vec2 } from "../types.ts";

const distance = (a: Vec2, b: Vec2) => Math.hypot(a[0] - b[0], a[1] - b[1]);

/** `items` from `start`, each next the nearest to the last (ties: input order). */
export function nearestNeighbourOrder<T>(items: readonly T[], at: (item: T) => Vec2, start: Vec2): T[] {
  const left = [...items];
  const out: T[] = [];
  let here = start;
  while (left.length > 0) {
    let best = 0;
    for (let i = 1; i < left.length; i++)
      if (distance(at(left[i] as T), here) < distance(at(left[best] as T), here)) best = i;
    const next = left.splice(best, 1)[0] as T;
    out.push(next);
    here = at(next);
  }
  return out;
}

/**
 * Groups by `key`, each in nearest-neighbour order; the next group is the one holding the hole
 * nearest to the last hole of the previous.
 */
export function groupAndOrder<T>(
  items: readonly T[],
  key: (item: T) => string,
  at: (item: T) => Vec2,
  start: Vec2,
): T[][] {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  const left = [...groups.values()];
  const out: T[][] = [];
  let here = start;
  while (left.length > 0) {
    let best = 0;
    let bestDistance = Infinity;
    left.forEach((group, i) => {
      const d = Math.min(...group.map((item) => distance(at(item), here)));
      if (d < bestDistance) {
        best = i;
        bestDistance = d;
      }
    });
    const ordered = nearestNeighbourOrder(left.splice(best, 1)[0] as T[], at, here);
    out.push(ordered);
    here = at(ordered[ordered.length - 1] as T);
  }
  return out;
}

/** A number as a grouping key: equal to a micrometre. */
export function keyOf(...values: (number | string | null)[]): string {
  return values.map((v) => (typeof v === "number" ? String(Math.round(v * 1000)) : String(v))).join("|");
}
