/**
 * An offset pass fed for the chip it makes. The cutting data's feed is for its side cut (the
 * table's ae); where a pass engages less (the last passes along a wall, a rest tool stripping the
 * band a larger one left, a pass taking what is left between two others) the chip is thinner at
 * the same feed per tooth, and the feed that gives it the table's thickness is higher by
 * adaptive/parameters.ts chipThinningFactor (at most CHIP_THINNING_CAP times), as adaptive
 * clearing feeds its paths.
 *
 * Each move of the pass (between two of its own points) is fed for the largest engagement read
 * on it (full-width.ts readPass: the move's points and the next move's first one, where an
 * inside corner's engagement peaks), plus one cell, which the reading may miss: a move that
 * reads no engagement at all still takes one cell's factor, so a wall left thicker than the
 * model is met at no more than that. The reading is taken a step after the disc the tool cleared
 * (adaptive/material-model.ts engagementAt): a step shorter than sqrt(R · cell) leaves the
 * leading edge in that disc and reads low (the short moves round a corner of the material read
 * 0 where an independent measure found 2.3 mm of an 8 mm tool), so a move with such a step, on
 * it or just after it, keeps the cutting feed.
 */
import type { Move, Vec2 } from "../types.ts";
import { chipThinningFactor } from "./adaptive/parameters.ts";
import type { PassReading } from "./full-width.ts";

export interface ThinChipFeed {
  /** the cutting data's feed (mm/min) */
  feed: number;
  diameter: number;
  /** the machine's max feed (mm/min) */
  max_feed_mm_min: number;
}

/** The pass's moves at the level z, from its first point, each at its chip-thinned feed. */
export function thinChipMoves(reading: PassReading, z: number, spec: ThinChipFeed): Move[] {
  const { points, vertex, engagement, cell } = reading;
  const shortest = Math.sqrt((spec.diameter / 2) * cell);
  // the reading at k, Infinity where the step to it is too short to tell
  const read = (k: number): number => {
    const a = points[k - 1] as Vec2;
    const b = points[k] as Vec2;
    return Math.hypot(b[0] - a[0], b[1] - a[1]) < shortest ? Infinity : (engagement[k] as number);
  };
  const moves: Move[] = [];
  let largest = 0;
  for (let k = 1; k < points.length; k += 1) {
    largest = Math.max(largest, read(k));
    if (vertex[k] !== 1 && k < points.length - 1) continue;
    const ahead = k + 1 < points.length ? read(k + 1) : 0;
    const p = points[k] as Vec2;
    moves.push({ kind: "linear", to: [p[0], p[1], z], feed: thinChipFeed(Math.max(largest, ahead) + cell, spec) });
    largest = 0;
  }
  return moves;
}

/** The feed for a side cut of `engagement` mm: the table's raised for the thin chip, within the machine's max feed, never below the table's. */
export function thinChipFeed(engagement: number, spec: ThinChipFeed): number {
  const raised = Math.round(spec.feed * chipThinningFactor(engagement, spec.diameter) * 10) / 10;
  return Math.max(spec.feed, Math.min(spec.max_feed_mm_min, raised));
}
