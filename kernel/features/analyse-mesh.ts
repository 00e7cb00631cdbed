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
 */
import { weldByPosition } from "../geometry/mesh-metrics.ts";
import type { TriangleMesh } from "../mesh/types.ts";
import { buildAdjacency, ConvexityVote, topologyWarnings, unionOfBoxes } from "./graph.ts";
import { DEFAULT_BUDGET_MS } from "./analyse-brep.ts";
import { GeometryError } from "../geometry/types.ts";
import { add, angleBetween, cross, distance, dot, normalise, scale, sub } from "../geometry/vec3.ts";
import type {
  AnalysisOptions,
  AnalysisWarning,
  BoundingBox,
  CurveType,
  EdgeAnalysis,
  EdgeTopology,
  FaceAnalysis,
  MeshAnalysis,
  Sense,
  Vec3,
  WireInfo,
} from "./types.ts";

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
/** a triangle's normal is never trusted beyond this when judging planarity */
const MAX_PLANAR_ANGLE_RAD = (5 * Math.PI) / 180;
const MIN_CYLINDER_REGIONS = 3;
/** regions of at most this many triangles may join an "other" (free-form) region */
const SMALL_REGION_TRIANGLES = 2;

type RegionKind = "plane" | "cylinder" | "other";

interface Cylinder {
  /** unit */
  axis: Vec3;
  /** a point on the axis */
  point: Vec3;
  radius: number;
  /** +1: normals point away from the axis (convex), -1 towards it */
  sense: number;
}

interface Region {
  kind: RegionKind;
  triangles: number[];
  area: number;
  normal: Vec3;
  cylinder: Cylinder | null;
}

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
  const time = <T>(step: string, work: () => T): T => {
    const t0 = performance.now();
    try {
      return work();
    } finally {
      timings[step] = (timings[step] ?? 0) + (performance.now() - t0);
    }
  };

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
  order.forEach((index, id) => (idOf[index] = id));
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

// ---------------------------------------------------------------------------------------------
// the mesh as welded triangles with neighbours

interface MeshGeometry {
  triangleCount: number;
  /** welded vertex positions, doubles */
  points: Float64Array;
  /** three welded vertex ids per triangle */
  corners: Uint32Array;
  /** unit normal per triangle (0 for a degenerate one) */
  normals: Float64Array;
  areas: Float64Array;
  /** 2 area / longest side: how well the triangle's normal is resolved */
  heights: Float64Array;
  degenerate: Uint8Array;
  /** per half-edge 3 t + k (corner k to k + 1): the opposite half-edge, -1 free, -2 non-manifold */
  twin: Int32Array;
  inconsistentEdges: number;
  /** the triangles faced inwards and were turned around */
  inverted: boolean;
  bbox: BoundingBox | null;
  diagonal: number;
  volume: number;
}

function meshGeometry(mesh: TriangleMesh): MeshGeometry {
  const { vertexOf, count } = weldByPosition(mesh.positions);
  const points = new Float64Array(count * 3);
  for (let v = 0; v < vertexOf.length; v++) {
    const w = vertexOf[v] as number;
    points[3 * w] = mesh.positions[3 * v] as number;
    points[3 * w + 1] = mesh.positions[3 * v + 1] as number;
    points[3 * w + 2] = mesh.positions[3 * v + 2] as number;
  }
  const triangleCount = Math.floor(mesh.indices.length / 3);
  const corners = new Uint32Array(triangleCount * 3);
  for (let i = 0; i < triangleCount * 3; i++) corners[i] = vertexOf[mesh.indices[i] as number] as number;

  const normals = new Float64Array(triangleCount * 3);
  const areas = new Float64Array(triangleCount);
  const heights = new Float64Array(triangleCount);
  const degenerate = new Uint8Array(triangleCount);
  let volume = 0;
  for (let t = 0; t < triangleCount; t++) {
    const a = 3 * (corners[3 * t] as number),
      b = 3 * (corners[3 * t + 1] as number),
      c = 3 * (corners[3 * t + 2] as number);
    const ux = points[b]! - points[a]!,
      uy = points[b + 1]! - points[a + 1]!,
      uz = points[b + 2]! - points[a + 2]!;
    const vx = points[c]! - points[a]!,
      vy = points[c + 1]! - points[a + 1]!,
      vz = points[c + 2]! - points[a + 2]!;
    const nx = uy * vz - uz * vy,
      ny = uz * vx - ux * vz,
      nz = ux * vy - uy * vx;
    const length = Math.hypot(nx, ny, nz);
    const longest = Math.max(
      Math.hypot(ux, uy, uz),
      Math.hypot(vx, vy, vz),
      Math.hypot(points[c]! - points[b]!, points[c + 1]! - points[b + 1]!, points[c + 2]! - points[b + 2]!),
    );
    areas[t] = length / 2;
    heights[t] = longest > 0 ? length / longest : 0;
    if (!(length > 0) || a === b || b === c || a === c) {
      degenerate[t] = 1;
      continue;
    }
    normals[3 * t] = nx / length;
    normals[3 * t + 1] = ny / length;
    normals[3 * t + 2] = nz / length;
    volume +=
      (points[a]! * (points[b + 1]! * points[c + 2]! - points[b + 2]! * points[c + 1]!) +
        points[a + 1]! * (points[b + 2]! * points[c]! - points[b]! * points[c + 2]!) +
        points[a + 2]! * (points[b]! * points[c + 1]! - points[b + 1]! * points[c]!)) /
      6;
  }

  let { twin, inconsistentEdges } = pairHalfEdges(corners, degenerate, triangleCount, count);
  // a closed mesh whose triangles face inwards: turn it outside out (stl.ts does so already)
  let inverted = false;
  if (
    volume < 0 &&
    inconsistentEdges === 0 &&
    twin.every((other, h) => other >= 0 || degenerate[Math.floor(h / 3)] === 1)
  ) {
    inverted = true;
    volume = -volume;
    for (let t = 0; t < triangleCount; t++) {
      const b = corners[3 * t + 1] as number;
      corners[3 * t + 1] = corners[3 * t + 2] as number;
      corners[3 * t + 2] = b;
      for (let i = 0; i < 3; i++) normals[3 * t + i] = -(normals[3 * t + i] as number);
    }
    ({ twin, inconsistentEdges } = pairHalfEdges(corners, degenerate, triangleCount, count));
  }

  let bbox: BoundingBox | null = null;
  if (count > 0) {
    const min: Vec3 = [Infinity, Infinity, Infinity],
      max: Vec3 = [-Infinity, -Infinity, -Infinity];
    for (let v = 0; v < count; v++) {
      for (let axis = 0; axis < 3; axis++) {
        const value = points[3 * v + axis] as number;
        if (value < min[axis]!) min[axis] = value;
        if (value > max[axis]!) max[axis] = value;
      }
    }
    bbox = { min, max };
  }
  const diagonal =
    bbox === null ? 0 : Math.hypot(bbox.max[0] - bbox.min[0], bbox.max[1] - bbox.min[1], bbox.max[2] - bbox.min[2]);
  return {
    triangleCount,
    points,
    corners,
    normals,
    areas,
    heights,
    degenerate,
    twin,
    inconsistentEdges,
    bbox,
    diagonal,
    volume,
    inverted,
  };
}

