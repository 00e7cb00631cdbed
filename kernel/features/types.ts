/**
 * The face-analysis contract: what `analyseSolid` (B-rep, analyse-brep.ts) and `analyseMesh`
 * (STL, analyse-mesh.ts) say about a part, and what feature recognition and setup planning read.
 * Both produce the same `PartAnalysis`; README.md in this folder explains the conventions.
 *
 * Units and frames: millimetres, square millimetres and radians, in the part's own coordinates
 * (the STEP file's, converted to mm). Every direction is a unit vector.
 *
 * Conventions in one place:
 * - Face ids are positions in TopExp_Explorer(shape, FACE) order: the same numbers as the mesh's
 *   `faceIds` (kernel/geometry/tessellate.ts). Mesh regions are numbered 0..n-1 by decreasing area.
 * - Edge ids are positions in TopExp::MapShapes(shape, EDGE) order: each distinct edge once,
 *   numbered by its first visit while exploring the faces in face-id order.
 * - "Outward" means pointing out of the material. Face orientation (FORWARD/REVERSED in the solid)
 *   is applied, and a solid whose faces all point inwards (negative volume) is turned around,
 *   with an `inverted_solid` warning.
 * - Convexity of an edge between faces A and B (A the lower face id): at sample points along the
 *   edge take the outward normals nA, nB and the edge tangent t oriented as the edge runs in A's
 *   wire (A's material on the left seen from outside). The signed normal angle
 *   phi = atan2((nA x nB) . t, nA . nB) is positive at a convex edge (the material angle is less
 *   than 180 degrees: an outside corner of a box), negative at a concave one (inside corner of a
 *   pocket, hole rim meeting its floor) and |phi| below the smooth tolerance is smooth (tangent:
 *   a fillet running into its faces).
 */
import type { BoundingBox } from "../mesh/types.ts";

import type { Vec3 } from "../math/vec3.ts";

export type { BoundingBox } from "../mesh/types.ts";
export type { Vec3 } from "../math/vec3.ts";

/** The geometric type of a face's surface (OCCT's GeomAbs_SurfaceType, lower case). */
export type SurfaceType =
  | "plane"
  | "cylinder"
  | "cone"
  | "sphere"
  | "torus"
  | "bspline"
  | "bezier"
  | "revolution"
  | "extrusion"
  | "offset"
  | "other";

/** The geometric type of an edge's 3D curve (GeomAbs_CurveType, lower case). */
export type CurveType =
  | "line"
  | "circle"
  | "ellipse"
  | "hyperbola"
  | "parabola"
  | "bezier"
  | "bspline"
  | "offset"
  | "other";

/** How the two faces at an edge meet, seen from the material (see the header). */
export type Convexity = "convex" | "concave" | "smooth";

/**
 * Which way a curved face bends, seen from the material: "convex" bulges out of the material (a
 * boss, the outside of a round, a shaft), "concave" bends into it (a hole, an internal fillet, a
 * slot's round end). For a torus it is the sense of the minor circle (the fillet's).
 */
export type Sense = "convex" | "concave";

export interface Axis {
  /** for cylinders and cones: the centroid projected onto the axis; spheres and tori: the centre */
  origin: Vec3;
  /** unit; its sign is the surface's own (as stored), not meaningful by itself */
  direction: Vec3;
}

export interface WireInfo {
  /** the face's outer boundary (BRepTools::OuterWire); the others bound holes in the face */
  outer: boolean;
  /** edge ids in the order the wire stores them (not necessarily end to end) */
  edges: number[];
}

export interface FaceAnalysis {
  /** TopExp_Explorer index (B-rep) or region index (mesh) */
  id: number;
  /** n of `#n = ADVANCED_FACE(...)` in the STEP file the face was read from; null otherwise */
  stepEntity: number | null;
  surface: SurfaceType;
  /** mm² */
  area: number;
  /** of the face's area (not of its surface) */
  centroid: Vec3;
  /** axis-aligned; B-rep: OCCT's box of the face, enlarged by the face's tolerance */
  bbox: BoundingBox;
  /** planes only: unit, out of the material */
  normal: Vec3 | null;
  /** cylinder, cone, sphere, torus, surface of revolution: the axis (see Axis) */
  axis: Axis | null;
  /** cylinder and sphere: the radius; cone: at axis.origin; torus: the major radius */
  radius: number | null;
  /** cone: the half angle between its side and its axis, radians, positive (0 < a < pi/2) */
  semiAngle: number | null;
  /** torus: the radius of the tube (the fillet radius of a torus blend) */
  minorRadius: number | null;
  /**
   * Curved faces: see Sense. Exact for cylinders, cones, spheres and tori; for other surfaces the
   * curvature at the face's parametric centre, and null when it is flat or saddle-shaped there.
   * Null for planes.
   */
  sense: Sense | null;
  /**
   * Cylinders and cones: the face's extent along axis.direction, as signed distances from
   * axis.origin [min, max] (its depth or height); null otherwise.
   */
  axialRange: [number, number] | null;
  /**
   * Cylinders, cones, spheres and tori: the angle the face spans around the axis, radians (2 pi:
   * a full hole or boss, pi: the round end of a slot); null otherwise.
   */
  sweepAngle: number | null;
  /** number of outer wires (1 for a normal face; 0 if OCCT found none) */
  outerWires: number;
  /** number of inner wires (holes through the face: a through hole's rim, a boss's footprint) */
  innerWires: number;
  wires: WireInfo[];
  /** ids of every edge bounding the face, ascending, each once */
  edges: number[];
}

