/**
 * `npm run bench:cam`: the planner on every fixture part, in one process with one OCCT instance.
 * Per part: the planning's wall time, against reading and analysing the same file in the same
 * run (the baseline: the ratio says what planning costs over understanding the part, whatever
 * the machine's speed and load); the CPU time of the planner and its helper threads together
 * (what the 2 cores had to do: on a shared machine the same code's wall time moved by 15 %
 * between runs, and it can be no less than half the CPU time) and of the planner's thread alone
 * (the critical path: the plan can take no less); setups, operations, machining
 * time, the verification (gouges, rapids through material, holder collisions: all must be 0),
 * the material left over the part after the last setup and the plan's completeness (status,
 * surface share under material left, holes not made, faces unreachable, operations dropped,
 * sharp corners; one line per part under the table) and each roughing operation's measured radial
 * engagement (maximum and p99) against its target. Each part is planned held in the machine's
 * workholding (its vise, else its table) with BENCH_CAM_BELOW_MM of stock below the part,
 * "<part> (held)" (BENCH_CAM_WORKHOLDING=both adds the plan nothing holds, its clampings and
 * grips beside: bench/cam/held.ts), and each of those twice (BENCH_CAM_CLEARING=compare): as the
 * planner chooses its clearing and with offset clearing, "<part> (held) [offset]"
 * (bench/cam/clearing.ts). Aims: no violation anywhere, at least
 * 97 % of the removable volume removed, under 20 s per NIST part. Progress on stderr, the table
 * on stdout, figures to BENCH_CAM_OUT. Exit 0 when every part was planned (aims met or not), 1
 * when one failed.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { inlineChecks, inlineShadows, planCam } from "../../../kernel/cam/plan.ts";
import { PlanError, type Completeness, type PlanInput, type PlanStep } from "../../../kernel/cam/plan-types.ts";
import { recogniseFile } from "../../../kernel/features/setups/recognise-file.ts";
import { loadOpenCascade, type OpenCascadeInstance } from "../../../kernel/geometry/opencascade.ts";
import { findMachineArchetype } from "../../../kernel/machines/archetypes.ts";
import { starterLibrary } from "../../../kernel/tools/catalogue/starter-library.ts";
import { defaultWorkholding } from "../../../kernel/workholding/defaults.ts";
import { describeMachine, threadCpuSeconds } from "../cpu.ts";
import { benchPlanInput } from "../plan-input.ts";
import { writeJson } from "../report.ts";
import { round } from "../stats.ts";
import { engagementLines, type RoughingEngagement, roughingEngagement } from "./engagement.ts";
import { type ClearingFigures, clearingFigures, clearingLines, variantName, variants } from "./clearing.ts";
import { heldFigures, heldLines, type HeldFigures } from "./held.ts";
import { type CamBenchSettings, readCamSettings } from "./settings.ts";

export const CAM_AIMS = { maxLeftPct: 3, maxNistSeconds: 20 } as const;

function say(line: string): void {
  process.stderr.write(`[bench:cam] ${line}\n`);
}

interface PartFigures {
  part: string;
  read_s: number;
  plan_s: number;
  /** CPU seconds of the whole process (planner and helper threads) while planning */
  cpu_s: number;
  /** CPU seconds of the planner's thread alone (null where /proc is not there) */
  planner_s: number | null;
  ratio: number;
  setups: number;
  operations: number;
  machining_time_s: number;
  gouges: number;
  rapids_through_material: number;
  holder_collisions: number;
  material_left_pct: number;
  removed_pct: number;
  unmachined: number;
  completeness: Completeness;
  /** every step of every setup, timed */
  steps: PlanStep[];
  /** planDigest of the plan's setups */
  plan_sha256: string;
  /** held in the machine's workholding: each setup's grip, the warnings it gave; null: nothing held it */
  held: HeldFigures | null;
  /** each roughing and rest roughing operation's measured engagement against its target */
  engagement: RoughingEngagement[];
  /** the roughing's time and the clearing its operations use */
  clearing: ClearingFigures;
}

