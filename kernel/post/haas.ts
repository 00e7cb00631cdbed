/** Haas NGC: G154 P1 to P99 past G59, M88 through-spindle coolant, M83 air blast, G84 rigid by default. */
import { fanucFamily } from "./fanuc-family.ts";

export const haas = fanucFamily({
  control: "Haas",
  programDigits: 5,
  extraOffsets: { prefix: "G154 P", count: 99 },
  coolant: { flood: "M8", through_tool: "M88", mist: "M8", air: "M83", off: "M9" },
  rigidTapping: () => [],
});
