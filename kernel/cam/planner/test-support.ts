/** What the planner's tests share: partC as readPart gives it, from its STL (no OCCT needed), and a STEP fixture's setups. */
import assert from "node:assert/strict";
import { recogniseFile } from "../../features/setups/recognise-file.ts";
import { fixture } from "../../geometry/test-support.ts";
import { readBrep } from "../../geometry/brep.ts";
import { withOcctScope } from "../../geometry/occt-scope.ts";
import type { OpenCascadeInstance } from "../../geometry/opencascade.ts";
import { tessellate } from "../../geometry/tessellate.ts";
import { findMachineArchetype, type MachineArchetype } from "../../machines/archetypes.ts";
import { meshBounds } from "../../mesh/bounds.ts";
import { starterLibrary } from "../../tools/catalogue/starter-library.ts";
import { aluminiumInput, fixtureBrep } from "../test-support.ts";
import { cuttersFromLibrary } from "../tooling/cutter.ts";
import type { Box3 } from "../types.ts";
import { isEndMill } from "./milling-tools.ts";
import { type PlannedPart, readPart } from "./read-part.ts";
import { type SetupPart, setupParts } from "./setup-part.ts";

/** partC from its STL, as readPart gives it. */
export function partCPlanned(): PlannedPart {
  const file = recogniseFile(undefined, fixture("partC.stl"));
  assert.ok(file.setups !== null && file.mesh !== null);
  return {
    analysis: file.analysis,
    recognition: file.recognition,
    setups: file.setups,
    soup: { positions: file.mesh.positions, indices: file.mesh.indices },
    vertexFaces: file.mesh.faceIds,
    warnings: [],
  };
}

/** A fixture STEP part's setups as the planner makes them: in aluminium on the vmc-850, 2 mm of stock round it and 8 mm below. */
export function fixtureSetups(oc: OpenCascadeInstance, name: string): SetupPart[] {
  const bytes = fixtureBrep(oc, name);
  const machine = findMachineArchetype("vmc-850-fanuc") as MachineArchetype;
  const bounds = meshBounds(withOcctScope((scope) => tessellate(oc, readBrep(oc, bytes, scope).solid, 0).mesh));
  const stock: Box3 = {
    min: [bounds.min[0] - 2, bounds.min[1] - 2, bounds.min[2] - 8],
    max: [bounds.max[0] + 2, bounds.max[1] + 2, bounds.max[2] + 2],
  };
  const part = readPart(oc, aluminiumInput(bytes, stock, machine));
  const { cutters } = cuttersFromLibrary(starterLibrary());
  return setupParts(part, { stock, endMills: cutters.filter(isEndMill), machine }).setups;
}