interface PlanFailure {
  part: string;
  code: string;
  message: string;
}

export async function main(): Promise<number> {
  const settings = readCamSettings();
  const machine = findMachineArchetype(settings.machine);
  if (!machine) throw new Error(`bench:cam: no machine ${settings.machine}`);
  let files = fs
    .readdirSync(settings.partsDir)
    .filter((f) => /\.(step|stp|stl)$/i.test(f))
    .sort()
    .map((f) => path.join(settings.partsDir, f));
  const mfcadDir = path.resolve(settings.partsDir, "..", "mfcad", "step");
  if (settings.mfcad > 0 && fs.existsSync(mfcadDir))
    files.push(
      ...fs
        .readdirSync(mfcadDir)
        .sort()
        .slice(0, settings.mfcad)
        .map((f) => path.join(mfcadDir, f)),
    );
  if (settings.only !== null) files = files.filter((f) => path.basename(f).includes(settings.only as string));
  const library = starterLibrary();
  const started = performance.now();
  const oc = await loadOpenCascade();
  say(
    `OCCT loaded in ${Math.round(performance.now() - started)} ms; ${files.length} parts; ${library.length} tools; ${machine.name}; ${settings.material}`,
  );

  const rows: PartFigures[] = [];
  const failures: PlanFailure[] = [];
  if (settings.warmUp) warmUp(oc, files[0], library, machine, settings);
  for (const file of files) {
    const name = path.basename(file);
    const original = new Uint8Array(fs.readFileSync(file));
    // the baseline: reading and analysing the file, as upload and part understanding do
    const t0 = performance.now();
    const understood = recogniseFile(oc, original);
    const readSeconds = (performance.now() - t0) / 1000;
    const box = understood.analysis.bbox;
    if (box === null) {
      failures.push({ part: name, code: "no_bbox", message: "the part has no box" });
      continue;
    }
    for (const variant of variants(settings.workholding, settings.clearing)) {
      const { held } = variant;
      const input = benchPlanInput(oc, original, box, {
        stockMm: settings.stockMm,
        belowMm: held ? settings.belowMm : 0,
        machine,
        material: settings.material,
        library,
      });
      if (variant.clearing !== null) input.options = { ...input.options, clearing: variant.clearing };
      const part = variantName(name, variant);
      // unheld: null, as if nothing held the stock (the planner would otherwise take the machine's default)
      const workholding = held ? defaultWorkholding(machine.product_id) : null;
      if (workholding === undefined) {
        failures.push({ part, code: "no_workholding", message: `${machine.product_id} has no default workholding` });
        continue;
      }
      const row = planPart(oc, { ...input, workholding }, part, readSeconds, settings);
      if ("code" in row) failures.push(row);
      else rows.push(row);
    }
  }

  const header = [
    "part",
    "read s",
    "plan s",
    "cpu s",
    "planner s",
    "plan/read",
    "setups",
    "ops",
    "machining min",
    "gouges",
    "rapids in material",
    "collisions",
    "removed %",
  ];
  const lines = rows.map((r) =>
    [
      r.part,
      r.read_s,
      r.plan_s,
      r.cpu_s,
      r.planner_s ?? "-",
      r.ratio,
      r.setups,
      r.operations,
      round(r.machining_time_s / 60, 1),
      r.gouges,
      r.rapids_through_material,
      r.holder_collisions,
      r.removed_pct,
    ].map(String),
  );
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] as string).length)));
  const row = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] as number) : c.padStart(widths[i] as number))).join("  ");
  const machineInfo = describeMachine();
  const out: string[] = [];
  out.push(
    `CAM planning on ${rows.length + failures.length} parts, ${machineInfo.cores} cores, ${machineInfo.cpu ?? "unknown CPU"}, Node ${machineInfo.node}; stock ${settings.stockMm} mm around, ${machine.name}, ${settings.material}, ${library.length} tools; the simulation ${settings.simulationThread ? "on its own thread" : "in the planner's thread"}\n`,
  );
  out.push(row(header));
  for (const l of lines) out.push(row(l));
  const clean = rows.every(
    (r) => r.gouges + r.rapids_through_material + r.holder_collisions + (r.held?.workholding_collisions ?? 0) === 0,
  );
  const removed = rows.every((r) => r.material_left_pct <= CAM_AIMS.maxLeftPct);
  const nist = rows.filter((r) => r.part.startsWith("nist"));
  const fast = nist.every((r) => r.plan_s < CAM_AIMS.maxNistSeconds);
  // each NIST part's time, so a miss says which parts it is
  const nistTimes = nist.map((r) => `${r.part.split("_").slice(0, 3).join("_")} ${r.plan_s} s`).join(", ");
  out.push("\nAims:");
  out.push(
    `  ${clean ? "met" : "missed"}: no gouge, rapid through material, holder collision or move near the workholding on any part`,
  );
  out.push(
    `  ${removed ? "met" : "missed"}: at least ${100 - CAM_AIMS.maxLeftPct} % of the removable volume removed on every part (lowest ${rows.length > 0 ? Math.min(...rows.map((r) => r.removed_pct)) : "-"} %)`,
  );
  out.push(
    nist.length > 0
      ? `  ${fast ? "met" : "missed"}: under ${CAM_AIMS.maxNistSeconds} s per NIST part (${nistTimes})`
      : `  not measured: under ${CAM_AIMS.maxNistSeconds} s per NIST part (no NIST part was planned)`,
  );
  out.push("\nCompleteness:");
  for (const r of rows) out.push(`  ${r.part}: ${describeCompleteness(r.completeness)}`);
  out.push(...heldLines(rows, settings.belowMm));
  out.push(...engagementLines(rows));
  const clearing = clearingLines(rows);
  out.push(...clearing.lines);
  if (failures.length > 0)
    out.push(
      `\n${failures.length} parts not planned: ${failures.map((f) => `${f.part} (${f.code}: ${f.message})`).join("; ")}`,
    );
  process.stdout.write(`${out.join("\n")}\n`);
  writeJson(settings.out, {
    at: new Date().toISOString(),
    machine: machineInfo,
    settings,
    rows,
    failures,
    aims: { clean, removed, fast, clearing: clearing.aims },
  });
  say(`figures written to ${settings.out}`);
  return failures.length > 0 ? 1 : 0;
}

