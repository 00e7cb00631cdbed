/**
 * LinuxCNC's G-code interpreter (`rs274`, Debian package linuxcnc-uspace) as the tests' judge of
 * a program: it must run to the end without an error, and the motion it reports (its canonical
 * STRAIGHT_FEED, ARC_FEED and STRAIGHT_TRAVERSE calls) is measured as planEnvelope measures the
 * plan's own motion. Tools 1 to 99 have zero length, so positions are the program's own.
 *
 * Missing rs274: the tests skip, unless SWARF_REQUIRE_RS274=1 (CI sets it), when they fail.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { arcSweep } from "../../kernel/cam/machining-time.ts";
import type { Vec3 } from "../../kernel/cam/types.ts";

export const RS274 = "/usr/bin/rs274";

/** why rs274 tests cannot run here (they skip), or false when they can */
export function rs274Missing(): string | false {
  if (fs.existsSync(RS274)) return false;
  if (process.env.SWARF_REQUIRE_RS274 === "1")
    throw new Error(`${RS274} is missing: install the Debian package linuxcnc-uspace`);
  return "rs274 (Debian package linuxcnc-uspace) is not installed";
}

/** Where feeds go and how far: the cutting moves' bounding box and path length (arcs along the arc). */
export class Envelope {
  min: Vec3 = [Infinity, Infinity, Infinity];
  max: Vec3 = [-Infinity, -Infinity, -Infinity];
  feedLength = 0;
  feeds = 0;

  private include(p: Vec3): void {
    for (let i = 0; i < 3; i += 1) {
      this.min[i] = Math.min(this.min[i] as number, p[i] as number);
      this.max[i] = Math.max(this.max[i] as number, p[i] as number);
    }
  }

  line(from: Vec3, to: Vec3): void {
    this.include(from);
    this.include(to);
    this.feedLength += Math.hypot(to[0] - from[0], to[1] - from[1], to[2] - from[2]);
    this.feeds += 1;
  }

  /** an XY arc (helical when z changes) sweeping `sweep` radians, negative clockwise */
  arc(from: Vec3, to: Vec3, centre: [number, number], sweep: number): void {
    const radius = Math.hypot(from[0] - centre[0], from[1] - centre[1]);
    const a0 = Math.atan2(from[1] - centre[1], from[0] - centre[0]);
    // the bounding box through points every degree or so, the ends exactly
    const steps = Math.max(4, Math.ceil(Math.abs(sweep) / 0.01));
    for (let k = 0; k <= steps; k += 1) {
      const t = k / steps;
      const a = a0 + sweep * t;
      this.include(
        k === steps
          ? to
          : [centre[0] + radius * Math.cos(a), centre[1] + radius * Math.sin(a), from[2] + (to[2] - from[2]) * t],
      );
    }
    this.feedLength += Math.hypot(Math.abs(sweep) * radius, to[2] - from[2]);
    this.feeds += 1;
  }
}

/** The signed sweep of an arc from `from` to `to` about `centre`: one turn for a full circle, more for `extraTurns`. */
export function arcSweepSigned(
  from: Vec3,
  to: Vec3,
  centre: [number, number],
  clockwise: boolean,
  extraTurns = 0,
): number {
  const sweep = arcSweep(from, { kind: "arc", to, centre, clockwise, feed: 1 }) + extraTurns * 2 * Math.PI;
  return clockwise ? -sweep : sweep;
}

export interface Rs274Run {
  ok: boolean;
  /** rs274's own words when it stopped on an error */
  error: string;
  envelope: Envelope;
  /** canonical calls it reported */
  calls: number;
}

/** One canonical motion rs274 reported, from where the one before it ended (setup frame, mm). */
export type CanonicalMove = (
  | { kind: "traverse" | "feed"; from: Vec3; to: Vec3 }
  | { kind: "arc"; from: Vec3; to: Vec3; centre: [number, number]; sweep: number }
) & {
  /** the T number in the spindle (its SELECT_TOOL at the last CHANGE_TOOL); null before the first change */
  tool: number | null;
  /** the program's last comment before it (the post writes each operation's name as one) */
  comment: string;
  /** its canonical call's number in rs274's output, from 1 */
  call: number;
};

export interface Rs274Reading {
  /** rs274's exit status: 0 read to the end */
  status: number | null;
  /** the interpreter's complaint: the output's lines that are not canonical calls, and its stderr */
  complaint: string;
  moves: CanonicalMove[];
  /** canonical calls it reported */
  calls: number;
}

