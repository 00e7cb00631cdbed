/** What ingesting a workpiece file yields (kernel/geometry/ingest.ts). */
import type { BoundingBox, TriangleMesh } from "../mesh/types.ts";

export type WorkpieceFormat = "step" | "stl" | "brep";

export interface IngestedWorkpiece {
  format: WorkpieceFormat;
  /** the length unit the file declared: "mm", "inch", "m", ...; "unknown" when it declares none (STL) */
  unitsRead: string;
  /** everything below is in millimetres */
  bbox: BoundingBox;
  /** mm³; null when the part is not a closed solid */
  volumeMm3: number | null;
  /** B-rep faces (STL: 0) */
  faceCount: number;
  triangleCount: number;
  closedSolid: boolean;
  /** machine-readable codes with a sentence each, e.g. {code: "open_mesh", message: ...} */
  warnings: { code: string; message: string }[];
  mesh: TriangleMesh;
  /** the shape in OCCT's native BREP format, in mm (STL: null) */
  brep: Uint8Array | null;
  /** what BRepMesh was given (STL: null, its triangles are the file's) */
  meshDeflection: MeshDeflection | null;
}

export interface MeshDeflection {
  /** chordal deviation, mm */
  linearMm: number;
  angularRad: number;
}
