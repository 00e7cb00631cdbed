/**
 * The labelled-part generator: every class made on its own has the faces its construction gives
 * it (counted and checked in shape: a through hole's cylinder spans the block, a blind hole has a
 * floor or a 118-degree drill point, a passage's walls run through...), labels survive the BREP
 * round trip the scorer uses, a seed gives the same part, and parts are valid solids. Parts come
 * from the development seed only; the benchmark's held-back seed is not used here.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { writeBrep } from "../../geometry/brep.ts";
import { type OcctScope, withOcctScope } from "../../geometry/occt-scope.ts";
import { loadOpenCascade } from "../../geometry/opencascade.ts";
import { analyseSolid } from "../analyse-brep.ts";
import { FACE_CLASSES, FEATURE_CLASSES, type FeatureClass } from "../recognition/types.ts";
import { recogniseFile } from "../setups/recognise-file.ts";
import type { FaceAnalysis, PartAnalysis } from "../types.ts";
import { partSeed } from "./draw.ts";
import { DEVELOPMENT_SEED, type GeneratedPart, type GenerationOptions, generatePart } from "./generate.ts";
import { isValidSolid } from "./labelled-solid.ts";
import { scoreGeneratedParts } from "./score.ts";

const oc = await loadOpenCascade();

/** Faces each class has when it is the only feature on a block, made square to the block. */
const FACES_ALONE: Record<FeatureClass, number> = {
  chamfer: 1,
  through_hole: 1,
  triangular_passage: 3,
  rectangular_passage: 4,
  "6sides_passage": 6,
  triangular_through_slot: 2,
  rectangular_through_slot: 3,
  circular_through_slot: 1,
  rectangular_through_step: 2,
  "2sides_through_step": 3,
  slanted_through_step: 2,
  o_ring: 3,
  blind_hole: 2,
  triangular_pocket: 4,
  rectangular_pocket: 5,
  "6sides_pocket": 7,
  circular_end_pocket: 5,
  rectangular_blind_slot: 4,
  vertical_circular_end_blind_slot: 4,
  horizontal_circular_end_blind_slot: 4,
  triangular_blind_step: 2,
  circular_blind_step: 2,
  rectangular_blind_step: 3,
  round: 1,
};

interface Alone {
  part: GeneratedPart;
  analysis: PartAnalysis;
  /** the feature's faces */
  faces: FaceAnalysis[];
}

function alone(scope: OcctScope, cls: FeatureClass, k = 0, extra: GenerationOptions = {}): Alone {
  const part = generatePart(oc, scope, partSeed(DEVELOPMENT_SEED, 1000 + k), {
    classes: [cls],
    features: [1, 1],
    skewShare: 0,
    ...extra,
  });
  assert.deepEqual(
    part.features.map((f) => [f.class, f.made]),
    [[cls, true]],
  );
  const analysis = analyseSolid(oc, part.shape);
  assert.equal(part.labels.length, analysis.faces.length, "a label per face");
  const faces = analysis.faces.filter((face) => part.labels[face.id] === cls);
  return { part, analysis, faces };
}

const AXES = [0, 1, 2] as const;
const along = (v: readonly number[] | null, i: number) => v !== null && Math.abs(Math.abs(v[i] as number) - 1) < 1e-6;
const across = (v: readonly number[] | null, i: number) => v !== null && Math.abs(v[i] as number) < 1e-6;
const extent = (face: FaceAnalysis, i: number) => face.bbox.max[i]! - face.bbox.min[i]!;
const close = (a: number, b: number, tolerance = 1e-4) => Math.abs(a - b) <= tolerance;

/** The faces' boxes as one face's box. */
function together(faces: FaceAnalysis[]): FaceAnalysis {
  const min = AXES.map((i) => Math.min(...faces.map((f) => f.bbox.min[i] as number)));
  const max = AXES.map((i) => Math.max(...faces.map((f) => f.bbox.max[i] as number)));
  return {
    ...(faces[0] as FaceAnalysis),
    bbox: { min: min as [number, number, number], max: max as [number, number, number] },
  };
}

/** The block axis every one of `faces` spans from side to side. */
function spannedAxis(part: GeneratedPart, faces: FaceAnalysis[]): number | undefined {
  return AXES.find((i) => faces.every((face) => close(extent(face, i), part.size[i])));
}

