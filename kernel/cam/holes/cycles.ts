/**
 * What a canned drill cycle (DrillCycle, ../types.ts) does, move by move: the one reading the
 * machining time and the stock simulation share, and the one the postprocessors must match.
 *
 * At each hole, in order: from where the tool is, up to the R plane first if it is below it, then
 * across at that height to the hole, then down to R, all rapid. Then by cycle:
 * - drill (G81): feed to the bottom, rapid back to R;
 * - dwell (G82): the same with dwell_s at the bottom;
 * - peck (G83): pecks of peck_mm, the first ending peck_mm below top_z (not below R: the air
 *   between R and the top is fed through once, at the start); after each peck a rapid out to R
 *   and back down to PECK_RETURN_CLEARANCE_MM above the last peck's depth;
 * - chip_break (G73): the same pecks with a CHIP_BREAK_RETRACT_MM rapid back after each;
 * - tap (G84): feed to the bottom, dwell_s, feed back out to R (the spindle reverses; the feed
 *   stays locked to the pitch).
 * The tool ends at R over the last hole (G99); the operation's next move takes it up.
 */
import type { DrillCycle, Vec3 } from "../types.ts";

/** G83: how far above the last peck the rapid back into the hole stops (Fanuc parameter 5115, a usual setting). */
export const PECK_RETURN_CLEARANCE_MM = 0.5;
/** G73: how far the drill backs off to break the chip (Fanuc parameter 5114, a usual setting). */
export const CHIP_BREAK_RETRACT_MM = 0.5;

export type ExpandedMove =
  | { kind: "rapid"; to: Vec3 }
  | { kind: "linear"; to: Vec3; feed: number }
  | { kind: "dwell"; seconds: number };

/** The depths each peck ends at, down to bottom_z. */
export function peckDepths(cycle: DrillCycle): number[] {
  const peck = cycle.peck_mm;
  if ((cycle.cycle !== "peck" && cycle.cycle !== "chip_break") || peck === null || !(peck > 0)) return [cycle.bottom_z];
  const out: number[] = [];
  for (let z = cycle.top_z - peck; z > cycle.bottom_z + 1e-9; z -= peck) out.push(z);
  out.push(cycle.bottom_z);
  return out;
}

/** The cycle as plain moves, from the tool's position `from`. */
export function expandDrillCycle(cycle: DrillCycle, from: Vec3): ExpandedMove[] {
  const out: ExpandedMove[] = [];
  const r = cycle.retract_z;
  let here: Vec3 = from;
  const go = (move: ExpandedMove) => {
    out.push(move);
    if (move.kind !== "dwell") here = move.to;
  };
  for (const [x, y] of cycle.at) {
    if (here[2] < r) go({ kind: "rapid", to: [here[0], here[1], r] });
    if (here[0] !== x || here[1] !== y) go({ kind: "rapid", to: [x, y, here[2]] });
    if (here[2] !== r) go({ kind: "rapid", to: [x, y, r] });
    switch (cycle.cycle) {
      case "drill":
      case "dwell":
        go({ kind: "linear", to: [x, y, cycle.bottom_z], feed: cycle.feed });
        if (cycle.cycle === "dwell" && cycle.dwell_s > 0) go({ kind: "dwell", seconds: cycle.dwell_s });
        go({ kind: "rapid", to: [x, y, r] });
        break;
      case "tap":
        go({ kind: "linear", to: [x, y, cycle.bottom_z], feed: cycle.feed });
        if (cycle.dwell_s > 0) go({ kind: "dwell", seconds: cycle.dwell_s });
        go({ kind: "linear", to: [x, y, r], feed: cycle.feed });
        break;
      case "peck":
      case "chip_break": {
        const depths = peckDepths(cycle);
        depths.forEach((depth, i) => {
          go({ kind: "linear", to: [x, y, depth], feed: cycle.feed });
          const last = i === depths.length - 1;
          if (last) go({ kind: "rapid", to: [x, y, r] });
          else if (cycle.cycle === "peck") {
            go({ kind: "rapid", to: [x, y, r] });
            go({ kind: "rapid", to: [x, y, Math.min(r, depth + PECK_RETURN_CLEARANCE_MM)] });
          } else go({ kind: "rapid", to: [x, y, depth + CHIP_BREAK_RETRACT_MM] });
        });
        break;
      }
    }
  }
  return out;
}
