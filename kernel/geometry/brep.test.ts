/**
 * OCCT's native BREP, read and written. One OCCT instance for the whole file.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { readBrep, writeBrep } from "./brep.ts";
import { detectFormat } from "./detect-format.ts";
import { measureSolid } from "./measure.ts";
import { withOcctScope } from "./occt-scope.ts";
import { loadOpenCascade } from "./opencascade.ts";
import { readStep } from "./step.ts";
import { box, compound, fixture, text } from "./test-support.ts";
import { GeometryError } from "../geometry-error.ts";

const oc = await loadOpenCascade();

function refusal(code: string, check: (error: GeometryError) => boolean = () => true) {
  return (error: unknown) => error instanceof GeometryError && error.code === code && check(error);
}

function readAndMeasure(bytes: Uint8Array) {
  return withOcctScope((scope) => {
    const read = readBrep(oc, bytes, scope);
    return { ...measureSolid(oc, read.solid), readWarnings: read.warnings };
  });
}

describe("writeBrep and readBrep", () => {
  it("write a 10 x 20 x 30 box as text BREP that reads back as one closed solid of 6000 mm³", () => {
    const bytes = withOcctScope((scope) => writeBrep(oc, box(oc, scope, 10, 20, 30)));
    assert.match(text(bytes.subarray(0, 80)), /^DBRep_DrawableShape\s+CASCADE Topology V3/);
    assert.equal(detectFormat(bytes), "brep");
    const part = readAndMeasure(bytes);
    assert.equal(part.faceCount, 6);
    assert.equal(part.closed, true);
    assert.ok(Math.abs((part.volumeMm3 ?? NaN) - 6000) < 1e-6, `volume ${part.volumeMm3}`);
  });

  it("carry partC from STEP through BREP without changing its volume or faces", () => {
    const [brep, before] = withOcctScope((scope) => {
      const read = readStep(oc, fixture("partC.step"), scope);
      return [writeBrep(oc, read.solid), measureSolid(oc, read.solid)] as const;
    });
    const after = readAndMeasure(brep);
    assert.equal(after.faceCount, before.faceCount);
    assert.ok(Math.abs((after.volumeMm3 ?? NaN) - (before.volumeMm3 ?? NaN)) < 1e-6 * (before.volumeMm3 ?? 0));
  });

  it("refuse the first half of a BREP file as corrupt_file", () => {
    const bytes = withOcctScope((scope) => writeBrep(oc, box(oc, scope, 10, 20, 30)));
    assert.throws(() => readAndMeasure(bytes.subarray(0, bytes.length / 2)), refusal("corrupt_file"));
  });

  it("refuse a BREP of two boxes as multiple_solids and a BREP of a face as no_solid", () => {
    const two = withOcctScope((scope) =>
      writeBrep(oc, compound(oc, scope, [box(oc, scope, 1, 1, 1), box(oc, scope, 1, 1, 1, [5, 0, 0])])),
    );
    assert.throws(
      () => readAndMeasure(two),
      refusal("multiple_solids", (e) => e.details.solids === 2),
    );
    const face = withOcctScope((scope) =>
      writeBrep(oc, scope.own(scope.own(new oc.BRepPrimAPI_MakeBox_2(1, 2, 3)).TopFace())),
    );
    assert.throws(
      () => readAndMeasure(face),
      refusal("no_solid", (e) => e.details.faces === 1),
    );
  });
});