/** Pairs each half-edge with the one running the other way (see MeshGeometry.twin). */
function pairHalfEdges(
  corners: Uint32Array,
  degenerate: Uint8Array,
  triangleCount: number,
  count: number,
): { twin: Int32Array; inconsistentEdges: number } {
  // key = low * count + high
  const twin = new Int32Array(triangleCount * 3).fill(-1);
  const firstOf = new Map<number, number>();
  const state = new Map<number, number>(); // key -> number of half-edges seen
  let inconsistentEdges = 0;
  for (let h = 0; h < triangleCount * 3; h++) {
    if (degenerate[Math.floor(h / 3)]) continue;
    const a = corners[h] as number,
      b = corners[h - (h % 3) + (((h % 3) + 1) % 3)] as number;
    const key = a < b ? a * count + b : b * count + a;
    const seen = state.get(key) ?? 0;
    state.set(key, seen + 1);
    if (seen === 0) {
      firstOf.set(key, h);
    } else if (seen === 1) {
      const other = firstOf.get(key) as number;
      if ((corners[other] as number) === b) {
        twin[h] = other;
        twin[other] = h;
      } else {
        // two triangles running the edge the same way: one of them is flipped
        twin[h] = -2;
        twin[other] = -2;
        inconsistentEdges++;
      }
    } else {
      const other = firstOf.get(key) as number;
      if (seen === 2) {
        const paired = twin[other] as number;
        if (paired >= 0) twin[paired] = -2;
        twin[other] = -2;
        inconsistentEdges++;
      }
      twin[h] = -2;
    }
  }
  return { twin, inconsistentEdges };
}

/** The triangle across half-edge h, or -1. */
function across(geometry: MeshGeometry, h: number): number {
  const other = geometry.twin[h] as number;
  return other >= 0 ? Math.floor(other / 3) : -1;
}

function normalOf(geometry: MeshGeometry, t: number): Vec3 {
  return [
    geometry.normals[3 * t] as number,
    geometry.normals[3 * t + 1] as number,
    geometry.normals[3 * t + 2] as number,
  ];
}

function pointOf(geometry: MeshGeometry, v: number): Vec3 {
  return [geometry.points[3 * v] as number, geometry.points[3 * v + 1] as number, geometry.points[3 * v + 2] as number];
}

// ---------------------------------------------------------------------------------------------
// segmentation

function growPlanes(
  geometry: MeshGeometry,
  regionOf: Int32Array,
  regions: Region[],
  planarAngle: number,
  fitDistance: number,
  noise: number,
  checkBudget: () => void,
): void {
  const { triangleCount, normals, areas, heights, degenerate, corners, points } = geometry;
  const seeds = Array.from({ length: triangleCount }, (_, t) => t).sort(
    (a, b) => (areas[b] as number) - (areas[a] as number),
  );
  const queue = new Int32Array(triangleCount);
  let checked = 0;
  for (const seed of seeds) {
    if ((regionOf[seed] as number) >= 0 || degenerate[seed]) continue;
    if (++checked % 1024 === 0) checkBudget();
    const index = regions.length;
    // running sums: area-weighted normal and area-weighted centroid
    let snx = 0,
      sny = 0,
      snz = 0,
      scx = 0,
      scy = 0,
      scz = 0,
      sa = 0;
    let nx = 0,
      ny = 0,
      nz = 0,
      d = 0;
    const triangles: number[] = [];
    const take = (t: number): void => {
      regionOf[t] = index;
      triangles.push(t);
      const area = areas[t] as number;
      snx += area * normals[3 * t]!;
      sny += area * normals[3 * t + 1]!;
      snz += area * normals[3 * t + 2]!;
      const a = 3 * corners[3 * t]!,
        b = 3 * corners[3 * t + 1]!,
        c = 3 * corners[3 * t + 2]!;
      scx += (area * (points[a]! + points[b]! + points[c]!)) / 3;
      scy += (area * (points[a + 1]! + points[b + 1]! + points[c + 1]!)) / 3;
      scz += (area * (points[a + 2]! + points[b + 2]! + points[c + 2]!)) / 3;
      sa += area;
      const length = Math.hypot(snx, sny, snz) || 1;
      nx = snx / length;
      ny = sny / length;
      nz = snz / length;
      d = (nx * scx + ny * scy + nz * scz) / sa;
    };
    const fits = (t: number): boolean => {
      const cos = nx * normals[3 * t]! + ny * normals[3 * t + 1]! + nz * normals[3 * t + 2]!;
      const height = heights[t] as number;
      const allowed = Math.min(
        MAX_PLANAR_ANGLE_RAD,
        planarAngle + (height > 0 ? noise / height : MAX_PLANAR_ANGLE_RAD),
      );
      if (cos < Math.cos(allowed)) return false;
      for (let k = 0; k < 3; k++) {
        const v = 3 * corners[3 * t + k]!;
        if (Math.abs(nx * points[v]! + ny * points[v + 1]! + nz * points[v + 2]! - d) > fitDistance) return false;
      }
      return true;
    };
    take(seed);
    let head = 0,
      tail = 0;
    queue[tail++] = seed;
    while (head < tail) {
      const t = queue[head++] as number;
      for (let k = 0; k < 3; k++) {
        const next = across(geometry, 3 * t + k);
        if (next < 0 || (regionOf[next] as number) >= 0 || degenerate[next]) continue;
        if (!fits(next)) continue;
        take(next);
        queue[tail++] = next;
      }
    }
    regions.push({ kind: "plane", triangles, area: sa, normal: [nx, ny, nz], cylinder: null });
  }
}

