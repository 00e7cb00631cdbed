/**
 * The spindle_limited_tool warning on the starter library's own cutters on the vmc-850 (10,000
 * rpm) in aluminium: a 1 mm end mill asks for far more than the spindle turns, a 16 mm one does not.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { findMachineArchetype } from "../../machines/archetypes.ts";
import { starterLibrary } from "../../tools/catalogue/starter-library.ts";
import { setupMachiningTime } from "../machining-time.ts";
import { cuttersFromLibrary } from "../tooling/cutter.ts";
import { cuttingParametersFor } from "../tooling/feeds.ts";
import type { Cutter, Operation, OperationKind } from "../types.ts";
import { spindleLimitedWarnings } from "./spindle-limited.ts";

const machine = findMachineArchetype("vmc-850-fanuc");
const { cutters } = cuttersFromLibrary(starterLibrary());
const MATERIAL = "aluminium-6061";

function pick(pattern: RegExp): Cutter {
  const cutter = cutters.find((c) => pattern.test(c.name));
  assert.ok(cutter, String(pattern));
  return cutter;
}

/** `length` mm along x at the cutting feed, `id` its id. */
function straight(tool: Cutter, kind: OperationKind, id: string, length: number): Operation {
  assert.ok(machine);
  const { parameters } = cuttingParametersFor(tool, MATERIAL, machine, kind);
  return {
    id,
    kind,
    name: `${kind} with ${tool.name}`,
    features: [],
    tool,
    parameters,
    clearance_z: 5,
    moves: [
      { kind: "rapid", to: [0, 0, 5] },
      { kind: "rapid", to: [0, 0, -1] },
      { kind: "linear", to: [length, 0, -1], feed: parameters.feed_mm_min },
      { kind: "rapid", to: [length, 0, 5] },
    ],
  };
}

describe("spindle_limited_tool", () => {
  assert.ok(machine);
  const em1 = pick(/^End mill Ø1 x/);
  const em16 = pick(/^End mill Ø16 x/);

  it("names a tool the spindle holds back once per setup, with its speeds and what it costs", () => {
    const operations = [
      straight(em16, "wall_finishing", "s0-op0", 200),
      straight(em1, "rest_roughing", "s0-op1", 30),
      straight(em1, "wall_finishing", "s0-op2", 50),
    ];
    const time = setupMachiningTime(operations, machine);
    const warnings = spindleLimitedWarnings("+Z", operations, time.operations, machine, MATERIAL);
    assert.equal(warnings.length, 1, JSON.stringify(warnings));
    const [warning] = warnings;
    assert.ok(warning);
    assert.equal(warning.code, "spindle_limited_tool");
    const details = warning.details ?? {};
    assert.equal(details.tool, em1.name);
    assert.equal(details.max_spindle_rpm, machine.max_spindle_rpm);
    // the finishing table asks for more than the roughing one: that ask is told
    const finishing = cuttingParametersFor(em1, MATERIAL, machine, "wall_finishing").conditions.recommended;
    assert.equal(details.recommended_rpm, finishing.spindleRpm);
    assert.ok(finishing.spindleRpm > machine.max_spindle_rpm);
    assert.equal(details.recommended_vc_m_min, finishing.vcMPerMin);
    // at the spindle's maximum a 1 mm tool cuts at π · 1 mm · 10,000 rpm
    assert.ok(Math.abs(Number(details.vc_m_min) - (Math.PI * em1.diameter * machine.max_spindle_rpm) / 1000) < 0.1);
    const own = (time.operations[1]?.total_s ?? 0) + (time.operations[2]?.total_s ?? 0);
    assert.ok(Math.abs(Number(details.seconds) - own) < 0.1, `${details.seconds} s against ${own} s`);
    // each feed move at the feed the recommended rpm gives (the chip per tooth kept), within the max feed
    const saved = operations.slice(1).reduce((sum, op) => {
      const recommended = cuttingParametersFor(em1, MATERIAL, machine, op.kind).conditions.recommended.spindleRpm;
      const feed = op.parameters.feed_mm_min;
      const faster = Math.min((feed * recommended) / op.parameters.spindle_rpm, machine.max_feed_mm_min);
      const length = op.kind === "rest_roughing" ? 30 : 50;
      return sum + (length / feed - length / faster) * 60;
    }, 0);
    assert.ok(Math.abs(Number(details.seconds_longer) - saved) < 0.2, `${details.seconds_longer} s against ${saved} s`);
    assert.match(warning.message, /setup \+Z: End mill Ø1 x.* asks for \d+ rpm/);
  });

  it("says nothing of tools the spindle turns at their recommended speed, nor of drills", () => {
    const drill = pick(/^Twist drill Ø3.8 /);
    const operations = [straight(em16, "roughing", "s0-op0", 100), straight(drill, "drilling", "s0-op1", 10)];
    const time = setupMachiningTime(operations, machine);
    assert.deepEqual(spindleLimitedWarnings("+Z", operations, time.operations, machine, MATERIAL), []);
  });
});
