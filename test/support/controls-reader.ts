/**
 * Readers of our own for the controls rs274 cannot judge, Sinumerik 840D and Heidenhain Klartext:
 * each checks every block against the grammar its postprocessor promises (an unknown word, a word
 * twice, a number out of form, a block out of place is an error naming the line) and follows the
 * motion it commands into an Envelope, as runRs274 does for the ISO controls. Drill cycles are
 * read back into the plan's kind of cycle and expanded as the simulation expands one
 * (kernel/cam/holes/cycles.ts), so a cycle's parameters must say what the plan says.
 */
import { expandDrillCycle } from "../../kernel/cam/holes/cycles.ts";
import type { DrillCycle, Vec3 } from "../../kernel/cam/types.ts";
import { arcSweepSigned, Envelope, type CanonicalMove, type Rs274Run } from "./rs274.ts";

class ReadError extends Error {}

/**
 * How far an arc's end may be from its circle: LinuxCNC's own limit (rs274, 0.0002 inch), stricter
 * than the controls' defaults (Sinumerik's CIRCLE_ERROR_CONST 0.01 mm).
 */
const ARC_END_TOLERANCE_MM = 0.00508;

/**
 * Where a control's move to machine Z0 (Heidenhain's M91 home) leaves the tool, in the program's
 * coordinates: far above the work, as on a machine whose work offset lies that far below home.
 */
export const HOME_Z_MM = 500;

/** The motion a program commands, followed into an envelope and, as rs274 reports it, into moves. */
class Follower {
  here: Vec3 = [0, 0, 0];
  readonly envelope = new Envelope();
  readonly moves: CanonicalMove[] = [];
  /** the tool number in the spindle, null before the first */
  tool: number | null = null;
  comment = "";
  calls = 0;

  move(to: Vec3, feed: boolean): void {
    if (feed) this.envelope.line(this.here, to);
    this.moves.push({ kind: feed ? "feed" : "traverse", from: this.here, to, ...this.stamp() });
    this.here = to;
  }

  private stamp(): Pick<CanonicalMove, "tool" | "comment" | "call"> {
    this.calls += 1;
    return { tool: this.tool, comment: this.comment, call: this.calls };
  }

  arc(to: Vec3, centre: [number, number], sweep: number): void {
    const r0 = Math.hypot(this.here[0] - centre[0], this.here[1] - centre[1]);
    const r1 = Math.hypot(to[0] - centre[0], to[1] - centre[1]);
    if (Math.abs(r0 - r1) > ARC_END_TOLERANCE_MM)
      throw new ReadError(
        `an arc's radius at its end (${r1.toFixed(4)}) is not its radius at its start (${r0.toFixed(4)})`,
      );
    this.envelope.arc(this.here, to, centre, sweep);
    this.moves.push({ kind: "arc", from: this.here, to, centre, sweep, ...this.stamp() });
    this.here = to;
  }

  cycle(cycle: DrillCycle): void {
    for (const move of expandDrillCycle(cycle, this.here))
      if (move.kind !== "dwell") this.move(move.to, move.kind === "linear");
  }
}

/** A control's program read by our own reader: its judgement and the moves it commands. */
export type ControlReading = Rs274Run & { moves: CanonicalMove[] };

/** Reads a program line by line with `readLine`; the first ReadError ends it, naming its line. */
function follow(program: string, readLine: (line: string, follower: Follower) => void): ControlReading {
  const follower = new Follower();
  const lines = program.endsWith("\n") ? program.slice(0, -1).split("\n") : program.split("\n");
  for (let i = 0; i < lines.length; i += 1) {
    try {
      readLine(lines[i] as string, follower);
    } catch (error) {
      if (!(error instanceof ReadError)) throw error;
      return {
        ok: false,
        error: `line ${i + 1} "${lines[i]}": ${error.message}`,
        envelope: follower.envelope,
        calls: follower.calls,
        moves: follower.moves,
      };
    }
  }
  return { ok: true, error: "", envelope: follower.envelope, calls: follower.calls, moves: follower.moves };
}

/**
 * A block's words by address (the letters before the value): each value must match its address's
 * pattern, and no address but `repeatable` ones may come twice.
 */
function blockWords(
  block: string,
  grammar: Record<string, RegExp>,
  repeatable: readonly string[] = [],
): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const token of block.split(" ")) {
    const [, address = "", value = ""] = /^([A-Z]+)(.*)$/.exec(token) ?? [];
    const pattern = grammar[address];
    if (pattern === undefined || !pattern.test(value))
      throw new ReadError(`"${token}" is not a word this block may hold`);
    const values = out.get(address) ?? [];
    if (values.length > 0 && !repeatable.includes(address)) throw new ReadError(`${address} twice in one block`);
    out.set(address, [...values, value]);
  }
  return out;
}

