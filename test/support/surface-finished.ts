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
    for (const operation of operations) {
      assert.ok(operation.tool.kind === "ball" || operation.tool.kind === "bull", operation.tool.name);
      assert.ok(operation.moves.length > 1000, `${operation.name}: ${operation.moves.length} moves`);
    }
  });
}