export interface Rs274Options {
  /**
   * every work offset (G54 to G59.3) this far below machine zero: G53 G0 Z0, the way home, then
   * goes up as far as on a machine, not to the work offset's zero (default 0: offsets at zero)
   */
  workOffsetsBelowHomeMm?: number;
}

/** Runs a program through rs274 and reads its canonical motion back, in the program's coordinates. */
export function readRs274(program: string, options: Rs274Options = {}): Rs274Reading {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "swarf-rs274-"));
  try {
    const file = path.join(dir, "program.ngc");
    const tools = path.join(dir, "tools.tbl");
    fs.writeFileSync(file, program);
    fs.writeFileSync(tools, Array.from({ length: 99 }, (_, i) => `T${i + 1} P${i + 1} Z0 D10 ;\n`).join(""));
    const args = ["-t", tools];
    const below = options.workOffsetsBelowHomeMm ?? 0;
    if (below !== 0) {
      // the interpreter keeps its parameters in inches: 5220 selects G54, 5223 + 20 k is offset k's Z
      const offsets = Array.from({ length: 9 }, (_, k) => `${5223 + 20 * k} ${(-below / 25.4).toFixed(6)}`);
      const vars = path.join(dir, "program.var");
      fs.writeFileSync(vars, ["5220 1.000000", ...offsets, ""].join("\n"));
      args.push("-v", vars);
    }
    // its own HOME: LinuxCNC keeps the tool table it loads in $HOME/.tool.mmap, which two rs274
    // runs at once (the suite runs files two at a time) overwrote under each other ("Requested
    // tool 1 not found in the tool table")
    const run = spawnSync(RS274, [...args, "-g", file], {
      encoding: "utf8",
      maxBuffer: 1 << 30,
      env: { ...process.env, HOME: dir },
    });
    const moves: CanonicalMove[] = [];
    let here: Vec3 = [0, 0, 0];
    let calls = 0;
    let selected: number | null = null;
    let tool: number | null = null;
    let comment = "";
    for (const line of run.stdout.split("\n")) {
      const call = /N\.+\s+([A-Z_]+)\((.*)\)\s*$/.exec(line);
      if (!call) continue;
      calls += 1;
      const at = { tool, comment, call: calls };
      const args = (call[2] as string).split(",").map((word) => Number(word));
      if (call[1] === "STRAIGHT_TRAVERSE") {
        const to: Vec3 = [args[0] as number, args[1] as number, args[2] as number];
        moves.push({ kind: "traverse", from: here, to, ...at });
        here = to;
      } else if (call[1] === "STRAIGHT_FEED" || call[1] === "STRAIGHT_PROBE") {
        const to: Vec3 = [args[0] as number, args[1] as number, args[2] as number];
        moves.push({ kind: "feed", from: here, to, ...at });
        here = to;
      } else if (call[1] === "ARC_FEED") {
        // ARC_FEED(first_end, second_end, first_axis, second_axis, rotation, axis_end_point, ...) in the XY plane
        const [x, y, cx, cy, rotation, z] = args as [number, number, number, number, number, number];
        const to: Vec3 = [x, y, z];
        const centre: [number, number] = [cx, cy];
        const sweep = arcSweepSigned(here, to, centre, rotation < 0, Math.abs(rotation) - 1);
        moves.push({ kind: "arc", from: here, to, centre, sweep, ...at });
        here = to;
      } else if (call[1] === "SELECT_TOOL") selected = args[0] as number;
      else if (call[1] === "CHANGE_TOOL") tool = selected;
      else if (call[1] === "COMMENT") {
        const text = /^"(.*)"$/.exec(call[2] as string)?.[1] ?? "";
        if (!text.startsWith("interpreter:")) comment = text;
      }
    }
    const complaint = run.stdout
      .split("\n")
      .filter((line) => line.trim() !== "" && !/^\s*\d+ N\.+/.test(line) && line !== "executing");
    return { status: run.status, complaint: [...complaint, run.stderr].join(" ").trim(), moves, calls };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs a program through rs274 and measures what it did. */
export function runRs274(program: string): Rs274Run {
  const read = readRs274(program);
  const envelope = new Envelope();
  for (const move of read.moves) {
    if (move.kind === "feed") envelope.line(move.from, move.to);
    else if (move.kind === "arc") envelope.arc(move.from, move.to, move.centre, move.sweep);
  }
  const ok = read.status === 0;
  return { ok, error: ok ? "" : read.complaint, envelope, calls: read.calls };
}
