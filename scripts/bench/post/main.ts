/**
 * `npm run bench:post`: how fast the postprocessors write, and in how much memory. Programs are
 * written to /dev/null through a 64 KB buffer, as the route's bytes leave: every block of every
 * setup, in every control's dialect.
 *
 * - The largest fixture plan (BENCH_POST_PART, default NIST STC-06: its plan has the most moves),
 *   planned first, outside the timing; a control with fewer work offsets than its setups (Grbl's
 *   six) writes those it can hold.
 * - A synthetic toolpath of BENCH_POST_MOVES moves (default a million; synthetic.ts), and the same
 *   with a tenth of them: what the writer keeps alive while writing (retainedMb) must not grow
 *   with the program.
 *
 * The baseline, in the same run, writes the same moves as bare "X.. Y.. Z.." blocks with toFixed:
 * the cheapest program there could be. Aims: over a million blocks a second for each, and memory
 * independent of the program's length. Exit 0 when every program was written (aims met or not).
 */
import fs from "node:fs";
import type { Move } from "../../../kernel/cam/types.ts";
import type { CamPlan } from "../../../kernel/job/plan.ts";
import { findMachineArchetype, type MachineArchetype } from "../../../kernel/machines/archetypes.ts";
import { holdsSetup, postSetup, POSTPROCESSORS } from "../../../kernel/post/index.ts";
import { describeMachine } from "../cpu.ts";
import { planFixture } from "../fixture-plan.ts";
import { table, writeJson } from "../report.ts";
import { round } from "../stats.ts";
import { readPostSettings } from "./settings.ts";
import { syntheticMoves, withToolpath } from "./synthetic.ts";

/** memory "independent of length": the whole program's kept memory at most this over the tenth's (MB; a 10 x longer program gathered in memory would add tens of MB) */
export const POST_AIMS = { minBlocksPerSecond: 1_000_000, memorySlackMb: 1 } as const;

function say(line: string): void {
  process.stderr.write(`[bench:post] ${line}\n`);
}

/** Lines to /dev/null through a buffer of CHUNK characters: the program streamed, never whole. */
const CHUNK = 64 * 1024;

interface Written {
  blocks: number;
  bytes: number;
  seconds: number;
}

/**
 * Writes the lines; `sample` is called every SAMPLE_CHUNKS chunks (the memory pass), never in a
 * timed one.
 */
function writeLines(lines: Iterable<string>, sample?: () => void): Written {
  const fd = fs.openSync("/dev/null", "w");
  let buffer = "";
  let blocks = 0;
  let bytes = 0;
  let chunks = 0;
  const started = performance.now();
  try {
    for (const line of lines) {
      buffer += `${line}\n`;
      blocks += 1;
      if (buffer.length >= CHUNK) {
        bytes += buffer.length;
        fs.writeSync(fd, buffer);
        buffer = "";
        chunks += 1;
        if (sample !== undefined && chunks % SAMPLE_CHUNKS === 0) sample();
      }
    }
    bytes += buffer.length;
    fs.writeSync(fd, buffer);
  } finally {
    fs.closeSync(fd);
  }
  return { blocks, bytes, seconds: (performance.now() - started) / 1000 };
}

/** how often the memory pass collects garbage and reads the live heap: every 4 MB of program */
const SAMPLE_CHUNKS = 64;

/**
 * What the writer keeps alive while it writes, MB: the live heap (after a full collection) at its
 * highest during the write, over the live heap before it. A streaming writer keeps a block and a
 * buffer; one that gathered the program would keep all of it. An untimed pass of its own
 * (`--expose-gc`: the collections cost seconds with a million moves in the heap).
 */
function retainedMb(lines: () => Iterable<string>): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error("bench:post runs with --expose-gc (npm run bench:post)");
  gc();
  const before = process.memoryUsage().heapUsed;
  let peak = before;
  const sample = (): void => {
    gc();
    peak = Math.max(peak, process.memoryUsage().heapUsed);
  };
  writeLines(lines(), sample);
  sample();
  return (peak - before) / 2 ** 20;
}

/** The cheapest program of the same moves: "X.. Y.. Z.." with toFixed(3), arcs and cycles as their end points. */
function* baselineLines(plan: CamPlan): Generator<string> {
  for (const setup of plan.setups) {
    for (const operation of setup.operations) {
      for (const move of operation.moves as Move[]) {
        if (move.kind === "drill") {
          for (const [x, y] of move.at) yield `X${x.toFixed(3)} Y${y.toFixed(3)} Z${move.bottom_z.toFixed(3)}`;
        } else yield `X${move.to[0].toFixed(3)} Y${move.to[1].toFixed(3)} Z${move.to[2].toFixed(3)}`;
      }
    }
  }
}

/** Every setup's program in one control's dialect, one after the other (those it has work offsets for). */
function* programLines(plan: CamPlan, postprocessor: string): Generator<string> {
  for (let s = 0; s < plan.setups.length; s += 1)
    if (holdsSetup(postprocessor, s)) yield* postSetup(plan, s, postprocessor, { project: "bench" }).lines;
}

