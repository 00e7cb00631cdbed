/** The aims of `npm run bench:features`, its tables and its confusion matrix. */
import type { Score } from "../../../kernel/features/recognition/scoring.ts";
import { table } from "../report.ts";
import { percentile, round } from "../stats.ts";

export const FEATURES_AIM = {
  /** per-face accuracy on the MFCAD sample */
  minAccuracy: 0.99,
  /** per model, file to features and setups, p95 */
  maxSecondsPerModel: 0.5,
} as const;

export interface StageTimes {
  /** STEP read and face analysis */
  analysis: number;
  recognition: number;
  /** tessellation and the setup plan (0 when not planned) */
  setups: number;
  total: number;
}

export function formatScore(score: Score): string {
  const rows: (string | number)[][] = [["class", "faces", "predicted", "right", "precision %", "recall %"]];
  for (const cls of score.classes) {
    rows.push([
      cls.class,
      cls.support,
      cls.predicted,
      cls.correct,
      cls.precision === null ? "-" : round(cls.precision * 100, 2),
      cls.recall === null ? "-" : round(cls.recall * 100, 2),
    ]);
  }
  return `Per-face accuracy: ${round(score.accuracy * 100, 2)} % (${score.correct} of ${score.faces} faces)\n\n${table(rows)}`;
}

/** Rows: the label's class; columns: the recognised one, by number (the key below the table). */
export function formatConfusion(score: Score): string {
  const names = score.classes.map((c) => c.class);
  const rows: (string | number)[][] = [["label \\ recognised", ...names.map((_, i) => `${i + 1}`)]];
  names.forEach((truth, i) => {
    const row = score.confusion[truth] ?? {};
    if (Object.keys(row).length === 0) return;
    rows.push([`${i + 1} ${truth}`, ...names.map((predicted) => (row[predicted] ? row[predicted]! : "."))]);
  });
  const off = Object.entries(score.confusion).flatMap(([truth, row]) =>
    Object.entries(row)
      .filter(([p]) => p !== truth)
      .map(([p, n]) => `${truth} -> ${p}: ${n}`),
  );
  return `${table(rows)}\n\n  off the diagonal: ${off.length === 0 ? "none" : off.join("; ")}`;
}

export function timeFigures(times: StageTimes[]) {
  const stage = (key: keyof StageTimes) => {
    const ms = times.map((t) => t[key]);
    return {
      p50Ms: round(percentile(ms, 50), 1),
      p95Ms: round(percentile(ms, 95), 1),
      maxMs: round(Math.max(...ms), 1),
      meanMs: round(ms.reduce((a, b) => a + b, 0) / ms.length, 1),
    };
  };
  return {
    analysis: stage("analysis"),
    recognition: stage("recognition"),
    setups: stage("setups"),
    total: stage("total"),
  };
}

export function formatTimes(figures: ReturnType<typeof timeFigures>): string {
  const rows: (string | number)[][] = [["stage", "p50 ms", "p95 ms", "max ms", "mean ms"]];
  const labels: Record<keyof typeof figures, string> = {
    analysis: "read + face analysis",
    recognition: "feature recognition",
    setups: "mesh + setup plan",
    total: "total per model",
  };
  for (const key of Object.keys(labels) as (keyof typeof figures)[]) {
    const f = figures[key];
    rows.push([labels[key], f.p50Ms, f.p95Ms, f.maxMs, f.meanMs]);
  }
  return table(rows);
}

export interface AimCheck {
  aim: string;
  measured: string;
  met: boolean;
}

export function checkAims(score: Score, figures: ReturnType<typeof timeFigures>): AimCheck[] {
  return [
    {
      aim: `per-face accuracy above ${FEATURES_AIM.minAccuracy * 100} %`,
      measured: `${round(score.accuracy * 100, 2)} %`,
      met: score.accuracy > FEATURES_AIM.minAccuracy,
    },
    {
      aim: `under ${FEATURES_AIM.maxSecondsPerModel} s per model (p95, file to features and setups)`,
      measured: `${round(figures.total.p95Ms / 1000, 3)} s`,
      met: figures.total.p95Ms < FEATURES_AIM.maxSecondsPerModel * 1000,
    },
  ];
}

export function formatAims(checks: AimCheck[]): string {
  return checks.map((c) => `  ${c.met ? "met" : "NOT met"}: ${c.aim} (${c.measured})`).join("\n");
}
