/**
 * One tool, one number across a job's setups, on planned parts: an MFCAD model in three setups
 * with pocket numbers given (and two assemblies sharing one), and partC with the starter library
 * posted for a Fanuc control, whose every program calls the same tool by the same T and H.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { mfcadStep } from "../features/test-support.ts";
import { writeBrep } from "../geometry/brep.ts";
import { withOcctScope } from "../geometry/occt-scope.ts";
import { loadOpenCascade } from "../geometry/opencascade.ts";
import { readStep } from "../geometry/step.ts";
import { camPlanOf, type CamPlan } from "../job/plan.ts";
import { findMachineArchetype, type MachineArchetype } from "../machines/archetypes.ts";
import { postSetup } from "../post/index.ts";
import type { Assembly } from "../tools/assembly.ts";
import { aluminiumInput, fixtureBrep } from "./test-support.ts";
import { planCam } from "./plan.ts";
import type { PlanInput, PlanResult } from "./plan-types.ts";

const oc = await loadOpenCascade();
const machine = findMachineArchetype("vmc-850-fanuc") as MachineArchetype;
const quiet = { progress: () => {}, cancelled: () => false };
const options = { include_face_milling: true, sort_by_height: false };

/** Each assembly's T numbers over the job's setups: one each when the numbers are the job's. */
function numbersByAssembly(plan: PlanResult | CamPlan): Map<string, Set<number>> {
  const out = new Map<string, Set<number>>();
  for (const setup of plan.setups)
    for (const tool of setup.tools)
      out.set(tool.assembly_uuid, (out.get(tool.assembly_uuid) ?? new Set()).add(tool.number));
  return out;
}

function withPockets(library: readonly Assembly[], pockets: [RegExp, number][]): Assembly[] {
  return library.map((assembly) => {
    const pocket = pockets.find(([name]) => name.test(assembly.name))?.[1];
    return pocket === undefined ? assembly : { ...assembly, pocket_number: pocket };
  });
}

describe("the job's T numbers, planned", () => {
  const mfcad = withOcctScope((scope) => writeBrep(oc, readStep(oc, mfcadStep("0-1-5-7-11-23"), scope).solid));
  const input: PlanInput = aluminiumInput(mfcad, { min: [-1, -1, -7], max: [11, 11, 11] }, machine);

  it("gives each tool one number in every setup, its pocket number where the library has one, and says which clash", () => {
    const plain = planCam(oc, input, quiet);
    assert.ok(plain.setups.length >= 2, plain.setups.map((s) => s.name).join(", "));
    const used = (name: RegExp) => plain.setups.every((s) => s.tools.some((t) => name.test(t.name)));
    assert.ok(used(/^Face mill Ø63/) && used(/^End mill Ø4 x/) && used(/^End mill Ø2 x/), "tools of every setup");
    const library = withPockets(input.library, [
      [/^Face mill Ø63/, 12],
      [/^End mill Ø4 x/, 7],
      // the Ø4 end mill is used first: it keeps T7
      [/^End mill Ø2 x/, 7],
    ]);
    const pocketed = planCam(oc, { ...input, library }, quiet);

    // the numbers change; the toolpaths do not
    assert.deepEqual(
      pocketed.setups.map((s) => s.operations),
      plain.setups.map((s) => s.operations),
    );
    for (const plan of [plain, pocketed]) {
      const numbers = numbersByAssembly(plan);
      for (const [uuid, set] of numbers) assert.equal(set.size, 1, `${uuid}: ${[...set]}`);
      const all = [...numbers.values()].map((set) => [...set][0]);
      assert.equal(new Set(all).size, all.length, "no two tools share a number");
    }
    const numberOf = (plan: PlanResult, name: RegExp) =>
      plan.setups.flatMap((s) => s.tools).find((t) => name.test(t.name))?.number;
    assert.deepEqual(
      [/^Face mill Ø63/, /^End mill Ø4 x/, /^End mill Ø2 x/].map((name) => numberOf(plain, name)),
      [1, 2, 3],
    );
    assert.deepEqual(
      [/^Face mill Ø63/, /^End mill Ø4 x/, /^End mill Ø2 x/].map((name) => numberOf(pocketed, name)),
      [12, 7, 1],
    );
    const conflicts = pocketed.warnings.filter((w) => w.code === "tool_number_conflict");
    assert.equal(conflicts.length, 1, JSON.stringify(pocketed.warnings));
    assert.deepEqual([conflicts[0]?.details?.number, conflicts[0]?.details?.renumbered_to], [7, 1]);
    assert.match(String(conflicts[0]?.details?.kept_name), /^End mill Ø4 x/);
    assert.match(String(conflicts[0]?.details?.renumbered_name), /^End mill Ø2 x/);
    assert.deepEqual(
      plain.warnings.filter((w) => w.code === "tool_number_conflict"),
      [],
    );
    // the setter's tool list names each tool's holder
    for (const tool of pocketed.setups.flatMap((s) => s.tools)) assert.match(String(tool.holder), /^SK40 /);
  });

  it("calls the same tool by the same T and H in every program of partC", () => {
    const bytes = fixtureBrep(oc, "partC.step");
    const result = planCam(
      oc,
      aluminiumInput(bytes, { min: [-2, -2, -8], max: [87.52, 46.62, 32.53] }, machine),
      quiet,
    );
    const plan = camPlanOf(result, options, machine);
    assert.ok(plan.setups.length >= 3, plan.setups.map((s) => s.name).join(", "));
    const called = new Map<string, Set<string>>();
    plan.setups.forEach((setup, index) => {
      const text = [...postSetup(plan, index, "fanuc", { project: "partC" }).lines].join("\n");
      // the tool changes the program makes, in order: one per run of operations on one tool
      const changes = setup.operations
        .filter((operation) => operation.moves.length > 0)
        .map((operation) => operation.tool.assembly_uuid)
        .filter((uuid, i, uuids) => uuid !== uuids[i - 1]);
      const calls = [...text.matchAll(/^T(\d+) M0?6\b/gm)].map((m) => m[1]);
      const offsets = [...text.matchAll(/^G43\b.*\bH(\d+)\b/gm)].map((m) => m[1]);
      assert.equal(calls.length, changes.length, `${setup.name}: a T per tool change`);
      assert.deepEqual(offsets, calls, `${setup.name}: the length offset is the tool's number`);
      changes.forEach((uuid, i) => {
        called.set(uuid, (called.get(uuid) ?? new Set()).add(calls[i]!));
      });
    });
    const shared = [...called].filter(
      ([uuid]) => plan.setups.filter((s) => s.tools.some((t) => t.assembly_uuid === uuid)).length > 1,
    );
    assert.ok(shared.length >= 3, "tools used in more than one setup");
    for (const [uuid, calls] of called) assert.equal(calls.size, 1, `${uuid} is called ${[...calls].join(", ")}`);
    const numbers = [...called.values()].map((calls) => [...calls][0]);
    assert.equal(new Set(numbers).size, numbers.length, "one number, one tool");
  });
});
