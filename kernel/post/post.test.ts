/**
 * Postprocessors, judged by LinuxCNC's own interpreter (test/support/rs274.ts): every program must
 * run through rs274 to its end, and the cutting motion rs274 reports must match the plan's (the
 * feeds' bounding box within 0.01 mm, their path length within 0.5 %). Fanuc and Haas programs
 * go through a small rewrite first (fanucForRs274). Plans: the made-up one of
 * test/support/fake-plan.ts, and partC.step planned for real.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { expandDrillCycle } from "../cam/holes/cycles.ts";
import { arcSweep } from "../cam/machining-time.ts";
import { planCam } from "../cam/plan.ts";
import { writeBrep } from "../geometry/brep.ts";
import { withOcctScope } from "../geometry/occt-scope.ts";
import { loadOpenCascade } from "../geometry/opencascade.ts";
import { readStep } from "../geometry/step.ts";
import { fixture } from "../geometry/test-support.ts";
import type { Move } from "../cam/types.ts";
import { camPlanOf, type CamPlan } from "../job/plan.ts";
import { findMachineArchetype, type MachineArchetype } from "../machines/archetypes.ts";
import { starterLibrary } from "../tools/catalogue/starter-library.ts";
import { fakePlanResult } from "../../test/support/fake-plan.ts";
import { Envelope, rs274Missing, runRs274 } from "../../test/support/rs274.ts";
import { formatNumber } from "./iso.ts";
import { arcAsLine, motionStream } from "./motion.ts";
import { postSetup, PostError, POSTPROCESSORS } from "./index.ts";

const machine = findMachineArchetype("vmc-850-fanuc") as MachineArchetype;
const options = { include_face_milling: true, sort_by_height: false };
const skip = rs274Missing();

/**
 * What LinuxCNC needs changed in a Fanuc or Haas program, and nothing else: no % lines and no
 * O number; the offsets past G59 (Fanuc G54.1 Pn, Haas G154 Pn) as LinuxCNC's G59.n (n <= 3);
 * Haas's through-spindle coolant and air blast (M88, M83) as M8 and M7.
 */
export function fanucForRs274(program: string): string {
  return program
    .split("\n")
    .filter((line) => line !== "%" && !/^O\d+/.test(line))
    .map((line) =>
      line
        .replace(/G(?:54\.1|154) P([1-3])\b/, "G59.$1")
        .replace(/\bM88\b/, "M8")
        .replace(/\bM83\b/, "M7"),
    )
    .join("\n");
}

/** The plan's own feeds for the setup, measured as rs274's are. */
function planEnvelope(plan: CamPlan, setupIndex: number): Envelope {
  const envelope = new Envelope();
  for (const motion of motionStream(plan, setupIndex, { project: "p" })) {
    if (motion.kind === "linear") envelope.line(motion.from, motion.to);
    else if (motion.kind === "arc") {
      const sweep = arcSweep(motion.from, { kind: "arc", to: motion.to, centre: motion.centre, clockwise: motion.clockwise, feed: motion.feed });
      envelope.arc(motion.from, motion.to, motion.centre, motion.clockwise ? -sweep : sweep);
    } else if (motion.kind === "drill") {
      let here = motion.from;
      for (const move of expandDrillCycle(motion.cycle, motion.from)) {
        if (move.kind === "dwell") continue;
        if (move.kind === "linear") envelope.line(here, move.to);
        here = move.to;
      }
    }
  }
  return envelope;
}

function programText(plan: CamPlan, setupIndex: number, postprocessor: string): string {
  const lines = [...postSetup(plan, setupIndex, postprocessor, { project: "Bracket (rev B)" }).lines];
  return lines.join("\n") + "\n";
}

