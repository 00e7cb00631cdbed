/**
 * A setup's program with the line each move of the plan became, for a viewer that shows the
 * line of G-code at the tool's position. Every writer consumes the motion stream one event at a
 * time and writes an event's lines before it takes the next, so the line written after the
 * stream handed on a move is that move's first line. A move that wrote nothing of its own (its
 * words were all modal already, or it went nowhere) gets the line before it.
 */
import type { CamPlan } from "../job/plan.ts";
import { postSetup, type PostContext } from "./index.ts";

export interface ProgramWithMoveLines {
  lines: string[];
  /** per operation of the setup, per move: the 0-based index in `lines` of its block */
  moveLines: Uint32Array[];
}

export function programWithMoveLines(
  plan: CamPlan,
  setupIndex: number,
  postprocessor: string,
  context: PostContext,
): ProgramWithMoveLines {
  const operations = plan.setups[setupIndex]?.operations ?? [];
  const unset = 0xffffffff;
  const moveLines = operations.map((operation) => new Uint32Array(operation.moves.length).fill(unset));
  // the move handed on and not yet given a line (an object: the callback sets it, the loop reads it)
  const pending: { operation: number; move: number } = { operation: -1, move: -1 };
  const program = postSetup(plan, setupIndex, postprocessor, {
    ...context,
    onMove: (operation, move) => {
      pending.operation = operation;
      pending.move = move;
    },
  });
  const lines: string[] = [];
  for (const line of program.lines) {
    if (pending.operation >= 0) {
      (moveLines[pending.operation] as Uint32Array)[pending.move] = lines.length;
      pending.operation = -1;
    }
    lines.push(line);
  }
  let before = 0;
  for (const perMove of moveLines)
    for (let m = 0; m < perMove.length; m += 1) {
      if (perMove[m] === unset) perMove[m] = before;
      else before = perMove[m] as number;
    }
  return { lines, moveLines };
}
