/**
 * The ISO (RS-274) family's writer: Fanuc, Haas, LinuxCNC, Grbl and Sinumerik (in its Siemens
 * mode) move the tool with the same words in the same places, and differ in what a dialect says
 * (program number and % lines, units, decimal points, comments, work offsets past the sixth, the
 * way home, the tool change, coolant codes, dwell units, drill cycles). One writer walks the
 * motion stream; the dialect answers those questions.
 *
 * Words are modal and written only when they change: the motion G code, each axis, F. Every block
 * is one line; the stream's events map to blocks as:
 *   tool_change  -> the way home, the dialect's change (T M6), then G0 over the first point and
 *                   G43 down to its clearance (G0 where the control has no tool lengths)
 *   drill        -> G99 G81/G82/G83/G73 (R at retract_z) with one block per further hole, G80;
 *                   the moves themselves where the control has no canned cycles
 *   arc          -> G2/G3 with I J from the arc's start (incremental, G91.1's default)
 */
import { expandDrillCycle } from "../cam/holes/cycles.ts";
import type { DrillCycle, Vec3 } from "../cam/types.ts";
import type { Coolant, Motion, ProgramStart, ToolCall } from "./motion.ts";
import { PostError } from "./post-error.ts";

const AXES = ["X", "Y", "Z"];

export interface IsoDialect {
  /** file extension, with its dot */
  extension: string;
  /** lines before the first block (% and the program number), and after the last */
  programHead(start: ProgramStart): string[];
  programTail(): string[];
  /** a comment as the control reads it (its own characters and length) */
  comment(text: string): string;
  /** a number as a word's value: digits after the point, and whether a whole number keeps its point */
  decimals: number;
  wholeWithPoint: boolean;
  /** the work offset of the setup at this 0-based index */
  workOffset(index: number): string;
  /** blocks that take the spindle up to its tool change height */
  home: string[];
  /** the blocks that change to `tool` (T M6 where there is a changer) */
  toolChange(tool: ToolCall, comment: (text: string) => string): string[];
  /** G43 H with the tool's number after a change: false where the control has no tool table (the operator touches off) */
  lengthCompensation: boolean;
  /** the blocks after the header that set units and every modal group to a known state */
  safeStart: string[];
  /**
   * How drill cycles are written: "iso" as G81/G82/G83/G73 with G99 (tapping as `tapping` says),
   * "moves" as their moves, or the control's own cycle blocks
   */
  cycles: "iso" | "moves" | ((cycle: DrillCycle, rpm: number, number: (value: number) => string) => string[]);
  /** the M code that turns each kind of coolant on */
  coolant: Record<Coolant, string>;
  /** the P word of a G82 dwell */
  dwell(seconds: number): string;
  /** with cycles "iso": a tapping cycle's blocks in the control's own form; without, its moves */
  tapping?(cycle: DrillCycle, rpm: number, number: (value: number) => string): string[];
}

/** The coolant codes most controls share: M8 flood (through the spindle too: its code is the machine builder's), M7 mist and air. */
export const COOLANT_CODES: Record<Coolant, string> = {
  flood: "M8",
  through_tool: "M8",
  mist: "M7",
  air: "M7",
  off: "M9",
};

/** A tap's pitch from the feed the plan locked to the spindle (feed = rpm x pitch). */
export function tapPitch(feed: number, rpm: number): number {
  if (!(rpm > 0)) throw new PostError("tapping_without_spindle", "a tapping cycle before any spindle speed");
  return feed / rpm;
}

/** A workOffset for a control with only these codes: setup i gets codes[i], and past them none (too_many_setups). */
export function listedWorkOffsets(control: string, codes: readonly string[]): (index: number) => string {
  return (index) => {
    const code = codes[index];
    if (code === undefined)
      throw new PostError(
        "too_many_setups",
        `${control} has ${codes.length} work offsets; setup ${index + 1} has none`,
      );
    return code;
  };
}

