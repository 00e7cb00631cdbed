/**
 * The recogniser on generated parts: each part is written as OCCT BREP and read back through
 * `recogniseFile` (the entry point the MFCAD test uses), and every face's recognised class is
 * scored against its label by construction: per-class precision and recall, overall per-face
 * accuracy, the confusion matrix (scoring.ts), and time per part.
 */
import type { OpenCascadeInstance } from "opencascade.js/dist/node.js";
import { writeBrep } from "../../geometry/brep.ts";
import { withOcctScope } from "../../geometry/occt-scope.ts";
import { recogniseFile } from "../setups/recognise-file.ts";
import { type Score, Scorer } from "../recognition/scoring.ts";
import { partSeed } from "./draw.ts";
import { type GenerationOptions, generatePart } from "./generate.ts";

export interface PartResult {
  index: number;
  seed: number;
  faces: number;
  /** faces whose recognised class is not their label */
  wrong: number;
  generateMs: number;
  /** BREP round trip, face analysis and recognition */
  recogniseMs: number;
}

export interface GeneratedScore {
  score: Score;
  parts: PartResult[];
  failures: { index: number; seed: number; error: string }[];
}

/**
 * Parts 0 .. count-1 of the set `setSeed`, generated, recognised and scored; with `stopAfterMs`,
 * no part is started after that much time (a slow machine scores the first parts only).
 */
export function scoreGeneratedParts(
  oc: OpenCascadeInstance,
  setSeed: number,
  count: number,
  options: GenerationOptions = {},
  progress?: (done: number, soFar: Scorer) => void,
  stopAfterMs = Number.POSITIVE_INFINITY,
): GeneratedScore {
  const started = performance.now();
  const scorer = new Scorer();
  const parts: PartResult[] = [];
  const failures: GeneratedScore["failures"] = [];
  for (let index = 0; index < count && performance.now() - started < stopAfterMs; index++) {
    const seed = partSeed(setSeed, index);
    try {
      parts.push(
        withOcctScope((scope) => {
          const t0 = performance.now();
          const part = generatePart(oc, scope, seed, options);
          const t1 = performance.now();
          const file = recogniseFile(oc, writeBrep(oc, part.shape), { budgetMs: 60_000, setups: false });
          const t2 = performance.now();
          if (file.analysis.faces.length !== part.labels.length)
            throw new Error(`${file.analysis.faces.length} faces read back, ${part.labels.length} labelled`);
          let wrong = 0;
          part.labels.forEach((label, id) => {
            const predicted = file.recognition.faceClasses[id] as string;
            scorer.add(label, predicted);
            if (predicted !== label) wrong++;
          });
          return { index, seed, faces: part.labels.length, wrong, generateMs: t1 - t0, recogniseMs: t2 - t1 };
        }),
      );
    } catch (error) {
      failures.push({ index, seed, error: error instanceof Error ? error.message : String(error) });
    }
    progress?.(index + 1, scorer);
  }
  return { score: scorer.score(), parts, failures };
}