/** Neighbouring regions of each region, with the angle between their normals (planar regions). */
function regionNeighbours(geometry: MeshGeometry, regionOf: Int32Array, regions: Region[]): Map<number, number>[] {
  const neighbours = regions.map(() => new Map<number, number>());
  for (let h = 0; h < geometry.triangleCount * 3; h++) {
    const t = Math.floor(h / 3);
    const other = across(geometry, h);
    if (other < 0) continue;
    const a = regionOf[t] as number,
      b = regionOf[other] as number;
    if (a < 0 || b < 0 || a === b || neighbours[a]!.has(b)) continue;
    const angle = angleBetween((regions[a] as Region).normal, (regions[b] as Region).normal);
    neighbours[a]!.set(b, angle);
    neighbours[b]!.set(a, angle);
  }
  return neighbours;
}

function growCylinders(
  geometry: MeshGeometry,
  regionOf: Int32Array,
  planes: Region[],
  planarAngle: number,
  facetAngle: number,
  fitDistance: number,
  checkBudget: () => void,
): Region[] {
  const neighbours = regionNeighbours(geometry, regionOf, planes);
  const cylinderOf = new Int32Array(planes.length).fill(-1);
  const cylinders: { members: number[]; circle: CircleFit }[] = [];
  const isCrease = (angle: number): boolean => angle > planarAngle && angle <= facetAngle;
  const verticesOf = (region: number): number[] => {
    const seen = new Set<number>();
    for (const t of (planes[region] as Region).triangles)
      for (let k = 0; k < 3; k++) seen.add(geometry.corners[3 * t + k] as number);
    return [...seen];
  };
  // smallest first: facets of curved surfaces are narrow
  const order = planes.map((_, index) => index).sort((a, b) => (planes[a] as Region).area - (planes[b] as Region).area);
  for (const start of order) {
    if ((cylinderOf[start] as number) >= 0) continue;
    checkBudget();
    for (const [next, angle] of neighbours[start] as Map<number, number>) {
      if ((cylinderOf[next] as number) >= 0 || !isCrease(angle)) continue;
      const axis = normalise(cross((planes[start] as Region).normal, (planes[next] as Region).normal));
      const circle = new CircleFit(axis);
      for (const v of [...verticesOf(start), ...verticesOf(next)]) circle.add(pointOf(geometry, v));
      if (!circle.fitted() || circle.maxResidual() > fitDistance) continue;
      const members = [start, next];
      const inCylinder = new Set(members);
      const queue = [start, next];
      while (queue.length > 0) {
        const region = queue.shift() as number;
        for (const [candidate, crease] of neighbours[region] as Map<number, number>) {
          if (inCylinder.has(candidate) || (cylinderOf[candidate] as number) >= 0 || !isCrease(crease)) continue;
          const normal = (planes[candidate] as Region).normal;
          if (Math.abs(dot(normal, axis)) > Math.sin(Math.max(planarAngle, 1e-3) * 2)) continue;
          const vertices = verticesOf(candidate).map((v) => pointOf(geometry, v));
          if (vertices.some((p) => circle.residual(p) > fitDistance)) continue;
          for (const p of vertices) circle.add(p);
          inCylinder.add(candidate);
          members.push(candidate);
          queue.push(candidate);
        }
      }
      if (members.length < MIN_CYLINDER_REGIONS) continue;
      const index = cylinders.length;
      for (const member of members) cylinderOf[member] = index;
      cylinders.push({ members, circle });
      break;
    }
  }

  const result: Region[] = [];
  const newIndex = new Int32Array(planes.length).fill(-1);
  planes.forEach((region, index) => {
    if ((cylinderOf[index] as number) >= 0) return;
    newIndex[index] = result.length;
    result.push(region);
  });
  for (const cylinder of cylinders) {
    const index = result.length;
    const triangles: number[] = [];
    let area = 0;
    for (const member of cylinder.members) {
      const region = planes[member] as Region;
      triangles.push(...region.triangles);
      area += region.area;
      newIndex[member] = index;
    }
    result.push({ kind: "cylinder", triangles, area, normal: [0, 0, 0], cylinder: fitCylinder(geometry, triangles) });
  }
  for (let t = 0; t < regionOf.length; t++)
    if ((regionOf[t] as number) >= 0) regionOf[t] = newIndex[regionOf[t] as number] as number;
  return result;
}

