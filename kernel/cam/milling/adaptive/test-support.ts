/**
 * An independent measure of radial engagement for the tests (not used in production): the stock
 * box as a grid of material tops, cut by a flat tool's disc stamped every half cell along the
 * moves, a lag behind the tool (long enough that the leading half of the edge lies beyond the
 * disc stamped last: over sqrt(2·R·cell)). Along level feed moves, lines and arcs (the cutting at a
 * level; ramps, helices and descents are the entry's), the arc of the leading half of the tool's edge in material
 * (ARC_SAMPLES points round it, just inside the edge) is the engagement angle φ, reported as the
 * radial engagement of a side cut with that arc, R·(1 - cos φ) (2R from φ = π on). It knows the
 * stock box and the moves, nothing of the generator's cells or areas.
 */
import type { Box3, Move, Vec3 } from "../../types.ts";

const ARC_SAMPLES = 720;

export interface EngagementReport {
  /** radial engagement (mm) at each point of level feed that cut, in path order */
  samples: number[];
  /** the feed of the move each sample is on */
  feeds: number[];
  /** feed length (mm) at a level that cut nothing, and that cut something */
  air_mm: number;
  cutting_mm: number;
}

export function engagementAlong(
  moves: readonly Move[],
  spec: {
    stock: Box3;
    radius: number;
    clearance: number;
    cell?: number;
    /** an earlier operation's moves and its tool's radius, cut from the stock first (a rest roughing's) */
    before?: { moves: readonly Move[]; radius: number; clearance: number };
  },
): EngagementReport {
  const cell = spec.cell ?? 0.05;
  const { stock } = spec;
  let radius = spec.before?.radius ?? spec.radius;
  const nx = Math.ceil((stock.max[0] - stock.min[0]) / cell);
  const ny = Math.ceil((stock.max[1] - stock.min[1]) / cell);
  const top = new Float64Array(nx * ny).fill(stock.max[2]);
  const stamp = (p: Vec3): void => {
    const i0 = Math.max(0, Math.floor((p[0] - radius - stock.min[0]) / cell));
    const i1 = Math.min(nx - 1, Math.ceil((p[0] + radius - stock.min[0]) / cell));
    const j0 = Math.max(0, Math.floor((p[1] - radius - stock.min[1]) / cell));
    const j1 = Math.min(ny - 1, Math.ceil((p[1] + radius - stock.min[1]) / cell));
    for (let j = j0; j <= j1; j += 1) {
      const y = stock.min[1] + (j + 0.5) * cell;
      for (let i = i0; i <= i1; i += 1) {
        const x = stock.min[0] + (i + 0.5) * cell;
        if ((x - p[0]) ** 2 + (y - p[1]) ** 2 > radius * radius) continue;
        const c = j * nx + i;
        if ((top[c] as number) > p[2]) top[c] = p[2];
      }
    }
  };
  const engaged = (p: Vec3, heading: number): number => {
    const edge = radius - cell;
    let inside = 0;
    for (let k = 0; k < ARC_SAMPLES / 2; k += 1) {
      const a = heading - Math.PI / 2 + (2 * Math.PI * k) / ARC_SAMPLES;
      const i = Math.floor((p[0] + edge * Math.cos(a) - stock.min[0]) / cell);
      const j = Math.floor((p[1] + edge * Math.sin(a) - stock.min[1]) / cell);
      if (i < 0 || j < 0 || i >= nx || j >= ny) continue;
      if ((top[j * nx + i] as number) > p[2] + 1e-6) inside += 1;
    }
    const phi = (2 * Math.PI * inside) / ARC_SAMPLES;
    return phi >= Math.PI ? 2 * radius : radius * (1 - Math.cos(phi));
  };
  if (spec.before !== undefined) {
    let at: Vec3 | null = null;
    for (const move of spec.before.moves) {
      if (move.kind === "drill") continue;
      at ??= [move.to[0], move.to[1], spec.before.clearance];
      for (const p of along(at, move, cell / 2)) stamp(p);
      at = move.to;
    }
    radius = spec.radius;
  }
  const report: EngagementReport = { samples: [], feeds: [], air_mm: 0, cutting_mm: 0 };
  const first = moves.find((m) => m.kind !== "drill");
  if (first === undefined) return report;
  const pending: Vec3[] = [];
  const lag = Math.ceil(Math.max(1, 2 * Math.sqrt(2 * radius * cell)) / (cell / 2));
  let at: Vec3 = [first.to[0], first.to[1], spec.clearance];
  for (const move of moves) {
    if (move.kind === "drill") continue;
    // level feeds, straight or round (a helix's turns are the entry's)
    const level = move.kind !== "rapid" && Math.abs(move.to[2] - at[2]) < 1e-9;
    const points = along(at, move, cell / 2);
    for (let k = 1; k < points.length; k += 1) {
      const a = points[k - 1] as Vec3;
      const b = points[k] as Vec3;
      const length = Math.hypot(b[0] - a[0], b[1] - a[1]);
      const ae = level && length > 0 ? engaged(b, Math.atan2(b[1] - a[1], b[0] - a[0])) : 0;
      pending.push(b);
      while (pending.length > lag) stamp(pending.shift() as Vec3);
      if (!level) continue;
      if (ae === 0) {
        report.air_mm += length;
        continue;
      }
      report.cutting_mm += length;
      report.samples.push(ae);
      report.feeds.push(move.feed);
    }
    at = move.to;
  }
  return report;
}

/** Points along a move, at most `step` apart, from its start (arcs as arcs, helices included). */
function along(from: Vec3, move: Exclude<Move, { kind: "drill" }>, step: number): Vec3[] {
  if (move.kind !== "arc") {
    const n = Math.max(
      1,
      Math.ceil(Math.hypot(move.to[0] - from[0], move.to[1] - from[1], move.to[2] - from[2]) / step),
    );
    return Array.from(
      { length: n + 1 },
      (_, k): Vec3 => [
        from[0] + ((move.to[0] - from[0]) * k) / n,
        from[1] + ((move.to[1] - from[1]) * k) / n,
        from[2] + ((move.to[2] - from[2]) * k) / n,
      ],
    );
  }
  const [cx, cy] = move.centre;
  const r = Math.hypot(from[0] - cx, from[1] - cy);
  const a0 = Math.atan2(from[1] - cy, from[0] - cx);
  const a1 = Math.atan2(move.to[1] - cy, move.to[0] - cx);
  let sweep = move.clockwise ? a0 - a1 : a1 - a0;
  sweep = ((sweep % (2 * Math.PI)) + 2 * Math.PI) % (2 * Math.PI);
  if (sweep < 1e-9) sweep = 2 * Math.PI;
  const n = Math.max(1, Math.ceil((sweep * r) / step));
  const sign = move.clockwise ? -1 : 1;
  return Array.from({ length: n + 1 }, (_, k): Vec3 => {
    const a = a0 + (sign * sweep * k) / n;
    return [cx + r * Math.cos(a), cy + r * Math.sin(a), from[2] + ((move.to[2] - from[2]) * k) / n];
  });
}
