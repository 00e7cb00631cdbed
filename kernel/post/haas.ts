/** Haas NGC: G154 P1 to P99 past G59, M88 through-spindle coolant, M83 air blast, G84 rigid by default. */
import { fanucFamily } from "./fanuc-family.ts";
import { CONTROL_WORK_OFFSETS } from "../machines/work-offsets.ts";

export const haas = fanucFamily({
  control: "Haas",
  programDigits: 5,
  workOffsets: CONTROL_WORK_OFFSETS.haas,
  coolant: { flood: "M8", through_tool: "M88", mist: "M8", air: "M83", off: "M9" },
  rigidTapping: () => [],
});
