/**
 * A fixture part as bench:cam and bench:post plan it: the workpiece as the planning task gets it
 * (a B-rep for a STEP file, an STL as it is), stock `stockMm` around the part's box and over its
 * top (and `belowMm` under its bottom), face milling on, no sorting by height.
 */
import type { PlanInput } from "../../kernel/cam/plan-types.ts";
import type { Box3 } from "../../kernel/cam/types.ts";
import type { Assembly } from "../../kernel/tools/assembly.ts";
import { writeBrep } from "../../kernel/geometry/brep.ts";
import { detectFormat } from "../../kernel/geometry/detect-format.ts";
import { withOcctScope } from "../../kernel/geometry/occt-scope.ts";
import type { OpenCascadeInstance } from "../../kernel/geometry/opencascade.ts";
import { readStep } from "../../kernel/geometry/step.ts";
import type { MachineArchetype } from "../../kernel/machines/archetypes.ts";

export const BENCH_PLAN_OPTIONS = { include_face_milling: true, sort_by_height: false };

export interface BenchPlanSettings {
  stockMm: number;
  /** stock below the part's box (mm); 0 when absent */
  belowMm?: number;
  machine: MachineArchetype;
  material: string;
  library: Assembly[];
}

/** `box`: the part's bounding box, as reading it found it (recogniseFile). */
export function benchPlanInput(
  oc: OpenCascadeInstance,
  original: Uint8Array,
  box: Box3,
  settings: BenchPlanSettings,
): PlanInput {
  const stl = detectFormat(original).startsWith("stl");
  const s = settings.stockMm;
  const stock: Box3 = {
    min: [box.min[0] - s, box.min[1] - s, box.min[2] - (settings.belowMm ?? 0)],
    max: [box.max[0] + s, box.max[1] + s, box.max[2] + s],
  };
  const bytes = stl ? original : withOcctScope((scope) => writeBrep(oc, readStep(oc, original, scope).solid));
  return {
    workpiece: { format: stl ? "stl" : "step", bytes, bytes_format: stl ? "stl" : "brep" },
    stock,
    machine: settings.machine,
    material_id: settings.material,
    library: settings.library,
    options: BENCH_PLAN_OPTIONS,
  };
}
