/**
 * 3D finishing seen in a simchecked part's plan: its curved faces finished by `surface_finishing`
 * operations with ball or bull-nose end mills, which the program shows (the tests beside it run
 * the same programs through rs274 and simcheck), each with its scallop measured.
 */
import assert from "node:assert/strict";
import { it } from "node:test";
import type { Checked } from "./simchecked-part.ts";

function surfaceOperations(checked: Checked) {
  return checked.result.setups.flatMap((setup) =>
    setup.operations
      .filter((operation) => operation.kind === "surface_finishing")
      .map((operation) => ({ setup, operation })),
  );
}

export function itFinishesCurvedFacesIn3D(checked: () => Checked): void {
  it("finishes its curved faces in 3D with a ball or bull-nose end mill, each operation's scallop measured", () => {
    const operations = surfaceOperations(checked());
    assert.ok(operations.length > 0, "no surface_finishing operation");
    for (const { operation } of operations) {
      assert.ok(operation.tool.kind === "ball" || operation.tool.kind === "bull", operation.tool.name);
      assert.ok(operation.moves.length > 1000, `${operation.name}: ${operation.moves.length} moves`);
      assert.ok(operation.scallop_mm !== undefined, `${operation.id}: no scallop measured`);
    }
  });
}

/** As itFinishesCurvedFacesIn3D, and some face lies deeper below its setup's stock top than the tool's flutes reach. */
export function itFinishesDeepFacesIn3D(checked: () => Checked): void {
  itFinishesCurvedFacesIn3D(checked);
  it("finishes in 3D faces deeper below the stock's top than the ball's flutes", () => {
    const deepest = surfaceOperations(checked()).map(({ setup, operation }) => {
      let low = Infinity;
      for (const move of operation.moves) if (move.kind === "linear") low = Math.min(low, move.to[2]);
      return { depth: setup.stock.max[2] - low, flutes: operation.tool.flute_length };
    });
    assert.ok(
      deepest.some(({ depth, flutes }) => depth > flutes + 1),
      JSON.stringify(deepest),
    );
  });
}
