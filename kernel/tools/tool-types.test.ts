import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { TOOL_PARAMETER_NAMES } from "./tool-parameters.ts";
import {
  allowedParameters,
  describeToolTypes,
  isToolType,
  TOOL_FAMILIES,
  TOOL_TYPE_INFO,
  TOOL_TYPES,
} from "./tool-types.ts";

describe("TOOL_TYPES", () => {
  it("are the agreed PascalCase names with British Centre", () => {
    assert.deepEqual([...TOOL_TYPES].sort(), [
      "BallEndMill",
      "BullNoseEndMill",
      "CentreCuttingEndMill",
      "CentreDrill",
      "ChamferMill",
      "Drill",
      "FaceMill",
      "NonCentreCuttingEndMill",
      "Reamer",
      "SlotMill",
      "SpotDrill",
      "Tap",
      "ThreadMill",
    ]);
    assert.equal(isToolType("CentreCuttingEndMill"), true);
    assert.equal(isToolType("CenterCuttingEndMill"), false);
  });

  it("give every type a label, a family, known parameters and sane flute bounds", () => {
    for (const type of TOOL_TYPES) {
      const info = TOOL_TYPE_INFO[type];
      assert.ok(info.label.length > 0);
      assert.ok(TOOL_FAMILIES.includes(info.family));
      for (const name of [...info.required, ...info.optional])
        assert.ok(TOOL_PARAMETER_NAMES.includes(name), `${type}: ${name}`);
      assert.deepEqual(
        info.required.filter((name) => (info.optional as readonly string[]).includes(name)),
        [],
        `${type} lists a parameter twice`,
      );
      assert.deepEqual([...info.required], ["CuttingDiameter"], type);
      assert.ok(info.flutes.min >= 1 && info.flutes.max >= info.flutes.min, type);
    }
  });

  it("require only the diameter: the rest is assumed or the tool is not planned (assumed-geometry.ts)", () => {
    for (const type of TOOL_TYPES) assert.deepEqual([...TOOL_TYPE_INFO[type].required], ["CuttingDiameter"], type);
    assert.ok(allowedParameters("BullNoseEndMill").has("CornerRadius"));
    assert.ok(allowedParameters("Drill").has("PointAngle"));
    assert.ok(allowedParameters("Tap").has("ThreadPitch"));
    assert.ok(allowedParameters("ChamferMill").has("ChamferAngle"));
    assert.ok(allowedParameters("CentreDrill").has("TipDiameter"));
    assert.equal(allowedParameters("Drill").has("CornerRadius"), false);
    assert.equal(allowedParameters("Tap").has("TapDrillDiameter"), true);
  });

  it("describe themselves for the tool-types endpoint in order", () => {
    const described = describeToolTypes();
    assert.deepEqual(
      described.map((d) => d.tool_type),
      [...TOOL_TYPES],
    );
    assert.deepEqual(described.find((d) => d.tool_type === "Tap")?.family, "tap");
  });
});