/** Joins runs of small planar regions meeting at small creases into free-form ("other") regions. */
function mergeFreeForm(
  geometry: MeshGeometry,
  regionOf: Int32Array,
  regions: Region[],
  planarAngle: number,
  facetAngle: number,
): Region[] {
  const neighbours = regionNeighbours(geometry, regionOf, regions);
  const small = (index: number): boolean => {
    const region = regions[index] as Region;
    return region.kind === "plane" && region.triangles.length <= SMALL_REGION_TRIANGLES;
  };
  const parent = regions.map((_, index) => index);
  const find = (x: number): number => {
    while (parent[x] !== x) x = parent[x] = parent[parent[x] as number] as number;
    return x;
  };
  regions.forEach((_, index) => {
    if (!small(index)) return;
    for (const [other, angle] of neighbours[index] as Map<number, number>) {
      if (small(other) && angle > planarAngle && angle <= facetAngle) parent[find(index)] = find(other);
    }
  });
  const groups = new Map<number, number[]>();
  regions.forEach((_, index) => {
    const root = find(index);
    let group = groups.get(root);
    if (group === undefined) groups.set(root, (group = []));
    group.push(index);
  });
  const result: Region[] = [];
  const newIndex = new Int32Array(regions.length);
  for (const group of groups.values()) {
    const index = result.length;
    for (const member of group) newIndex[member] = index;
    if (group.length < 3) {
      for (const member of group) {
        newIndex[member] = result.length;
        result.push(regions[member] as Region);
      }
      continue;
    }
    const triangles = group.flatMap((member) => (regions[member] as Region).triangles);
    const area = group.reduce((sum, member) => sum + (regions[member] as Region).area, 0);
    result.push({ kind: "other", triangles, area, normal: [0, 0, 0], cylinder: null });
  }
  for (let t = 0; t < regionOf.length; t++)
    if ((regionOf[t] as number) >= 0) regionOf[t] = newIndex[regionOf[t] as number] as number;
  return result;
}

/** Degenerate triangles (no area, no normal) join the region of a triangle sharing a corner. */
function adoptDegenerate(geometry: MeshGeometry, regionOf: Int32Array, regions: Region[]): void {
  const orphans: number[] = [];
  for (let t = 0; t < geometry.triangleCount; t++) if ((regionOf[t] as number) < 0) orphans.push(t);
  if (orphans.length === 0) return;
  const byVertex = new Map<number, number[]>();
  for (let t = 0; t < geometry.triangleCount; t++) {
    for (let k = 0; k < 3; k++) {
      const v = geometry.corners[3 * t + k] as number;
      let list = byVertex.get(v);
      if (list === undefined) byVertex.set(v, (list = []));
      list.push(t);
    }
  }
  let changed = true;
  while (changed) {
    changed = false;
    for (const t of orphans) {
      if ((regionOf[t] as number) >= 0) continue;
      for (let k = 0; k < 3 && (regionOf[t] as number) < 0; k++) {
        for (const u of byVertex.get(geometry.corners[3 * t + k] as number) ?? []) {
          const region = regionOf[u] as number;
          if (u === t || region < 0) continue;
          regionOf[t] = region;
          (regions[region] as Region).triangles.push(t);
          changed = true;
          break;
        }
      }
    }
  }
  for (const t of orphans) if ((regionOf[t] as number) < 0 && regions.length > 0) regionOf[t] = 0;
}

// ---------------------------------------------------------------------------------------------
// fitting

/** Kasa's algebraic circle fit of points projected along `axis`, with running sums. */
class CircleFit {
  readonly e1: Vec3;
  readonly e2: Vec3;
  #n = 0;
  #su = 0;
  #sv = 0;
  #suu = 0;
  #svv = 0;
  #suv = 0;
  #sw = 0;
  #swu = 0;
  #swv = 0;
  #centre: [number, number] = [0, 0];
  #radius = NaN;
  #points: [number, number][] = [];

  constructor(readonly axis: Vec3) {
    [this.e1, this.e2] = basisAround(axis);
  }

