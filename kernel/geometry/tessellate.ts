/**
 * Triangulates a B-rep shape with BRepMesh and gathers the faces' triangulations into one mesh
 * whose vertices each belong to one face (faceIds = the face's index in TopExp_Explorer order),
 * so a viewer can pick a face.
 *
 * Per face: the triangulation's nodes are in the face's own coordinates, so its location is
 * applied; a REVERSED face gets its triangles flipped and its normals negated, which makes every
 * triangle counter-clockwise seen from outside the solid. Normals come from the surface
 * (StdPrs_ToolTriangulatedShape) and, failing that, from the triangles.
 */
import type { OpenCascadeInstance, Poly_Triangulation, TopoDS_Face, TopoDS_Shape } from "opencascade.js/dist/node.js";
import type { BoundingBox, TriangleMesh } from "../mesh/types.ts";
import { triangleCross } from "../math/triangle.ts";
import { releaseOcctObject } from "./occt-release.ts";
import { withOcctScope } from "./occt-scope.ts";
import { subShapes } from "./topology.ts";

export interface TessellateOptions {
  /** mm; default `defaultLinearDeflection(diagonal)` */
  linearDeflectionMm?: number;
  /** radians; default 0.5 */
  angularDeflectionRad?: number;
}

export interface Tessellation {
  mesh: TriangleMesh;
  /** of the nodes, in doubles; null when no face could be meshed */
  bbox: BoundingBox | null;
  triangleCount: number;
  faceCount: number;
  /** faces BRepMesh left without triangles (their id has no vertices) */
  unmeshedFaces: number[];
  linearDeflectionMm: number;
  angularDeflectionRad: number;
}

const RELATIVE_DEFLECTION = 0.0005; // 0.05 % of the bounding box diagonal
const MIN_DEFLECTION_MM = 0.01;
const MAX_DEFLECTION_MM = 0.5;
export const DEFAULT_ANGULAR_DEFLECTION_RAD = 0.5;
const POLY_MESH_PURPOSE_NONE = 0;

/** 0.05 % of the part's bounding box diagonal, kept within [0.01, 0.5] mm. */
export function defaultLinearDeflection(diagonalMm: number): number {
  return Math.min(MAX_DEFLECTION_MM, Math.max(MIN_DEFLECTION_MM, diagonalMm * RELATIVE_DEFLECTION));
}

/** Meshes `shape` (replacing any triangulation it had) and returns the mesh in its coordinates. */
export function tessellate(
  oc: OpenCascadeInstance,
  shape: TopoDS_Shape,
  diagonalMm: number,
  options: TessellateOptions = {},
): Tessellation {
  const linear = options.linearDeflectionMm ?? defaultLinearDeflection(diagonalMm);
  const angular = options.angularDeflectionRad ?? DEFAULT_ANGULAR_DEFLECTION_RAD;
  if (!(linear > 0) || !(angular > 0)) throw new RangeError("tessellate: deflections must be positive");

  return withOcctScope((scope) => {
    oc.BRepTools.Clean(shape, true); // otherwise an existing, coarser triangulation is kept
    scope.own(new oc.BRepMesh_IncrementalMesh_2(shape, linear, false, angular, false));

    const builder = new MeshBuilder();
    const unmeshedFaces: number[] = [];
    const faces = subShapes(oc, shape, oc.TopAbs_ShapeEnum.TopAbs_FACE, scope);
    faces.forEach((faceShape, faceId) => {
      const added = withOcctScope((local) => addFace(oc, local.own(oc.TopoDS.Face_1(faceShape)), faceId, builder));
      if (!added) unmeshedFaces.push(faceId);
    });
    const mesh = builder.build();
    return {
      mesh,
      bbox: builder.bbox(),
      triangleCount: mesh.indices.length / 3,
      faceCount: faces.length,
      unmeshedFaces,
      linearDeflectionMm: linear,
      angularDeflectionRad: angular,
    };
  });
}

/** Appends one face's triangles; false when the face has none. */
function addFace(oc: OpenCascadeInstance, face: TopoDS_Face, faceId: number, builder: MeshBuilder): boolean {
  return withOcctScope((scope) => {
    const location = scope.own(new oc.TopLoc_Location_1());
    const handle = scope.own(oc.BRep_Tool.Triangulation(face, location, POLY_MESH_PURPOSE_NONE));
    if (handle.IsNull()) return false;
    const triangulation = handle.get(); // borrowed from the handle
    const nodeCount = triangulation.NbNodes();
    const triangleCount = triangulation.NbTriangles();
    if (nodeCount === 0 || triangleCount === 0) return false;

    const transform = location.IsIdentity() ? null : affineOf(scope.own(location.Transformation()));
    const reversed = face.Orientation_1() === oc.TopAbs_Orientation.TopAbs_REVERSED;
    // a mirroring location turns the surface's normal around as well
    const normalSign = (reversed ? -1 : 1) * (transform?.negative ? -1 : 1);

    const positions = new Float64Array(nodeCount * 3);
    for (let i = 0; i < nodeCount; i++) {
      const [x, y, z] = takeXyz(triangulation.Node(i + 1));
      positions.set(transform ? transform.point(x, y, z) : [x, y, z], 3 * i);
    }
    const triangles = new Uint32Array(triangleCount * 3);
    for (let t = 0; t < triangleCount; t++) {
      const triangle = triangulation.Triangle(t + 1);
      try {
        const a = triangle.Value(1) - 1,
          b = triangle.Value(2) - 1,
          c = triangle.Value(3) - 1;
        triangles.set(reversed ? [a, c, b] : [a, b, c], 3 * t);
      } finally {
        releaseOcctObject(triangle);
      }
    }
    if (!triangulation.HasNormals()) oc.StdPrs_ToolTriangulatedShape.ComputeNormals_1(face, handle);
    const normals = triangulation.HasNormals()
      ? surfaceNormals(triangulation, nodeCount, transform, normalSign)
      : normalsFromTriangles(positions, triangles);
    builder.addFace(faceId, positions, normals, triangles);
    return true;
  });
}

