import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { camPlanOf, type CamPlan } from "../job/plan.ts";
import { findMachineArchetype, type MachineArchetype } from "../machines/archetypes.ts";
import { fakePlanResult } from "../../test/support/fake-plan.ts";
import { postSetup, PostError, POSTPROCESSORS } from "./index.ts";
import { CONTROL_WORK_OFFSETS, workOffsetName } from "../machines/work-offsets.ts";

const machine = findMachineArchetype("vmc-850-fanuc") as MachineArchetype;
const plan = camPlanOf(fakePlanResult({ moves: 4 }), { include_face_milling: true, sort_by_height: false }, machine);

/** The fake plan's first setup as the one at `index` of a plan with that many setups before it. */
function setupAt(index: number): CamPlan {
  const setup = plan.setups[0]!;
  return { ...plan, setups: [{ ...setup, index }] };
}

/** The register the program selects on its first rapid (ISO dialects: "G0 G90 <offset> X.. Y.."). */
function programOffset(postprocessor: string, index: number): string {
  const lines = [...postSetup(setupAt(index), 0, postprocessor, { project: "offsets" }).lines];
  const line = lines.find((l) => /^(N\d+ )?G0 G90 /.test(l));
  assert.ok(line, `${postprocessor} setup ${index + 1}: no G0 G90 block`);
  return line.replace(/^(N\d+ )?G0 G90 /, "").replace(/ [XY]-?[\d.]+.*$/, "");
}

describe("a setup's work offset", () => {
  it("is the register the program of each control selects, for every setup the control holds", () => {
    for (const [postprocessor, offsets] of Object.entries(CONTROL_WORK_OFFSETS)) {
      for (let index = 0; index < offsets.length; index++)
        assert.equal(
          workOffsetName(postprocessor, index),
          programOffset(postprocessor, index),
          `${postprocessor} ${index}`,
        );
      assert.throws(
        () => programOffset(postprocessor, offsets.length),
        (error: unknown) => error instanceof PostError && error.code === "too_many_setups",
        `${postprocessor}: no program past its last work offset`,
      );
    }
  });

  it("names Haas's seventh setup G154 P1, Sinumerik's fifth G505 and LinuxCNC's seventh G59.1", () => {
    assert.equal(workOffsetName("haas", 6), "G154 P1");
    assert.equal(workOffsetName("sinumerik", 4), "G505");
    assert.equal(workOffsetName("linuxcnc", 6), "G59.1");
    assert.equal(workOffsetName("fanuc", 6), "G54.1 P1");
  });

  it("has a table for every postprocessor that writes G-code registers, and Fanuc's numbering elsewhere", () => {
    const iso = POSTPROCESSORS.filter((p) => p !== "heidenhain");
    assert.deepEqual(Object.keys(CONTROL_WORK_OFFSETS).sort(), iso.sort());
    assert.equal(workOffsetName("heidenhain", 0), "G54");
    assert.equal(workOffsetName("heidenhain", 6), "G54.1 P1");
    assert.equal(workOffsetName("grbl", 6), "G54.1 P1", "Grbl has none: its program is refused");
    assert.equal(workOffsetName("constructor", 1), "G55");
  });
});
