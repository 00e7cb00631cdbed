/**
 * What the project viewer draws and lists (contracts/viewer.ts), from a stored plan: per setup its frame, work offset,
 * stock, workholding and its blocks of operations with each operation's tool, time and figures.
 * The moves themselves come separately, in binary (viewer-toolpaths.ts and
 * kernel/cam/viewer/toolpath-buffer.ts), so this stays small however long the program.
 */
import type { ViewerOperation, ViewerScene, ViewerSetup, ViewerTool } from "../../contracts/viewer.ts";
import type { Cutter } from "../../kernel/cam/types.ts";
import type { CamPlan, StoredOperation } from "../../kernel/job/plan.ts";

type StoredSetup = CamPlan["setups"][number];

function toolOf(tool: Cutter, setup: StoredSetup): ViewerTool {
  const summary = setup.tools.find((listed) => listed.assembly_uuid === tool.assembly_uuid);
  return {
    number: summary?.number ?? null,
    name: tool.name,
    tool_type: tool.tool_type,
    kind: tool.kind,
    diameter_mm: tool.diameter,
    corner_radius_mm: tool.corner_radius,
    flute_length_mm: tool.flute_length,
    shank_diameter_mm: tool.shank_diameter,
    stick_out_mm: tool.stick_out,
    holder_name: summary?.holder ?? null,
    holder: tool.holder.map((segment) => ({
      length_mm: segment.length,
      lower_diameter_mm: segment.lower_diameter,
      upper_diameter_mm: segment.upper_diameter,
    })),
  };
}

function operationOf(operation: StoredOperation, setup: StoredSetup): ViewerOperation {
  return {
    id: operation.id,
    kind: operation.kind,
    name: operation.name,
    tool: toolOf(operation.tool, setup),
    machining_time_s: operation.machining_time_s,
    move_count: operation.moves.length,
    clearance_z: operation.clearance_z,
    features: operation.features,
    parameters: operation.parameters,
    engagement: operation.engagement ?? null,
    scallop_mm: operation.scallop_mm ?? null,
  };
}

function setupOf(setup: StoredSetup): ViewerSetup {
  const operations = new Map(setup.operations.map((operation) => [operation.id, operation]));
  const holding = setup.workholding;
  return {
    index: setup.index,
    name: setup.name,
    direction: setup.direction,
    wcs: setup.wcs,
    work_offset: setup.work_offset,
    stock: setup.stock,
    machining_time_s: setup.machining_time_s,
    verification: setup.verification,
    workholding: holding
      ? { type: holding.type, jaws: holding.jaws, supports: holding.supports, clamps: holding.clamps }
      : null,
    operation_ids: setup.operations.map((operation) => operation.id),
    blocks: setup.blocks.map((block) => ({
      id: block.id,
      name: block.name,
      kind: block.kind,
      operations: block.operation_ids.flatMap((id) => {
        const operation = operations.get(id);
        return operation ? [operationOf(operation, setup)] : [];
      }),
    })),
  };
}

export function viewerScene(plan: CamPlan): Pick<ViewerScene, "machining_time_s" | "setups"> {
  return {
    machining_time_s: plan.machining_time_s,
    setups: plan.setups.map(setupOf),
  };
}