/**
 * How an edge sits in the part:
 * - manifold: between two different faces (the normal case; has a convexity);
 * - seam: the same face on both sides (the closing line of a full cylinder);
 * - free: one face only (the part is an open shell there);
 * - non_manifold: more than two faces (or a seam face and another);
 * - degenerate: a point (a cone's apex, a sphere's pole).
 */
export type EdgeTopology = "manifold" | "seam" | "free" | "non_manifold" | "degenerate";

export interface EdgeAnalysis {
  id: number;
  curve: CurveType;
  /** mm */
  length: number;
  /** the ends of the edge's curve and its middle (by parameter), in the edge's own direction */
  start: Vec3;
  middle: Vec3;
  end: Vec3;
  /** circles: centre, unit axis (its sign as stored) and radius */
  circle: { center: Vec3; axis: Vec3; radius: number } | null;
  /**
   * face ids using the edge, each once, in ascending order; for a manifold edge faces[0] is the
   * face whose wire orients the tangent in the convexity test
   */
  faces: number[];
  topology: EdgeTopology;
  /** manifold edges (and seams: smooth); null for the others or when no sample could be taken */
  convexity: Convexity | null;
  /**
   * the material angle between the two faces across the edge, radians, mean over the samples:
   * below pi convex (pi/2 at a box corner), pi smooth, above pi concave (3 pi/2 at a pocket wall
   * meeting its floor); null when convexity is null
   */
  angle: number | null;
  /** whether every sample along the edge gave the same convexity */
  uniform: boolean;
}

/** One pair of faces that share at least one manifold edge. */
export interface FaceAdjacency {
  /** [a, b] with a < b */
  faces: [number, number];
  /** the shared manifold edges, ascending */
  edges: number[];
  /** total length of the shared edges, mm */
  length: number;
  /** of the shared edges, weighted by length (the longest kind wins) */
  convexity: Convexity;
  /** length-weighted mean material angle of the shared edges, radians (see EdgeAnalysis.angle) */
  angle: number;
  /** the shared edges do not all have the same convexity */
  mixed: boolean;
}

export interface AnalysisWarning {
  /** machine-readable: open_shell, non_manifold_edges, inverted_solid, face_analysis_failed, ... */
  code: string;
  message: string;
  faces?: number[];
  edges?: number[];
}

/** What the analysis used; README.md says why these values. */
export interface AnalysisTolerances {
  /** |phi| below this is smooth, radians */
  smoothAngleRad: number;
  /** samples per edge for the convexity test (one for a straight edge between two planes) */
  samplesPerEdge: number;
  /** mesh only: the largest angle between a triangle and its region's plane, radians */
  planarAngleRad?: number;
  /** mesh only: the largest distance of a vertex from its region's plane or cylinder, mm */
  fitDistanceMm?: number;
}

export interface PartAnalysis {
  /** "brep": exact faces of a solid; "mesh": regions segmented from triangles */
  source: "brep" | "mesh";
  faces: FaceAnalysis[];
  /** every edge (B-rep) or region boundary chain (mesh), by id */
  edges: EdgeAnalysis[];
  /** the attributed adjacency graph: one entry per pair of faces sharing manifold edges */
  adjacency: FaceAdjacency[];
  /** of the whole part; null when it has no faces */
  bbox: BoundingBox | null;
  /** mm³ when the part is closed (null otherwise): the divergence theorem over the faces */
  volume: number | null;
  /** every edge manifold or seam or degenerate (no free or non-manifold edge) */
  closed: boolean;
  /** false when the time budget ran out and the caller asked for what was done (see options) */
  complete: boolean;
  warnings: AnalysisWarning[];
  tolerances: AnalysisTolerances;
  /** milliseconds per step */
  timings: Record<string, number>;
}

/** A mesh analysis also says which region each triangle went to. */
export interface MeshAnalysis extends PartAnalysis {
  source: "mesh";
  /** per triangle of the input mesh: its face (region) id */
  triangleRegion: Uint32Array;
}

export interface AnalysisOptions {
  /** radians; default 1 degree (see README.md) */
  smoothAngleRad?: number;
  /** default 5 */
  samplesPerEdge?: number;
  /** milliseconds from the call; default 20 000 */
  budgetMs?: number;
  /** absolute `performance.now()` time to stop by; wins over budgetMs (lets a caller count reading in) */
  deadline?: number;
  /** when the budget runs out: throw GeometryError("analysis_timeout") (default) or return what was done */
  onTimeout?: "throw" | "partial";
}
