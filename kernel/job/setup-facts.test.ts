import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { fakePlanResult } from "../../test/support/fake-plan.ts";
import { boxToFrame, setupFrame } from "../cam/frames.ts";
import { findMachineArchetype } from "../machines/archetypes.ts";
import type { Box3 } from "../math/box3.ts";
import type { Vec3 } from "../math/vec3.ts";
import { headerLines } from "../post/header-lines.ts";
import { motionStream, type ProgramStart } from "../post/motion.ts";
import { camPlanOf, summarisePlan } from "./plan.ts";
import {
  cycleTimeS,
  formatDuration,
  jobTools,
  setupTools,
  setupTurnWords,
  stockFacts,
  workOffsetFacts,
} from "./setup-facts.ts";

const MACHINE = findMachineArchetype("vmc-850-fanuc")!;
const OPTIONS = { include_face_milling: true, sort_by_height: false };
/** a part 100 x 60 x 30 in stock 2 mm round it, 5 on top and 8 below */
const PART: Box3 = { min: [0, 0, 0], max: [100, 60, 30] };
const STOCK: Box3 = { min: [-2, -2, -8], max: [102, 62, 35] };

/** a setup as the planner frames it, seen from `direction` */
function framed(direction: Vec3): { direction: Vec3; wcs: ReturnType<typeof setupFrame>; stock: Box3 } {
  const wcs = setupFrame(direction, STOCK);
  return { direction, wcs, stock: boxToFrame(wcs, STOCK) };
}

describe("the setter's facts of a setup", () => {
  it("write a cycle time as a clock is read", () => {
    assert.equal(formatDuration(44.6), "45 s");
    assert.equal(formatDuration(725), "12 min 05 s");
    assert.equal(formatDuration(7380), "2 h 03 min");
    assert.equal(formatDuration(-1), "0 s");
  });

  it("say how the part is turned from the way it was modelled, for every side up", () => {
    const words = (d: Vec3) => setupTurnWords(framed(d));
    assert.equal(words([0, 0, 1]), "as modelled, +Z side up");
    assert.equal(words([0, 0, -1]), "turned over about X, -Z side up");
    assert.equal(words([0, -1, 0]), "a quarter turn about X, -Y side up");
    assert.equal(words([0, 1, 0]), "a quarter turn about X, +Y side up");
    // from +X the frame's x is the workpiece's Y: no one axis names that turn
    assert.equal(words([1, 0, 0]), "+X side up, +Y to the right");
    assert.equal(words([-1, 0, 0]), "-X side up, +Y to the right");
  });

  it("put the part in its stock as the setter sees it: turned over, the top and bottom allowances swap", () => {
    const up = stockFacts(framed([0, 0, 1]), PART);
    assert.deepEqual(up.stock_mm, [104, 64, 43]);
    assert.deepEqual(up.part_mm, [100, 60, 30]);
    assert.deepEqual(up.part_in_stock, { left: 2, right: 2, front: 2, back: 2, top: 5, bottom: 8 });
    const over = stockFacts(framed([0, 0, -1]), PART);
    assert.deepEqual(over.part_in_stock, { left: 2, right: 2, front: 2, back: 2, top: 8, bottom: 5 });
    const side = stockFacts(framed([1, 0, 0]), PART);
    assert.deepEqual(side.stock_mm, [64, 43, 104]);
    assert.equal(side.part_in_stock?.top, 2);
    // a box that is not the plan's part says nothing of where the part sits
    const elsewhere = stockFacts(framed([0, 0, 1]), { min: [500, 0, 0], max: [600, 60, 30] });
    assert.equal(elsewhere.part_in_stock, null);
    assert.equal(elsewhere.part_mm, null);
    assert.equal(stockFacts(framed([0, 0, 1]), null).part_in_stock, null);
  });

  it("name the work offset as the control selects it, and where its origin is", () => {
    const setup = { index: 1, work_offset: "G55" };
    assert.equal(workOffsetFacts(setup, "fanuc").code, "G55");
    assert.equal(workOffsetFacts(setup, "heidenhain").code, "Preset 2");
    assert.match(workOffsetFacts(setup, "fanuc").origin, /front-left corner.*Z0 its top/);
  });

  it("list each of the job's tools once, with the setups that use it and the deepest its tip goes in each", () => {
    const plan = camPlanOf(fakePlanResult(), OPTIONS, MACHINE);
    const tools = jobTools(plan);
    assert.deepEqual(
      tools.map((tool) => tool.number),
      [...new Set(plan.setups.flatMap((setup) => setup.tools.map((tool) => tool.number)))].sort((a, b) => a - b),
    );
    for (const setup of plan.setups) {
      for (const tool of setupTools(plan, setup.index)) {
        assert.ok(tool.setups.includes(setup.index));
        const lows = setup.operations
          .filter((operation) => operation.tool.assembly_uuid === tool.assembly_uuid)
          .flatMap((operation) => operation.moves.map((move) => (move.kind === "drill" ? move.bottom_z : move.to[2])));
        assert.equal(tool.deepest_z, Math.min(...lows));
      }
    }
  });

  it("are the same in the program header and the task result: one function each", () => {
    const plan = camPlanOf(fakePlanResult(), OPTIONS, MACHINE);
    const summary = summarisePlan(plan);
    for (const setup of plan.setups) {
      const start = motionStream(plan, setup.index, { project: "Bracket", control: "fanuc" }).next()
        .value as ProgramStart;
      const header = headerLines(start, String);
      const shown = summary.setups[setup.index]!;
      assert.equal(shown.machining_time_s, cycleTimeS(setup));
      assert.ok(header.includes(`Cycle time ${formatDuration(shown.machining_time_s)}`), header.join("\n"));
      assert.ok(header.includes(`${shown.work_offset}: ${shown.work_offset_origin}`), header.join("\n"));
      for (const tool of shown.tools) {
        const line = header.find((text) => text.startsWith(`T${tool.number} `));
        assert.ok(line?.includes(`Z min ${tool.deepest_z_mm}`), `T${tool.number}: ${line}`);
      }
    }
  });
});
