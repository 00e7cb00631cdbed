/** Fanuc 0i-MF / 31i-B: G54.1 P1 to P48 past G59 (the standard 48 additional offsets), M29 before G84. */
import { fanucFamily } from "./fanuc-family.ts";
import { COOLANT_CODES } from "./iso.ts";
import { CONTROL_WORK_OFFSETS } from "../machines/work-offsets.ts";

export const fanuc = fanucFamily({
  control: "Fanuc",
  programDigits: 4,
  workOffsets: CONTROL_WORK_OFFSETS.fanuc,
  coolant: COOLANT_CODES,
  rigidTapping: (rpm) => [`M29 S${Math.round(rpm)}`],
});