/**
 * Plans the first part once, unrecorded: the first plan of a process runs colder (V8 compiling,
 * OCCT's first calls), 2.5 times a later plan's time on a small MFCAD part, which would count
 * against whichever variant comes first.
 */
function warmUp(
  oc: OpenCascadeInstance,
  file: string | undefined,
  library: ReturnType<typeof starterLibrary>,
  machine: NonNullable<ReturnType<typeof findMachineArchetype>>,
  settings: CamBenchSettings,
): void {
  if (file === undefined) return;
  const original = new Uint8Array(fs.readFileSync(file));
  const box = recogniseFile(oc, original).analysis.bbox;
  if (box === null) return;
  say(`${path.basename(file)}: warming up`);
  planPart(
    oc,
    benchPlanInput(oc, original, box, { stockMm: settings.stockMm, machine, material: settings.material, library }),
    "warm-up",
    1,
    settings,
  );
}

/** One plan of one part, timed, or why it failed. */
function planPart(
  oc: OpenCascadeInstance,
  input: PlanInput,
  name: string,
  readSeconds: number,
  settings: CamBenchSettings,
): PartFigures | PlanFailure {
  say(`${name}: planning`);
  const t1 = performance.now();
  const cpu0 = process.cpuUsage();
  const planner0 = threadCpuSeconds();
  try {
    const steps: PlanStep[] = [];
    const result = planCam(oc, input, {
      progress: () => {},
      cancelled: () => false,
      ...(settings.simulationThread ? {} : { checks: inlineChecks, shadows: inlineShadows }),
      step: (step) => {
        steps.push(step);
        if (settings.steps)
          say(
            `${name}: ${step.setup} ${step.kind}${step.tool ? ` (${step.tool})` : ""}: ${step.generate_s.toFixed(2)} s + ${step.verify_s.toFixed(2)} s simulated, ${step.moves} moves, ${step.kept}/${step.made} kept`,
          );
      },
    });
    const planSeconds = (performance.now() - t1) / 1000;
    const cpu = process.cpuUsage(cpu0);
    const planner1 = threadCpuSeconds();
    const last = result.setups.at(-1);
    const sum = (key: "gouges" | "rapids_through_material" | "holder_collisions") =>
      result.setups.reduce((n, setup) => n + setup.verification[key], 0);
    const left = last?.verification.material_left_pct ?? 100;
    const row: PartFigures = {
      part: name,
      read_s: round(readSeconds, 2),
      plan_s: round(planSeconds, 1),
      cpu_s: round((cpu.user + cpu.system) / 1e6, 1),
      planner_s: planner0 === null || planner1 === null ? null : round(planner1 - planner0, 1),
      ratio: round(planSeconds / readSeconds, 1),
      setups: result.setups.length,
      operations: result.setups.reduce((n, setup) => n + setup.operations.length, 0),
      machining_time_s: result.machining_time_s,
      gouges: sum("gouges"),
      rapids_through_material: sum("rapids_through_material"),
      holder_collisions: sum("holder_collisions"),
      material_left_pct: round(left, 2),
      removed_pct: round(100 - left, 2),
      unmachined: result.unmachined.length,
      completeness: result.completeness,
      steps,
      plan_sha256: planDigest(
        result.setups,
        settings.plansDir === null ? null : path.join(settings.plansDir, `${name}.json`),
      ),
      held: input.workholding ? heldFigures(result) : null,
      engagement: roughingEngagement(result),
      clearing: clearingFigures(result, input.machine),
    };
    say(`${name}: ${round(planSeconds, 1)} s, ${result.setups.length} setups, ${round(100 - left, 2)} % removed`);
    return row;
  } catch (error) {
    const code = error instanceof PlanError ? error.code : "crash";
    const message = error instanceof Error ? error.message : String(error);
    say(`${name}: ${code}: ${message}`);
    return { part: name, code, message };
  }
}

