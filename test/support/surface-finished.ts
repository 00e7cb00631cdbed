/**
 * 3D finishing seen in a simchecked part's plan: its curved faces finished by `surface_finishing`
 * operations with ball or bull-nose end mills, which the program shows (the tests beside it run
 * the same programs through rs274 and simcheck).
 */
import assert from "node:assert/strict";
import { it } from "node:test";
import type { Checked } from "./simchecked-part.ts";

export function itFinishesCurvedFacesIn3D(checked: () => Checked): void {
  it("finishes its curved faces in 3D with a ball or bull-nose end mill", () => {
    const operations = checked().result.setups.flatMap((setup) =>
      setup.operations.filter((operation) => operation.kind === "surface_finishing"),
    );
    assert.ok(operations.length > 0, "no surface_finishing operation");
    // a setup's faces come in groups, an operation each: a small fillet's may be short
    for (const operation of operations) {
      assert.ok(operation.tool.kind === "ball" || operation.tool.kind === "bull", operation.tool.name);
      assert.ok(operation.moves.length > 0, `${operation.name}: no moves`);
    }
    const moves = operations.reduce((sum, operation) => sum + operation.moves.length, 0);
    assert.ok(moves > 1000, `${moves} moves of 3D finishing`);
    console.log(
      `3D finishing: ${operations.length} operations, ${moves} moves, largest scallop ${Math.max(...operations.map((o) => o.scallop_mm ?? 0))} mm, ${operations.filter((o) => o.scallop_mm === undefined).length} not measured`,
    );
  });
}
