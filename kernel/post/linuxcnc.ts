/**
 * LinuxCNC (its rs274ngc interpreter): nine work offsets (G54 to G59, then G59.1 to G59.3), G53
 * to go home in machine coordinates, dwell in seconds, and no G84: a tapping cycle is written
 * as G33.1 rigid tapping at each hole, whose pitch (K) is the cycle's feed over the spindle speed.
 * Numbers need no decimal point; four decimals keep a 0.1 µm toolpath within 0.05 µm.
 */
import { commentText, COOLANT_CODES, listedWorkOffsets, tapPitch, type IsoDialect } from "./iso.ts";
import { formatNumber } from "./numbers.ts";
import { CONTROL_WORK_OFFSETS } from "../machines/work-offsets.ts";

export const linuxcnc: IsoDialect = {
  extension: ".ngc",
  programHead: () => ["%"],
  programTail: () => ["%"],
  comment: (text) => `(${commentText(text, 200)})`,
  decimals: 4,
  wholeWithPoint: false,
  workOffset: listedWorkOffsets("LinuxCNC", CONTROL_WORK_OFFSETS.linuxcnc),
  home: ["G53 G0 Z0"],
  optionalStop: "M1",
  toolChange: (tool, comments) => [
    `T${tool.number} M6`,
    ...comments(`${tool.name}, stick-out ${formatNumber(tool.stick_out_mm, 4, false)}`),
  ],
  lengthCompensation: true,
  safeStart: ["G21", "G90 G94 G17 G40 G49 G80"],
  cycles: "iso",
  coolant: COOLANT_CODES,
  dwell: (seconds) => `P${seconds}`,
  tapping(cycle, rpm, n) {
    const pitch = tapPitch(cycle.feed, rpm);
    const blocks: string[] = [];
    for (const [x, y] of cycle.at) {
      blocks.push(`G0 X${n(x)} Y${n(y)}`, `G0 Z${n(cycle.retract_z)}`, `G33.1 Z${n(cycle.bottom_z)} K${n(pitch)}`);
    }
    return blocks;
  },
};