/** One line: status, reasons' codes, the material left and the lists' sizes. */
function describeCompleteness(c: Completeness): string {
  const m = c.material_left;
  const reasons = c.reasons.length > 0 ? ` (${c.reasons.map((r) => r.code).join(", ")})` : "";
  return (
    `${c.status}${reasons}; left ${m.volume_mm3} mm³, ${m.pct_of_removable} % of removable, on ${m.surface_pct} % of the surface ` +
    `(limit ${m.surface_limit_pct} %, thicker than ${m.tolerance_mm} mm); holes not made ${c.holes_not_made.length}, ` +
    `faces unreachable ${c.faces_unreachable.length}, operations dropped ${c.operations_dropped}, tools missing ${c.tools_missing.length}, ` +
    `setups left out ${c.setups_left_out.length}, sharp corners ${c.sharp_corners.length}`
  );
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * SHA-256 of the plan's setups as JSON (operations, toolpaths, verification), every UUID written
 * as the order of its first appearance: a setup's id is random, so two runs of the same planner
 * differ only there. A refactoring that changes no plan shows the same digest; BENCH_CAM_PLANS_DIR
 * keeps the JSON digested, one file per part, to find what differs when it does not.
 */
function planDigest(setups: unknown, writeTo: string | null): string {
  const seen = new Map<string, string>();
  const json = JSON.stringify(setups, (_key, value: unknown) => {
    if (typeof value !== "string" || !UUID.test(value)) return value;
    let stand = seen.get(value);
    if (stand === undefined) {
      stand = `uuid-${seen.size}`;
      seen.set(value, stand);
    }
    return stand;
  });
  if (writeTo !== null) fs.writeFileSync(writeTo, json);
  return createHash("sha256").update(json).digest("hex");
}