/** The program of a motion stream in an ISO dialect, line by line. */
export function* isoProgram(stream: Iterable<Motion>, dialect: IsoDialect): Generator<string> {
  const { decimals, wholeWithPoint } = dialect;
  const n = (value: number): string => formatNumber(value, decimals, wholeWithPoint);
  let motionCode = "";
  // what the control was last told of each axis, in units (toUnits): a word is written when it changes
  let told: (number | null)[] = [null, null, null];
  let feed: number | null = null;
  let rpm = 0;
  let workOffset = "";

  // axis i's word, and the control told it
  const tell = (i: number, value: number): string => {
    const units = toUnits(value, decimals);
    told[i] = units;
    return AXES[i] + formatUnits(units, decimals, wholeWithPoint);
  };
  // the axis words of a move to `to`, only those that changed ("" when none did)
  const axes = (to: Vec3): string => {
    let words = "";
    for (let i = 0; i < 3; i += 1) {
      const value = to[i] as number;
      if (told[i] !== toUnits(value, decimals)) words += (words === "" ? "" : " ") + tell(i, value);
    }
    return words;
  };
  const feedWord = (value: number): string => {
    const units = toUnits(value, decimals);
    if (feed === units) return "";
    feed = units;
    return "F" + formatUnits(units, decimals, wholeWithPoint);
  };
  const block = (...words: string[]): string => words.filter((word) => word.length > 0).join(" ");
  const moveBlock = (code: string, to: Vec3, feedText = ""): string | null => {
    const words = axes(to);
    if (words === "") return null;
    const g = code === motionCode ? "" : code + " ";
    motionCode = code;
    return feedText === "" ? g + words : g + words + " " + feedText;
  };
  // after a change of tool or a cycle the control is told every axis again
  const forget = (): void => {
    told = [null, null, null];
  };

  for (const motion of stream) {
    switch (motion.kind) {
      case "program_start": {
        yield* dialect.programHead(motion);
        yield dialect.comment(
          `${motion.project} - setup ${motion.setup.index + 1} of ${motion.setup.count}: ${motion.setup.name}`,
        );
        for (const t of motion.tools)
          yield dialect.comment(`T${t.number} D${formatNumber(t.diameter, 3, false)} ${t.name}`);
        yield* dialect.safeStart;
        workOffset = dialect.workOffset(motion.setup.index);
        break;
      }
      case "operation":
        yield dialect.comment(motion.name);
        break;
      case "tool_change": {
        const tool = motion.tool;
        yield* dialect.home;
        yield* dialect.toolChange(tool, dialect.comment);
        // over the first point, then down to its clearance with the tool's length
        motionCode = "G0";
        forget();
        const [x, y, z] = motion.first;
        yield block("G0 G90", workOffset, tell(0, x), tell(1, y));
        yield dialect.lengthCompensation ? `G43 ${tell(2, z)} H${tool.number}` : `G0 ${tell(2, z)}`;
        break;
      }
      case "spindle":
        rpm = motion.rpm;
        yield `S${Math.round(motion.rpm)} M3`;
        break;
      case "coolant":
        yield dialect.coolant[motion.mode];
        break;
      case "rapid": {
        const line = moveBlock("G0", motion.to);
        if (line !== null) yield line;
        break;
      }
      case "linear": {
        const line = moveBlock("G1", motion.to, feedWord(motion.feed));
        if (line !== null) yield line;
        break;
      }
      case "arc": {
        const code = motion.clockwise ? "G2" : "G3";
        // from where the control believes the arc starts (the last words it was told) to the
        // centre rounded as a word would be: the centre is then off by rounding once, not twice
        const offset = (axis: 0 | 1): string => {
          const start = told[axis] ?? toUnits(motion.from[axis], decimals);
          return formatUnits(toUnits(motion.centre[axis], decimals) - start, decimals, wholeWithPoint);
        };
        const i = "I" + offset(0);
        const j = "J" + offset(1);
        // a full circle names its end too, so the block has an axis word whatever changed
        const words = axes(motion.to) || `X${n(motion.to[0])} Y${n(motion.to[1])}`;
        const g = code === motionCode ? "" : code + " ";
        motionCode = code;
        const f = feedWord(motion.feed);
        yield g + words + " " + i + " " + j + (f === "" ? "" : " " + f);
        break;
      }
      case "drill": {
        for (const line of drillBlocks(motion.cycle, motion.from)) yield line;
        break;
      }
      case "program_end":
        yield "M9";
        yield "M5";
        yield* dialect.home;
        yield "M30";
        yield* dialect.programTail();
        break;
    }
  }

  function* drillBlocks(cycle: DrillCycle, from: Vec3): Generator<string> {
    // up to R first when the tool is below it: the cycle's first move is across at the current height
    if (from[2] < cycle.retract_z) {
      const up = moveBlock("G0", [from[0], from[1], cycle.retract_z]);
      if (up !== null) yield up;
    }
    if (dialect.cycles === "moves") {
      yield* expanded(cycle, from);
      return;
    }
    if (typeof dialect.cycles === "function") {
      yield* dialect.cycles(cycle, rpm, n);
      atRetractOverLast(cycle);
      return;
    }
    if (cycle.cycle === "tap") {
      if (dialect.tapping === undefined) {
        // no tapping cycle: the moves themselves
        yield* expanded(cycle, from);
        return;
      }
      yield* dialect.tapping(cycle, rpm, n);
      atRetractOverLast(cycle);
      return;
    }
    const code = { drill: "G81", dwell: "G82", peck: "G83", chip_break: "G73" }[cycle.cycle];
    const extra =
      cycle.cycle === "dwell"
        ? dialect.dwell(cycle.dwell_s)
        : cycle.cycle === "peck" || cycle.cycle === "chip_break"
          ? `Q${n(cycle.peck_mm ?? cycle.top_z - cycle.bottom_z)}`
          : "";
    const [first, ...rest] = cycle.at;
    if (first === undefined) return;
    yield block(
      "G99",
      code,
      `X${n(first[0])}`,
      `Y${n(first[1])}`,
      `Z${n(cycle.bottom_z)}`,
      `R${n(cycle.retract_z)}`,
      extra,
      `F${n(cycle.feed)}`,
    );
    feed = toUnits(cycle.feed, decimals);
    for (const [x, y] of rest) yield block(`X${n(x)}`, `Y${n(y)}`);
    yield "G80";
    atRetractOverLast(cycle);
  }

  /** After a cycle the tool is at R over its last hole, and the next move names its motion code again. */
  function atRetractOverLast(cycle: DrillCycle): void {
    const last = cycle.at[cycle.at.length - 1] as [number, number];
    forget();
    axes([last[0], last[1], cycle.retract_z]);
    motionCode = "";
  }

  /** A cycle as the moves the simulation verified (../cam/holes/cycles.ts), from where the stream says the tool is. */
  function* expanded(cycle: DrillCycle, from: Vec3): Generator<string> {
    for (const move of expandDrillCycle(cycle, from)) {
      const line =
        move.kind === "dwell"
          ? `G4 ${dialect.dwell(move.seconds)}`
          : move.kind === "rapid"
            ? moveBlock("G0", move.to)
            : moveBlock("G1", move.to, feedWord(move.feed));
      if (line !== null) yield line;
    }
  }
}

