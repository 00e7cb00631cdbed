/**
 * MFCAD++-style labelled parts (Colligan et al. 2022, "Hierarchical CADNet"): a block of random
 * size with one to ten features drawn from the 24 classes, each on a random face of the block at
 * a random place, size and (for closed profiles) orientation, free to cut into one another; then
 * the rounds and edge chamfers drawn, on convex edges of the cut part. About a third of the
 * features are made as a hand modeller might (`skew`): off the block's axes, bevels of other
 * angles than 45 degrees, blind holes with a 118-degree drill point instead of a flat floor.
 * Every face's class comes from construction (labelled-solid.ts). A seed fixes the part.
 */
import type { OpenCascadeInstance, TopoDS_Shape } from "opencascade.js/dist/node.js";
import type { OcctScope } from "../../geometry/occt-scope.ts";
import { makeBox } from "../test-support.ts";
import { FEATURE_CLASSES, type FaceClass, type FeatureClass } from "../recognition/types.ts";
import { TOOL_MAKERS } from "./catalogue.ts";
import { DoesNotFit } from "./context.ts";
import { Draw } from "./draw.ts";
import { chamferAnEdge, roundAnEdge } from "./edges.ts";
import { blockFrames, turned } from "./frame.ts";
import { LabelledSolid } from "./labelled-solid.ts";

/** The seed the recogniser is developed on; the benchmark's held-back seed is another (scripts/bench/features/generated.ts). */
export const DEVELOPMENT_SEED = 41;

export interface GenerationOptions {
  /** draw only these classes (tests); all 24 by default */
  classes?: readonly FeatureClass[];
  /** features per part, [min, max]; default [1, 10] */
  features?: readonly [number, number];
  /** share of features made the hand-modelled way; default 0.3 */
  skewShare?: number;
  /** block sides in mm, [min, max]; default [20, 50] */
  blockSize?: readonly [number, number];
}

export interface PlacedFeature {
  class: FeatureClass;
  skew: boolean;
  /** false when no place was found where the cut gave a valid part (the part has no such feature) */
  made: boolean;
}

export interface GeneratedPart {
  seed: number;
  size: [number, number, number];
  /** owned by the scope it was made in */
  shape: TopoDS_Shape;
  /** per face id (TopExp_Explorer order): its class by construction */
  labels: FaceClass[];
  features: PlacedFeature[];
}

/** Places tried per feature before it is left out. */
const ATTEMPTS = 4;
const EDGE_FEATURE = (cls: FeatureClass, draw: Draw) => cls === "round" || (cls === "chamfer" && draw.chance(0.5));

/**
 * The part of `seed`. The validity check (BRepCheck_Analyzer) runs once on the finished part; if
 * it fails, the part is made again checking every step, which refuses the cut that broke it.
 */
export function generatePart(
  oc: OpenCascadeInstance,
  scope: OcctScope,
  seed: number,
  options: GenerationOptions = {},
): GeneratedPart {
  const fast = makePart(oc, scope, seed, options, false);
  return fast.valid ? fast.part : makePart(oc, scope, seed, options, true).part;
}

function makePart(
  oc: OpenCascadeInstance,
  scope: OcctScope,
  seed: number,
  options: GenerationOptions,
  checkEachStep: boolean,
): { part: GeneratedPart; valid: boolean } {
  const draw = new Draw(seed);
  const [lo, hi] = options.blockSize ?? [20, 50];
  const size: [number, number, number] = [draw.uniform(lo, hi), draw.uniform(lo, hi), draw.uniform(lo, hi)];
  const solid = new LabelledSolid(oc, scope, makeBox(oc, scope, size), "stock", checkEachStep);
  const classes = options.classes ?? FEATURE_CLASSES;
  const [fewest, most] = options.features ?? [1, 10];
  const count = draw.int(fewest, most);
  const drawn = Array.from({ length: count }, () => ({
    class: draw.pick(classes),
    skew: draw.chance(options.skewShare ?? 0.3),
  }));
  const onEdges = drawn.map((feature) => EDGE_FEATURE(feature.class, draw));
  const frames = blockFrames(size);
  const scale = Math.min(...size);

  const features: PlacedFeature[] = [];
  drawn.forEach((feature, i) => {
    if (onEdges[i]) return;
    const maker = TOOL_MAKERS[feature.class as Exclude<FeatureClass, "round">];
    let made = false;
    for (let attempt = 0; attempt < ATTEMPTS && !made; attempt++) {
      const frame = turned(draw.pick(frames), draw.int(0, 3));
      let tool: TopoDS_Shape;
      try {
        tool = maker({ oc, scope, frame, draw, skew: feature.skew });
      } catch (error) {
        if (error instanceof DoesNotFit || typeof error === "number") continue;
        throw error;
      }
      made = solid.cut(tool, feature.class);
    }
    features.push({ ...feature, made });
  });
  drawn.forEach((feature, i) => {
    if (!onEdges[i]) return;
    const made =
      feature.class === "round"
        ? roundAnEdge(oc, scope, solid, draw, scale)
        : chamferAnEdge(oc, scope, solid, draw, scale, feature.skew);
    features.push({ ...feature, made });
  });
  return {
    part: { seed, size, shape: solid.shape, labels: [...solid.labels], features },
    valid: checkEachStep || solid.isValid(),
  };
}
