/**
 * Grbl 1.1: a hobby and router control with no tool changer, no tool table and no canned cycles.
 * A tool change is a stop: the spindle and coolant off (iso.ts), the spindle up, a (MSG,...)
 * naming the next tool, which Grbl shows its sender, and M0; the operator changes the tool, touches off its
 * Z and resumes. No G43 (the touch-off is the length). Every drill cycle is written as its moves,
 * the very ones the simulation verified. Six work offsets (G54 to G59). Grbl's line buffer holds
 * 80 characters after it drops spaces and comments, so comments are kept short too.
 */
import { commentText, listedWorkOffsets, type IsoDialect } from "./iso.ts";
import { CONTROL_WORK_OFFSETS } from "../machines/work-offsets.ts";
const COMMENT_MAX = 60;

export const grbl: IsoDialect = {
  extension: ".nc",
  programHead: () => [],
  programTail: () => [],
  comment: (text) => `(${commentText(text, COMMENT_MAX)})`,
  decimals: 3,
  wholeWithPoint: false,
  workOffset: listedWorkOffsets("Grbl", CONTROL_WORK_OFFSETS.grbl),
  home: ["G53 G0 Z0"],
  // the change is a stop of its own
  optionalStop: null,
  toolChange: (tool) => [
    `(MSG,${commentText(`Load T${tool.number} ${tool.name}, touch off Z, resume`, COMMENT_MAX)})`,
    "M0",
  ],
  lengthCompensation: false,
  safeStart: ["G21", "G90 G94 G17 G40 G49 G80"],
  cycles: "moves",
  // Grbl has M7 only when built with it; M8 is always there
  coolant: { flood: "M8", through_tool: "M8", mist: "M8", air: "M8", off: "M9" },
  dwell: (seconds) => `P${seconds}`,
};
