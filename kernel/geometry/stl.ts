/**
 * STL, binary and ASCII, without OCCT. An STL has no units (taken as millimetres), no B-rep faces
 * (every vertex is in face 0) and its own normals are ignored: the winding decides.
 *
 * Closedness is checked on the vertices welded by exact position: closed means every edge is
 * shared by exactly two triangles running it in opposite directions. Only then is there a volume.
 */
import type { TriangleMesh } from "../mesh/types.ts";
import { meshBounds } from "../mesh/bounds.ts";
import { triangleCross } from "../math/triangle.ts";
import { edgeReport, signedVolume, turnedRound, weldByPosition } from "./mesh-metrics.ts";
import { GeometryError } from "../geometry-error.ts";
import type { IngestedWorkpiece } from "./types.ts";

type Warning = IngestedWorkpiece["warnings"][number];

const HEADER_BYTES = 80;
const TRIANGLE_BYTES = 50;

/** Corners of every triangle, 9 numbers per triangle, as the file lists them. */
export function parseBinaryStl(bytes: Uint8Array): Float32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < HEADER_BYTES + 4) {
    throw new GeometryError("corrupt_file", "The binary STL is shorter than its 84-byte header.");
  }
  const count = view.getUint32(HEADER_BYTES, true);
  if (bytes.length < HEADER_BYTES + 4 + count * TRIANGLE_BYTES) {
    throw new GeometryError(
      "corrupt_file",
      `The binary STL announces ${count} triangles but holds only ${Math.floor((bytes.length - HEADER_BYTES - 4) / TRIANGLE_BYTES)}.`,
      {
        announced: count,
      },
    );
  }
  const corners = new Float32Array(count * 9);
  for (let t = 0; t < count; t++) {
    const base = HEADER_BYTES + 4 + t * TRIANGLE_BYTES + 12; // skip the stored normal
    for (let k = 0; k < 9; k++) {
      const value = view.getFloat32(base + 4 * k, true);
      if (!Number.isFinite(value)) throw invalidCoordinate(t, value);
      corners[9 * t + k] = value;
    }
  }
  return corners;
}

const NON_FINITE_TOKEN = /^[+-]?(nan|inf|infinity)$|^[+-]?\d*\.?#(q?nan|s?nan|inf|ind)/i;
/** a decimal number as STL writers print one (C's %e, %f, %g): no hexadecimal, octal, binary or separators */
const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?$/i;

/** Corners of every triangle from an ASCII STL; a facet of more than three vertices is fanned. */
export function parseAsciiStl(bytes: Uint8Array): Float32Array {
  const text = new TextDecoder("latin1").decode(bytes);
  const tokens = /\S+/g;
  const corners: number[] = [];
  let facet: number[] | null = null;
  let triangle = 0;
  const lineAt = (offset: number): number => text.slice(0, offset).split("\n").length;
  const corrupt = (message: string, offset: number): GeometryError =>
    new GeometryError("corrupt_file", `${message} (line ${lineAt(offset)}).`, { line: lineAt(offset) });

  for (let match = tokens.exec(text); match !== null; match = tokens.exec(text)) {
    const word = match[0].toLowerCase();
    if (word === "solid" || word === "endsolid") {
      // the rest of the line is the solid's name, which may hold any word
      const newline = text.indexOf("\n", tokens.lastIndex);
      tokens.lastIndex = newline < 0 ? text.length : newline;
    } else if (word === "facet") {
      if (facet !== null) throw corrupt("A facet starts before the previous one ended", match.index);
      facet = [];
    } else if (word === "vertex") {
      if (facet === null) throw corrupt("A vertex outside a facet", match.index);
      for (let axis = 0; axis < 3; axis++) {
        const token = tokens.exec(text);
        if (token === null) throw corrupt("The file ends inside a vertex", text.length);
        const written = token[0];
        if (!DECIMAL.test(written)) {
          if (NON_FINITE_TOKEN.test(written)) throw invalidCoordinate(triangle, Number(written));
          throw corrupt(`"${written.slice(0, 40)}" is not a decimal number`, token.index);
        }
        // the corners are 32-bit floats: a number past their range would become infinite there
        const value = Number(written);
        if (!Number.isFinite(Math.fround(value))) {
          const line = lineAt(token.index);
          throw new GeometryError(
            "invalid_coordinates",
            `Vertex on line ${line}: ${written.slice(0, 40)} is beyond the range of a 32-bit float.`,
            { line },
          );
        }
        facet.push(value);
      }
    } else if (word === "endfacet") {
      if (facet === null) throw corrupt("endfacet without facet", match.index);
      const vertices = facet.length / 3;
      if (vertices < 3) throw corrupt(`A facet with ${vertices} vertices`, match.index);
      for (let k = 1; k + 1 < vertices; k++) {
        corners.push(...facet.slice(0, 3), ...facet.slice(3 * k, 3 * k + 6));
        triangle++;
      }
      facet = null;
    }
    // "normal nx ny nz", "outer", "loop", "endloop": nothing to keep (the numbers after
    // "normal" are skipped as unknown words)
  }
  if (facet !== null) throw corrupt("The file ends inside a facet", text.length);
  return Float32Array.from(corners);
}

