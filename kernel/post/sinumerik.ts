/**
 * Siemens Sinumerik 840D in its own (Siemens) language: comments after ";", G71 metric, G54 to
 * G57 then the extended offsets G505 to G599, a tool called by name (T="..." M6) with its offset
 * D1 (there is no G43: D1 carries the length), home with SUPA G0 Z0 D0 (machine coordinates, no
 * offsets), and drill cycles as modal calls of Siemens's own cycles over their holes:
 *
 *   MCALL CYCLE81(RTP, RFP, SDIS, DP)            drill        RTP retract plane (our R, absolute)
 *   MCALL CYCLE82(RTP, RFP, SDIS, DP, , DTB)     dwell        RFP reference plane (the hole's top)
 *   MCALL CYCLE83(RTP, RFP, SDIS, DP, , FDEP,    peck (VARI=1 SDIS safety distance (RTP - RFP)
 *        , DAM, 0, 0, 1, VARI)                   chip break 0) DP final depth (absolute)
 *   MCALL CYCLE84(RTP, RFP, SDIS, DP, , DTB, 3, , PIT, , SST)   rigid tapping
 *   X.. Y..   (each hole)
 *   MCALL     (the modal call ended)
 *
 * CYCLE83's first depth FDEP is a peck below the top and each further one DAM deep, as the plan
 * pecks. Arcs are G2/G3 with I and J from the start (incremental, the 840D's default).
 */
import { commentText, COOLANT_CODES, listedWorkOffsets, tapPitch, type IsoDialect } from "./iso.ts";
import { formatNumber } from "./numbers.ts";
import { CONTROL_WORK_OFFSETS } from "../machines/work-offsets.ts";

/** the 840D's tool identifiers are at most 32 characters */
const TOOL_NAME_MAX = 32;

export const sinumerik: IsoDialect = {
  extension: ".mpf",
  programHead: () => [],
  programTail: () => [],
  comment: (text) => `; ${commentText(text, 120)}`,
  decimals: 3,
  wholeWithPoint: false,
  workOffset: listedWorkOffsets("The 840D", CONTROL_WORK_OFFSETS.sinumerik),
  home: ["SUPA G0 Z0 D0"],
  optionalStop: "M1",
  toolChange: (tool, comments) => [
    `T="${toolName(tool.name)}" M6`,
    "D1",
    ...comments(`T${tool.number}: ${tool.name}, stick-out ${formatNumber(tool.stick_out_mm, 3, false)}`),
  ],
  lengthCompensation: false,
  safeStart: ["G71", "G17 G90 G94 G40"],
  cycles(cycle, rpm, n) {
    const rtp = n(cycle.retract_z);
    const rfp = n(cycle.top_z);
    const sdis = n(cycle.retract_z - cycle.top_z);
    const dp = n(cycle.bottom_z);
    const peck = cycle.peck_mm ?? cycle.top_z - cycle.bottom_z;
    const call = {
      drill: `CYCLE81(${rtp}, ${rfp}, ${sdis}, ${dp})`,
      dwell: `CYCLE82(${rtp}, ${rfp}, ${sdis}, ${dp}, , ${n(cycle.dwell_s)})`,
      peck: `CYCLE83(${rtp}, ${rfp}, ${sdis}, ${dp}, , ${n(cycle.top_z - peck)}, , ${n(peck)}, 0, 0, 1, 1)`,
      chip_break: `CYCLE83(${rtp}, ${rfp}, ${sdis}, ${dp}, , ${n(cycle.top_z - peck)}, , ${n(peck)}, 0, 0, 1, 0)`,
      // SDAC 3: the spindle stopped after
      tap: `CYCLE84(${rtp}, ${rfp}, ${sdis}, ${dp}, , ${n(cycle.dwell_s)}, 3, , ${n(tapPitch(cycle.feed, rpm))}, , ${Math.round(rpm)})`,
    }[cycle.cycle];
    // the holes are reached at rapid: G0 is named, whatever motion came before
    return [
      `F${n(cycle.feed)}`,
      `MCALL ${call}`,
      ...cycle.at.map(([x, y], i) => `${i === 0 ? "G0 " : ""}X${n(x)} Y${n(y)}`),
      "MCALL",
    ];
  },
  coolant: COOLANT_CODES,
  dwell: (seconds) => `F${seconds}`,
};

/** A tool's name as a T="..." identifier: printable, no quotes, at most TOOL_NAME_MAX characters. */
function toolName(name: string): string {
  return commentText(name.replace(/"/g, ""), TOOL_NAME_MAX);
}
