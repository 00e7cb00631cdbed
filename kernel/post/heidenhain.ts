/**
 * Heidenhain TNC (iTNC 530, TNC 640) conversational Klartext: numbered blocks between BEGIN PGM
 * and END PGM, the stock as BLK FORM, the setup's datum from the preset table (CYCL DEF 247,
 * preset number = the setup's number), TOOL CALL with the spindle speed, straight lines as L with
 * explicit signs (R0: no radius compensation; FMAX for rapids), arcs as their centre CC and C to
 * the end point with the direction DR+ (counter-clockwise) or DR- (clockwise); full turns and
 * helices as CP IPA (the angle swept, in degrees) with IZ (the height changed). Drill cycles as
 * CYCL DEF 200 DRILLING (drill, dwell), 205 UNIVERSAL PECKING (peck: out after every plunge),
 * 203 UNIVERSAL DRILLING (chip breaking) and 207 RIGID TAPPING, each hole an L to it with M99.
 * Spindle and coolant M functions ride on the next L blocks, one a block (after a tool change:
 * M3 on the move over the first point, the coolant's on the move down to its clearance, as the
 * older TNCs take one M function a block); before every tool change after the first, M5 and M9
 * each a block of its own, and after the way home M1, the optional stop, when asked; M91 moves
 * in machine coordinates
 * (home: Z+0); M30 on a STOP block ends the program (spindle and coolant off with it).
 * Cycle parameters follow their CYCL DEF on lines of their own, each ended with "~" but the last
 * (the TNC 640's file form).
 */
import { CHIP_BREAK_RETRACT_MM, PECK_RETURN_CLEARANCE_MM } from "../cam/holes/cycles.ts";
import { arcSweep } from "../cam/machining-time.ts";
import type { DrillCycle, Vec3 } from "../cam/types.ts";
import { wrapped } from "./clamping-lines.ts";
import { headerLines } from "./header-lines.ts";
import { commentText, COOLANT_CODES, tapPitch, type ProgramOptions } from "./iso.ts";
import { ModalWords } from "./modal-words.ts";
import type { Motion } from "./motion.ts";
import { formatNumber, formatUnits, toUnits } from "./numbers.ts";

export const HEIDENHAIN_EXTENSION = ".h";

/** a value in units (toUnits, three decimals) with its sign: +10.5, -2, +0 */
const signedUnits = (units: number): string =>
  units < 0 ? formatUnits(units, 3, false) : `+${formatUnits(units, 3, false)}`;
const signed = (value: number): string => signedUnits(toUnits(value, 3));
const plain = (value: number): string => formatNumber(value, 3, false);

