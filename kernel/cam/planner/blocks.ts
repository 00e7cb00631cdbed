/**
 * A setup's operations grouped into blocks, the shop's stages (facing, roughing, finishing,
 * holes, chamfering) in the order they run. The planner calls it for each setup it makes and
 * the job's plan reader for plans stored before blocks existed (kernel/job/plan.ts), so both
 * give the same blocks for the same operations.
 *
 * A block is a run of consecutive operations of one stage, never a gathering of a stage's
 * operations from across the setup: block order is operation order, so sort_by_height, which
 * may interleave stages, gives a stage several blocks.
 */
import { uuidV5 } from "../../tools/uuid.ts";
import type { BlockKind, PlannedBlock } from "../plan-types.ts";
import type { Operation, OperationKind } from "../types.ts";

const STAGE: Record<OperationKind, BlockKind> = {
  face_milling: "facing",
  roughing: "roughing",
  rest_roughing: "roughing",
  floor_finishing: "finishing",
  wall_finishing: "finishing",
  surface_finishing: "finishing",
  // the outer profile at final size: a finishing pass
  contour: "finishing",
  spot_drilling: "holes",
  drilling: "holes",
  tapping: "holes",
  // bores and counterbores are holes to the shop, though an end mill makes them
  helical_boring: "holes",
  chamfering: "chamfering",
};

const NAME: Record<BlockKind, string> = {
  facing: "Facing",
  roughing: "Roughing",
  finishing: "Finishing",
  holes: "Holes",
  chamfering: "Chamfering",
};

/** The namespace of block ids (a constant: changing it changes the ids of version 1 plans). */
const BLOCK_NAMESPACE = "84f94bc9-5482-4184-832d-6a775f749a58";

export function blockKindOf(kind: OperationKind): BlockKind {
  return STAGE[kind];
}

/**
 * The blocks of a setup's operations, given in the order they run. Ids are named after the
 * setup's id and the block's index rather than random: a plan stored without blocks reads back
 * with the same ids every time, and a setup's id is a fresh UUID per plan, so they stay unique.
 */
export function operationBlocks(
  setupId: string,
  operations: readonly Pick<Operation, "id" | "kind">[],
): PlannedBlock[] {
  const runs: { kind: BlockKind; operation_ids: string[] }[] = [];
  for (const operation of operations) {
    const kind = STAGE[operation.kind];
    const last = runs.at(-1);
    if (last?.kind === kind) last.operation_ids.push(operation.id);
    else runs.push({ kind, operation_ids: [operation.id] });
  }
  const total = new Map<BlockKind, number>();
  for (const run of runs) total.set(run.kind, (total.get(run.kind) ?? 0) + 1);
  const seen = new Map<BlockKind, number>();
  return runs.map((run, index) => {
    const nth = (seen.get(run.kind) ?? 0) + 1;
    seen.set(run.kind, nth);
    // a stage that recurs is numbered throughout, so "Roughing 1" tells there is a "Roughing 2"
    const name = total.get(run.kind)! > 1 ? `${NAME[run.kind]} ${nth}` : NAME[run.kind];
    return {
      id: uuidV5(BLOCK_NAMESPACE, `${setupId}/${index}`),
      name,
      index,
      kind: run.kind,
      operation_ids: run.operation_ids,
    };
  });
}

/**
 * Why blocks do not group these operations, or null when they do: indices 0, 1, ... in order,
 * no empty block, distinct ids, and the blocks' operation ids, read in order, are exactly the
 * operations' ids in order (so each operation is in one block and the order is kept).
 */
export function blocksProblem(
  blocks: readonly PlannedBlock[],
  operations: readonly Pick<Operation, "id">[],
): string | null {
  const ids = new Set<string>();
  for (const [i, block] of blocks.entries()) {
    if (block.index !== i) return `block ${block.id} has index ${block.index} at position ${i}`;
    if (block.operation_ids.length === 0) return `block ${block.id} has no operations`;
    if (ids.has(block.id)) return `block id ${block.id} appears twice`;
    ids.add(block.id);
  }
  const grouped = blocks.flatMap((block) => block.operation_ids);
  const expected = operations.map((operation) => operation.id);
  const at = expected.findIndex((id, i) => grouped[i] !== id);
  if (at >= 0) return `operation ${at} of the setup is ${expected[at]}, of the blocks ${grouped[at] ?? "missing"}`;
  if (grouped.length > expected.length)
    return `the blocks name ${grouped.length} operations, the setup has ${expected.length}`;
  return null;
}
