/**
 * A synthetic toolpath of any length for bench:post: one operation zig-zagging across a 200 mm
 * pocket in rows 1 mm apart, each row of 0.5 mm lines (as a finishing pass's chords are) and a
 * half-circle turn to the next, stepping down 1 mm every 100 rows. Valid geometry: every arc's
 * end lies on its circle, so any control would take it.
 */
import type { Move } from "../../../kernel/cam/types.ts";
import type { CamPlan } from "../../../kernel/job/plan.ts";

const ROW_MM = 200;
const CHORD_MM = 0.5;
const STEP_MM = 1;

export function syntheticMoves(count: number): Move[] {
  const moves: Move[] = [
    { kind: "rapid", to: [0, 0, 5] },
    { kind: "linear", to: [0, 0, -1], feed: 300 },
  ];
  let x = 0;
  let y = 0;
  let z = -1;
  let direction = 1;
  let row = 0;
  while (moves.length < count) {
    const next = x + direction * CHORD_MM;
    if (next < 0 || next > ROW_MM) {
      // a half turn about the point between this row and the next, bulging the way the row ran
      moves.push({
        kind: "arc",
        to: [x, y + STEP_MM, z],
        centre: [x, y + STEP_MM / 2],
        clockwise: direction < 0,
        feed: 1500,
      });
      y += STEP_MM;
      direction = -direction;
      row += 1;
      if (row % 100 === 0) {
        z -= 1;
        y = 0;
        moves.push({ kind: "rapid", to: [x, y, z + 1] }, { kind: "linear", to: [x, y, z], feed: 300 });
      }
      continue;
    }
    x = next;
    moves.push({ kind: "linear", to: [x, y, z], feed: 1500 });
  }
  moves.length = count;
  return moves;
}

/** `plan` with its first setup's first operation given `moves`, and the other operations none. */
export function withToolpath(plan: CamPlan, moves: Move[]): CamPlan {
  const setup = plan.setups[0];
  if (setup === undefined) throw new Error("the plan has no setup");
  return {
    ...plan,
    setups: [
      { ...setup, operations: setup.operations.map((operation, i) => ({ ...operation, moves: i === 0 ? moves : [] })) },
    ],
  };
}