const number = (words: Map<string, string[]>, address: string): number | undefined => {
  const value = words.get(address)?.[0];
  return value === undefined ? undefined : Number(value);
};

const DECIMAL = /^-?\d+(\.\d+)?$/;
const SIGNED = /^[+-]\d+(\.\d+)?$/;

/**
 * Sinumerik 840D, Siemens mode: ";" comments; G71 and G17 G90 G94 G40; T="name" M6 and D1;
 * SUPA G0 Z0 D0; S.. M3; M1 M5 M7 M8 M9 M30; G0 to G3 (G54 to G57, G505 to G599, G90 with the
 * first) with X Y Z (absolute), I J (from the start) and F; F alone before a modal call; MCALL
 * CYCLE81 to 84 (...), then its holes as G0 X Y, then MCALL.
 */
export function readSinumerik(program: string): ControlReading {
  const grammar = {
    G: /^(0|1|2|3|5[4-7]|90|5\d\d)$/,
    X: DECIMAL,
    Y: DECIMAL,
    Z: DECIMAL,
    I: DECIMAL,
    J: DECIMAL,
    F: /^\d+(\.\d+)?$/,
  };
  let motion = "";
  let feed: number | null = null;
  let tool = false;
  let call: Omit<DrillCycle, "at" | "feed"> | null = null;
  return follow(program, (line, f) => {
    if (line === ";" || line.startsWith("; ")) return;
    if (["G71", "G17 G90 G94 G40", "D1"].includes(line) || /^M(1|5|7|8|9|30)$/.test(line) || /^S\d+ M3$/.test(line))
      return;
    if (/^T="[\x20\x21\x23-\x7e]{1,32}" M6$/.test(line)) {
      tool = true;
      return;
    }
    if (line === "SUPA G0 Z0 D0") {
      motion = "G0";
      return;
    }
    const modal = /^MCALL CYCLE8([1-4])\((.*)\)$/.exec(line);
    if (modal) {
      if (feed === null) throw new ReadError("a drill cycle before any F");
      call = sinumerikCycle(
        modal[1] as string,
        (modal[2] as string).split(",").map((p) => p.trim()),
      );
      return;
    }
    if (line === "MCALL") {
      if (call === null) throw new ReadError("MCALL ends no modal call");
      call = null;
      return;
    }
    if (!tool) throw new ReadError("a move before any tool");
    const words = blockWords(line, grammar, ["G"]);
    const code = words.get("G")?.find((g) => /^[0-3]$/.test(g));
    if (code !== undefined) motion = `G${code}`;
    feed = number(words, "F") ?? feed;
    const to: Vec3 = [
      number(words, "X") ?? f.here[0],
      number(words, "Y") ?? f.here[1],
      number(words, "Z") ?? f.here[2],
    ];
    if (call !== null) {
      if (motion !== "G0" || words.has("Z") || words.has("F"))
        throw new ReadError("a hole of a modal call is X and Y at rapid");
      f.move(to, false);
      f.cycle({ ...call, at: [[to[0], to[1]]], feed: feed as number });
      return;
    }
    if (motion === "") throw new ReadError("no motion code in force");
    if (motion !== "G0" && feed === null) throw new ReadError("a feed move before any F");
    if (motion === "G0" || motion === "G1") {
      if (words.has("I") || words.has("J")) throw new ReadError("I or J on a straight move");
      f.move(to, motion === "G1");
      return;
    }
    const centre: [number, number] = [f.here[0] + (number(words, "I") ?? 0), f.here[1] + (number(words, "J") ?? 0)];
    f.arc(to, centre, arcSweepSigned(f.here, to, centre, motion === "G2"));
  });
}

