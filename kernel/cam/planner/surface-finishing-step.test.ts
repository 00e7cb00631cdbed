/** The 3D finishing tool chosen from the starter range, and what the plan is told when it falls short. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { cutters } from "../tooling/test-library.ts";
import { surfaceTool } from "./surface-finishing-step.ts";

const BALLS = cutters("SSR-BM2-0600-L-UC", "SSR-BM2-1000-L-UC");

describe("surfaceTool", () => {
  it("takes the largest ball that fits the tightest concave radius and reaches, saying nothing", () => {
    const choice = surfaceTool(BALLS, 3, 5);
    assert.equal(choice?.tool.diameter, 6);
    assert.equal(choice?.why, null);
    assert.equal(surfaceTool(BALLS, null, 5)?.tool.diameter, 10);
  });

  it("says the faces below the reach keep their terraces when no ball reaches them", () => {
    const choice = surfaceTool(BALLS, null, 200);
    assert.equal(choice?.tool.diameter, 10);
    assert.match(
      choice?.why ?? "",
      /reaches 200 mm deep: .* finishes what lies within its reach, the faces below it keep/,
    );
  });

  it("takes the roundest ball where none fits, saying it leaves the tighter fillets", () => {
    const choice = surfaceTool(BALLS, 1, 5);
    assert.equal(choice?.tool.diameter, 6);
    assert.match(
      choice?.why ?? "",
      /tightest concave radius of 1 mm: they are finished with .*, which leaves the tighter fillets/,
    );
  });

  it("has no tool where the library has no ball or bull-nose end mill", () => {
    assert.equal(surfaceTool(cutters("SSR-EM3-1000-L-UC"), null, 5), null);
  });
});
