/** What the planner's tests share: partC as readPart gives it, from its STL (no OCCT needed). */
import assert from "node:assert/strict";
import { recogniseFile } from "../../features/setups/recognise-file.ts";
import { fixture } from "../../geometry/test-support.ts";
import type { PlannedPart } from "./read-part.ts";

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