function invalidCoordinate(triangle: number, value: number): GeometryError {
  return new GeometryError(
    "invalid_coordinates",
    `Triangle ${triangle + 1} has a coordinate that is not a finite number (${value}).`,
    {
      triangle: triangle + 1,
    },
  );
}

/** Turns parsed corners into the workpiece: closedness, volume, flat normals, bbox. */
export function stlWorkpiece(corners: Float32Array): IngestedWorkpiece {
  const warnings: Warning[] = [];
  const { vertexOf, count } = weldByPosition(corners);

  // drop triangles with a repeated corner: they have no area and no edges worth checking
  const kept: number[] = [];
  const inputTriangles = corners.length / 9;
  for (let t = 0; t < inputTriangles; t++) {
    const a = vertexOf[3 * t],
      b = vertexOf[3 * t + 1],
      c = vertexOf[3 * t + 2];
    if (a !== b && b !== c && c !== a) kept.push(t);
  }
  if (kept.length === 0) {
    throw new GeometryError(
      "no_triangles",
      inputTriangles === 0
        ? "The STL file holds no triangles."
        : "Every triangle of the STL file is degenerate (repeated corners).",
      {
        triangles: inputTriangles,
      },
    );
  }
  if (kept.length < inputTriangles) {
    warnings.push({
      code: "degenerate_triangles",
      message: `${inputTriangles - kept.length} triangles with repeated corners were left out.`,
    });
  }

  const welded = new Uint32Array(kept.length * 3);
  const positions = new Float32Array(kept.length * 9);
  kept.forEach((t, i) => {
    for (let k = 0; k < 3; k++) welded[3 * i + k] = vertexOf[3 * t + k] as number;
    positions.set(corners.subarray(9 * t, 9 * t + 9), 9 * i);
  });
  const indices = new Uint32Array(kept.length * 3).map((_, i) => i);

  const edges = edgeReport(welded, count);
  let volumeMm3: number | null = null;
  if (edges.closed) {
    const volume = signedVolume(positions, indices);
    if (volume < 0) {
      indices.set(turnedRound(indices));
      warnings.push({
        code: "inverted_mesh",
        message: "Every triangle faced inwards; the mesh was turned outside in.",
      });
    }
    volumeMm3 = Math.abs(volume);
  } else if (edges.boundaryEdges > 0) {
    warnings.push({
      code: "open_mesh",
      message: `The mesh is not watertight: ${edges.boundaryEdges} edges belong to one triangle only, so it has no volume.`,
    });
  }
  if (!edges.closed && (edges.nonManifoldEdges > 0 || edges.misorientedEdges > 0)) {
    warnings.push({
      code: "non_manifold_mesh",
      message: `The mesh is not a clean solid: ${edges.nonManifoldEdges} edges are shared by more than two triangles and ${edges.misorientedEdges} by two triangles facing opposite ways.`,
    });
  }

  const mesh: TriangleMesh = {
    positions,
    normals: flatNormals(positions, indices),
    indices,
    faceIds: new Uint32Array(positions.length / 3),
  };
  return {
    format: "stl",
    unitsRead: "unknown",
    bbox: meshBounds(mesh),
    volumeMm3,
    faceCount: 0,
    triangleCount: kept.length,
    closedSolid: edges.closed,
    warnings,
    mesh,
    brep: null,
    meshDeflection: null,
  };
}

/** One normal per triangle, given to its three (unshared) vertices; (0, 0, 1) for a sliver. */
function flatNormals(positions: Float32Array, indices: Uint32Array): Float32Array {
  const normals = new Float32Array(positions.length);
  for (let t = 0; t < indices.length; t += 3) {
    const a = 3 * (indices[t] as number),
      b = 3 * (indices[t + 1] as number),
      c = 3 * (indices[t + 2] as number);
    let [nx, ny, nz] = triangleCross(positions, a, b, c);
    const length = Math.hypot(nx, ny, nz);
    if (length > 0) {
      nx /= length;
      ny /= length;
      nz /= length;
    } else {
      nx = 0;
      ny = 0;
      nz = 1;
    }
    for (const v of [a, b, c]) {
      normals[v] = nx;
      normals[v + 1] = ny;
      normals[v + 2] = nz;
    }
  }
  return normals;
}

/** Reads an STL whose encoding `detectFormat` has told. */
export function readStl(bytes: Uint8Array, encoding: "binary" | "ascii"): IngestedWorkpiece {
  return stlWorkpiece(encoding === "binary" ? parseBinaryStl(bytes) : parseAsciiStl(bytes));
}
