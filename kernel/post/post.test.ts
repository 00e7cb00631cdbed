/**
 * Postprocessors, judged by LinuxCNC's own interpreter (test/support/rs274.ts): every program must
 * run through rs274 to its end, and the cutting motion rs274 reports must match the plan's (the
 * feeds' bounding box within 0.01 mm, their path length within 0.5 %). Fanuc and Haas programs
 * go through a small rewrite first (test/support/rs274.ts: fanucForRs274). Plans: one with every
 * kind of move (test/support/every-move-plan.ts), and partC.step planned for real; the NIST
 * parts' plans are checked where they are planned through the API (tasks/plan-cam-occt.test.ts).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { planCam } from "../cam/plan.ts";
import { writeBrep } from "../geometry/brep.ts";
import { withOcctScope } from "../geometry/occt-scope.ts";
import { loadOpenCascade } from "../geometry/opencascade.ts";
import { readStep } from "../geometry/step.ts";
import { fixture } from "../geometry/test-support.ts";
import { camPlanOf, type CamPlan } from "../job/plan.ts";
import { findMachineArchetype, type MachineArchetype } from "../machines/archetypes.ts";
import { starterLibrary } from "../tools/catalogue/starter-library.ts";
import { fakePlanResult } from "../../test/support/fake-plan.ts";
import { everyMovePlan } from "../../test/support/every-move-plan.ts";
import { assertRunsAsPlanned, forRs274, programText, rs274Missing, runRs274 } from "../../test/support/rs274.ts";
import { formatNumber } from "./iso.ts";
import { arcAsLine } from "./motion.ts";
import { postSetup, PostError, POSTPROCESSORS } from "./index.ts";

const machine = findMachineArchetype("vmc-850-fanuc") as MachineArchetype;
const options = { include_face_milling: true, sort_by_height: false };
const skip = rs274Missing();

describe("a number in a program", () => {
  it("keeps the point of a whole number where Fanuc needs it, and drops trailing zeros", () => {
    assert.equal(formatNumber(10, 3, true), "10.");
    assert.equal(formatNumber(10, 4, false), "10");
    assert.equal(formatNumber(-2.5, 3, true), "-2.5");
    assert.equal(formatNumber(0.00049, 3, true), "0.");
  });

  it("is never minus zero", () => {
    assert.equal(formatNumber(-0.0001, 3, true), "0.");
    assert.equal(formatNumber(-0.00001, 4, false), "0");
  });
});

describe("an arc in the motion stream", () => {
  it("stays an arc when it bends, and becomes a line when nearly straight, huge or of no radius", () => {
    assert.equal(arcAsLine([10, 0, 0], { kind: "arc", to: [0, 10, 0], centre: [0, 0], clockwise: false, feed: 100 }), false);
    assert.equal(arcAsLine([10, 0, 0], { kind: "arc", to: [10, 0, -1], centre: [0, 0], clockwise: true, feed: 100 }), false, "a full turn");
    assert.equal(arcAsLine([0, 0, 0], { kind: "arc", to: [0.01, 0, 0], centre: [0.005, -100], clockwise: true, feed: 100 }), true, "a sagitta of 0.1 nm");
    assert.equal(arcAsLine([0, 0, 0], { kind: "arc", to: [10, 0, 0], centre: [5, -9000], clockwise: true, feed: 100 }), true, "a radius of 9 m");
    assert.equal(arcAsLine([0, 0, 0], { kind: "arc", to: [0, 0, 0], centre: [0, 0], clockwise: true, feed: 100 }), true, "no radius");
  });
});

describe("postSetup", () => {
  const fake = camPlanOf(fakePlanResult(), options, machine);

  it("refuses a setup the plan lacks, a setup without toolpaths and a postprocessor it does not have, with codes", () => {
    const code = (run: () => unknown): string => {
      try {
        run();
      } catch (error) {
        if (error instanceof PostError) return error.code;
        throw error;
      }
      return "none";
    };
    assert.equal(code(() => postSetup(fake, 2, "fanuc", { project: "p" })), "setup_index_out_of_range");
    const empty: CamPlan = { ...fake, setups: fake.setups.map((setup) => ({ ...setup, operations: setup.operations.map((operation) => ({ ...operation, moves: [] })) })) };
    assert.equal(code(() => postSetup(empty, 0, "fanuc", { project: "p" })), "no_toolpaths");
    assert.equal(code(() => postSetup(fake, 0, "mazatrol", { project: "p" })), "postprocessor_unavailable");
  });

  it("names the file after the project and the setup, with the control's extension", () => {
    assert.equal(postSetup(fake, 0, "linuxcnc", { project: "Bracket (rev B)" }).filename, `Bracket_rev_B_${fake.setups[0]?.name.replace(/[^A-Za-z0-9_-]+/g, "_").replace(/^_+|_+$/g, "")}.ngc`);
    assert.match(postSetup(fake, 1, "fanuc", { project: "p" }).filename, /^p_.+\.nc$/);
  });

  it("writes Fanuc words as a Fanuc reads them: % lines, an O number, points on whole numbers, capital comments, tool length compensation", () => {
    const text = programText(fake, 0, "fanuc");
    const lines = text.trimEnd().split("\n");
    assert.equal(lines[0], "%");
    assert.match(lines[1] as string, /^O0001 \(BRACKET REV B\)$/);
    assert.equal(lines[lines.length - 1], "%");
    assert.ok(lines.includes("M30"));
    assert.match(text, /\nT1 M6\n/);
    assert.match(text, /\nG43 Z[-\d.]+ H1\n/);
    for (const line of lines) {
      for (const word of line.replace(/\(.*\)/, "").match(/[XYZIJRFQ]-?[\d.]+/g) ?? []) assert.match(word, /\./, `${line}: ${word} has no point`);
      const comment = /\((.*)\)/.exec(line)?.[1];
      if (comment !== undefined) assert.equal(comment, comment.toUpperCase());
    }
  });
});

describe("a Grbl program", () => {
  it("stops for each tool with a message naming it, and has no tool change, tool length or canned cycle", () => {
    const plan = everyMovePlan(false);
    const text = programText(plan, 0, "grbl");
    const tools = plan.setups[0]!.tools;
    for (const tool of tools) assert.match(text, new RegExp(`\\(MSG,Load T${tool.number} [^)]*\\)\\nM0\\n`));
    assert.doesNotMatch(text, /M6|G43|G8[1-9]|G73|%/);
    // spindle and coolant on again after every stop
    assert.equal(text.match(/\nM0\n/g)?.length, tools.length);
    assert.ok((text.match(/ M3\n/g)?.length ?? 0) >= tools.length && (text.match(/\nM8\n/g)?.length ?? 0) >= tools.length);
    for (const line of text.split("\n")) assert.ok(line.replace(/\(.*\)|\s/g, "").length <= 80, `${line}: longer than Grbl's line buffer`);
  });
});

describe("programs through rs274", { skip }, () => {
  const plan = everyMovePlan(false);
  const pecking = everyMovePlan(true);

  for (const postprocessor of POSTPROCESSORS) {
    it(`runs arcs, a helix and drill cycles as planned, and pecking cycles to the end, in ${postprocessor}`, () => {
      assertRunsAsPlanned(plan, 0, postprocessor);
      const text = programText(pecking, 0, postprocessor);
      const run = runRs274(forRs274(postprocessor, text));
      assert.ok(run.ok, run.error);
      if (postprocessor !== "grbl") assert.match(text, /G83 .*Q3\.? .*\n.*\nG80\n/);
      else assert.doesNotMatch(text, /G8[1-9]|G73/, "Grbl has no canned cycles");
    });
  }

  it("catches a program that is wrong: rs274 refuses an arc whose centre is off", () => {
    const text = programText(plan, 0, "linuxcnc");
    // the quarter arc's centre 3 mm off (a full turn's stays a circle through its start)
    const broken = text.replace(/\n(G3 [^\n]*?)I(-?[\d.]+)/, (_, start: string, i: string) => `\n${start}I${Number(i) + 3}`);
    assert.notEqual(broken, text);
    assert.equal(runRs274(text).ok, true);
    assert.match(runRs274(broken).error, /radius/i);
  });
});

describe("partC.step's plan through rs274", { skip }, async () => {
  const oc = await loadOpenCascade();
  const brep = withOcctScope((scope) => writeBrep(oc, readStep(oc, fixture("partC.step"), scope).solid));
  const result = planCam(
    oc,
    { workpiece: { format: "step", bytes: brep, bytes_format: "brep" }, stock: { min: [-2, -2, 0], max: [87.6, 46.7, 29] }, machine, material_id: "aluminium-6061", library: starterLibrary(), options },
    { progress: () => {}, cancelled: () => false },
  );
  const plan = camPlanOf(result, options, machine);

  for (const postprocessor of POSTPROCESSORS) {
    it(`runs every setup as planned, in ${postprocessor}`, () => {
      assert.ok(plan.setups.length > 1);
      for (let s = 0; s < plan.setups.length; s += 1) assertRunsAsPlanned(plan, s, postprocessor);
    });
  }
});
