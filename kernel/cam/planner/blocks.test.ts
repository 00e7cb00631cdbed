import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isUuid } from "../../tools/uuid.ts";
import { OPERATION_KINDS, type OperationKind } from "../types.ts";
import { blockKindOf, blocksProblem, operationBlocks } from "./blocks.ts";

const SETUP = "3f0c6a52-9a41-4d0e-8f55-0d1b7c2e6a11";

/** operations as the blocks see them: ids s0-op0, s0-op1, ... of the kinds given */
const ops = (...kinds: OperationKind[]) => kinds.map((kind, i) => ({ id: `s0-op${i}`, kind }));

// every kind, as a setup runs them (types.ts): face, rough, rest, finish, then holes and chamfers
const processOrder = ops(...OPERATION_KINDS);

describe("operation blocks", () => {
  it("puts every operation in exactly one block and keeps the operations' order", () => {
    const blocks = operationBlocks(SETUP, processOrder);
    const grouped = blocks.flatMap((b) => b.operation_ids);
    assert.deepEqual(
      grouped,
      processOrder.map((o) => o.id),
    );
    assert.equal(new Set(grouped).size, processOrder.length);
    assert.equal(blocksProblem(blocks, processOrder), null);
  });

  it("makes one block per stage of a setup in process order, each operation in the block of its own kind", () => {
    const blocks = operationBlocks(SETUP, processOrder);
    assert.deepEqual(
      blocks.map((b) => [b.index, b.kind, b.name, b.operation_ids.length]),
      [
        [0, "facing", "Facing", 1],
        [1, "roughing", "Roughing", 2],
        [2, "finishing", "Finishing", 4],
        [3, "holes", "Holes", 4],
        [4, "chamfering", "Chamfering", 1],
      ],
    );
    const kindOf = new Map(processOrder.map((o) => [o.id, o.kind]));
    for (const block of blocks) {
      for (const id of block.operation_ids) assert.equal(blockKindOf(kindOf.get(id)!), block.kind);
    }
  });

  it("splits a stage that sorting by height interleaves with another into separate, numbered blocks", () => {
    const interleaved = ops(
      "face_milling",
      "roughing",
      "drilling",
      "roughing",
      "rest_roughing",
      "wall_finishing",
      "drilling",
    );
    const blocks = operationBlocks(SETUP, interleaved);
    assert.deepEqual(
      blocks.map((b) => [b.kind, b.name, b.operation_ids]),
      [
        ["facing", "Facing", ["s0-op0"]],
        ["roughing", "Roughing 1", ["s0-op1"]],
        ["holes", "Holes 1", ["s0-op2"]],
        ["roughing", "Roughing 2", ["s0-op3", "s0-op4"]],
        ["finishing", "Finishing", ["s0-op5"]],
        ["holes", "Holes 2", ["s0-op6"]],
      ],
    );
    // no two neighbours share a stage: otherwise they would be one block
    for (let i = 1; i < blocks.length; i += 1) assert.notEqual(blocks[i]!.kind, blocks[i - 1]!.kind);
    assert.equal(blocksProblem(blocks, interleaved), null);
  });

  it("gives UUIDs that are the same for the same setup and distinct across blocks and setups", () => {
    const blocks = operationBlocks(SETUP, processOrder);
    assert.ok(blocks.every((b) => isUuid(b.id)));
    assert.equal(new Set(blocks.map((b) => b.id)).size, blocks.length);
    assert.deepEqual(operationBlocks(SETUP, processOrder), blocks);
    const other = operationBlocks("9b2e4d61-0c3a-4f7e-a1d5-6e8f0b2c4d73", processOrder);
    assert.ok(other.every((b) => !blocks.some((mine) => mine.id === b.id)));
  });

  it("gives a setup without operations no blocks", () => {
    assert.deepEqual(operationBlocks(SETUP, []), []);
    assert.equal(blocksProblem([], []), null);
  });

  it("finds blocks that lose, repeat, reorder or invent an operation, are empty or misnumbered", () => {
    const blocks = operationBlocks(SETUP, processOrder);
    const [first, second] = [blocks[0]!, blocks[1]!];
    const problems = [
      blocks.slice(1),
      [{ ...first, operation_ids: [...first.operation_ids, second.operation_ids[0]!] }, ...blocks.slice(1)],
      [second, first, ...blocks.slice(2)].map((b, index) => ({ ...b, index })),
      [
        ...blocks,
        { ...first, id: "0d8f2c1e-5b7a-4e93-9c6d-2a4b8e1f3c57", index: blocks.length, operation_ids: ["s0-op99"] },
      ],
      [...blocks, { ...first, id: "0d8f2c1e-5b7a-4e93-9c6d-2a4b8e1f3c57", index: blocks.length, operation_ids: [] }],
      blocks.map((b) => ({ ...b, index: b.index + 1 })),
      blocks.map((b) => ({ ...b, id: first.id })),
    ].map((wrong) => blocksProblem(wrong, processOrder));
    assert.ok(
      problems.every((p) => typeof p === "string" && p.length > 0),
      JSON.stringify(problems),
    );
  });
});
