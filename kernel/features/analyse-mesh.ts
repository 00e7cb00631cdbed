/**
 * Face analysis of a triangle mesh (STL): the mesh is segmented into planar and cylindrical
 * regions, which then stand in for B-rep faces in the same PartAnalysis (stepEntity null,
 * surface "plane", "cylinder" or "other"). Pure TypeScript, no OCCT.
 *
 * 1. Vertices are welded by exact position (STL repeats shared corners bit for bit), and each
 *    triangle edge is paired with the one running the other way in its neighbour.
 * 2. Planar regions grow from the largest triangles over neighbours whose normal is within
 *    `planarAngleRad` of the region's plane (plus what the triangle's coordinates can resolve:
 *    a sliver's normal is noisy) and whose corners lie within `fitDistanceMm` of it.
 * 3. A tessellated cylinder is a band of narrow planar regions meeting at small creases. From two
 *    such regions meeting at a crease below `facetAngleRad`, a cylinder grows over neighbours
 *    whose normals are perpendicular to its axis and whose corners lie on its circle (within
 *    `fitDistanceMm`); it needs three regions at least (two always fit a circle). Its axis is
 *    refitted from all its normals and its circle from all its corners.
 * 4. Runs of small regions (1-2 triangles) left over that meet at small creases become one
 *    "other" region (spheres, tori, free-form blends).
 *
 * Region boundaries become edges: one per connected chain of mesh edges between the same two
 * regions, with the convexity of (nA x nB) . t along it (types.ts), where a plane's normal is its
 * fitted normal and a cylinder's the radial direction of its fitted axis at the edge, so a plane
 * tangent to a cylinder comes out smooth.
 *
 * The steps live in mesh-analysis/: mesh-geometry.ts (1), grow-regions.ts (2-4, with the fits of
 * cylinder-fit.ts), describe-region.ts (faces) and boundary-edges.ts (edges).
 */
import type { AnalysisOptions, AnalysisWarning, MeshAnalysis } from "./types.ts";
import type { Region } from "./mesh-analysis/region.ts";
import type { TriangleMesh } from "../mesh/types.ts";
import { DEFAULT_BUDGET_MS } from "./analyse-brep.ts";
import { GeometryError } from "../geometry-error.ts";
import { stepTimer } from "../step-timer.ts";
import { adoptDegenerate, growCylinders, growPlanes, mergeFreeForm } from "./mesh-analysis/grow-regions.ts";
import { boundaryEdges } from "./mesh-analysis/boundary-edges.ts";
import { buildAdjacency, topologyWarnings, unionOfBoxes } from "./graph.ts";
import { describeRegion } from "./mesh-analysis/describe-region.ts";
import { meshGeometry } from "./mesh-analysis/mesh-geometry.ts";

export interface MeshAnalysisOptions extends AnalysisOptions {
  /** radians; default 0.5 degree */
  planarAngleRad?: number;
  /** mm; default 1e-5 of the bounding box diagonal, at least 0.001 mm */
  fitDistanceMm?: number;
  /** the largest crease between two facets of one curved surface, radians; default 30 degrees */
  facetAngleRad?: number;
}

export const DEFAULT_MESH_SMOOTH_ANGLE_RAD = (2 * Math.PI) / 180;

const DEFAULT_PLANAR_ANGLE_RAD = (0.5 * Math.PI) / 180;

const DEFAULT_FACET_ANGLE_RAD = (30 * Math.PI) / 180;

/** relative resolution of the coordinates (float32 / 7 printed digits), times the box diagonal */
const COORDINATE_NOISE = 1e-6;

class BudgetExceeded extends Error {}