/** The program of a motion stream in Klartext, block by block; `name` the program's (its file's) name. */
export function* heidenhainProgram(stream: Iterable<Motion>, name: string, options: ProgramOptions): Generator<string> {
  let block = 0;
  const numbered = (text: string): string => `${String(block++)} ${text}`;
  /** a comment block: `;` and printable text, at most 120 characters */
  const remark = (text: string): string => numbered(`; ${commentText(text, 120)}`);
  const modal = new ModalWords(3, signedUnits, (units) => formatUnits(units, 3, false));
  /** the circle centre (CC) in force, in units */
  let pole: [number, number] | null = null;
  let pendingM: string[] = [];
  let rpm = 0;

  // one M function a block (older TNCs take no more), the first one waiting
  const mAfter = (text: string): string => (pendingM.length === 0 ? text : `${text} ${pendingM.shift() as string}`);
  const withM = (words: string[]): string => mAfter(words.filter((word) => word !== "").join(" "));
  // M functions still waiting, each on a block that stays where the tool is
  function* waitingM(): Generator<string> {
    while (pendingM.length > 0) yield numbered(withM(["L", `Z${signedUnits(modal.told[2] ?? 0)}`, "R0", "FMAX"]));
  }
  // after a tool change: over the first point at its clearance, XY first, the spindle's M3 and
  // the coolant's code riding on these two moves
  function* approached([x, y, z]: Vec3): Generator<string> {
    modal.tellAll([x, y, null]);
    yield numbered(withM(["L", `X${signed(x)}`, `Y${signed(y)}`, "R0", "FMAX"]));
    modal.tellAll([x, y, z]);
    yield numbered(withM(["L", `Z${signed(z)}`, "R0", "FMAX"]));
    yield* waitingM();
  }
  // the one block of most programs, built without an array
  const line = (to: Vec3, rapid: boolean, feedRate = 0): string | null => {
    const words = modal.axes(to);
    if (words === "") return null;
    const f = rapid ? "FMAX" : modal.feedWord(feedRate);
    const text = f === "" ? `L ${words} R0` : `L ${words} R0 ${f}`;
    return numbered(mAfter(text));
  };

  for (const motion of stream) {
    switch (motion.kind) {
      case "program_start": {
        yield numbered(`BEGIN PGM ${name} MM`);
        for (const text of headerLines(motion, plain)) yield remark(text);
        const [min, max] = [motion.stock.min, motion.stock.max];
        yield numbered(`BLK FORM 0.1 Z X${signed(min[0])} Y${signed(min[1])} Z${signed(min[2])}`);
        yield numbered(`BLK FORM 0.2 X${signed(max[0])} Y${signed(max[1])} Z${signed(max[2])}`);
        yield numbered("CYCL DEF 247 DATUM SETTING ~");
        yield `  Q339=+${motion.setup.index + 1} ;DATUM NUMBER`;
        break;
      }
      case "operation":
        for (const text of wrapped(motion.name)) yield remark(text);
        break;
      case "tool_change": {
        if (!motion.first) {
          yield numbered("M5");
          yield numbered("M9");
        }
        yield numbered("L Z+0 R0 FMAX M91");
        if (!motion.first && options.optionalStop) yield numbered("M1");
        modal.tellAll([null, null, null]);
        for (const text of wrapped(`${motion.tool.name}, stick-out ${plain(motion.tool.stick_out_mm)}`))
          yield remark(text);
        rpm = motion.spindle_rpm;
        yield numbered(`TOOL CALL ${motion.tool.number} Z S${Math.round(rpm)}`);
        pendingM.push("M3");
        break;
      }
      case "approach":
        yield* approached(motion.to);
        break;
      case "spindle":
        if (Math.round(motion.rpm) !== Math.round(rpm)) yield numbered(`TOOL CALL Z S${Math.round(motion.rpm)}`);
        rpm = motion.rpm;
        break;
      case "coolant":
        pendingM.push(COOLANT_CODES[motion.mode]);
        break;
      case "rapid": {
        if (pendingM.length > 0) yield* waitingM();
        const text = line(motion.to, true);
        if (text !== null) yield text;
        break;
      }
      case "linear": {
        if (pendingM.length > 0) yield* waitingM();
        const text = line(motion.to, false, motion.feed);
        if (text !== null) yield text;
        break;
      }
      case "arc": {
        if (pendingM.length > 0) yield* waitingM();
        const cx = toUnits(motion.centre[0], 3);
        const cy = toUnits(motion.centre[1], 3);
        if (pole === null || pole[0] !== cx || pole[1] !== cy) {
          yield numbered(`CC X${signedUnits(cx)} Y${signedUnits(cy)}`);
          pole = [cx, cy];
        }
        const dr = motion.clockwise ? "DR-" : "DR+";
        const full = motion.from[0] === motion.to[0] && motion.from[1] === motion.to[1];
        if (full || motion.from[2] !== motion.to[2]) {
          const sweep = arcSweep(motion.from, {
            kind: "arc",
            to: motion.to,
            centre: motion.centre,
            clockwise: motion.clockwise,
            feed: motion.feed,
          });
          const degrees = ((motion.clockwise ? -1 : 1) * sweep * 180) / Math.PI;
          const dz = motion.to[2] - motion.from[2];
          const f = modal.feedWord(motion.feed);
          const text =
            "CP IPA" + signed(degrees) + (dz === 0 ? " " : ` IZ${signed(dz)} `) + dr + (f === "" ? " R0" : ` R0 ${f}`);
          modal.tellAll([motion.to[0], motion.to[1], motion.to[2]]);
          yield numbered(mAfter(text));
        } else {
          const f = modal.feedWord(motion.feed);
          const text = `C ${modal.axes(motion.to)} ${dr}${f === "" ? " R0" : ` R0 ${f}`}`;
          yield numbered(mAfter(text));
        }
        break;
      }
      case "drill":
        if (pendingM.length > 0) yield* waitingM();
        yield* drillBlocks(motion.cycle, motion.from);
        break;
      case "program_end":
        pendingM = [];
        yield numbered("L Z+0 R0 FMAX M91");
        yield numbered("STOP M30");
        yield numbered(`END PGM ${name} MM`);
        break;
    }
  }

  function* drillBlocks(cycle: DrillCycle, from: Vec3): Generator<string> {
    if (from[2] < cycle.retract_z) {
      const up = line([from[0], from[1], cycle.retract_z], true);
      if (up !== null) yield up;
    }
    const depth = cycle.bottom_z - cycle.top_z;
    const clearance = cycle.retract_z - cycle.top_z;
    const q = (definition: string, parameters: [string, string, string][]): string[] => [
      numbered(`CYCL DEF ${definition} ~`),
      ...parameters.map(
        ([id, value, label], i) => `  ${id}=${value} ;${label}${i < parameters.length - 1 ? " ~" : ""}`,
      ),
    ];
    const common = (): [string, string, string][] => [
      ["Q200", signed(clearance), "SET-UP CLEARANCE"],
      ["Q201", signed(depth), "DEPTH"],
      ["Q206", signed(cycle.feed), "FEED RATE FOR PLNGNG"],
    ];
    switch (cycle.cycle) {
      case "drill":
      case "dwell":
        yield* q("200 DRILLING", [
          ...common(),
          ["Q202", signed(-depth), "PLUNGING DEPTH"],
          ["Q210", "+0", "DWELL TIME AT TOP"],
          ["Q203", signed(cycle.top_z), "SURFACE COORDINATE"],
          ["Q204", "+0", "2ND SET-UP CLEARANCE"],
          ["Q211", signed(cycle.dwell_s), "DWELL TIME AT DEPTH"],
        ]);
        break;
      case "peck":
        // out to the set-up clearance after every plunge (no chip breaking: Q257 0), back in to
        // PECK_RETURN_CLEARANCE_MM over the last depth (the advanced stop distances), as planned
        yield* q("205 UNIVERSAL PECKING", [
          ...common(),
          ["Q202", signed(cycle.peck_mm ?? -depth), "PLUNGING DEPTH"],
          ["Q203", signed(cycle.top_z), "SURFACE COORDINATE"],
          ["Q204", "+0", "2ND SET-UP CLEARANCE"],
          ["Q212", "+0", "DECREMENT"],
          ["Q205", "+0", "MIN. PLUNGING DEPTH"],
          ["Q258", signed(PECK_RETURN_CLEARANCE_MM), "UPPER ADV STOP DIST"],
          ["Q259", signed(PECK_RETURN_CLEARANCE_MM), "LOWER ADV STOP DIST"],
          ["Q257", "+0", "DEPTH FOR CHIP BRKNG"],
          ["Q256", "+0", "DIST FOR CHIP BRKNG"],
          ["Q211", signed(cycle.dwell_s), "DWELL TIME AT DEPTH"],
        ]);
        break;
      case "chip_break":
        yield* q("203 UNIVERSAL DRILLING", [
          ...common(),
          ["Q202", signed(cycle.peck_mm ?? -depth), "PLUNGING DEPTH"],
          ["Q210", "+0", "DWELL TIME AT TOP"],
          ["Q203", signed(cycle.top_z), "SURFACE COORDINATE"],
          ["Q204", "+0", "2ND SET-UP CLEARANCE"],
          ["Q212", "+0", "DECREMENT"],
          ["Q213", "+99", "NR OF BREAKS"],
          ["Q205", "+0", "MIN. PLUNGING DEPTH"],
          ["Q211", signed(cycle.dwell_s), "DWELL TIME AT DEPTH"],
          ["Q208", "+99999", "RETRACTION FEED RATE"],
          ["Q256", signed(CHIP_BREAK_RETRACT_MM), "DIST FOR CHIP BRKNG"],
        ]);
        break;
      case "tap":
        yield* q("207 RIGID TAPPING NEW", [
          ["Q200", signed(clearance), "SET-UP CLEARANCE"],
          ["Q201", signed(depth), "DEPTH"],
          ["Q239", signed(tapPitch(cycle.feed, rpm)), "THREAD PITCH"],
          ["Q203", signed(cycle.top_z), "SURFACE COORDINATE"],
          ["Q204", "+0", "2ND SET-UP CLEARANCE"],
        ]);
        break;
    }
    for (const [x, y] of cycle.at) yield numbered(`L X${signed(x)} Y${signed(y)} R0 FMAX M99`);
    const last = cycle.at[cycle.at.length - 1];
    if (last !== undefined) modal.tellAll([last[0], last[1], cycle.retract_z]);
  }
}
