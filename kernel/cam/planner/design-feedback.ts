/**
 * The design feedback of the part being planned (kernel/dfm): the part as the planner read it,
 * the library's cutters as the rules see them, and the material's class. Kept with the plan, so
 * a re-plan (a new job) gives new feedback.
 */
import { designFeedback } from "../../dfm/design-feedback.ts";
import type { DesignFeedbackItem, DfmTool } from "../../dfm/types.ts";
import { findMaterial } from "../../materials/materials.ts";
import type { Cutter } from "../types.ts";
import type { PlannedPart } from "./read-part.ts";

export function dfmTools(cutters: readonly Cutter[]): DfmTool[] {
  return cutters.map((cutter) => ({
    kind: cutter.kind === "flat" || cutter.kind === "bull" ? "end_mill" : cutter.kind === "tap" ? "tap" : "other",
    diameter_mm: cutter.diameter,
    reach_mm: Math.max(cutter.flute_length, cutter.neck_length),
    pitch_mm: cutter.pitch_mm,
  }));
}

export function partDesignFeedback(
  part: Pick<PlannedPart, "analysis" | "recognition" | "setups" | "soup" | "vertexFaces">,
  materialId: string,
  cutters: readonly Cutter[],
): DesignFeedbackItem[] {
  return designFeedback({
    analysis: part.analysis,
    recognition: part.recognition,
    setups: part.setups,
    mesh: { positions: part.soup.positions, indices: part.soup.indices, faceIds: part.vertexFaces },
    material: findMaterial(materialId)?.category ?? null,
    tools: dfmTools(cutters),
  });
}
