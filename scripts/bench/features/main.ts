/**
 * `npm run bench:features`: feature recognition on the MFCAD sample of ../shared/fixtures/mfcad
 * in one process with one OCCT instance. Per model: read and face analysis, recognition, and
 * (unless BENCH_FEATURES_SETUPS=0) meshing and the setup plan, each timed; then per-face
 * accuracy against the labels (read in MFCAD's own class order: kernel/features/recognition/
 * scoring.ts says why), per-class precision and recall, the confusion matrix, time per model
 * and the aims. Progress on stderr, tables on stdout, figures to BENCH_FEATURES_OUT (the
 * system's temp directory by default, never the repository). Exit 0 when every model was
 * recognised (aims met or not), 1 when one failed.
 */
import fs from "node:fs";
import path from "node:path";
import { loadOpenCascade } from "../../../kernel/geometry/opencascade.ts";
import { mfcadClassOf, Scorer } from "../../../kernel/features/recognition/scoring.ts";
import { recogniseFile } from "../../../kernel/features/setups/recognise-file.ts";
import { describeMachine } from "../cpu.ts";
import { writeJson } from "../report.ts";
import { round } from "../stats.ts";
import {
  checkAims,
  formatAims,
  formatConfusion,
  formatScore,
  formatTimes,
  timeFigures,
  type StageTimes,
} from "./report.ts";
import { HELD_BACK_SEED, runGeneratedSection } from "./generated.ts";
import { readFeaturesSettings } from "./settings.ts";

function say(line: string): void {
  process.stderr.write(`[bench:features] ${line}\n`);
}

interface Labels {
  faces: { step_entity: number; class: string }[];
}

export async function main(): Promise<number> {
  const settings = readFeaturesSettings();
  const started = performance.now();
  const oc = await loadOpenCascade();
  const occtMs = performance.now() - started;
  say(`OCCT loaded in ${Math.round(occtMs)} ms`);
  const mfcad = settings.mfcad ? mfcadSection(oc, settings, occtMs) : null;
  let generated: ReturnType<typeof runGeneratedSection> | null = null;
  if (settings.generatedParts > 0) {
    generated = runGeneratedSection(oc, settings.generatedParts, say, settings.generatedMaxSeconds);
    process.stdout.write(`${generated.text}\n`);
  }
  writeJson(settings.out, {
    at: new Date().toISOString(),
    machine: describeMachine(),
    settings,
    occtMs,
    ...(mfcad?.json ?? {}),
    ...(generated === null
      ? {}
      : {
          generated: {
            seed: HELD_BACK_SEED,
            score: generated.result.score,
            aims: generated.aims,
            parts: generated.result.parts,
            failures: generated.result.failures,
          },
        }),
  });
  say(`figures written to ${settings.out}`);
  return (mfcad?.failures ?? 0) > 0 || (generated?.result.failures.length ?? 0) > 0 ? 1 : 0;
}

function mfcadSection(
  oc: Awaited<ReturnType<typeof loadOpenCascade>>,
  settings: ReturnType<typeof readFeaturesSettings>,
  occtMs: number,
): { json: Record<string, unknown>; failures: number } {
  const manifest = JSON.parse(fs.readFileSync(path.join(settings.mfcadDir, "manifest.json"), "utf8")) as {
    classes: string[];
  };
  let models = fs
    .readdirSync(path.join(settings.mfcadDir, "step"))
    .filter((name) => name.endsWith(".step"))
    .map((name) => name.slice(0, -5))
    .sort();
  if (settings.models !== null) models = models.slice(0, settings.models);
  say(`${models.length} models from ${settings.mfcadDir}; setups ${settings.setups ? "on" : "off"}`);

  const options = { budgetMs: 30_000, ...(settings.setups ? {} : { setups: false as const }) };
  // warm-up: the first read of a STEP file pays for OCCT's lazy initialisation
  const first = models[0];
  if (first !== undefined)
    recogniseFile(oc, new Uint8Array(fs.readFileSync(path.join(settings.mfcadDir, "step", `${first}.step`))), options);

  const scorer = new Scorer();
  const asNamed = new Scorer();
  const times: (StageTimes & { model: string; faces: number; features: number; plannedSetups: number | null })[] = [];
  const failures: { model: string; error: string }[] = [];
  for (const [i, model] of models.entries()) {
    const bytes = new Uint8Array(fs.readFileSync(path.join(settings.mfcadDir, "step", `${model}.step`)));
    const labels = JSON.parse(
      fs.readFileSync(path.join(settings.mfcadDir, "labels", `${model}.json`), "utf8"),
    ) as Labels;
    try {
      const t0 = performance.now();
      const file = recogniseFile(oc, bytes, options);
      const total = performance.now() - t0;
      const truth = new Map(labels.faces.map((face) => [face.step_entity, face.class]));
      file.analysis.faces.forEach((face, id) => {
        const label = truth.get(face.stepEntity as number) ?? "(no label)";
        const predicted = file.recognition.faceClasses[id] as string;
        scorer.add(label === "(no label)" ? label : mfcadClassOf(label, manifest.classes), predicted);
        asNamed.add(label, predicted);
      });
      times.push({
        model,
        faces: file.analysis.faces.length,
        features: file.recognition.features.length,
        plannedSetups: file.setups?.setups.length ?? null,
        analysis: file.timings.analysis ?? 0,
        recognition: file.timings.recognition ?? 0,
        setups: (file.timings.tessellation ?? 0) + (file.timings.setups ?? 0),
        total,
      });
    } catch (error) {
      failures.push({ model, error: error instanceof Error ? error.message : String(error) });
      say(`${model}: ${error instanceof Error ? error.message : String(error)}`);
    }
    if ((i + 1) % 20 === 0) say(`${i + 1} of ${models.length}`);
  }
  const score = scorer.score();
  const named = asNamed.score();
  const figures = timeFigures(times);
  const aims = checkAims(score, figures);
  const machine = describeMachine();

  const out: string[] = [];
  out.push(
    `Feature recognition on ${models.length} MFCAD models (${score.faces} faces), ${machine.cores} cores, ${machine.cpu ?? "unknown CPU"}, Node ${machine.node}`,
  );
  out.push(`OCCT loaded once in ${Math.round(occtMs)} ms (not counted below)\n`);
  out.push(formatScore(score));
  out.push(
    `\n  Labels are read in MFCAD's class order (kernel/features/recognition/scoring.ts). Read by the names the fixture files give them, the same answers score ${round(named.accuracy * 100, 2)} %: those names are permuted.\n`,
  );
  out.push("Confusion matrix (rows: label, columns: recognised, numbered as the rows):\n");
  out.push(formatConfusion(score));
  out.push("\nTime per model:\n");
  out.push(formatTimes(figures));
  out.push("\nAims:\n");
  out.push(formatAims(aims));
  if (failures.length > 0)
    out.push(`\n${failures.length} models failed: ${failures.map((f) => `${f.model} (${f.error})`).join("; ")}`);
  process.stdout.write(`${out.join("\n")}\n`);

  return {
    failures: failures.length,
    json: {
      score,
      scoreByFixtureNames: { accuracy: named.accuracy },
      times: figures,
      aims,
      models: times,
      failures,
    },
  };
}
