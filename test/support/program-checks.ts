/**
 * Whether a program does what its plan says, for every control: the ISO controls' judged by
 * LinuxCNC's rs274 (rs274.ts; Fanuc's and Haas's after fanucForRs274), Sinumerik's and
 * Heidenhain's by our own readers (controls-reader.ts). Each must read to the end, and its feeds
 * must match the plan's: bounding box within 0.01 mm, path length within 0.5 %.
 */
import assert from "node:assert/strict";
import { expandDrillCycle } from "../../kernel/cam/holes/cycles.ts";
import { firstPosition } from "../../kernel/cam/machining-time.ts";
import type { Vec3 } from "../../kernel/cam/types.ts";
import type { CamPlan } from "../../kernel/job/plan.ts";
import { holdsSetup, postSetup, PostError } from "../../kernel/post/index.ts";
import { readHeidenhain, readSinumerik } from "./controls-reader.ts";
import { arcSweepSigned, Envelope, runRs274, type Rs274Run } from "./rs274.ts";

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

/**
 * The plan's own feeds for the setup, measured as rs274's are, from its operations' moves (not
 * through the postprocessors' motion stream, which is what is being judged): each operation
 * starts where the one before ended, or over its first point at its clearance after a change of
 * tool, as the machining time counts it.
 */
export function planEnvelope(plan: CamPlan, setupIndex: number): Envelope {
  const envelope = new Envelope();
  const setup = plan.setups[setupIndex];
  if (setup === undefined) return envelope;
  let here: Vec3 | null = null;
  let tool: string | null = null;
  for (const operation of setup.operations) {
    if (operation.moves.length === 0) continue;
    if (tool !== operation.tool.assembly_uuid || here === null) {
      here = firstPosition(operation);
      tool = operation.tool.assembly_uuid;
    }
    for (const move of operation.moves) {
      if (move.kind === "drill") {
        for (const expanded of expandDrillCycle(move, here)) {
          if (expanded.kind === "dwell") continue;
          if (expanded.kind === "linear") envelope.line(here, expanded.to);
          here = expanded.to;
        }
        continue;
      }
      if (move.kind === "linear") envelope.line(here, move.to);
      else if (move.kind === "arc") {
        envelope.arc(here, move.to, move.centre, arcSweepSigned(here, move.to, move.centre, move.clockwise));
      }
      here = move.to;
    }
  }
  return envelope;
}

/** The setup's program as one text, as the route sends it for a project of this name. */
/**
 * A program's blocks without its comments: what the control executes. The route's header names
 * what only the project knows (the part's file, its material, where it sits in the stock), so a
 * program written from the plan alone differs from the route's in comments only.
 */
export function programBlocks(text: string): string[] {
  return text.split("\n").filter((line) => !line.startsWith("("));
}

export function programText(
  plan: CamPlan,
  setupIndex: number,
  postprocessor: string,
  project = "Bracket (rev B)",
): string {
  const lines = [...postSetup(plan, setupIndex, postprocessor, { project }).lines];
  return `${lines.join("\n")}\n`;
}

/**
 * The setup's program reads to its end by its control's judge, and its feeds match the plan's;
 * a setup the control has no work offset for is refused with too_many_setups.
 */
export function assertRunsAsPlanned(plan: CamPlan, setupIndex: number, postprocessor: string): void {
  if (!holdsSetup(postprocessor, setupIndex)) {
    // a control with fewer work offsets than the plan has setups refuses the rest, saying so
    assert.throws(
      () => postSetup(plan, setupIndex, postprocessor, { project: "p" }),
      (error) => error instanceof PostError && error.code === "too_many_setups",
    );
    return;
  }
  const text = programText(plan, setupIndex, postprocessor);
  const run = judge(postprocessor, text);
  const what = `${postprocessor}, setup ${setupIndex}`;
  assert.ok(run.ok, `${what}: the program was refused: ${run.error}`);
  const ours = planEnvelope(plan, setupIndex);
  assert.ok(ours.feeds > 0, `${what}: the plan has feeds`);
  for (let i = 0; i < 3; i += 1) {
    assert.ok(
      Math.abs((run.envelope.min[i] as number) - (ours.min[i] as number)) <= 0.01,
      `${what}: min ${"xyz"[i]} ${run.envelope.min[i]} against ${ours.min[i]}`,
    );
    assert.ok(
      Math.abs((run.envelope.max[i] as number) - (ours.max[i] as number)) <= 0.01,
      `${what}: max ${"xyz"[i]} ${run.envelope.max[i]} against ${ours.max[i]}`,
    );
  }
  const ratio = run.envelope.feedLength / ours.feedLength;
  assert.ok(
    Math.abs(ratio - 1) <= 0.005,
    `${what}: feed path ${run.envelope.feedLength.toFixed(3)} mm against ${ours.feedLength.toFixed(3)} (ratio ${ratio.toFixed(5)})`,
  );
}

/** A program as rs274 is given it: Fanuc's and Haas's rewritten (fanucForRs274), LinuxCNC's and Grbl's as they are. */
export function forRs274(postprocessor: string, program: string): string {
  return postprocessor === "fanuc" || postprocessor === "haas" ? fanucForRs274(program) : program;
}

/** Whether the control's programs are judged by rs274 (missing: those checks skip, rs274.ts). */
export function judgedByRs274(postprocessor: string): boolean {
  return postprocessor !== "sinumerik" && postprocessor !== "heidenhain";
}

/** The program read by its control's judge. */
export function judge(postprocessor: string, program: string): Rs274Run {
  if (postprocessor === "sinumerik") return readSinumerik(program);
  if (postprocessor === "heidenhain") return readHeidenhain(program);
  return runRs274(forRs274(postprocessor, program));
}
