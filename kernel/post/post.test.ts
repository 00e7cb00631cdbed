/**
 * Postprocessors, judged by LinuxCNC's own interpreter (test/support/rs274.ts): every program must
 * run through rs274 to its end, and the cutting motion rs274 reports must match the plan's (the
 * feeds' bounding box within 0.01 mm, their path length within 0.5 %). Fanuc and Haas programs
 * go through a small rewrite first (test/support/rs274.ts: fanucForRs274). Plans: one with every
 * kind of move (test/support/every-move-plan.ts), and partC.step planned for real; the NIST
 * parts' plans are checked where they are planned through the API (tasks/plan-cam-occt.test.ts).
 */
import assert from "node:assert/strict";
import fs from "node:fs";
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
import { assertRunsAsPlanned, judge, judgedByRs274, programText } from "../../test/support/program-checks.ts";
import { readHeidenhain, readSinumerik } from "../../test/support/controls-reader.ts";
import { rs274Missing, runRs274 } from "../../test/support/rs274.ts";
import { formatNumber } from "./numbers.ts";
import { arcAsLine } from "./motion.ts";
import { postSetup, PostError, POSTPROCESSORS } from "./index.ts";

const machine = findMachineArchetype("vmc-850-fanuc") as MachineArchetype;
const options = { include_face_milling: true, sort_by_height: false };
const skip = rs274Missing();
/** rs274's checks skip where it is missing; our own readers' never do */
const skipFor = (postprocessor: string): string | false => (judgedByRs274(postprocessor) ? skip : false);

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
    assert.equal(
      arcAsLine([10, 0, 0], { kind: "arc", to: [0, 10, 0], centre: [0, 0], clockwise: false, feed: 100 }),
      false,
    );
    assert.equal(
      arcAsLine([10, 0, 0], { kind: "arc", to: [10, 0, -1], centre: [0, 0], clockwise: true, feed: 100 }),
      false,
      "a full turn",
    );
    assert.equal(
      arcAsLine([0, 0, 0], { kind: "arc", to: [0.01, 0, 0], centre: [0.005, -100], clockwise: true, feed: 100 }),
      true,
      "a sagitta of 0.1 nm",
    );
    assert.equal(
      arcAsLine([0, 0, 0], { kind: "arc", to: [10, 0, 0], centre: [5, -9000], clockwise: true, feed: 100 }),
      true,
      "a radius of 9 m",
    );
    assert.equal(
      arcAsLine([0, 0, 0], { kind: "arc", to: [0, 0, 0], centre: [0, 0], clockwise: true, feed: 100 }),
      true,
      "no radius",
    );
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
    assert.equal(
      code(() => postSetup(fake, 2, "fanuc", { project: "p" })),
      "setup_index_out_of_range",
    );
    const empty: CamPlan = {
      ...fake,
      setups: fake.setups.map((setup) => ({
        ...setup,
        operations: setup.operations.map((operation) => ({ ...operation, moves: [] })),
      })),
    };
    assert.equal(
      code(() => postSetup(empty, 0, "fanuc", { project: "p" })),
      "no_toolpaths",
    );
    assert.equal(
      code(() => postSetup(fake, 0, "mazatrol", { project: "p" })),
      "postprocessor_unavailable",
    );
  });

  it("names the file after the project and the setup, with the control's extension", () => {
    assert.equal(
      postSetup(fake, 0, "linuxcnc", { project: "Bracket (rev B)" }).filename,
      `Bracket_rev_B_${fake.setups[0]?.name.replace(/[^A-Za-z0-9_-]+/g, "_").replace(/^_+|_+$/g, "")}.ngc`,
    );
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
      for (const word of line.replace(/\(.*\)/, "").match(/[XYZIJRFQ]-?[\d.]+/g) ?? [])
        assert.match(word, /\./, `${line}: ${word} has no point`);
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
    assert.ok(
      (text.match(/ M3\n/g)?.length ?? 0) >= tools.length && (text.match(/\nM8\n/g)?.length ?? 0) >= tools.length,
    );
    for (const line of text.split("\n"))
      assert.ok(line.replace(/\(.*\)|\s/g, "").length <= 80, `${line}: longer than Grbl's line buffer`);
  });
});