describe("labelled part generator", () => {
  it("makes every one of the 24 classes alone with the faces its construction gives, the rest stock on the block's sides", () => {
    for (const cls of FEATURE_CLASSES) {
      withOcctScope((scope) => {
        const { part, analysis, faces } = alone(scope, cls);
        assert.equal(faces.length, FACES_ALONE[cls], `${cls}: ${faces.length} faces`);
        for (const face of analysis.faces) {
          if (part.labels[face.id] === cls) continue;
          assert.equal(part.labels[face.id], "stock", `${cls}: face ${face.id}`);
          const i = AXES.find((axis) => along(face.normal, axis));
          assert.ok(i !== undefined && face.surface === "plane", `${cls}: stock face ${face.id} is a block side`);
          const c = face.centroid[i];
          assert.ok(close(c, 0) || close(c, part.size[i]), `${cls}: stock face ${face.id} on the block's side`);
        }
        assert.ok(isValidSolid(oc, scope, part.shape), `${cls}: BRepCheck_Analyzer`);
      });
    }
  });

  it("labels holes by what they are: a through hole spans the block, a blind hole stops on a flat floor or a 118-degree drill point", () => {
    withOcctScope((scope) => {
      const { part, faces } = alone(scope, "through_hole");
      const [bore] = faces;
      assert.ok(bore && bore.surface === "cylinder" && bore.sense === "concave");
      const i = AXES.find((axis) => along(bore.axis?.direction ?? null, axis)) as number;
      const [lo, hi] = bore.axialRange as [number, number];
      assert.ok(close(hi - lo, part.size[i] as number), `the bore runs ${hi - lo} of ${part.size[i]}`);

      const flat = alone(scope, "blind_hole", 1);
      const cylinder = flat.faces.find((f) => f.surface === "cylinder") as FaceAnalysis;
      const j = AXES.find((axis) => along(cylinder.axis?.direction ?? null, axis)) as number;
      const floor = flat.faces.find((f) => f.surface === "plane");
      assert.ok(floor && along(floor.normal, j), "a flat floor across the axis");
      const depth = (cylinder.axialRange as [number, number])[1] - (cylinder.axialRange as [number, number])[0];
      assert.ok(depth < (flat.part.size[j] as number) - 0.5, "blind: the bore stops inside");

      const drilled = alone(scope, "blind_hole", 2, { skewShare: 1 });
      const point = drilled.faces.find((f) => f.surface === "cone");
      assert.ok(point && point.sense === "concave", "a drill point");
      assert.ok(close(Math.abs(point.semiAngle as number), (59 * Math.PI) / 180, 1e-6), `${point.semiAngle}`);
    });
  });

  it("makes passages and through slots and steps whose every face runs the block through, pockets with one floor", () => {
    withOcctScope((scope) => {
      for (const cls of [
        "triangular_passage",
        "rectangular_passage",
        "6sides_passage",
        "triangular_through_slot",
        "rectangular_through_slot",
        "circular_through_slot",
        "rectangular_through_step",
        "2sides_through_step",
        "slanted_through_step",
      ] as const) {
        const { part, faces } = alone(scope, cls, 3);
        // the bent wall of a 2-sides step runs through in two pieces
        const pieces = cls === "2sides_through_step" ? [together(faces)] : faces;
        assert.ok(spannedAxis(part, pieces) !== undefined, `${cls}: its faces run through the block`);
      }
      for (const cls of ["triangular_pocket", "rectangular_pocket", "6sides_pocket", "circular_end_pocket"] as const) {
        const { part, faces } = alone(scope, cls, 4);
        // the floor: the plane across an axis that every other face stands square on
        const squareOn = (wall: FaceAnalysis, i: number) =>
          wall.surface === "plane" ? across(wall.normal, i) : along(wall.axis?.direction ?? null, i);
        const floor = faces.find((f) => {
          const i = AXES.find((axis) => f.surface === "plane" && along(f.normal, axis));
          return i !== undefined && faces.every((w) => w === f || squareOn(w, i));
        });
        assert.ok(floor, `${cls}: a floor with walls square to it`);
        assert.ok(spannedAxis(part, faces) === undefined, `${cls}: closed all round`);
      }
    });
  });

  it("rounds convex edges with convex blends, bevels them at 45 degrees or, hand-modelled, at other angles", () => {
    withOcctScope((scope) => {
      const { faces } = alone(scope, "round", 5);
      assert.ok(faces.every((f) => f.surface === "cylinder" && f.sense === "convex"));
      let skewed = 0;
      for (let k = 0; k < 6; k++) {
        const bevel = alone(scope, "chamfer", 10 + k, { skewShare: 1 }).faces[0] as FaceAnalysis;
        assert.equal(bevel.surface, "plane");
        const n = (bevel.normal as number[]).map(Math.abs).sort((a, b) => b - a);
        assert.ok(n[0]! < 1 - 1e-6, "off the block's axes");
        if (!close(n[0]!, n[1]!, 1e-3)) skewed++;
      }
      assert.ok(skewed > 0, "some bevels are not at 45 degrees");
      const square = alone(scope, "chamfer", 20).faces[0] as FaceAnalysis;
      const n = (square.normal as number[]).map(Math.abs).sort((a, b) => b - a);
      assert.ok(close(n[0]!, Math.SQRT1_2, 1e-6) && close(n[1]!, Math.SQRT1_2, 1e-6), `45 degrees: ${n}`);
    });
  });

  it("gives the same part for the same seed and another for another seed", () => {
    withOcctScope((scope) => {
      const a = generatePart(oc, scope, partSeed(DEVELOPMENT_SEED, 7));
      const b = generatePart(oc, scope, partSeed(DEVELOPMENT_SEED, 7));
      const c = generatePart(oc, scope, partSeed(DEVELOPMENT_SEED, 8));
      assert.deepEqual(a.labels, b.labels);
      assert.deepEqual(a.features, b.features);
      const va = analyseSolid(oc, a.shape).volume as number;
      assert.ok(close(va, analyseSolid(oc, b.shape).volume as number, 1e-6));
      assert.notDeepEqual([a.size, a.labels], [c.size, c.labels]);
    });
  });

  it("makes valid solids of 1 to 10 intersecting features on every side, every face labelled with one of the classes", () => {
    const sides = new Set<string>();
    const classes = new Set<string>();
    withOcctScope((scope) => {
      for (let i = 0; i < 6; i++) {
        const part = generatePart(oc, scope, partSeed(DEVELOPMENT_SEED, i));
        assert.ok(isValidSolid(oc, scope, part.shape), `part ${i}`);
        const analysis = analyseSolid(oc, part.shape);
        assert.equal(part.labels.length, analysis.faces.length);
        for (const face of analysis.faces) {
          const label = part.labels[face.id] as string;
          assert.ok(FACE_CLASSES.includes(label as never) && label !== "other");
          classes.add(label);
          if (label !== "stock" && face.normal !== null)
            for (const axis of AXES) if (along(face.normal, axis)) sides.add(`${axis}${Math.sign(face.normal[axis])}`);
        }
      }
    });
    assert.ok(classes.size >= 8, `${classes.size} classes in 6 parts`);
    assert.ok(sides.size >= 4, `feature faces face ${sides.size} of the block's 6 directions`);
  });

  it("keeps face ids through the BREP round trip the scorer reads, and scores every face", () => {
    withOcctScope((scope) => {
      const part = generatePart(oc, scope, partSeed(DEVELOPMENT_SEED, 3));
      const made = analyseSolid(oc, part.shape);
      const read = recogniseFile(oc, writeBrep(oc, part.shape), { setups: false }).analysis;
      assert.equal(read.faces.length, made.faces.length);
      read.faces.forEach((face, id) => {
        const original = made.faces[id] as FaceAnalysis;
        assert.equal(face.surface, original.surface);
        assert.ok(
          AXES.every((i) => close(face.centroid[i], original.centroid[i], 1e-6)),
          `face ${id}`,
        );
      });
    });
    const scored = scoreGeneratedParts(oc, DEVELOPMENT_SEED, 2);
    assert.deepEqual(scored.failures, []);
    assert.equal(
      scored.score.faces,
      scored.parts.reduce((sum, p) => sum + p.faces, 0),
    );
    const confusionTotal = Object.values(scored.score.confusion)
      .flatMap((row) => Object.values(row))
      .reduce((a, b) => a + b, 0);
    assert.equal(confusionTotal, scored.score.faces);
    assert.equal(
      scored.score.correct,
      scored.parts.reduce((sum, p) => sum + p.faces - p.wrong, 0),
    );
  });
});
