/**
 * T numbers for a job, on the starter library's own cutters: one number per tool across the
 * setups, pocket numbers honoured, a clash of pocket numbers settled and said.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Assembly } from "../../tools/assembly.ts";
import { starterLibrary } from "../../tools/catalogue/starter-library.ts";
import { cuttersFromLibrary } from "../tooling/cutter.ts";
import type { Cutter } from "../types.ts";
import { jobToolNumbers, type ToolUse } from "./tool-numbers.ts";

const starter = starterLibrary();
const { cutters } = cuttersFromLibrary(starter);

function pick(pattern: RegExp): Cutter {
  const cutter = cutters.find((c) => pattern.test(c.name));
  assert.ok(cutter, String(pattern));
  return cutter;
}

const face = pick(/^Face mill Ø63/);
const em16 = pick(/^End mill Ø16 x/);
const em6 = pick(/^End mill Ø6 x/);
const drill = pick(/^Twist drill Ø6.8 /);
const uses = (...tools: Cutter[]): ToolUse[] => tools.map((tool) => ({ tool }));

/** The starter library with these pocket numbers given (by cutter). */
function numbered(pockets: [Cutter, number][]): Assembly[] {
  const byUuid = new Map(pockets.map(([cutter, pocket]) => [cutter.assembly_uuid, pocket]));
  return starter.map((a) => (byUuid.has(a.uuid) ? { ...a, pocket_number: byUuid.get(a.uuid) } : a));
}

const numbers = (setups: { number: number; name: string }[][]) =>
  setups.map((tools) => tools.map((t) => `T${t.number} ${t.name.split(",")[0]}`));

describe("the job's T numbers", () => {
  it("gives a tool used in two setups one number, in the order the job first uses its tools", () => {
    const result = jobToolNumbers({
      setups: [uses(face, em16, face, drill), uses(em6, face, em16)],
      library: starter,
    });
    assert.deepEqual(numbers(result.setups), [
      ["T1 Face mill Ø63", "T2 End mill Ø16 x 32 x 92", "T3 Twist drill Ø6.8 x 69 x 109"],
      // the setup lists its own tools in the order it uses them
      ["T4 End mill Ø6 x 13 x 57", "T1 Face mill Ø63", "T2 End mill Ø16 x 32 x 92"],
    ]);
    assert.deepEqual(result.warnings, []);
    assert.deepEqual(
      result.setups[0]!.map((t) => t.holder),
      ["SK40 shell mill arbor Ø22 A50", "SK40 Weldon holder Ø16 A63", "SK40 ER16 collet chuck A70"],
    );
  });

  it("gives an assembly its pocket number, the others the lowest numbers left", () => {
    const result = jobToolNumbers({
      setups: [uses(face, em16), uses(em6, drill, face)],
      library: numbered([
        [em16, 1],
        [drill, 20],
      ]),
    });
    assert.deepEqual(
      result.setups.map((tools) => tools.map((t) => t.number)),
      [
        [2, 1],
        [3, 20, 2],
      ],
    );
  });

  it("keeps a pocket number for the tool used first when two share it, numbers the other anew and says so", () => {
    const result = jobToolNumbers({
      setups: [uses(face), uses(em6, em16)],
      library: numbered([
        [em16, 2],
        [em6, 2],
        [face, 1],
      ]),
    });
    assert.deepEqual(numbers(result.setups), [
      ["T1 Face mill Ø63"],
      ["T2 End mill Ø6 x 13 x 57", "T3 End mill Ø16 x 32 x 92"],
    ]);
    assert.equal(result.warnings.length, 1);
    const [warning] = result.warnings;
    assert.equal(warning?.code, "tool_number_conflict");
    assert.deepEqual(warning?.details, {
      number: 2,
      kept_assembly_uuid: em6.assembly_uuid,
      kept_name: em6.name,
      renumbered_assembly_uuid: em16.assembly_uuid,
      renumbered_name: em16.name,
      renumbered_to: 3,
    });
    assert.equal(
      warning?.message,
      `T2 is the pocket number of ${em6.name} and of ${em16.name}: ${em6.name}, used first, keeps it, ${em16.name} is T3 in this job`,
    );
  });

  it("names no holder for an assembly without one", () => {
    const bare = starter.map((a) =>
      a.uuid === drill.assembly_uuid
        ? { ...a, components: a.components.filter((c) => c.component_type !== "adaptive_item") }
        : a,
    );
    const [tools] = jobToolNumbers({ setups: [uses(drill)], library: bare }).setups;
    assert.deepEqual(
      tools?.map((t) => t.holder),
      [null],
    );
  });
});