describe("programs judged by rs274 or our own readers", () => {
  const plan = everyMovePlan(false);
  const pecking = everyMovePlan(true);

  for (const postprocessor of POSTPROCESSORS) {
    it(`runs arcs, a helix and drill cycles as planned, and pecking cycles to the end, in ${postprocessor}`, {
      skip: skipFor(postprocessor),
    }, () => {
      assertRunsAsPlanned(plan, 0, postprocessor);
      const text = programText(pecking, 0, postprocessor);
      const run = judge(postprocessor, text);
      assert.ok(run.ok, run.error);
      const pecks: Record<string, RegExp> = {
        grbl: /^(?![\s\S]*(G8[1-9]|G73))/,
        sinumerik: /\nMCALL CYCLE83\([^)]*, 3, 0, 0, 1, 1\)\n/,
        heidenhain: /CYCL DEF 205 UNIVERSAL PECKING ~\n(.*\n)*? {2}Q202=\+3 ;PLUNGING DEPTH ~\n/,
      };
      assert.match(
        text,
        pecks[postprocessor] ?? /\nG99 G83 .*Q3\.? .*\n.*\nG80\n/,
        "the pecks are the control's own cycle (Grbl: moves, it has none)",
      );
    });
  }

  it("catches a program that is wrong: rs274 refuses an arc whose centre is off", { skip }, () => {
    const text = programText(plan, 0, "linuxcnc");
    // the quarter arc's centre 3 mm off (a full turn's stays a circle through its start)
    const broken = text.replace(
      /\n(G3 [^\n]*?)I(-?[\d.]+)/,
      (_, start: string, i: string) => `\n${start}I${Number(i) + 3}`,
    );
    assert.notEqual(broken, text);
    assert.equal(runRs274(text).ok, true);
    assert.match(runRs274(broken).error, /radius/i);
  });
});

describe("partC.step's plan, judged", async () => {
  const oc = await loadOpenCascade();
  const brep = withOcctScope((scope) => writeBrep(oc, readStep(oc, fixture("partC.step"), scope).solid));
  const result = planCam(
    oc,
    {
      workpiece: { format: "step", bytes: brep, bytes_format: "brep" },
      stock: { min: [-2, -2, 0], max: [87.6, 46.7, 29] },
      machine,
      material_id: "aluminium-6061",
      library: starterLibrary(),
      options,
    },
    { progress: () => {}, cancelled: () => false },
  );
  const plan = camPlanOf(result, options, machine);

  for (const postprocessor of POSTPROCESSORS) {
    it(`runs every setup as planned, in ${postprocessor}`, { skip: skipFor(postprocessor) }, () => {
      assert.ok(plan.setups.length > 1);
      for (let s = 0; s < plan.setups.length; s += 1) assertRunsAsPlanned(plan, s, postprocessor);
    });
  }
});

/**
 * Golden files (kernel/post/golden/): the plan with every kind of move in each control's words,
 * read line by line by a person against the control's manual when they were made. A change to a
 * postprocessor that changes a program fails here until the file is read again and replaced
 * (SWARF_UPDATE_GOLDEN=1 writes them).
 */
describe("every control's program of the plan with every kind of move", () => {
  for (const postprocessor of POSTPROCESSORS) {
    for (const pecks of [false, true]) {
      const name = `every-move${pecks ? "-pecking" : ""}.${postprocessor}.txt`;
      it(`is the golden file ${name}`, () => {
        const text = programText(everyMovePlan(pecks), 0, postprocessor);
        const file = new URL(`./golden/${name}`, import.meta.url);
        if (process.env.SWARF_UPDATE_GOLDEN === "1") fs.writeFileSync(file, text);
        assert.equal(text, fs.readFileSync(file, "utf8"));
      });
    }
  }
});

/**
 * The setter's clamping lines (clamping-lines.ts): a setup held in a vise gets them right after
 * its tool list, each control in its own comments, and nothing else in the program changes (the
 * program without them is the golden file above, Heidenhain's blocks numbered on). The lines
 * themselves are golden files too (golden/clamping.<control>.txt for a vise,
 * golden/clamping-plate.<control>.txt for a fixture plate).
 */
describe("every control's program of a setup held in a vise or on a fixture plate", () => {
  const bare = (line: string): string => line.replace(/^\d+ /, "");
  for (const [hold, golden] of [
    ["vise", "clamping"],
    ["fixture_plate", "clamping-plate"],
  ] as const) {
    for (const postprocessor of POSTPROCESSORS) {
      it(`has the clamping lines of a ${hold} after the tool list, and is otherwise the program without, in ${postprocessor}`, () => {
        const without = programText(everyMovePlan(false), 0, postprocessor).split("\n");
        const held = programText(everyMovePlan(false, hold), 0, postprocessor).split("\n");
        const tools = everyMovePlan(false).setups[0]!.tools;
        // the tool list ends with T2's line and its name's
        const last = without.findIndex((line) => /T2 drill D6\.8/i.test(line)) + 1;
        assert.equal(tools.length, 2);
        assert.ok(last > 1, "the tool list ends with T2");
        const added = held.length - without.length;
        assert.ok(added > 0, "lines were added");
        const lines = held.slice(last + 1, last + 1 + added);
        assert.deepEqual(
          [...held.slice(0, last + 1), ...held.slice(last + 1 + added)].map(bare),
          without.map(bare),
          "the rest of the program is unchanged",
        );
        const text = `${lines.join("\n")}\n`;
        const file = new URL(`./golden/${golden}.${postprocessor}.txt`, import.meta.url);
        if (process.env.SWARF_UPDATE_GOLDEN === "1") fs.writeFileSync(file, text);
        assert.equal(text, fs.readFileSync(file, "utf8"));
      });

      it(`runs as planned with the clamping lines of a ${hold}, in ${postprocessor}`, {
        skip: skipFor(postprocessor),
      }, () => {
        assertRunsAsPlanned(everyMovePlan(false, hold), 0, postprocessor);
      });
    }
  }
});