/** rs274 accepts the setup's program and its feeds match the plan's. */
function assertRunsAsPlanned(plan: CamPlan, setupIndex: number, postprocessor: string): void {
  const text = programText(plan, setupIndex, postprocessor);
  const run = runRs274(postprocessor === "linuxcnc" ? text : fanucForRs274(text));
  const what = `${postprocessor}, setup ${setupIndex}`;
  assert.ok(run.ok, `${what}: rs274 refused the program: ${run.error}`);
  const ours = planEnvelope(plan, setupIndex);
  assert.ok(ours.feeds > 0, `${what}: the plan has feeds`);
  for (let i = 0; i < 3; i += 1) {
    assert.ok(Math.abs((run.envelope.min[i] as number) - (ours.min[i] as number)) <= 0.01, `${what}: min ${"xyz"[i]} ${run.envelope.min[i]} against ${ours.min[i]}`);
    assert.ok(Math.abs((run.envelope.max[i] as number) - (ours.max[i] as number)) <= 0.01, `${what}: max ${"xyz"[i]} ${run.envelope.max[i]} against ${ours.max[i]}`);
  }
  const ratio = run.envelope.feedLength / ours.feedLength;
  assert.ok(Math.abs(ratio - 1) <= 0.005, `${what}: feed path ${run.envelope.feedLength.toFixed(3)} mm against ${ours.feedLength.toFixed(3)} (ratio ${ratio.toFixed(5)})`);
}

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

/**
 * The made-up plan's first setup with moves a control must take: a helical full turn, a quarter
 * arc each way round, and drilling with and without a dwell, or pecking. (Tapping is left out:
 * rs274 has no G84 to check Fanuc's by.) A control's pecks start at R and come back down to its
 * own clearance over the last peck (LinuxCNC 0.254 mm, a Fanuc its parameter 5115), not where
 * ../cam/holes/cycles.ts models them, so pecking is checked for acceptance, not for its length.
 */
function everyMovePlan(pecks: boolean): CamPlan {
  const fake = camPlanOf(fakePlanResult(), options, machine);
  const setup = fake.setups[0] as CamPlan["setups"][number];
  const cycle = (kind: "drill" | "dwell" | "peck" | "chip_break", x: number): Move => ({
    kind: "drill",
    cycle: kind,
    at: [
      [x, 30],
      [x, 40],
    ],
    retract_z: 2,
    top_z: 0,
    bottom_z: -12,
    peck_mm: kind === "peck" || kind === "chip_break" ? 3 : null,
    dwell_s: kind === "dwell" ? 0.5 : 0,
    feed: 150,
  });
  const moves: Move[][] = [
    [
      { kind: "rapid", to: [-6, 0, 5] },
      { kind: "linear", to: [-6, 0, 0], feed: 400 },
      { kind: "linear", to: [60, 0, 0], feed: 1500 },
    ],
    [
      { kind: "rapid", to: [30, 20, 5] },
      { kind: "linear", to: [40, 20, -1], feed: 300 },
      { kind: "arc", to: [40, 20, -2], centre: [30, 20], clockwise: true, feed: 1200 },
      { kind: "arc", to: [30, 30, -2], centre: [30, 20], clockwise: false, feed: 1200 },
      { kind: "arc", to: [40, 20, -2], centre: [30, 20], clockwise: true, feed: 1200 },
      { kind: "linear", to: [40, 20, 5], feed: 1200 },
    ],
    pecks ? [cycle("peck", 30), cycle("chip_break", 40)] : [cycle("drill", 10), cycle("dwell", 20)],
  ];
  return { ...fake, setups: [{ ...setup, operations: setup.operations.map((operation, i) => ({ ...operation, moves: moves[i] ?? [] })) }] };
}

describe("programs through rs274", { skip }, () => {
  const plan = everyMovePlan(false);
  const pecking = everyMovePlan(true);

  for (const postprocessor of POSTPROCESSORS) {
    it(`runs arcs, a helix and drill cycles as planned, and pecking cycles to the end, in ${postprocessor}`, () => {
      assertRunsAsPlanned(plan, 0, postprocessor);
      const text = programText(pecking, 0, postprocessor);
      const run = runRs274(postprocessor === "linuxcnc" ? text : fanucForRs274(text));
      assert.ok(run.ok, run.error);
      assert.match(text, /G83 .*Q3\.? .*\n.*\nG80\n/);
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
