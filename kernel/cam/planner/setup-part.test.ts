import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Setup } from "../../features/setups/types.ts";
import { PART_C_STOCK } from "../milling/test-support.ts";
import type { PlannedPart } from "./read-part.ts";
import { findMachineArchetype, type MachineArchetype } from "../../machines/archetypes.ts";
import type { Box3, Vec3 } from "../types.ts";
import { type SetupPartsInput, setupParts } from "./setup-part.ts";
import { partCPlanned } from "./test-support.ts";

const fitting = {
  stock: PART_C_STOCK,
  endMills: [],
  machine: findMachineArchetype("vmc-850-fanuc") as MachineArchetype,
};

describe("a setup's focus", () => {
  const part = partCPlanned();
  const axisSetups = part.setups.setups;
  const alongAxes = new Set(axisSetups.flatMap((setup) => setup.reached));
  const faces = part.analysis.faces.map((face) => face.id);

  it("is null on every setup along the workpiece's axes: they mill all they reach", () => {
    assert.ok(axisSetups.length > 0);
    for (const setup of setupParts(part, fitting).setups) assert.equal(setup.focus, null, setup.name);
  });

  it("is, on a tilted setup, the faces it reaches that no axis setup reaches whole, and the split faces it reaches part of", () => {
    // partC's own plan has no tilted setup: one is added reaching a face the +Z setup reaches,
    // a face taken off every axis setup's reach, and a face no direction reaches whole
    const [reachedAlongAxes, onlyTilted, split] = faces.filter((id) => alongAxes.has(id));
    assert.ok(reachedAlongAxes !== undefined && onlyTilted !== undefined && split !== undefined);
    const off = (setup: Setup): Setup => ({
      ...setup,
      reached: setup.reached.filter((id) => id !== onlyTilted && id !== split),
    });
    const tilted: Setup = {
      index: axisSetups.length,
      name: "tilted",
      direction: [Math.SQRT1_2, 0, Math.SQRT1_2],
      faces: [split],
      reached: [reachedAlongAxes, onlyTilted],
      features: [],
    };
    const planned: PlannedPart = {
      ...part,
      setups: {
        ...part.setups,
        setups: [...axisSetups.map(off), tilted],
        split_faces: [...part.setups.split_faces, split],
      },
    };
    const { setups } = setupParts(planned, fitting);
    assert.deepEqual(setups.find((setup) => setup.name === "tilted")?.focus, [onlyTilted, split]);
    assert.ok(setups.filter((setup) => setup.name !== "tilted").every((setup) => setup.focus === null));
  });
});

describe("the setup that machines the band the first setup's jaws held", () => {
  const part = partCPlanned();
  assert.ok(part.analysis.bbox !== null);
  const { min, max } = part.analysis.bbox;
  /** partC with 2 mm around it, `beyondY` mm beyond its +Y side */
  const stockBeyondY = (beyondY: number): Box3 => ({
    min: [min[0] - 2, min[1] - 2, min[2] - 2],
    max: [max[0] + 2, max[1] + beyondY, max[2] + 2],
  });
  /** a vise that takes the blank only from the sides (from above it is too wide for it) */
  const fromSides = (direction: Vec3) => Math.abs(direction[2]) < 0.5;
  const named = (input: Partial<SetupPartsInput>) =>
    setupParts(part, { ...fitting, heldBandMm: 6.5, gripsBlank: fromSides, ...input }).setups.map((s) => [
      s.name,
      s.addedFor,
    ]);

  it("is the side opposite the first one held, turned over, when the band reaches into the part: +Y after -Y", () => {
    // partC's setup plan: -Z, -Y and +X; +Z is added for the stock above it
    const setups = named({ stock: stockBeyondY(2) });
    assert.deepEqual(setups, [
      ["+Z", "the stock above the part"],
      ["-Z", null],
      ["-Y", null],
      ["+X", null],
      ["+Y", "the band the first setup's jaws held"],
    ]);
  });

  it("is not added when the stock beyond the part's side holds the band clear of it, nor when nothing holds the stock", () => {
    assert.ok(!named({ stock: stockBeyondY(8) }).some(([name]) => name === "+Y"));
    assert.ok(!named({ stock: stockBeyondY(2), heldBandMm: 0 }).some(([name]) => name === "+Y"));
  });
});
