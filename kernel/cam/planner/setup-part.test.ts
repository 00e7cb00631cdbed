import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Setup } from "../../features/setups/types.ts";
import { PART_C_STOCK } from "../milling/test-support.ts";
import type { PlannedPart } from "./read-part.ts";
import { findMachineArchetype, type MachineArchetype } from "../../machines/archetypes.ts";
import { setupParts } from "./setup-part.ts";
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
