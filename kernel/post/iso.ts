/**
 * The ISO (RS-274) family's writer: Fanuc, Haas, LinuxCNC, Grbl and Sinumerik (in its Siemens
 * mode) move the tool with the same words in the same places, and differ in what a dialect says
 * (program number and % lines, units, decimal points, comments, work offsets past the sixth, the
 * way home, the tool change, coolant codes, dwell units, drill cycles). One writer walks the
 * motion stream; the dialect answers those questions.
 *
 * Words are modal and written only when they change: the motion G code, each axis, F. Every block
 * is one line; the stream's events map to blocks as:
 *   tool_change  -> after the first tool: spindle and coolant off, the way home, the optional
 *                   stop (when asked); then the dialect's change (T M6)
 *   approach     -> after the change's spindle and coolant: G0 over the first point and G43
 *                   down to its clearance (G0 where the control has no tool lengths)
 *   drill        -> G99 G81/G82/G83/G73 (R at retract_z) with one block per further hole, G80;
 *                   the moves themselves where the control has no canned cycles
 *   arc          -> G2/G3 with I J from the arc's start (incremental, G91.1's default)
 */
import { expandDrillCycle } from "../cam/holes/cycles.ts";
import type { DrillCycle, Vec3 } from "../cam/types.ts";
import { wrapped } from "./clamping-lines.ts";
import { headerLines } from "./header-lines.ts";
import { ModalWords } from "./modal-words.ts";
import type { Coolant, Motion, ProgramStart, ToolCall } from "./motion.ts";
import { formatNumber, formatUnits, toUnits } from "./numbers.ts";
import { PostError } from "./post-error.ts";

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
  /** the optional stop before a tool change (M01); null where the change itself stops (Grbl's M0) */
  optionalStop: string | null;
  /** the blocks that change to `tool` (T M6 where there is a changer); `comments` wraps text into comment lines */
  toolChange(tool: ToolCall, comments: (text: string) => string[]): string[];
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

/** How a program is written beyond its control's dialect. */
export interface ProgramOptions {
  /** an optional stop (M01) before every tool change after the first, for the setter to look at the last tool's work */
  optionalStop: boolean;
}

/** The program of a motion stream in an ISO dialect, line by line. */
export function* isoProgram(stream: Iterable<Motion>, dialect: IsoDialect, options: ProgramOptions): Generator<string> {
  const { decimals, wholeWithPoint } = dialect;
  const n = (value: number): string => formatNumber(value, decimals, wholeWithPoint);
  let motionCode = "";
  const word = (units: number): string => formatUnits(units, decimals, wholeWithPoint);
  const modal = new ModalWords(decimals, word, word);
  let rpm = 0;
  let workOffset = "";

  const block = (...words: string[]): string => words.filter((word) => word.length > 0).join(" ");
  // text longer than a comment line goes on as many as it needs, never cut
  const comments = (text: string): string[] => wrapped(text).map(dialect.comment);
  const moveBlock = (code: string, to: Vec3, feedText = ""): string | null => {
    const words = modal.axes(to);
    if (words === "") return null;
    const g = code === motionCode ? "" : `${code} `;
    motionCode = code;
    return feedText === "" ? g + words : `${g + words} ${feedText}`;
  };

  for (const motion of stream) {
    switch (motion.kind) {
      case "program_start": {
        yield* dialect.programHead(motion);
        for (const text of headerLines(motion, (value) => formatNumber(value, decimals, false)))
          yield dialect.comment(text);
        yield* dialect.safeStart;
        workOffset = dialect.workOffset(motion.setup.index);
        break;
      }
      case "operation":
        yield* comments(motion.name);
        break;
      case "tool_change": {
        // the last tool's spindle and coolant stop before it goes home (a control without a
        // changer stops them in its own change too)
        if (!motion.first) {
          yield "M5";
          yield dialect.coolant.off;
        }
        yield* dialect.home;
        if (!motion.first && options.optionalStop && dialect.optionalStop !== null) yield dialect.optionalStop;
        yield* dialect.toolChange(motion.tool, comments);
        break;
      }
      case "approach": {
        // over the first point, then down to its clearance with the tool's length; after a
        // change of tool the control is told every axis again
        motionCode = "G0";
        modal.tellAll([null, null, null]);
        const [x, y, z] = motion.to;
        yield block("G0 G90", workOffset, modal.tell(0, x), modal.tell(1, y));
        yield dialect.lengthCompensation ? `G43 ${modal.tell(2, z)} H${motion.tool.number}` : `G0 ${modal.tell(2, z)}`;
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
        const line = moveBlock("G1", motion.to, modal.feedWord(motion.feed));
        if (line !== null) yield line;
        break;
      }
      case "arc": {
        const code = motion.clockwise ? "G2" : "G3";
        // from where the control believes the arc starts (the last words it was told) to the
        // centre rounded as a word would be: the centre is then off by rounding once, not twice
        const offset = (axis: 0 | 1): string => {
          const start = modal.told[axis] ?? toUnits(motion.from[axis], decimals);
          return formatUnits(toUnits(motion.centre[axis], decimals) - start, decimals, wholeWithPoint);
        };
        const i = `I${offset(0)}`;
        const j = `J${offset(1)}`;
        // a full circle names its end too, so the block has an axis word whatever changed
        const words = modal.axes(motion.to) || `X${n(motion.to[0])} Y${n(motion.to[1])}`;
        const g = code === motionCode ? "" : `${code} `;
        motionCode = code;
        const f = modal.feedWord(motion.feed);
        yield `${g + words} ${i} ${j}${f === "" ? "" : ` ${f}`}`;
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
    modal.toldFeed(cycle.feed);
    for (const [x, y] of rest) yield block(`X${n(x)}`, `Y${n(y)}`);
    yield "G80";
    atRetractOverLast(cycle);
  }

  /** After a cycle the tool is at R over its last hole, and the next move names its motion code again. */
  function atRetractOverLast(cycle: DrillCycle): void {
    const last = cycle.at[cycle.at.length - 1] as [number, number];
    modal.tellAll([last[0], last[1], cycle.retract_z]);
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
            : moveBlock("G1", move.to, modal.feedWord(move.feed));
      if (line !== null) yield line;
    }
  }
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