function surfaceNormals(
  triangulation: Poly_Triangulation,
  nodeCount: number,
  transform: Affine | null,
  sign: number,
): Float64Array {
  const normals = new Float64Array(nodeCount * 3);
  for (let i = 0; i < nodeCount; i++) {
    const [x, y, z] = takeXyz(triangulation.Normal_1(i + 1));
    const [nx, ny, nz] = transform ? transform.direction(x, y, z) : [x, y, z];
    normals.set([sign * nx, sign * ny, sign * nz], 3 * i);
  }
  return normals;
}

/** Area-weighted average of the triangles around each node (triangles already outward). */
function normalsFromTriangles(positions: Float64Array, triangles: Uint32Array): Float64Array {
  const normals = new Float64Array(positions.length);
  for (let t = 0; t < triangles.length; t += 3) {
    const a = 3 * triangles[t]!,
      b = 3 * triangles[t + 1]!,
      c = 3 * triangles[t + 2]!;
    const [nx, ny, nz] = triangleCross(positions, a, b, c);
    for (const v of [a, b, c]) {
      normals[v] = normals[v]! + nx;
      normals[v + 1] = normals[v + 1]! + ny;
      normals[v + 2] = normals[v + 2]! + nz;
    }
  }
  for (let v = 0; v < normals.length; v += 3) {
    const length = Math.hypot(normals[v]!, normals[v + 1]!, normals[v + 2]!);
    if (length > 0) normals.set([normals[v]! / length, normals[v + 1]! / length, normals[v + 2]! / length], v);
    else normals.set([0, 0, 1], v);
  }
  return normals;
}

/** Reads a gp_Pnt or gp_Dir and frees it (per node, so not through a scope). */
function takeXyz(value: { X(): number; Y(): number; Z(): number; delete(): void }): [number, number, number] {
  try {
    return [value.X(), value.Y(), value.Z()];
  } finally {
    releaseOcctObject(value);
  }
}

interface Affine {
  point(x: number, y: number, z: number): [number, number, number];
  /** the linear part applied and the result normalised */
  direction(x: number, y: number, z: number): [number, number, number];
  negative: boolean;
}

function affineOf(transformation: { Value(row: number, column: number): number; IsNegative(): boolean }): Affine {
  // row-major 3 x 4: the linear part (with any scale) and the translation in the last column
  const row = (r: number): [number, number, number, number] => [
    transformation.Value(r, 1),
    transformation.Value(r, 2),
    transformation.Value(r, 3),
    transformation.Value(r, 4),
  ];
  const [a, b, c, tx] = row(1);
  const [d, e, f, ty] = row(2);
  const [g, h, i, tz] = row(3);
  return {
    point: (x, y, z) => [a * x + b * y + c * z + tx, d * x + e * y + f * z + ty, g * x + h * y + i * z + tz],
    direction: (x, y, z) => {
      const dx = a * x + b * y + c * z,
        dy = d * x + e * y + f * z,
        dz = g * x + h * y + i * z;
      const length = Math.hypot(dx, dy, dz) || 1;
      return [dx / length, dy / length, dz / length];
    },
    negative: transformation.IsNegative(),
  };
}

/** Collects faces into the flat arrays of a TriangleMesh. */
class MeshBuilder {
  #positions: number[] = [];
  #normals: number[] = [];
  #indices: number[] = [];
  #faceIds: number[] = [];

  #min: [number, number, number] = [Infinity, Infinity, Infinity];
  #max: [number, number, number] = [-Infinity, -Infinity, -Infinity];

  addFace(faceId: number, positions: Float64Array, normals: Float64Array, triangles: Uint32Array): void {
    const base = this.#positions.length / 3;
    positions.forEach((value, i) => {
      this.#positions.push(value);
      const axis = i % 3;
      if (value < this.#min[axis]!) this.#min[axis] = value;
      if (value > this.#max[axis]!) this.#max[axis] = value;
    });
    for (const value of normals) this.#normals.push(value);
    for (const index of triangles) this.#indices.push(base + index);
    for (let i = 0; i < positions.length / 3; i++) this.#faceIds.push(faceId);
  }

  bbox(): BoundingBox | null {
    return this.#positions.length === 0 ? null : { min: [...this.#min], max: [...this.#max] };
  }

  build(): TriangleMesh {
    return {
      positions: Float32Array.from(this.#positions),
      normals: Float32Array.from(this.#normals),
      indices: Uint32Array.from(this.#indices),
      faceIds: Uint32Array.from(this.#faceIds),
    };
  }
}