/** Segments `mesh` (outward, counter-clockwise triangles) into faces and analyses them. */
export function analyseMesh(mesh: TriangleMesh, options: MeshAnalysisOptions = {}): MeshAnalysis {
  const started = performance.now();
  const deadline = options.deadline ?? started + (options.budgetMs ?? DEFAULT_BUDGET_MS);
  const partial = options.onTimeout === "partial";
  const warnings: AnalysisWarning[] = [];
  const timings: Record<string, number> = {};
  let complete = true;
  const checkBudget = (stage: string): void => {
    if (performance.now() <= deadline) return;
    if (partial) {
      complete = false;
      warnings.push({
        code: "analysis_incomplete",
        message: `The time budget ran out while ${stage}; the analysis is incomplete.`,
      });
      throw new BudgetExceeded();
    }
    throw new GeometryError(
      "analysis_timeout",
      `Mesh analysis did not finish within its time budget (${Math.round(deadline - started)} ms): it was ${stage}.`,
      {
        budgetMs: Math.round(deadline - started),
        stage,
      },
    );
  };
  const time = stepTimer(timings);

  const geometry = time("topology", () => meshGeometry(mesh));
  const { triangleCount } = geometry;
  const diagonal = geometry.diagonal;
  const planarAngle = options.planarAngleRad ?? DEFAULT_PLANAR_ANGLE_RAD;
  const fitDistance = options.fitDistanceMm ?? Math.max(0.001, 1e-5 * diagonal);
  const facetAngle = options.facetAngleRad ?? DEFAULT_FACET_ANGLE_RAD;
  const smoothAngle = options.smoothAngleRad ?? DEFAULT_MESH_SMOOTH_ANGLE_RAD;
  const noise = COORDINATE_NOISE * diagonal;
  const tolerances = {
    smoothAngleRad: smoothAngle,
    samplesPerEdge: 0,
    planarAngleRad: planarAngle,
    fitDistanceMm: fitDistance,
  };

  let regions: Region[] = [];
  const regionOf = new Int32Array(triangleCount).fill(-1);
  try {
    time("planes", () =>
      growPlanes(geometry, regionOf, regions, planarAngle, fitDistance, noise, () =>
        checkBudget("growing planar regions"),
      ),
    );
    time("cylinders", () => {
      regions = growCylinders(geometry, regionOf, regions, planarAngle, facetAngle, fitDistance, () =>
        checkBudget("growing cylindrical regions"),
      );
      regions = mergeFreeForm(geometry, regionOf, regions, planarAngle, facetAngle);
    });
  } catch (error) {
    if (!(error instanceof BudgetExceeded)) throw error;
  }
  if (!complete) {
    return {
      source: "mesh",
      faces: [],
      edges: [],
      adjacency: [],
      bbox: geometry.bbox,
      volume: null,
      closed: false,
      complete,
      warnings,
      tolerances,
      timings,
      triangleRegion: new Uint32Array(triangleCount),
    };
  }

  // number the regions by decreasing area; degenerate triangles join a neighbour's region
  const order = regions
    .map((_, index) => index)
    .sort((a, b) => (regions[b] as Region).area - (regions[a] as Region).area);
  const idOf = new Int32Array(regions.length);
  for (const [id, index] of order.entries()) idOf[index] = id;
  regions = order.map((index) => regions[index] as Region);
  for (let t = 0; t < triangleCount; t++)
    if ((regionOf[t] as number) >= 0) regionOf[t] = idOf[regionOf[t] as number] as number;
  adoptDegenerate(geometry, regionOf, regions);

  const faces = time("faces", () => regions.map((region, id) => describeRegion(geometry, region, id)));
  const edges = time("edges", () => boundaryEdges(geometry, regionOf, regions, faces, smoothAngle, fitDistance));
  const adjacency = buildAdjacency(edges);
  topologyWarnings(edges, warnings);
  if (geometry.inverted) {
    warnings.push({
      code: "inverted_mesh",
      message: "Every triangle faced into the material; the mesh was taken the other way round.",
    });
  }
  if (geometry.inconsistentEdges > 0) {
    warnings.push({
      code: "non_manifold_mesh",
      message: `${geometry.inconsistentEdges} mesh edges are shared by more than two triangles or by two facing opposite ways; regions do not join across them.`,
    });
  }
  const closed =
    faces.length > 0 && edges.every((edge) => edge.topology !== "free" && edge.topology !== "non_manifold");
  timings.total = performance.now() - started;
  return {
    source: "mesh",
    faces,
    edges,
    adjacency,
    bbox: unionOfBoxes(faces.map((face) => face.bbox)) ?? geometry.bbox,
    volume: closed ? Math.abs(geometry.volume) : null,
    closed,
    complete,
    warnings,
    tolerances,
    timings,
    triangleRegion: Uint32Array.from(regionOf, (region) => Math.max(0, region)),
  };
}