  #project(p: Vec3): [number, number] {
    return [dot(p, this.e1), dot(p, this.e2)];
  }

  add(p: Vec3): void {
    const [u, v] = this.#project(p);
    const w = u * u + v * v;
    this.#n++;
    this.#su += u;
    this.#sv += v;
    this.#suu += u * u;
    this.#svv += v * v;
    this.#suv += u * v;
    this.#sw += w;
    this.#swu += w * u;
    this.#swv += w * v;
    this.#points.push([u, v]);
    this.#solve();
  }

  /** solves u^2 + v^2 + D u + E v + F = 0 in the least-squares sense */
  #solve(): void {
    const n = this.#n;
    if (n < 3) return;
    // normal equations of [u v 1] [D E F]^T = -w
    const m = [
      [this.#suu, this.#suv, this.#su],
      [this.#suv, this.#svv, this.#sv],
      [this.#su, this.#sv, n],
    ];
    const r = [-this.#swu, -this.#swv, -this.#sw];
    const solution = solve3(m, r);
    if (solution === null) {
      this.#radius = NaN;
      return;
    }
    const [D, E, F] = solution;
    const cu = -D / 2,
      cv = -E / 2;
    const squared = cu * cu + cv * cv - F;
    this.#centre = [cu, cv];
    this.#radius = squared > 0 ? Math.sqrt(squared) : NaN;
  }

  fitted(): boolean {
    return Number.isFinite(this.#radius);
  }

  get radius(): number {
    return this.#radius;
  }

  /** the circle's centre, as a point of the plane through the origin perpendicular to the axis */
  centre(): Vec3 {
    return add(scale(this.e1, this.#centre[0]), scale(this.e2, this.#centre[1]));
  }

  residual(p: Vec3): number {
    if (!this.fitted()) return Infinity;
    const [u, v] = this.#project(p);
    return Math.abs(Math.hypot(u - this.#centre[0], v - this.#centre[1]) - this.#radius);
  }

  maxResidual(): number {
    if (!this.fitted()) return Infinity;
    let worst = 0;
    for (const [u, v] of this.#points)
      worst = Math.max(worst, Math.abs(Math.hypot(u - this.#centre[0], v - this.#centre[1]) - this.#radius));
    return worst;
  }
}

/** The cylinder through a set of triangles: axis from their normals, circle from their corners. */
function fitCylinder(geometry: MeshGeometry, triangles: number[]): Cylinder {
  // the axis is the direction the normals are most perpendicular to: the smallest eigenvector
  // of the area-weighted scatter of the normals
  const m = [0, 0, 0, 0, 0, 0, 0, 0, 0];
  let senseSum = 0;
  for (const t of triangles) {
    const area = geometry.areas[t] as number;
    const n = normalOf(geometry, t);
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) m[3 * i + j]! += area * n[i]! * n[j]!;
  }
  const axis = smallestEigenvector(m);
  const circle = new CircleFit(axis);
  const seen = new Set<number>();
  for (const t of triangles) {
    for (let k = 0; k < 3; k++) {
      const v = geometry.corners[3 * t + k] as number;
      if (seen.has(v)) continue;
      seen.add(v);
      circle.add(pointOf(geometry, v));
    }
  }
  const point = circle.centre();
  for (const t of triangles) {
    const centroid = triangleCentroid(geometry, t);
    const radial = radialFrom(centroid, point, axis);
    senseSum += (geometry.areas[t] as number) * dot(normalOf(geometry, t), radial);
  }
  return { axis, point, radius: circle.radius, sense: senseSum >= 0 ? 1 : -1 };
}

// ---------------------------------------------------------------------------------------------
// faces

function triangleCentroid(geometry: MeshGeometry, t: number): Vec3 {
  const a = pointOf(geometry, geometry.corners[3 * t] as number);
  const b = pointOf(geometry, geometry.corners[3 * t + 1] as number);
  const c = pointOf(geometry, geometry.corners[3 * t + 2] as number);
  return [(a[0] + b[0] + c[0]) / 3, (a[1] + b[1] + c[1]) / 3, (a[2] + b[2] + c[2]) / 3];
}

function describeRegion(geometry: MeshGeometry, region: Region, id: number): FaceAnalysis {
  let area = 0;
  const weighted: Vec3 = [0, 0, 0];
  const normalSum: Vec3 = [0, 0, 0];
  const min: Vec3 = [Infinity, Infinity, Infinity],
    max: Vec3 = [-Infinity, -Infinity, -Infinity];
  const vertices = new Set<number>();
  for (const t of region.triangles) {
    const a = geometry.areas[t] as number;
    const c = triangleCentroid(geometry, t);
    area += a;
    for (let i = 0; i < 3; i++) {
      weighted[i]! += a * c[i]!;
      normalSum[i]! += a * geometry.normals[3 * t + i]!;
    }
    for (let k = 0; k < 3; k++) vertices.add(geometry.corners[3 * t + k] as number);
  }
  for (const v of vertices) {
    for (let axis = 0; axis < 3; axis++) {
      const value = geometry.points[3 * v + axis] as number;
      if (value < min[axis]!) min[axis] = value;
      if (value > max[axis]!) max[axis] = value;
    }
  }
  const centroid: Vec3 = area > 0 ? scale(weighted, 1 / area) : triangleCentroid(geometry, region.triangles[0] ?? 0);
  const face: FaceAnalysis = {
    id,
    stepEntity: null,
    surface: region.kind,
    area,
    centroid,
    bbox: { min, max },
    normal: null,
    axis: null,
    radius: null,
    semiAngle: null,
    minorRadius: null,
    sense: null,
    axialRange: null,
    sweepAngle: null,
    outerWires: 0,
    innerWires: 0,
    wires: [],
    edges: [],
  };
  if (region.kind === "plane") {
    face.normal = normalise(normalSum);
    region.normal = face.normal;
  } else if (region.kind === "cylinder" && region.cylinder !== null) {
    const { axis, point, radius, sense } = region.cylinder;
    const origin = add(point, scale(axis, dot(sub(centroid, point), axis)));
    face.axis = { origin, direction: axis };
    face.radius = radius;
    face.sense = (sense > 0 ? "convex" : "concave") satisfies Sense;
    let low = Infinity,
      high = -Infinity;
    for (const v of vertices) {
      const along = dot(sub(pointOf(geometry, v), origin), axis);
      low = Math.min(low, along);
      high = Math.max(high, along);
    }
    face.axialRange = [low, high];
    face.sweepAngle = angularCoverage(geometry, region.triangles, origin, axis);
  }
  return face;
}

/** The angle around `axis` the triangles cover (the union of their angular spans). */
function angularCoverage(geometry: MeshGeometry, triangles: number[], origin: Vec3, axis: Vec3): number {
  const [e1, e2] = basisAround(axis);
  const spans: [number, number][] = [];
  for (const t of triangles) {
    const angles: number[] = [];
    for (let k = 0; k < 3; k++) {
      const p = sub(pointOf(geometry, geometry.corners[3 * t + k] as number), origin);
      angles.push(Math.atan2(dot(p, e2), dot(p, e1)));
    }
    // the shortest arc holding the three angles: the complement of the largest gap between them
    angles.sort((a, b) => a - b);
    const gaps = [angles[1]! - angles[0]!, angles[2]! - angles[1]!, angles[0]! + 2 * Math.PI - angles[2]!];
    const largest = gaps.indexOf(Math.max(...gaps));
    const from = angles[(largest + 1) % 3]!;
    const width = 2 * Math.PI - gaps[largest]!;
    spans.push([from, from + width]);
  }
  // union on the circle: normalise starts to [0, 2 pi), sort, merge, and wrap the end around
  const normalisedSpans = spans
    .map(([a, b]): [number, number] => {
      const start = ((a % (2 * Math.PI)) + 2 * Math.PI) % (2 * Math.PI);
      return [start, start + (b - a)];
    })
    .sort((x, y) => x[0] - y[0]);
  let covered = 0;
  let [currentStart, currentEnd] = normalisedSpans[0] ?? [0, 0];
  for (const [a, b] of normalisedSpans.slice(1)) {
    if (a <= currentEnd + 1e-9) currentEnd = Math.max(currentEnd, b);
    else {
      covered += currentEnd - currentStart;
      [currentStart, currentEnd] = [a, b];
    }
  }
  covered += currentEnd - currentStart;
  // an arc running past 2 pi overlaps the first ones
  const first = normalisedSpans[0];
  if (first !== undefined && currentEnd > 2 * Math.PI)
    covered -= Math.max(0, Math.min(currentEnd - 2 * Math.PI, first[1]) - first[0]);
  return Math.min(2 * Math.PI, covered);
}

// ---------------------------------------------------------------------------------------------
// edges between regions

interface MeshEdge {
  /** half-edge in the lower region's triangle (its direction orients the tangent) */
  h: number;
  a: number;
  b: number;
}

function boundaryEdges(
  geometry: MeshGeometry,
  regionOf: Int32Array,
  regions: Region[],
  faces: FaceAnalysis[],
  smoothAngle: number,
  fitDistance: number,
): EdgeAnalysis[] {
  const { corners, triangleCount } = geometry;
  // group mesh edges by (region a, region b), b = -1 free, -2 non-manifold
  const byPair = new Map<string, { a: number; b: number; edges: MeshEdge[] }>();
  const addEdge = (a: number, b: number, h: number): void => {
    const key = `${a}:${b}`;
    let group = byPair.get(key);
    if (group === undefined) byPair.set(key, (group = { a, b, edges: [] }));
    group.edges.push({ h, a, b });
  };
  const nonManifoldDone = new Set<string>();
  for (let h = 0; h < triangleCount * 3; h++) {
    const t = Math.floor(h / 3);
    if (geometry.degenerate[t]) continue;
    const a = regionOf[t] as number;
    const other = geometry.twin[h] as number;
    if (other >= 0) {
      const b = regionOf[Math.floor(other / 3)] as number;
      if (a < b) addEdge(a, b, h);
    } else if (other === -1) {
      addEdge(a, -1, h);
    } else {
      const v0 = corners[h] as number,
        v1 = corners[h - (h % 3) + (((h % 3) + 1) % 3)] as number;
      const key = `${Math.min(v0, v1)}:${Math.max(v0, v1)}:${a}`;
      if (nonManifoldDone.has(key)) continue;
      nonManifoldDone.add(key);
      addEdge(a, -2, h);
    }
  }

  const edges: EdgeAnalysis[] = [];
  const chainVertices = new Map<number, number[]>(); // edge id -> its vertices in order
  const groups = [...byPair.values()].sort((x, y) => x.a - y.a || x.b - y.b);
  for (const group of groups) {
    for (const chain of chainsOf(geometry, group.edges)) {
      const edge = describeChain(geometry, regions, chain, edges.length, group.a, group.b, smoothAngle, fitDistance);
      chainVertices.set(edge.analysis.id, edge.path);
      edges.push(edge.analysis);
    }
  }
  // wires: per face, its boundary chains grouped into loops (connected through shared vertices)
  for (const face of faces) face.edges = [];
  for (const edge of edges) for (const faceId of edge.faces) faces[faceId]?.edges.push(edge.id);
  for (const face of faces) {
    face.edges.sort((x, y) => x - y);
    face.wires = loopsOf(geometry, face.edges, chainVertices);
    face.outerWires = face.wires.filter((wire) => wire.outer).length;
    face.innerWires = face.wires.length - face.outerWires;
  }
  return edges;
}

/** Splits mesh edges into chains connected through shared vertices. */
function chainsOf(geometry: MeshGeometry, edges: MeshEdge[]): MeshEdge[][] {
  const parent = new Map<number, number>();
  const find = (x: number): number => {
    let root = x;
    while (parent.get(root) !== undefined && parent.get(root) !== root) root = parent.get(root) as number;
    parent.set(x, root);
    return root;
  };
  const ends = (edge: MeshEdge): [number, number] => {
    const h = edge.h;
    return [geometry.corners[h] as number, geometry.corners[h - (h % 3) + (((h % 3) + 1) % 3)] as number];
  };
  for (const edge of edges) {
    const [v0, v1] = ends(edge);
    if (!parent.has(v0)) parent.set(v0, v0);
    if (!parent.has(v1)) parent.set(v1, v1);
    const r0 = find(v0),
      r1 = find(v1);
    if (r0 !== r1) parent.set(r0, r1);
  }
  const chains = new Map<number, MeshEdge[]>();
  for (const edge of edges) {
    const root = find(ends(edge)[0]);
    let chain = chains.get(root);
    if (chain === undefined) chains.set(root, (chain = []));
    chain.push(edge);
  }
  return [...chains.values()];
}

/** The outward normal of a region at point p, or of triangle t for a free-form region. */
function regionNormalAt(geometry: MeshGeometry, region: Region, p: Vec3, t: number): Vec3 {
  if (region.kind === "plane") return region.normal;
  if (region.kind === "cylinder" && region.cylinder !== null) {
    const { axis, point, sense } = region.cylinder;
    return scale(normalise(radialFrom(p, point, axis)), sense);
  }
  return normalOf(geometry, t);
}

function describeChain(
  geometry: MeshGeometry,
  regions: Region[],
  chain: MeshEdge[],
  id: number,
  a: number,
  b: number,
  smoothAngle: number,
  fitDistance: number,
): { analysis: EdgeAnalysis; path: number[] } {
  const topology: EdgeTopology = b >= 0 ? "manifold" : b === -1 ? "free" : "non_manifold";
  const vote = new ConvexityVote(smoothAngle);
  let length = 0;
  const next = new Map<number, number>(); // vertex -> following vertex along the chain (a's direction)
  const indegree = new Map<number, number>();
  for (const edge of chain) {
    const h = edge.h;
    const t = Math.floor(h / 3);
    const v0 = geometry.corners[h] as number,
      v1 = geometry.corners[h - (h % 3) + (((h % 3) + 1) % 3)] as number;
    next.set(v0, v1);
    indegree.set(v1, (indegree.get(v1) ?? 0) + 1);
    const p0 = pointOf(geometry, v0),
      p1 = pointOf(geometry, v1);
    const segment = sub(p1, p0);
    const segmentLength = Math.hypot(segment[0], segment[1], segment[2]);
    length += segmentLength;
    if (topology !== "manifold" || !(segmentLength > 0)) continue;
    const middle = scale(add(p0, p1), 0.5);
    const other = Math.floor((geometry.twin[h] as number) / 3);
    const na = regionNormalAt(geometry, regions[a] as Region, middle, t);
    const nb = regionNormalAt(geometry, regions[b] as Region, middle, other);
    const tangent = scale(segment, 1 / segmentLength);
    vote.add(Math.atan2(dot(cross(na, nb), tangent), dot(na, nb)), segmentLength);
  }
  // walk the chain from a vertex nothing leads to (or anywhere on a loop)
  const start = [...next.keys()].find((v) => !indegree.has(v)) ?? (next.keys().next().value as number);
  const path = [start];
  const visited = new Set([start]);
  for (let v = next.get(start); v !== undefined && !visited.has(v); v = next.get(v)) {
    path.push(v);
    visited.add(v);
  }
  const closedLoop = next.get(path[path.length - 1] as number) === start;
  if (closedLoop) path.push(start);
  const points = path.map((v) => pointOf(geometry, v));
  // the middle by length along the walk
  let middle = points[0] as Vec3;
  let walked = 0;
  const walkedLength = points.slice(1).reduce((sum, p, i) => sum + distance(p, points[i] as Vec3), 0);
  for (let i = 1; i < points.length; i++) {
    const step = distance(points[i] as Vec3, points[i - 1] as Vec3);
    if (walked + step >= walkedLength / 2) {
      const f = step > 0 ? (walkedLength / 2 - walked) / step : 0;
      middle = add(points[i - 1] as Vec3, scale(sub(points[i] as Vec3, points[i - 1] as Vec3), f));
      break;
    }
    walked += step;
  }
  const shape = chainCurve(
    points,
    closedLoop,
    regions[a] as Region,
    b >= 0 ? (regions[b] as Region) : null,
    fitDistance,
  );
  const measured = topology === "manifold" ? vote.result() : null;
  const analysis: EdgeAnalysis = {
    id,
    curve: shape.curve,
    length,
    start: points[0] as Vec3,
    middle,
    end: points[points.length - 1] as Vec3,
    circle: shape.circle,
    faces: b >= 0 ? [a, b] : [a],
    topology,
    convexity: measured?.convexity ?? null,
    angle: measured?.angle ?? null,
    uniform: measured?.uniform ?? true,
  };
  return { analysis, path };
}

/** Line, circle (in a plane of one of the two regions, or around a cylinder's axis) or other. */
function chainCurve(
  points: Vec3[],
  closedLoop: boolean,
  a: Region,
  b: Region | null,
  fitDistance: number,
): { curve: CurveType; circle: EdgeAnalysis["circle"] } {
  const first = points[0] as Vec3,
    last = points[points.length - 1] as Vec3;
  if (!closedLoop && points.length >= 2) {
    const direction = sub(last, first);
    const length = Math.hypot(direction[0], direction[1], direction[2]);
    if (length > 0) {
      const unit = scale(direction, 1 / length);
      const straight = points.every((p) => {
        const w = sub(p, first);
        const along = dot(w, unit);
        return Math.hypot(w[0] - along * unit[0], w[1] - along * unit[1], w[2] - along * unit[2]) <= fitDistance;
      });
      if (straight) return { curve: "line", circle: null };
    }
  }
  const distinct = closedLoop ? points.slice(0, -1) : points;
  if (distinct.length < 4) return { curve: "other", circle: null };
  const axes: Vec3[] = [];
  for (const region of [a, b]) {
    if (region?.kind === "plane") axes.push(region.normal);
    if (region?.kind === "cylinder" && region.cylinder) axes.push(region.cylinder.axis);
  }
  for (const axis of axes) {
    // the points must lie in one plane perpendicular to the axis
    const heights = distinct.map((p) => dot(p, axis));
    let low = Infinity,
      high = -Infinity;
    for (const h of heights) {
      low = Math.min(low, h);
      high = Math.max(high, h);
    }
    if (high - low > fitDistance) continue;
    const fit = new CircleFit(axis);
    for (const p of distinct) fit.add(p);
    if (!fit.fitted() || fit.maxResidual() > Math.max(fitDistance, 1e-3 * fit.radius)) continue;
    const centre = add(fit.centre(), scale(axis, heights[0] as number));
    return { curve: "circle", circle: { center: centre, axis, radius: fit.radius } };
  }
  return { curve: "other", circle: null };
}

/** A face's boundary chains grouped into loops; the loop spanning the largest box is the outer one. */
function loopsOf(geometry: MeshGeometry, ids: number[], vertices: Map<number, number[]>): WireInfo[] {
  const parent = new Map<number, number>();
  const find = (x: number): number => {
    let root = x;
    while (parent.get(root) !== root) root = parent.get(root) as number;
    parent.set(x, root);
    return root;
  };
  for (const id of ids) {
    for (const v of vertices.get(id) ?? []) if (!parent.has(v)) parent.set(v, v);
    const list = vertices.get(id) ?? [];
    for (let i = 1; i < list.length; i++) {
      const r0 = find(list[0] as number),
        r1 = find(list[i] as number);
      if (r0 !== r1) parent.set(r0, r1);
    }
  }
  const loops = new Map<number, number[]>();
  for (const id of ids) {
    const first = (vertices.get(id) ?? [])[0];
    if (first === undefined) continue;
    const root = find(first);
    let loop = loops.get(root);
    if (loop === undefined) loops.set(root, (loop = []));
    loop.push(id);
  }
  const wires = [...loops.values()].map((loopEdges) => {
    const min: Vec3 = [Infinity, Infinity, Infinity],
      max: Vec3 = [-Infinity, -Infinity, -Infinity];
    for (const id of loopEdges) {
      for (const v of vertices.get(id) ?? []) {
        const p = pointOf(geometry, v);
        for (let axis = 0; axis < 3; axis++) {
          min[axis] = Math.min(min[axis]!, p[axis]!);
          max[axis] = Math.max(max[axis]!, p[axis]!);
        }
      }
    }
    return { edges: loopEdges.sort((x, y) => x - y), span: distance(min, max) };
  });
  const outerIndex = wires.reduce((best, wire, index) => (wire.span > (wires[best]?.span ?? -1) ? index : best), 0);
  return wires.map((wire, index) => ({ outer: index === outerIndex, edges: wire.edges }));
}

// ---------------------------------------------------------------------------------------------
// small linear algebra

/** p's offset from the axis through `point` along unit `axis`, perpendicular to it */
function radialFrom(p: Vec3, point: Vec3, axis: Vec3): Vec3 {
  const w = sub(p, point);
  return sub(w, scale(axis, dot(w, axis)));
}
/** two unit vectors perpendicular to unit `axis` and to each other */
function basisAround(axis: Vec3): [Vec3, Vec3] {
  const helper: Vec3 = Math.abs(axis[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0];
  const e1 = normalise(cross(axis, helper));
  return [e1, cross(axis, e1)];
}

/** Solves the 3 x 3 system m x = r (Gaussian elimination with pivoting); null if singular. */
function solve3(m: number[][], r: number[]): [number, number, number] | null {
  const a = m.map((row, i) => [...row, r[i] as number]);
  for (let col = 0; col < 3; col++) {
    let pivot = col;
    for (let row = col + 1; row < 3; row++) if (Math.abs(a[row]![col]!) > Math.abs(a[pivot]![col]!)) pivot = row;
    if (Math.abs(a[pivot]![col]!) < 1e-300) return null;
    [a[col], a[pivot]] = [a[pivot]!, a[col]!];
    for (let row = 0; row < 3; row++) {
      if (row === col) continue;
      const f = a[row]![col]! / a[col]![col]!;
      for (let k = col; k < 4; k++) a[row]![k]! -= f * a[col]![k]!;
    }
  }
  const x = [a[0]![3]! / a[0]![0]!, a[1]![3]! / a[1]![1]!, a[2]![3]! / a[2]![2]!];
  // the algebraic fit is ill-conditioned when the points are nearly on a line
  if (!x.every(Number.isFinite)) return null;
  return x as [number, number, number];
}

/** The unit eigenvector of the symmetric 3 x 3 matrix (row-major) with the smallest eigenvalue (Jacobi). */
function smallestEigenvector(m: number[]): Vec3 {
  const a = [...m];
  const v = [1, 0, 0, 0, 1, 0, 0, 0, 1];
  for (let sweep = 0; sweep < 50; sweep++) {
    const off = Math.abs(a[1]!) + Math.abs(a[2]!) + Math.abs(a[5]!);
    if (off < 1e-15) break;
    for (const [p, q] of [
      [0, 1],
      [0, 2],
      [1, 2],
    ] as const) {
      const apq = a[3 * p + q]!;
      if (Math.abs(apq) < 1e-300) continue;
      const app = a[3 * p + p]!,
        aqq = a[3 * q + q]!;
      const theta = (aqq - app) / (2 * apq);
      const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
      const c = 1 / Math.sqrt(t * t + 1),
        s = t * c;
      for (let k = 0; k < 3; k++) {
        const akp = a[3 * k + p]!,
          akq = a[3 * k + q]!;
        a[3 * k + p] = c * akp - s * akq;
        a[3 * k + q] = s * akp + c * akq;
      }
      for (let k = 0; k < 3; k++) {
        const apk = a[3 * p + k]!,
          aqk = a[3 * q + k]!;
        a[3 * p + k] = c * apk - s * aqk;
        a[3 * q + k] = s * apk + c * aqk;
      }
      for (let k = 0; k < 3; k++) {
        const vkp = v[3 * k + p]!,
          vkq = v[3 * k + q]!;
        v[3 * k + p] = c * vkp - s * vkq;
        v[3 * k + q] = s * vkp + c * vkq;
      }
    }
  }
  const eigen = [a[0]!, a[4]!, a[8]!];
  const smallest = eigen.indexOf(Math.min(...eigen));
  return normalise([v[smallest]!, v[3 + smallest]!, v[6 + smallest]!]);
}
