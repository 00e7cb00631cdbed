import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { POSTPROCESSORS } from "../../kernel/post/index.ts";
import { everyMovePlan } from "./every-move-plan.ts";
import { programText } from "./program-checks.ts";
import { headerProblems, toolChangeProblems, toolNumberProblems } from "./setter-checks.ts";

describe("the setter's checks of a program's text", () => {
  const plan = everyMovePlan(false);
  const offset = (postprocessor: string) => (postprocessor === "heidenhain" ? "Preset 1" : "G54");

  for (const postprocessor of POSTPROCESSORS) {
    it(`pass every control's program as written: ${postprocessor}`, () => {
      const text = programText(plan, 0, postprocessor);
      assert.deepEqual(headerProblems(text, offset(postprocessor)), []);
      assert.deepEqual(toolChangeProblems(text, true), []);
      assert.deepEqual(toolNumberProblems([text, text]), []);
    });
  }

  it("find a spindle started after the approach, coolant never turned on, and a header without the work offset", () => {
    const text = programText(plan, 0, "fanuc");
    const late = text.replace(
      "S9000 M3\nM8\nG0 G90 G54 X-6. Y0.\nG43 Z5. H1\n",
      "G0 G90 G54 X-6. Y0.\nG43 Z5. H1\nS9000 M3\nM8\n",
    );
    assert.notEqual(late, text);
    assert.match(toolChangeProblems(late, true).join("\n"), /"G43 Z5\. H1" comes before the spindle is on/);
    const dry = text.replace(/^M8\n/gm, "");
    assert.match(toolChangeProblems(dry, true).join("\n"), /before the coolant is on/);
    assert.deepEqual(toolChangeProblems(dry, false), []);
    const heidenhain = programText(plan, 0, "heidenhain").replace(" FMAX M3\n", " FMAX\n");
    assert.match(toolChangeProblems(heidenhain, true).join("\n"), /before the spindle is on/);
    assert.match(headerProblems(text, "G55").join("\n"), /names G55/);
    assert.match(headerProblems(text.replace(/\(STOCK X.*\)\n/, ""), "G54").join("\n"), /stock's size/);
  });

  it("find one tool under two numbers, and one number for two tools, across programs", () => {
    const text = programText(plan, 0, "linuxcnc");
    const renumbered = text.replace("(T1 end mill", "(T7 end mill");
    assert.match(toolNumberProblems([text, renumbered]).join("\n"), /is T7, elsewhere T1/);
    const swapped = text.replace("(T2 drill", "(T1 drill");
    assert.match(toolNumberProblems([text, swapped]).join("\n"), /T1 is .*DRILL.*, elsewhere .*END MILL/);
  });
});
