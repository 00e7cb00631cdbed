/** The NIST parts' design feedback as the planner finds it, without planning: for the tests. */
import { dfmTools } from "../cam/planner/design-feedback.ts";
import { cuttersFromLibrary } from "../cam/tooling/cutter.ts";
import { recogniseFile, type RecognisedFile } from "../features/setups/recognise-file.ts";
import { fixture } from "../geometry/test-support.ts";
import type { OpenCascadeInstance } from "../geometry/opencascade.ts";
import { starterLibrary } from "../tools/catalogue/starter-library.ts";
import { designFeedback } from "./design-feedback.ts";
import type { DesignFeedbackItem } from "./types.ts";

export interface PartFeedback {
  file: RecognisedFile;
  items: DesignFeedbackItem[];
}

/** a fixture part read as the features CLI reads it, in aluminium, with the starter library's tools */
export function fixtureFeedback(oc: OpenCascadeInstance, name: string): PartFeedback {
  const file = recogniseFile(oc, fixture(name), { budgetMs: 120_000 });
  if (file.mesh === null || file.setups === null) throw new Error(`${name}: ${JSON.stringify(file.warnings)}`);
  const items = designFeedback({
    analysis: file.analysis,
    recognition: file.recognition,
    setups: file.setups,
    mesh: file.mesh,
    material: "aluminium",
    tools: dfmTools(cuttersFromLibrary(starterLibrary()).cutters),
  });
  return { file, items };
}

/** [kind, feature, faces, measured, limit] per item: what the tests compare */
export const summary = (items: readonly DesignFeedbackItem[]) =>
  items.map((i) => [i.kind, i.feature, i.faces, i.measured?.value ?? null, i.limit?.value ?? null]);