/**
 * A word's value: rounded to `decimals` (half away from zero, as toFixed), trailing zeros
 * dropped; a whole number keeps its point when `wholeWithPoint` (Fanuc reads X10 as 10 units of
 * its least increment, 0.01 mm, unless told otherwise: X10. is 10 mm everywhere). Never "-0".
 */
export function formatNumber(value: number, decimals: number, wholeWithPoint: boolean): string {
  return formatUnits(toUnits(value, decimals), decimals, wholeWithPoint);
}

const POWERS = [1, 10, 100, 1000, 10000, 100000, 1000000];

/** A value as a whole number of 10^-decimals: what is written, and what modal words compare. */
export function toUnits(value: number, decimals: number): number {
  const units = Math.round(Math.abs(value) * (POWERS[decimals] as number));
  return value < 0 && units !== 0 ? -units : units;
}

/**
 * toUnits's whole number written with its point: integer arithmetic, no toFixed and no regular
 * expression (a program of a million blocks formats three million numbers).
 */
export function formatUnits(units: number, decimals: number, wholeWithPoint: boolean): string {
  const scale = POWERS[decimals] as number;
  const magnitude = units < 0 ? -units : units;
  const whole = Math.floor(magnitude / scale);
  let fraction = magnitude - whole * scale;
  let text = String(whole);
  if (fraction > 0) {
    let digits = decimals;
    while (fraction % 10 === 0) {
      fraction /= 10;
      digits -= 1;
    }
    const part = String(fraction);
    text += part.length < digits ? "." + "0".repeat(digits - part.length) + part : "." + part;
  } else if (wholeWithPoint) text += ".";
  return units < 0 ? "-" + text : text;
}

/** Comment text as every ISO control reads it inside parentheses: no parentheses, printable ASCII, at most `max` characters. */
export function commentText(text: string, max: number): string {
  const plain = text
    .replace(/[Øø⌀]/g, "D")
    .normalize("NFKD")
    .replace(/[^\x20-\x7e]/g, "")
    .replace(/[()]/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return plain.length > max ? plain.slice(0, max).trimEnd() : plain;
}
