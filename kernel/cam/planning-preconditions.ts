/**
 * What a project needs before its CAM planning can start. The API checks it before it queues a
 * planning (409 with the code), and the planning task checks it again when it runs, since the
 * project may have changed in between (the task fails with the code): one answer for both. The
 * planner refuses an empty library with the same answer (plan.ts), for callers that skip both.
 */

/** What the check reads of a project. */
export interface PlanningFacts {
  hasWorkpiece: boolean;
  hasStock: boolean;
  materialId: string | null;
  libraryId: string | null;
  /** assemblies in the project's library; 0 when it has none */
  assemblies: number;
}

export type PlanningPreconditionCode =
  | "workpiece_missing"
  | "stock_missing"
  | "material_missing"
  | "library_missing"
  | "empty_library";

export interface UnmetPrecondition {
  code: PlanningPreconditionCode;
  message: string;
}

export const EMPTY_LIBRARY: UnmetPrecondition = {
  code: "empty_library",
  message: "the project's equipment library has no tools; add assemblies to it before planning",
};

/** The first thing the project lacks, in the order a user sets them up; null when it has all. */
export function unmetPlanningPrecondition(facts: PlanningFacts): UnmetPrecondition | null {
  if (!facts.hasWorkpiece)
    return { code: "workpiece_missing", message: "the project has no workpiece yet; upload one before planning" };
  if (!facts.hasStock)
    return {
      code: "stock_missing",
      message: "the project has no stock yet; set it with POST /projects/{project_id}/stock/bounding-box",
    };
  if (!facts.materialId)
    return {
      code: "material_missing",
      message: "the project has no material; set material_id (PATCH /projects/{project_id})",
    };
  if (!facts.libraryId)
    return {
      code: "library_missing",
      message: "the project has no equipment library; set library_id (PATCH /projects/{project_id})",
    };
  if (facts.assemblies === 0) return EMPTY_LIBRARY;
  return null;
}
