import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { boxDiagonal, boxSize, edgeReport, signedVolume, weldByPosition } from "./mesh-metrics.ts";

// a tetrahedron with corners at the origin and on the three axes, faces outward
const TETRA_POSITIONS = new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1]);
const TETRA = new Uint32Array([0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3]);

describe("weldByPosition", () => {
  it("merges bit-identical corners and treats -0 as 0", () => {
    const { vertexOf, count } = weldByPosition(
      new Float32Array([1, 2, 3, 0, 0, 0, 1, 2, 3, -0, 0, -0, 1, 2, 3.0000002]),
    );
    assert.equal(count, 3);
    assert.deepEqual([...vertexOf], [0, 1, 0, 1, 2]);
  });
});

describe("edgeReport", () => {
  it("finds a tetrahedron closed: six edges, each run once each way", () => {
    const report = edgeReport(TETRA, 4);
    assert.deepEqual(report, { edges: 6, boundaryEdges: 0, nonManifoldEdges: 0, misorientedEdges: 0, closed: true });
  });

  it("counts the three boundary edges of a tetrahedron missing a face", () => {
    const report = edgeReport(TETRA.subarray(0, 9), 4);
    assert.equal(report.boundaryEdges, 3);
    assert.equal(report.closed, false);
  });

  it("counts a flipped triangle's edges as misoriented", () => {
    const flipped = TETRA.slice();
    [flipped[10], flipped[11]] = [3, 2];
    const report = edgeReport(flipped, 4);
    assert.equal(report.misorientedEdges, 3);
    assert.equal(report.closed, false);
  });

  it("counts an edge shared by three triangles as non-manifold", () => {
    const withFin = new Uint32Array([...TETRA, 0, 1, 4]);
    const report = edgeReport(withFin, 5);
    assert.equal(report.nonManifoldEdges, 1);
    assert.equal(report.closed, false);
  });
});

describe("signedVolume", () => {
  it("gives 1/6 for the unit tetrahedron and -1/6 turned inside out", () => {
    assert.ok(Math.abs(signedVolume(TETRA_POSITIONS, TETRA) - 1 / 6) < 1e-12);
    const inverted = TETRA.slice();
    for (let t = 0; t < inverted.length; t += 3)
      [inverted[t + 1], inverted[t + 2]] = [inverted[t + 2] as number, inverted[t + 1] as number];
    assert.ok(Math.abs(signedVolume(TETRA_POSITIONS, inverted) + 1 / 6) < 1e-12);
  });

  it("keeps its precision far from the origin", () => {
    const far = TETRA_POSITIONS.map((value, i) => value + (i % 3 === 0 ? 10_000 : 0));
    assert.ok(Math.abs(signedVolume(far, TETRA) - 1 / 6) < 1e-9);
  });
});

describe("box arithmetic", () => {
  it("gives the size and diagonal of a box", () => {
    const box = { min: [1, 2, 3] as [number, number, number], max: [4, 6, 15] as [number, number, number] };
    assert.deepEqual(boxSize(box), [3, 4, 12]);
    assert.equal(boxDiagonal(box), 13);
  });
});
