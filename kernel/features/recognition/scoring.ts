/**
 * Scoring per-face classes against labelled parts (the MFCAD fixtures): the confusion matrix,
 * per-class precision and recall, and the translation of MFCAD's label indices into class names.
 *
 * MFCAD's labels are class indices. The dataset's feature order is the MFCAD++ order without its
 * round (curved) classes: chamfer, triangular_passage, rectangular_passage, 6sides_passage,
 * triangular_through_slot, rectangular_through_slot, rectangular_through_step,
 * 2sides_through_step, slanted_through_step, triangular_pocket, rectangular_pocket, 6sides_pocket,
 * rectangular_blind_slot, triangular_blind_step, rectangular_blind_step, stock. Three things
 * agree on it: each model's file name lists its features' indices (0-0-1-13-19: two chamfers, a
 * triangular passage, a triangular blind step), the geometry of the labelled faces (index 0 is
 * always a lone bevel face, index 4 always two walls in a V running through the part), and the
 * MFCAD++ generator's list. The fixtures' labels/*.json and manifest.json name the indices by a
 * different list (manifest.json's "classes"), so their names are not the classes: the face a
 * label file calls "rectangular_through_slot" (index 0) is a chamfer. `mfcadClassOf` maps a
 * label through its index in the manifest's list to MFCAD's order, which stays right if the
 * fixtures are corrected (the manifest then lists MFCAD's order and the map is the identity).
 */
import type { FaceClass } from "./types.ts";

export const MFCAD_CLASS_ORDER = [
  "chamfer",
  "triangular_passage",
  "rectangular_passage",
  "6sides_passage",
  "triangular_through_slot",
  "rectangular_through_slot",
  "rectangular_through_step",
  "2sides_through_step",
  "slanted_through_step",
  "triangular_pocket",
  "rectangular_pocket",
  "6sides_pocket",
  "rectangular_blind_slot",
  "triangular_blind_step",
  "rectangular_blind_step",
  "stock",
] as const satisfies readonly FaceClass[];

/** The class a fixture label stands for: its index in the manifest's class list, read in MFCAD's order. */
export function mfcadClassOf(label: string, manifestClasses: readonly string[]): FaceClass {
  const at = manifestClasses.indexOf(label);
  const cls = MFCAD_CLASS_ORDER[at];
  if (at < 0 || cls === undefined) throw new Error(`the label ${label} is not in the manifest's class list`);
  return cls;
}

export interface ClassScore {
  class: string;
  /** faces labelled with the class */
  support: number;
  /** faces predicted as the class */
  predicted: number;
  correct: number;
  precision: number | null;
  recall: number | null;
}

export interface Score {
  faces: number;
  correct: number;
  accuracy: number;
  /** confusion[truth][predicted] = faces */
  confusion: Record<string, Record<string, number>>;
  classes: ClassScore[];
}

export class Scorer {
  readonly confusion: Record<string, Record<string, number>> = {};

  add(truth: string, predicted: string): void {
    const row = this.confusion[truth] ?? {};
    this.confusion[truth] = row;
    row[predicted] = (row[predicted] ?? 0) + 1;
  }

  score(): Score {
    let faces = 0,
      correct = 0;
    const names = new Set<string>();
    for (const [truth, row] of Object.entries(this.confusion)) {
      names.add(truth);
      for (const [predicted, count] of Object.entries(row)) {
        names.add(predicted);
        faces += count;
        if (truth === predicted) correct += count;
      }
    }
    const classes = [...names].sort().map((name): ClassScore => {
      const support = Object.values(this.confusion[name] ?? {}).reduce((a, b) => a + b, 0);
      const predicted = Object.values(this.confusion).reduce((sum, row) => sum + (row[name] ?? 0), 0);
      const hit = this.confusion[name]?.[name] ?? 0;
      return {
        class: name,
        support,
        predicted,
        correct: hit,
        precision: predicted > 0 ? hit / predicted : null,
        recall: support > 0 ? hit / support : null,
      };
    });
    return { faces, correct, accuracy: faces > 0 ? correct / faces : 0, confusion: this.confusion, classes };
  }
}