/** CYCLE81 to 84's parameters as the plan's cycle (what expandDrillCycle needs of it). */
function sinumerikCycle(kind: string, parameters: string[]): Omit<DrillCycle, "at" | "feed"> {
  const p = (i: number): number => {
    const text = parameters[i];
    if (text === undefined || !DECIMAL.test(text))
      throw new ReadError(`CYCLE8${kind} parameter ${i + 1} "${text ?? ""}" is not a number`);
    return Number(text);
  };
  const [rtp, rfp, sdis, dp] = [p(0), p(1), p(2), p(3)];
  if (Math.abs(rtp - (rfp + sdis)) > 1e-3)
    throw new ReadError("the retract plane is not the reference plane plus the safety distance");
  const base = { kind: "drill" as const, retract_z: rtp, top_z: rfp, bottom_z: dp, peck_mm: null, dwell_s: 0 };
  if (kind === "1") return { ...base, cycle: "drill" };
  if (kind === "2") return { ...base, cycle: "dwell", dwell_s: p(5) };
  if (kind === "4") return { ...base, cycle: "tap", dwell_s: p(5) };
  const [fdep, dam, vari] = [p(5), p(7), p(11)];
  if (Math.abs(rfp - fdep - dam) > 1e-3) throw new ReadError("CYCLE83's first depth is not one peck below the top");
  return { ...base, cycle: vari === 1 ? "peck" : "chip_break", peck_mm: dam };
}

/**
 * Heidenhain Klartext: blocks numbered from 0 without a gap (a CYCL DEF's parameters on
 * unnumbered lines after it, each but the last ended with ~), BEGIN PGM first and END PGM last
 * with one name, ";" comments, BLK FORM 0.1/0.2, CYCL DEF 247/200/203/207, TOOL CALL, L with
 * signed X Y Z, R0, FMAX or F and at most one M, L Z+0 R0 FMAX M91 (home), CC, C with DR, CP
 * with IPA (turning as DR says), IZ and DR, CYCL DEF 200/203/205/207 with their Q parameters,
 * holes as L X Y R0 FMAX M99, M5, M9 and M1 blocks of their own, STOP M30.
 */
export function readHeidenhain(program: string): ControlReading {
  const grammar = {
    X: SIGNED,
    Y: SIGNED,
    Z: SIGNED,
    IPA: SIGNED,
    IZ: SIGNED,
    DR: /^[+-]$/,
    R: /^0$/,
    F: /^\d+(\.\d+)?$/,
    FMAX: /^$/,
    M: /^(3|7|8|9|99)$/,
  };
  let next = 0;
  let name: string | null = null;
  let ended = false;
  let tool = false;
  let pole: [number, number] | null = null;
  let feed: number | null = null;
  let definition: { cycle: string; q: Map<string, number>; open: boolean } | null = null;
  return follow(program, (line, f) => {
    if (ended) throw new ReadError("a block after END PGM");
    if (line.startsWith("  Q")) {
      const q = /^ {2}(Q\d{3})=([+-]\d+(?:\.\d+)?) ;[A-Z0-9 .-]+?( ~)?$/.exec(line);
      if (q === null || definition === null || !definition.open)
        throw new ReadError("a cycle parameter outside a CYCL DEF");
      if (definition.q.has(q[1] as string)) throw new ReadError(`${q[1]} twice`);
      definition.q.set(q[1] as string, Number(q[2]));
      definition.open = q[3] !== undefined;
      return;
    }
    if (definition?.open) throw new ReadError("a CYCL DEF's parameters went on with ~, but none followed");
    const numbered = /^(\d+) (.+)$/.exec(line);
    if (numbered === null || Number(numbered[1]) !== next) throw new ReadError(`block ${next} expected`);
    next += 1;
    const block = numbered[2] as string;
    if (name === null) {
      const begin = /^BEGIN PGM ([A-Za-z0-9_-]+) MM$/.exec(block);
      if (begin === null) throw new ReadError("a program begins with BEGIN PGM <name> MM");
      name = begin[1] as string;
      return;
    }
    if (block === `END PGM ${name} MM`) {
      ended = true;
      return;
    }
    if (block.startsWith("; ")) {
      f.comment = block.slice(2);
      return;
    }
    // the end, and the spindle, coolant and optional stop before a tool change
    if (block === "STOP M30" || /^M(1|5|9)$/.test(block)) return;
    if (
      /^BLK FORM 0\.1 Z X[+-][\d.]+ Y[+-][\d.]+ Z[+-][\d.]+$/.test(block) ||
      /^BLK FORM 0\.2 X[+-][\d.]+ Y[+-][\d.]+ Z[+-][\d.]+$/.test(block)
    )
      return;
    const defined =
      /^CYCL DEF (247) DATUM SETTING ~$|^CYCL DEF (200) DRILLING ~$|^CYCL DEF (203) UNIVERSAL DRILLING ~$|^CYCL DEF (205) UNIVERSAL PECKING ~$|^CYCL DEF (207) RIGID TAPPING NEW ~$/.exec(
        block,
      );
    if (defined) {
      definition = { cycle: defined.slice(1).find((g) => g !== undefined) as string, q: new Map(), open: true };
      return;
    }
    const call = /^TOOL CALL (?:(\d+) )?Z S\d+$/.exec(block);
    if (call) {
      tool = tool || call[1] !== undefined;
      if (call[1] !== undefined) f.tool = Number(call[1]);
      return;
    }
    if (block === "L Z+0 R0 FMAX M91") {
      // machine Z0: above everything; the next positioning names its axes
      f.move([f.here[0], f.here[1], HOME_Z_MM], false);
      return;
    }
    const cc = /^CC X([+-][\d.]+) Y([+-][\d.]+)$/.exec(block);
    if (cc) {
      pole = [Number(cc[1]), Number(cc[2])];
      return;
    }
    if (!tool) throw new ReadError("a move before any TOOL CALL with a tool");
    const [kind, ...rest] = block.split(" ");
    if (kind !== "L" && kind !== "C" && kind !== "CP")
      throw new ReadError(`"${kind}" is not a block this program holds`);
    const words = blockWords(rest.join(" "), grammar);
    if (!words.has("R")) throw new ReadError("R0 missing");
    const rapid = words.has("FMAX");
    feed = number(words, "F") ?? feed;
    if (!rapid && feed === null) throw new ReadError("a feed move before any F");
    if (kind === "L") {
      const to: Vec3 = [
        number(words, "X") ?? f.here[0],
        number(words, "Y") ?? f.here[1],
        number(words, "Z") ?? f.here[2],
      ];
      if (words.get("M")?.[0] !== "99") {
        f.move(to, !rapid);
        return;
      }
      if (!rapid || words.has("Z")) throw new ReadError("a cycle call positions in X and Y at FMAX");
      if (definition === null || definition.cycle === "247") throw new ReadError("M99 with no drill cycle defined");
      f.move(to, false);
      f.cycle(heidenhainCycle(definition.cycle, definition.q, [to[0], to[1]]));
      return;
    }
    if (pole === null) throw new ReadError(`${kind} before any CC`);
    const dr = words.get("DR")?.[0];
    if (dr === undefined) throw new ReadError("an arc without DR");
    const clockwise = dr === "-";
    if (kind === "C") {
      if (words.has("Z")) throw new ReadError("C is planar here: a helix is CP");
      const to: Vec3 = [number(words, "X") ?? f.here[0], number(words, "Y") ?? f.here[1], f.here[2]];
      f.arc(to, pole, arcSweepSigned(f.here, to, pole, clockwise));
      return;
    }
    const ipa = number(words, "IPA");
    if (ipa === undefined || Math.sign(ipa) !== (clockwise ? -1 : 1))
      throw new ReadError("CP's IPA must turn the way its DR says");
    const sweep = (ipa * Math.PI) / 180;
    const radius = Math.hypot(f.here[0] - pole[0], f.here[1] - pole[1]);
    const angle = Math.atan2(f.here[1] - pole[1], f.here[0] - pole[0]) + sweep;
    f.arc(
      [pole[0] + radius * Math.cos(angle), pole[1] + radius * Math.sin(angle), f.here[2] + (number(words, "IZ") ?? 0)],
      pole,
      sweep,
    );
  });
}

