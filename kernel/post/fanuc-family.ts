/**
 * Fanuc and the controls that read its dialect (Haas NGC): a program between % lines with an O
 * number, three decimals with the point always written (X10. is 10 mm whatever the decimal-point
 * parameter), comments in capitals of at most COMMENT_MAX characters, the spindle home with
 * G91 G28 Z0. before a tool change and at the end, and rigid tapping as G84 after M29.
 */
import { commentText, listedWorkOffsets, type IsoDialect } from "./iso.ts";
import { formatNumber } from "./numbers.ts";
import type { Coolant } from "./motion.ts";

/** Fanuc 0i/31i accept longer comments, but their program list and screens show about this much */
const COMMENT_MAX = 60;

export interface FanucFamily {
  /** the control, as an error names it */
  control: string;
  /** digits of the O number (Fanuc 4, Haas 5) */
  programDigits: number;
  /** its work offsets in setup order (kernel/machines/work-offsets.ts) */
  workOffsets: readonly string[];
  coolant: Record<Coolant, string>;
  /** blocks before G84 (Fanuc: M29 S for rigid tapping; Haas taps rigidly by default) */
  rigidTapping: (rpm: number) => string[];
}

export function fanucFamily(family: FanucFamily): IsoDialect {
  const comment = (text: string): string => `(${commentText(text, COMMENT_MAX).toUpperCase()})`;
  return {
    extension: ".nc",
    programHead: (start) => [
      "%",
      `O${String(start.setup.index + 1).padStart(family.programDigits, "0")} ${comment(start.project)}`,
    ],
    programTail: () => ["%"],
    comment,
    decimals: 3,
    wholeWithPoint: true,
    workOffset: listedWorkOffsets(family.control, family.workOffsets),
    home: ["G91 G28 Z0.", "G90"],
    optionalStop: "M01",
    toolChange: (tool, comments) => [
      `T${tool.number} M6`,
      ...comments(`${tool.name}, stick-out ${formatNumber(tool.stick_out_mm, 3, false)}`),
    ],
    lengthCompensation: true,
    safeStart: ["G21", "G90 G94 G17 G40 G49 G80"],
    cycles: "iso",
    coolant: family.coolant,
    // P in milliseconds, a whole number
    dwell: (seconds) => `P${Math.round(seconds * 1000)}`,
    tapping(cycle, rpm, n) {
      const [first, ...rest] = cycle.at;
      if (first === undefined) return [];
      return [
        ...family.rigidTapping(rpm),
        `G99 G84 X${n(first[0])} Y${n(first[1])} Z${n(cycle.bottom_z)} R${n(cycle.retract_z)} F${n(cycle.feed)}`,
        ...rest.map(([x, y]) => `X${n(x)} Y${n(y)}`),
        "G80",
      ];
    },
  };
}
