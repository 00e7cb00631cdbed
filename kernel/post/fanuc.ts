/** Fanuc 0i-MF / 31i-B: G54.1 P1 to P48 past G59 (the standard 48 additional offsets), M29 before G84. */
import { fanucFamily } from "./fanuc-family.ts";

export const fanuc = fanucFamily({
  programDigits: 4,
  extraOffsets: { prefix: "G54.1 P", count: 48 },
  // through-spindle coolant is a machine builder's M code; M8 (flood) is what every Fanuc has
  coolant: { flood: "M8", through_tool: "M8", mist: "M7", air: "M7", off: "M9" },
  rigidTapping: (rpm) => [`M29 S${Math.round(rpm)}`],
});
