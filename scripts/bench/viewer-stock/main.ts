/**
 * `npm run bench:viewer-stock`: what the viewer's stock answers cost a geometry thread
 * (geometry-pool/viewer.ts, the code the app's stock route runs there), on partC and NIST STC-06
 * planned with the starter library (outside the timing), in CPU time of the thread that answers
 * (wall time where /proc is not there). Per part: the first answer of a job
 * (reading the part with OCCT and recognising it, then setup 0 after its last operation); each
 * later setup after its last operation (the setups before it already simulated); the first
 * setup after its middle operation; an answer asked again (kept); the grid and bytes. Parts by
 * BENCH_VIEWER_PARTS (comma-separated parts of file names; default partC,stc_06). Progress on
 * stderr, the table on stdout.
 */
import { viewerAnswer } from "../../../geometry-pool/viewer.ts";
import { FIXTURE_PARTS } from "../../../kernel/geometry/test-support.ts";
import { encodeCamPlan } from "../../../kernel/job/plan.ts";
import { findMachineArchetype } from "../../../kernel/machines/archetypes.ts";
import { threadCpuSeconds } from "../cpu.ts";
import { planFixture } from "../fixture-plan.ts";
import { round } from "../stats.ts";

function say(line: string): void {
  process.stderr.write(`[bench:viewer-stock] ${line}\n`);
}

export async function main(): Promise<number> {
  const machine = findMachineArchetype("vmc-850-fanuc");
  if (!machine) throw new Error("bench:viewer-stock: no machine vmc-850-fanuc");
  const parts = (process.env.BENCH_VIEWER_PARTS ?? "partC,stc_06").split(",").filter(Boolean);
  const rows: string[] = [
    "| part | setups | grid (setup 0) | bytes (setup 0) | first answer | later setups, each | mid-setup | asked again |",
    "|---|---|---|---|---|---|---|---|",
  ];
  for (const part of parts) {
    const fixture = await planFixture({ partsDir: FIXTURE_PARTS, part, machine, say });
    const { oc, input, plan } = fixture;
    const base = {
      kind: "viewer" as const,
      jobId: fixture.name,
      part: input.workpiece.bytes,
      plan: encodeCamPlan(plan),
      stock: input.stock,
    };
    // CPU time of this thread, where the answer is made: on a shared machine the wall time is the load's
    const timed = (setup: number, after: number) => {
      const started = threadCpuSeconds() ?? performance.now() / 1000;
      const outcome = viewerAnswer(oc, { ...base, query: { kind: "stock", setup, after } });
      const ms = ((threadCpuSeconds() ?? performance.now() / 1000) - started) * 1000;
      if (outcome.kind !== "stock") throw new Error(`bench:viewer-stock: ${outcome.kind}`);
      const view = new DataView(outcome.bytes.buffer, outcome.bytes.byteOffset);
      return { ms, bytes: outcome.bytes.byteLength, grid: `${view.getUint32(8, true)} x ${view.getUint32(12, true)}` };
    };
    const last = (setup: number) => (plan.setups[setup]?.operations.length ?? 0) - 1;
    const first = timed(0, last(0));
    say(`${fixture.name}: first answer ${round(first.ms, 0)} ms`);
    const later = plan.setups.slice(1).map((_, i) => timed(i + 1, last(i + 1)).ms);
    const middle = timed(0, Math.floor(last(0) / 2));
    const again = timed(0, last(0));
    const range = later.length === 0 ? "-" : `${round(Math.min(...later), 0)}-${round(Math.max(...later), 0)} ms`;
    rows.push(
      `| ${fixture.name} | ${plan.setups.length} | ${first.grid} | ${first.bytes.toLocaleString("en")} | ${round(first.ms, 0)} ms | ${range} | ${round(middle.ms, 0)} ms | ${round(again.ms, 1)} ms |`,
    );
  }
  process.stdout.write(`${rows.join("\n")}\n`);
  return 0;
}