/** The fastest of `rounds` writes (the machine is shared: slower rounds are other work). */
function fastest(rounds: number, write: () => Written): Written {
  let best: Written | null = null;
  for (let r = 0; r < rounds; r += 1) {
    const written = write();
    if (best === null || written.seconds < best.seconds) best = written;
  }
  return best as Written;
}

interface Row {
  program: string;
  postprocessor: string;
  blocks: number;
  mb: number;
  seconds: number;
  blocks_per_s: number;
  baseline_blocks_per_s: number;
  ratio: number;
  memory_mb: number;
}

export async function main(): Promise<number> {
  const settings = readPostSettings();
  const machine = findMachineArchetype("vmc-850-fanuc") as MachineArchetype;
  const { name, plan } = await planFixture({ partsDir: settings.partsDir, part: settings.part, machine, say });
  const moves = (p: CamPlan): number =>
    p.setups.reduce((n, setup) => n + setup.operations.reduce((m, operation) => m + operation.moves.length, 0), 0);
  const small = withToolpath(plan, syntheticMoves(Math.round(settings.moves / 10)));
  const large = withToolpath(plan, syntheticMoves(settings.moves));
  const programs = [
    { program: `${name} (${plan.setups.length} setups, ${moves(plan)} moves)`, plan },
    { program: `synthetic, ${moves(small)} moves`, plan: small },
    { program: `synthetic, ${moves(large)} moves`, plan: large },
  ];

  // every writer's every path compiled by V8's optimiser before anything is timed: written once,
  // the fixture plan too (its arcs, cycles and tool changes are not the synthetic path's; cold,
  // Heidenhain's first writes of it ran at a quarter of the speed of the fifth)
  for (const { plan: p } of programs.slice(0, 2)) {
    for (const postprocessor of POSTPROCESSORS) writeLines(programLines(p, postprocessor));
    writeLines(baselineLines(p));
  }

  const rows: Row[] = [];
  for (const { program, plan: p } of programs) {
    const baseline = fastest(settings.rounds, () => writeLines(baselineLines(p)));
    const baselineRate = baseline.blocks / baseline.seconds;
    for (const postprocessor of POSTPROCESSORS) {
      const written = fastest(settings.rounds, () => writeLines(programLines(p, postprocessor)));
      const rate = written.blocks / written.seconds;
      const memory = retainedMb(() => programLines(p, postprocessor));
      rows.push({
        program,
        postprocessor,
        blocks: written.blocks,
        mb: round(written.bytes / 2 ** 20, 1),
        seconds: round(written.seconds, 3),
        blocks_per_s: Math.round(rate),
        baseline_blocks_per_s: Math.round(baselineRate),
        ratio: round(rate / baselineRate, 2),
        memory_mb: round(memory, 2),
      });
      say(`${program}, ${postprocessor}: ${Math.round(rate).toLocaleString("en")} blocks/s`);
    }
  }

  const machineInfo = describeMachine();
  const header = ["program", "control", "blocks", "MB", "s", "blocks/s", "baseline blocks/s", "ratio", "kept MB"];
  console.log(
    `\nPostprocessors, ${machineInfo.cores} cores, ${machineInfo.cpu}, Node ${machineInfo.node}; the fastest of ${settings.rounds} rounds, to /dev/null in 64 KB chunks\n`,
  );
  console.log(
    table([
      header,
      ...rows.map((r) => [
        `${r.program}`,
        r.postprocessor,
        r.blocks,
        r.mb,
        r.seconds,
        r.blocks_per_s,
        r.baseline_blocks_per_s,
        r.ratio,
        r.memory_mb,
      ]),
    ]),
  );

  const slowest = rows.reduce((a, b) => (b.blocks_per_s < a.blocks_per_s ? b : a));
  const speedMet = slowest.blocks_per_s > POST_AIMS.minBlocksPerSecond;
  const memory = POSTPROCESSORS.map((postprocessor) => {
    const [tenth, whole] = [programs[1], programs[2]].map(
      (p) => rows.find((r) => r.program === p?.program && r.postprocessor === postprocessor)?.memory_mb ?? 0,
    );
    return { postprocessor, tenth: tenth as number, whole: whole as number };
  });
  const memoryMet = memory.every((m) => m.whole <= m.tenth + POST_AIMS.memorySlackMb);
  console.log("\nAims:");
  console.log(
    `  ${speedMet ? "met" : "missed"}: over ${POST_AIMS.minBlocksPerSecond.toLocaleString("en")} blocks a second (slowest: ${slowest.postprocessor} on ${slowest.program}, ${slowest.blocks_per_s.toLocaleString("en")})`,
  );
  console.log(
    `  ${memoryMet ? "met" : "missed"}: the writer's memory independent of the program's length (${memory.map((m) => `${m.postprocessor} ${m.tenth} MB for a tenth, ${m.whole} MB for all`).join("; ")})`,
  );
  writeJson(settings.out, {
    at: new Date().toISOString(),
    machine: machineInfo,
    settings,
    rows,
    memory,
    aims: { speed: speedMet, memory: memoryMet },
  });
  say(`figures written to ${settings.out}`);
  return 0;
}
