import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { FixturePlate, MachineVise, Workholding } from "./schema.ts";
import { TEST_PLATE, TEST_VISE } from "./test-support.ts";

const vise = TEST_VISE;
const plate = TEST_PLATE;

describe("Workholding", () => {
  it("parses a vise and a fixture plate by their kind", () => {
    assert.deepEqual(Workholding.parse(vise), vise);
    assert.deepEqual(Workholding.parse(plate), plate);
    assert.equal(MachineVise.safeParse(plate).success, false);
    assert.equal(FixturePlate.safeParse(vise).success, false);
  });

  it("refuses an unknown kind, a missing or extra field and a non-positive size", () => {
    assert.equal(Workholding.safeParse({ ...vise, kind: "chuck" }).success, false);
    const { max_opening_mm: _, ...noOpening } = vise;
    assert.equal(Workholding.safeParse(noOpening).success, false);
    assert.equal(Workholding.safeParse({ ...vise, jaw_colour: "blue" }).success, false);
    assert.equal(Workholding.safeParse({ ...vise, jaw_height_mm: 0 }).success, false);
    assert.equal(Workholding.safeParse({ ...plate, clamp_count: 2.5 }).success, false);
    assert.equal(Workholding.safeParse({ ...plate, clamp_count: 1 }).success, false);
  });

  it("refuses a parallel as tall as the jaws, naming parallel_heights_mm", () => {
    const result = Workholding.safeParse({ ...vise, parallel_heights_mm: [10, 45] });
    assert.equal(result.success, false);
    assert.deepEqual(result.error?.issues[0]?.path, ["parallel_heights_mm"]);
  });
});