/** A CYCL DEF's Q parameters as the plan's cycle at one hole. */
function heidenhainCycle(cycle: string, q: Map<string, number>, at: [number, number]): DrillCycle {
  const need = (id: string): number => {
    const value = q.get(id);
    if (value === undefined) throw new ReadError(`cycle ${cycle} has no ${id}`);
    return value;
  };
  const top = need("Q203");
  const base = {
    kind: "drill" as const,
    at: [at],
    retract_z: top + need("Q200"),
    top_z: top,
    bottom_z: top + need("Q201"),
    peck_mm: null,
    dwell_s: 0,
  };
  // tapping feeds at the pitch times the spindle speed, which the cycle does not say: its length is what matters here
  if (cycle === "207") return { ...base, cycle: "tap", feed: 1 };
  const [feed, plunge, dwell] = [need("Q206"), need("Q202"), need("Q211")];
  if (cycle === "203") return { ...base, cycle: "chip_break", peck_mm: plunge, feed, dwell_s: dwell };
  if (cycle === "205") {
    if (need("Q257") !== 0) throw new ReadError("cycle 205 breaks chips (Q257): the plan pecks out after every plunge");
    return { ...base, cycle: "peck", peck_mm: plunge, feed, dwell_s: dwell };
  }
  if (plunge < -need("Q201") - 1e-9)
    throw new ReadError("cycle 200 plunging less than the depth: pecking is cycle 205");
  return { ...base, cycle: dwell > 0 ? "dwell" : "drill", feed, dwell_s: dwell };
}