describe("our own readers of Sinumerik and Heidenhain programs", () => {
  const plan = everyMovePlan(false);
  const refused = (
    read: (text: string) => { ok: boolean; error: string },
    text: string,
    broken: (text: string) => string,
    reason: RegExp,
  ): void => {
    const changed = broken(text);
    assert.notEqual(changed, text, "the program was changed");
    const run = read(changed);
    assert.equal(run.ok, false, `${reason}: read without complaint`);
    assert.match(run.error, reason);
  };

  it("read the programs as written, and refuse one with an unknown word, an arc off its circle, a hole that moves in Z or a move before any tool", () => {
    const text = programText(plan, 0, "sinumerik");
    assert.ok(readSinumerik(text).ok, readSinumerik(text).error);
    refused(readSinumerik, text, (t) => t.replace("G1 Z0 F400", "G1 Z0 F400 Q2"), /"Q2" is not a word/);
    refused(
      readSinumerik,
      text,
      (t) => t.replace(/\nG3 X30 Y30 I-10 J0\n/, "\nG3 X30 Y30.5 I-10 J0\n"),
      /radius at its end/,
    );
    refused(readSinumerik, text, (t) => t.replace("X10 Y40", "X10 Y40 Z-3"), /a hole of a modal call/);
    refused(readSinumerik, text, (t) => t.replace('T="D10 end mill" M6\n', ""), /before any tool/);
  });

  it("read Klartext as written, and refuse a gap in the block numbers, an unknown word, CP turning against its DR and M99 without a drill cycle", () => {
    const text = programText(plan, 0, "heidenhain");
    assert.ok(readHeidenhain(text).ok, readHeidenhain(text).error);
    const block = /\n(\d+) L X\+60/.exec(text)?.[1];
    assert.ok(block !== undefined, "the program has its L X+60 block");
    refused(
      readHeidenhain,
      text,
      (t) => t.replace(`\n${block} L X+60`, `\n${Number(block) + 1} L X+60`),
      new RegExp(`block ${block} expected`),
    );
    refused(readHeidenhain, text, (t) => t.replace("L X+60 R0 F1500", "L X+60 R0 F1500 G1"), /"G1" is not a word/);
    refused(readHeidenhain, text, (t) => t.replace("CP IPA-360", "CP IPA+360"), /IPA must turn the way its DR says/);
    refused(
      readHeidenhain,
      text,
      (t) => t.replace(/CYCL DEF 200 DRILLING ~\n( {2}Q.*\n)+/, "; no cycle\n"),
      /M99 with no drill cycle/,
    );
  });
});

/**
 * Comments by each control's rules: printable ASCII, nothing that would end one early, and no
 * longer than the control shows (Fanuc's, Haas's and Grbl's screens 60 characters, Sinumerik
 * and Heidenhain 120, LinuxCNC 200); long names go on as many lines as they need, never cut.
 */
describe("every control's comments", () => {
  const LONGEST: Record<string, number> = {
    fanuc: 60,
    haas: 60,
    grbl: 60,
    sinumerik: 120,
    heidenhain: 120,
    linuxcnc: 200,
  };
  const project = "Bracket for the left-hand hydraulic valve body (rev B), customer order 2026-11-0042";
  for (const postprocessor of POSTPROCESSORS) {
    it(`keep to ${postprocessor}'s rules, and wrap a long project name instead of cutting it`, () => {
      const text = programText(everyMovePlan(false, "vise"), 0, postprocessor, project);
      const comments = text
        .split("\n")
        .map((line) => line.replace(/^\d+ /, ""))
        .flatMap((line) =>
          line.startsWith(";") ? [line.slice(1).trim()] : [...line.matchAll(/\(([^()]*)\)/g)].map((m) => m[1]!),
        );
      assert.ok(comments.length > 10);
      for (const comment of comments) {
        assert.ok(comment.length <= LONGEST[postprocessor]!, `${comment.length} characters: ${comment}`);
        assert.match(comment, /^[\x20-\x7e]*$/, comment);
      }
      // every word of the project's name is there, in order, across the header's first lines
      const words = comments.join(" ").toUpperCase();
      assert.ok(words.includes("CUSTOMER ORDER 2026-11-0042"), "the name's end is not cut off");
    });
  }
});
