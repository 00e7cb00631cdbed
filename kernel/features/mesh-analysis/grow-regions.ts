/**
 * The segmentation (steps 2-4 of ../analyse-mesh.ts): planar regions grown from the largest
 * triangles, cylinders grown over bands of narrow planar regions meeting at small creases, runs
 * of small regions joined into free-form ones; degenerate triangles join a neighbour's region.
 */
import type { Region } from "./region.ts";
import { CircleFit, fitCylinder } from "./cylinder-fit.ts";
import { across, pointOf, type MeshGeometry } from "./mesh-geometry.ts";
import { angleBetween, cross, dot, normalise } from "../../math/vec3.ts";

/** a triangle's normal is never trusted beyond this when judging planarity */
const MAX_PLANAR_ANGLE_RAD = (5 * Math.PI) / 180;

const MIN_CYLINDER_REGIONS = 3;

/** regions of at most this many triangles may join an "other" (free-form) region */
const SMALL_REGION_TRIANGLES = 2;

export function growPlanes(
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

export function growCylinders(
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
export function mergeFreeForm(
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
    if (group === undefined) {
      group = [];
      groups.set(root, group);
    }
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
export function adoptDegenerate(geometry: MeshGeometry, regionOf: Int32Array, regions: Region[]): void {
  const orphans: number[] = [];
  for (let t = 0; t < geometry.triangleCount; t++) if ((regionOf[t] as number) < 0) orphans.push(t);
  if (orphans.length === 0) return;
  const byVertex = new Map<number, number[]>();
  for (let t = 0; t < geometry.triangleCount; t++) {
    for (let k = 0; k < 3; k++) {
      const v = geometry.corners[3 * t + k] as number;
      let list = byVertex.get(v);
      if (list === undefined) {
        list = [];
        byVertex.set(v, list);
      }
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
