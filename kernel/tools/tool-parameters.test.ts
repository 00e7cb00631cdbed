import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isLengthParameter, TOOL_PARAMETER_NAMES, TOOL_PARAMETERS } from "./tool-parameters.ts";

describe("TOOL_PARAMETERS", () => {
  it("holds the spec's three parameters and PascalCase names only", () => {
    for (const name of ["CuttingDiameter", "DepthOfCutMaximum", "OverallLength"])
      assert.ok(TOOL_PARAMETER_NAMES.includes(name as never), name);
    for (const name of TOOL_PARAMETER_NAMES) assert.match(name, /^[A-Z][A-Za-z]+$/);
  });

  it("gives lengths mm, angles degrees and counts no unit", () => {
    for (const name of TOOL_PARAMETER_NAMES) {
      const info = TOOL_PARAMETERS[name];
      assert.equal(info.unit, { length: "mm", angle: "deg", count: "" }[info.kind], name);
      assert.equal(isLengthParameter(name), info.kind === "length");
    }
    assert.equal(TOOL_PARAMETERS.ThreadPitch.kind, "length");
    assert.equal(TOOL_PARAMETERS.NumberOfFlutes.kind, "count");
  });
});
