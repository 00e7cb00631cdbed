/**
 * A fixture part planned for a benchmark that needs a real plan (bench:post, bench:setup-sheet):
 * the first file of the parts folder whose name holds `part`, planned as benchPlanInput sets it
 * up with the starter library, outside any timing.
 */
import fs from "node:fs";
import path from "node:path";
import { planCam } from "../../kernel/cam/plan.ts";
import type { PlanInput } from "../../kernel/cam/plan-types.ts";
import type { Box3 } from "../../kernel/cam/types.ts";
import { recogniseFile } from "../../kernel/features/setups/recognise-file.ts";
import { loadOpenCascade, type OpenCascadeInstance } from "../../kernel/geometry/opencascade.ts";
import { camPlanOf, type CamPlan } from "../../kernel/job/plan.ts";
import type { MachineArchetype } from "../../kernel/machines/archetypes.ts";
import { starterLibrary } from "../../kernel/tools/catalogue/starter-library.ts";
import { benchPlanInput } from "./plan-input.ts";
import { round } from "./stats.ts";

export interface PlannedFixture {
  /** the file's name */
  name: string;
  original: Uint8Array;
  /** the part's bounding box, as reading it found it */
  box: Box3;
  oc: OpenCascadeInstance;
  /** what the planner was given: the workpiece's bytes, the stock box */
  input: PlanInput;
  plan: CamPlan;
}

export interface FixtureChoice {
  partsDir: string;
  part: string;
  machine: MachineArchetype;
  /** the benchmark's progress lines */
  say(line: string): void;
}

export async function planFixture({ partsDir, part, machine, say }: FixtureChoice): Promise<PlannedFixture> {
  const name = fs.readdirSync(partsDir).find((f) => f.includes(part) && /\.(step|stp|stl)$/i.test(f));
  if (name === undefined) throw new Error(`no fixture part matching ${part} in ${partsDir}`);
  const original = new Uint8Array(fs.readFileSync(path.join(partsDir, name)));
  const oc = await loadOpenCascade();
  const box = recogniseFile(oc, original).analysis.bbox;
  if (box === null) throw new Error(`${name} has no box`);
  const input = benchPlanInput(oc, original, box, {
    stockMm: 2,
    machine,
    material: "aluminium-6061",
    library: starterLibrary(),
  });
  say(`${name}: planning (outside the timing)`);
  const started = performance.now();
  const result = planCam(oc, input, { progress: () => {}, cancelled: () => false });
  say(`${name}: planned in ${round((performance.now() - started) / 1000, 1)} s`);
  return { name, original, box, oc, input, plan: camPlanOf(result, input.options, machine) };
}
