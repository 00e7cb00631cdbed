/**
 * Faces traced back to their STEP entities through the reader's transfer results: every face of
 * all 120 MFCAD models to the entity its label file lists, every face of partC and the NIST parts
 * to a distinct ADVANCED_FACE; and the files that hold no solid or are damaged.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { withOcctScope, type OcctScope } from "../geometry/occt-scope.ts";
import { loadOpenCascade } from "../geometry/opencascade.ts";
import { readStep } from "../geometry/step.ts";
import {
  bytesOf,
  fixture,
  partCCutAtLine,
  pseudoRandomBytes,
  stepOf,
  text,
  wasmBytesInUse,
} from "../geometry/test-support.ts";
import { GeometryError } from "../geometry-error.ts";
import { analyseSolid } from "./analyse-brep.ts";
import { analyseFile } from "./analyse-file.ts";
import { readStepWithEntities } from "./step-entities.ts";
import { advancedFaces, makeBox, mfcadLabels, mfcadModels, mfcadStep, shellWithout } from "./test-support.ts";

const oc = await loadOpenCascade();

function refusal(code: string) {
  return (error: unknown) => error instanceof GeometryError && error.code === code;
}

describe("readStepWithEntities", () => {
  it("maps every face of all 120 MFCAD models to the STEP entity its label file lists, one face per entity", () => {
    const models = mfcadModels();
    assert.equal(models.length, 120);
    const times: { model: string; read: number; analyse: number; faces: number }[] = [];
    for (const model of models) {
      const bytes = mfcadStep(model);
      const labels = mfcadLabels(model);
      const named = advancedFaces(text(bytes));
      withOcctScope((scope) => {
        const started = performance.now();
        const read = readStepWithEntities(oc, bytes, scope);
        const readMs = performance.now() - started;
        const analysis = analyseSolid(oc, read.solid, { stepEntities: read.faceEntities });
        times.push({ model, read: readMs, analyse: analysis.timings.total ?? NaN, faces: analysis.faces.length });

        assert.deepEqual(read.entityWarnings, [], model);
        const listed = new Map(labels.faces.map((face) => [face.step_entity, face]));
        assert.equal(read.faceEntities.length, labels.faces.length, `${model}: faces`);
        const seen = new Set<number>();
        for (const [faceId, entity] of read.faceEntities.entries()) {
          assert.ok(entity !== null, `${model}: face ${faceId} has no entity`);
          const label = listed.get(entity);
          assert.ok(label, `${model}: face ${faceId} maps to #${entity}, which the labels do not list`);
          // the file names each ADVANCED_FACE after the face id the labels give it
          assert.equal(named.get(entity), String(label.face_id), `${model}: #${entity}`);
          assert.ok(!seen.has(entity), `${model}: #${entity} twice`);
          seen.add(entity);
          assert.equal(analysis.faces[faceId]?.stepEntity, entity);
        }
      });
    }
    const sum = (pick: (t: (typeof times)[number]) => number) => times.reduce((total, t) => total + pick(t), 0);
    const slowest = times.reduce((worst, t) => (t.read + t.analyse > worst.read + worst.analyse ? t : worst));
    console.log(
      `MFCAD, ${times.length} models (${sum((t) => t.faces)} faces): per model read + entity map ${(sum((t) => t.read) / times.length).toFixed(0)} ms, ` +
        `face analysis ${(sum((t) => t.analyse) / times.length).toFixed(1)} ms on average; slowest ${slowest.model} ` +
        `(${slowest.faces} faces) ${slowest.read.toFixed(0)} + ${slowest.analyse.toFixed(0)} ms`,
    );
  });

  for (const [name, faces] of [
    ["partC.step", 94],
    ["nist_ctc_01_asme1_ap242-e1.stp", 117],
    ["nist_ftc_10_asme1_ap242-e2.stp", 264],
    ["nist_stc_06_asme1_ap242-e3.stp", 144],
  ] as const) {
    it(`gives each of the ${faces} faces of ${name}'s solid its own ADVANCED_FACE entity`, () => {
      const bytes = fixture(name);
      const advanced = advancedFaces(text(bytes));
      withOcctScope((scope) => {
        const read = readStepWithEntities(oc, bytes, scope);
        assert.equal(read.faceEntities.length, faces);
        assert.ok(
          read.faceEntities.every((entity) => entity !== null && advanced.has(entity)),
          "every face maps to an ADVANCED_FACE of the file",
        );
        assert.equal(new Set(read.faceEntities).size, faces, "all distinct");
        assert.deepEqual(read.entityWarnings, []);
      });
    });
  }

  it("maps the faces of a file OCCT wrote itself, whose entity numbers are not in face order", () => {
    withOcctScope((scope) => {
      const bytes = stepOf(oc, makeBox(oc, scope, [40, 30, 20]));
      const advanced = advancedFaces(text(bytes));
      const read = readStepWithEntities(oc, bytes, scope);
      assert.equal(read.faceEntities.length, 6);
      assert.deepEqual(
        [...read.faceEntities].sort((a, b) => (a ?? 0) - (b ?? 0)),
        [...advanced.keys()].sort((a, b) => a - b),
      );
    });
  });
});

describe("WASM memory of the entity map", () => {
  it("reading partC.step ten times with its entity map keeps no more WASM memory than reading it without", () => {
    const bytes = fixture("partC.step");
    const growth = (read: (scope: OcctScope) => unknown): number => {
      withOcctScope(read); // first use of every code path
      const before = wasmBytesInUse(oc);
      for (let i = 0; i < 10; i++) withOcctScope(read);
      return wasmBytesInUse(oc) - before;
    };
    const plain = growth((scope) => readStep(oc, bytes, scope));
    const mapped = growth((scope) => readStepWithEntities(oc, bytes, scope));
    assert.ok(
      mapped <= plain + 64 * 1024,
      `ten reads kept ${(mapped / 1024).toFixed(0)} KB with the map, ${(plain / 1024).toFixed(0)} KB without`,
    );
  });
});

describe("files face analysis cannot use", () => {
  it("refuses a STEP file of an open shell (faces but no solid) with no_solid, naming the faces", () => {
    withOcctScope((scope) => {
      const box = makeBox(oc, scope, [40, 30, 20]);
      const bytes = stepOf(oc, shellWithout(oc, scope, box, [0]));
      assert.throws(
        () => readStepWithEntities(oc, bytes, scope),
        (error: unknown) => refusal("no_solid")(error) && /5 faces but no solid/.test((error as GeometryError).message),
      );
    });
  });

  it("refuses a STEP file cut short, or damaged in its middle, with corrupt_file", () => {
    withOcctScope((scope) => {
      const whole = text(fixture("partC.step"));
      assert.throws(
        () => readStepWithEntities(oc, bytesOf(whole.slice(0, whole.length / 2)), scope),
        refusal("corrupt_file"),
      );
      assert.throws(
        () => analyseFile(oc, partCCutAtLine(0.5)),
        (error: unknown) => refusal("corrupt_file")(error) || refusal("no_solid")(error),
      );
    });
  });

  it("refuses an empty file and one that is no part file with their own codes", () => {
    assert.throws(() => analyseFile(oc, new Uint8Array()), refusal("empty_file"));
    assert.throws(() => analyseFile(oc, pseudoRandomBytes(5000)), refusal("unsupported_format"));
  });

  it("reads a STEP file within a time budget, and names the budget when the read used it up", () => {
    const { analysis } = analyseFile(oc, fixture("partC.step"), { budgetMs: 60_000 });
    assert.equal(analysis.faces.length, 94);
    assert.throws(() => analyseFile(oc, fixture("partC.step"), { budgetMs: 1 }), refusal("analysis_timeout"));
  });
});
