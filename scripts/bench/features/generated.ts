/**
 * The generated section of `npm run bench:features`: the recogniser on parts of the labelled-part
 * generator (kernel/features/generator/) made from the held-back seed, never used
 * while developing the recogniser (that is DEVELOPMENT_SEED, in the tests). Per-class precision
 * and recall, per-face accuracy, the confusion matrix and time per part, against issue 41's aims.
 */
import type { OpenCascadeInstance } from "opencascade.js/dist/node.js";
import { type GeneratedScore, scoreGeneratedParts } from "../../../kernel/features/generator/score.ts";
import type { Score } from "../../../kernel/features/recognition/scoring.ts";
import { table } from "../report.ts";
import { percentile, round } from "../stats.ts";
import { type AimCheck, formatAims, formatConfusion, formatScore } from "./report.ts";

/** Held back from development: score on it, never tune on it. */
export const HELD_BACK_SEED = 2_026_112_941;

export const GENERATED_AIM = {
  /** per-face accuracy over all generated parts */
  minAccuracy: 0.97,
  /** recall of every class */
  minClassRecall: 0.9,
} as const;

export function runGeneratedSection(
  oc: OpenCascadeInstance,
  count: number,
  say: (line: string) => void,
  maxSeconds: number | null = null,
): { text: string; result: GeneratedScore; aims: AimCheck[] } {
  say(`${count} generated parts from the held-back seed ${HELD_BACK_SEED}`);
  const result = scoreGeneratedParts(
    oc,
    HELD_BACK_SEED,
    count,
    {},
    (done, soFar) => {
      if (done % 25 === 0) {
        const { accuracy, faces } = soFar.score();
        say(`generated ${done} of ${count}: ${round(accuracy * 100, 2)} % of ${faces} faces so far`);
      }
    },
    maxSeconds === null ? undefined : maxSeconds * 1000,
  );
  const aims = checkGeneratedAims(result.score);
  const out: string[] = [];
  const tried = result.parts.length + result.failures.length;
  if (tried < count)
    out.push(`\nStopped after ${tried} of ${count} parts: BENCH_FEATURES_GENERATED_MAX_S (${maxSeconds} s) ran out.`);
  out.push(
    `\nFeature recognition on ${result.parts.length} generated parts (held-back seed ${HELD_BACK_SEED}, ${result.score.faces} faces, labels by construction)\n`,
  );
  out.push(formatScore(result.score));
  out.push("\nConfusion matrix (rows: label, columns: recognised, numbered as the rows):\n");
  out.push(formatConfusion(result.score));
  out.push("\nTime per part:\n");
  out.push(formatPartTimes(result));
  out.push("\nAims (issue 41):\n");
  out.push(formatAims(aims));
  if (result.failures.length > 0)
    out.push(
      `\n${result.failures.length} parts failed: ${result.failures.map((f) => `${f.index} (${f.error})`).join("; ")}`,
    );
  return { text: out.join("\n"), result, aims };
}

function formatPartTimes(result: GeneratedScore): string {
  const rows: (string | number)[][] = [["stage", "p50 ms", "p95 ms", "max ms", "mean ms"]];
  const stage = (label: string, ms: number[]) => {
    if (ms.length === 0) return;
    rows.push([
      label,
      round(percentile(ms, 50), 1),
      round(percentile(ms, 95), 1),
      round(Math.max(...ms), 1),
      round(ms.reduce((a, b) => a + b, 0) / ms.length, 1),
    ]);
  };
  stage(
    "generate (OCCT)",
    result.parts.map((p) => p.generateMs),
  );
  stage(
    "BREP round trip + analysis + recognition",
    result.parts.map((p) => p.recogniseMs),
  );
  const faces = result.parts.map((p) => p.faces);
  return `${table(rows)}\n\n  faces per part: p50 ${percentile(faces, 50)}, max ${Math.max(...faces, 0)}`;
}

export function checkGeneratedAims(score: Score): AimCheck[] {
  const weakest = score.classes.filter((c) => c.support > 0).sort((p, q) => (p.recall ?? 0) - (q.recall ?? 0))[0];
  const below = score.classes.filter((c) => c.support > 0 && (c.recall ?? 0) < GENERATED_AIM.minClassRecall);
  return [
    {
      aim: `per-face accuracy at least ${GENERATED_AIM.minAccuracy * 100} % on generated parts`,
      measured: `${round(score.accuracy * 100, 2)} %`,
      met: score.accuracy >= GENERATED_AIM.minAccuracy,
    },
    {
      aim: `every class's recall at least ${GENERATED_AIM.minClassRecall * 100} %`,
      measured:
        weakest === undefined
          ? "no classes"
          : `lowest ${weakest.class} ${round((weakest.recall ?? 0) * 100, 2)} %; ${below.length} classes below`,
      met: below.length === 0,
    },
  ];
}
