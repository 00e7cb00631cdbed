import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { meshBounds } from "../mesh/bounds.ts";
import { signedVolume } from "./mesh-metrics.ts";
import { parseAsciiStl, parseBinaryStl, readStl } from "./stl.ts";
import { asciiStl, binaryStl, bytesOf, cubeCorners, fixture, sizeOf } from "./test-support.ts";
import { GeometryError } from "../geometry-error.ts";

function refusal(code: string) {
  return (error: unknown) => error instanceof GeometryError && error.code === code;
}

function near(actual: number, expected: number, tolerance: number, what: string): void {
  assert.ok(Math.abs(actual - expected) <= tolerance, `${what}: ${actual} is not within ${tolerance} of ${expected}`);
}

describe("readStl", () => {
  it("reads a binary cube of 10 mm as a closed solid of 1000 mm³ and 12 triangles", () => {
    const part = readStl(binaryStl(cubeCorners(10)), "binary");
    assert.equal(part.format, "stl");
    assert.equal(part.unitsRead, "unknown");
    assert.equal(part.closedSolid, true);
    assert.equal(part.triangleCount, 12);
    assert.equal(part.faceCount, 0);
    assert.equal(part.brep, null);
    assert.deepEqual(part.warnings, []);
    near(part.volumeMm3 ?? NaN, 1000, 1e-9, "volume");
    assert.deepEqual(part.bbox, { min: [0, 0, 0], max: [10, 10, 10] });
    assert.ok(part.mesh.faceIds.every((id) => id === 0));
    assert.equal(part.mesh.faceIds.length, part.mesh.positions.length / 3);
  });

  it("gives every vertex its triangle's unit normal, pointing away from the cube's centre", () => {
    const { mesh } = readStl(binaryStl(cubeCorners(10)), "binary");
    for (let v = 0; v < mesh.positions.length / 3; v++) {
      const n = [...mesh.normals.subarray(3 * v, 3 * v + 3)] as [number, number, number];
      const p = [...mesh.positions.subarray(3 * v, 3 * v + 3)] as [number, number, number];
      near(Math.hypot(...n), 1, 1e-6, `normal length of vertex ${v}`);
      assert.ok(n[0] * (p[0] - 5) + n[1] * (p[1] - 5) + n[2] * (p[2] - 5) > 0, `normal of vertex ${v} points inwards`);
    }
  });

  it("reads an ASCII cube exactly like its binary twin", () => {
    const ascii = readStl(asciiStl(cubeCorners(7.5, [1, -2, 3])), "ascii");
    const binary = readStl(binaryStl(cubeCorners(7.5, [1, -2, 3])), "binary");
    assert.deepEqual(ascii.mesh.positions, binary.mesh.positions);
    assert.equal(ascii.volumeMm3, binary.volumeMm3);
    near(ascii.volumeMm3 ?? NaN, 7.5 ** 3, 1e-6, "volume");
    assert.deepEqual(ascii.bbox, { min: [1, -2, 3], max: [8.5, 5.5, 10.5] });
  });

  it("reads ASCII with exponents, capitals and a whole facet on one line", () => {
    const corners = parseAsciiStl(
      bytesOf(
        "SOLID x\nFACET NORMAL 0 0 1 OUTER LOOP VERTEX 1e1 0 0 VERTEX 0 1.0E+01 0 VERTEX 0 0 -0.5e-1 ENDLOOP ENDFACET\nENDSOLID x\n",
      ),
    );
    assert.deepEqual([...corners], [10, 0, 0, 0, 10, 0, 0, 0, Math.fround(-0.05)]);
  });

  it("accepts an open cube (one face missing) with open_mesh, not closed and without volume", () => {
    const part = readStl(binaryStl(cubeCorners(10).slice(0, 90)), "binary");
    assert.equal(part.closedSolid, false);
    assert.equal(part.volumeMm3, null);
    assert.equal(part.triangleCount, 10);
    assert.deepEqual(
      part.warnings.map((w) => w.code),
      ["open_mesh"],
    );
    assert.match(part.warnings[0]?.message ?? "", /4 edges/);
  });

  it("turns an inside-out cube outward, keeps its volume positive and says so", () => {
    const corners = cubeCorners(10);
    for (let t = 0; t < corners.length; t += 9) {
      const second = corners.slice(t + 3, t + 6);
      corners.splice(t + 3, 3, ...corners.slice(t + 6, t + 9));
      corners.splice(t + 6, 3, ...second);
    }
    const part = readStl(binaryStl(corners), "binary");
    assert.equal(part.closedSolid, true);
    near(part.volumeMm3 ?? NaN, 1000, 1e-9, "volume");
    assert.deepEqual(
      part.warnings.map((w) => w.code),
      ["inverted_mesh"],
    );
    near(signedVolume(part.mesh.positions, part.mesh.indices), 1000, 1e-9, "volume of the mesh handed on");
  });

  it("reports a cube with one flipped triangle as not a clean solid", () => {
    const corners = cubeCorners(10);
    corners.splice(3, 6, ...corners.slice(6, 9), ...corners.slice(3, 6));
    const part = readStl(binaryStl(corners), "binary");
    assert.equal(part.closedSolid, false);
    assert.equal(part.volumeMm3, null);
    assert.deepEqual(
      part.warnings.map((w) => w.code),
      ["non_manifold_mesh"],
    );
  });

  it("leaves out triangles with a repeated corner and says how many", () => {
    const part = readStl(binaryStl([...cubeCorners(10), 1, 1, 1, 1, 1, 1, 2, 2, 2]), "binary");
    assert.equal(part.triangleCount, 12);
    assert.equal(part.closedSolid, true);
    assert.deepEqual(
      part.warnings.map((w) => w.code),
      ["degenerate_triangles"],
    );
  });

  it("refuses a NaN coordinate in a binary STL with invalid_coordinates, naming the triangle", () => {
    const corners = cubeCorners(10);
    corners[9 * 4 + 2] = Number.NaN;
    assert.throws(
      () => readStl(binaryStl(corners), "binary"),
      (error: unknown) => refusal("invalid_coordinates")(error) && (error as GeometryError).details.triangle === 5,
    );
  });

  it("refuses nan and inf in an ASCII STL with invalid_coordinates", () => {
    for (const bad of ["nan", "-inf", "Infinity", "1e999"]) {
      const bytes = asciiStl(cubeCorners(10), (value) => (value === 10 ? bad : String(value)));
      assert.throws(() => readStl(bytes, "ascii"), refusal("invalid_coordinates"), bad);
    }
  });

  const oneFacet = (z: string) =>
    bytesOf(
      `solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 ${z}\nvertex 0 1 0\nendloop\nendfacet\nendsolid x\n`,
    );

  it("refuses an ASCII coordinate beyond the range of a 32-bit float with invalid_coordinates, naming the line", () => {
    for (const bad of ["1e300", "-1e300", "3.5e38", "-340282357000000000000000000000000000000"]) {
      assert.throws(
        () => parseAsciiStl(oneFacet(bad)),
        (error: unknown) =>
          refusal("invalid_coordinates")(error) &&
          (error as GeometryError).details.line === 5 &&
          (error as GeometryError).message === `Vertex on line 5: ${bad} is beyond the range of a 32-bit float.`,
        bad,
      );
    }
    assert.deepEqual([...parseAsciiStl(oneFacet("-3.4e38"))].slice(3, 6), [1, 0, Math.fround(-3.4e38)]);
    assert.deepEqual([...parseAsciiStl(oneFacet("1e-300"))].slice(3, 6), [1, 0, 0], "an underflow is zero");
  });

  it("reads only decimal numbers in an ASCII STL: hexadecimal, binary, octal and other spellings are corrupt_file naming the line", () => {
    for (const bad of ["0x10", "0X1A", "0b1", "0o7", "1_000", "1e", "1.2.3", "+-1", ".", "1,5", "--1", "e5"]) {
      assert.throws(
        () => parseAsciiStl(oneFacet(bad)),
        (error: unknown) =>
          refusal("corrupt_file")(error) &&
          (error as GeometryError).details.line === 5 &&
          (error as GeometryError).message.includes(`"${bad}" is not a decimal number`),
        bad,
      );
    }
    for (const [good, value] of [
      ["+1.5", 1.5],
      ["-.5", -0.5],
      ["5.", 5],
      ["007", 7],
      ["2E-1", 0.2],
      ["-0", -0],
    ] as const) {
      assert.deepEqual([...parseAsciiStl(oneFacet(good))].slice(3, 6), [1, 0, Math.fround(value)], good);
    }
  });

  it("refuses an STL without triangles with no_triangles", () => {
    assert.throws(() => readStl(binaryStl([]), "binary"), refusal("no_triangles"));
    assert.throws(() => readStl(bytesOf("solid empty\nendsolid empty\n"), "ascii"), refusal("no_triangles"));
  });

  it("refuses a word where a coordinate belongs, or a facet left open, with corrupt_file", () => {
    const word = asciiStl(cubeCorners(10), (value) => (value === 10 ? "ten" : String(value)));
    assert.throws(() => readStl(word, "ascii"), refusal("corrupt_file"));
    assert.throws(
      () => parseAsciiStl(bytesOf("solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\n")),
      refusal("corrupt_file"),
    );
  });

  it("refuses a binary STL that holds fewer triangles than it announces", () => {
    const bytes = binaryStl(cubeCorners(10));
    assert.throws(() => parseBinaryStl(bytes.subarray(0, 84 + 50 * 5)), refusal("corrupt_file"));
  });

  it("reads partC.stl: 85.52 x 44.62 x 27.53 mm, closed, 57 518 mm³", () => {
    const part = readStl(fixture("partC.stl"), "ascii");
    const [x, y, z] = sizeOf(part.bbox);
    near(x, 85.519, 0.05, "x");
    near(y, 44.621, 0.05, "y");
    near(z, 27.527, 0.05, "z");
    assert.equal(part.closedSolid, true);
    assert.deepEqual(part.warnings, []);
    near(part.volumeMm3 ?? NaN, 57_518, 57_518 * 0.001, "volume");
    assert.deepEqual(meshBounds(part.mesh), part.bbox);
  });
});
