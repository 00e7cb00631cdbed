/**
 * The part's triangles that face the viewer, as facets lit flat, each with the part's edges it
 * draws: where it meets a triangle turned away (the silhouette), where the surface bends by more
 * than EDGE_ANGLE_DEG (a B-rep edge, most often), or where the mesh is open. An edge two drawn
 * triangles share is drawn once, by the nearer, so the triangles drawn after it still hide it.
 */
import type { TriangleSoup } from "../cam/types.ts";
import { cross, dot, length, scale, sub, type Vec3 } from "../math/vec3.ts";
import { hex, shaded, type Facet, type Rgb } from "./facet.ts";
import { facesViewer, lightness, viewPoint } from "./operator-view.ts";

const EDGE_ANGLE_DEG = 25;
const EDGE_COS = Math.cos((EDGE_ANGLE_DEG * Math.PI) / 180);

export interface PartColours {
  surface: Rgb;
  edge: Rgb;
}

/** `soup` in the setup's frame, welded (cluster-vertices.ts) so that neighbours share vertices. */
export function partFacets(soup: TriangleSoup, colours: PartColours): Facet[] {
  const { positions, indices } = soup;
  const count = indices.length / 3;
  const point = (v: number): Vec3 => [positions[v * 3]!, positions[v * 3 + 1]!, positions[v * 3 + 2]!];
  const normals: (Vec3 | null)[] = [];
  const depths: number[] = [];
  for (let t = 0; t < count; t += 1) {
    const [a, b, c] = [point(indices[t * 3]!), point(indices[t * 3 + 1]!), point(indices[t * 3 + 2]!)];
    const n = cross(sub(b, a), sub(c, a));
    const size = length(n);
    normals.push(size > 1e-12 ? scale(n, 1 / size) : null);
    depths.push((viewPoint(a)[2] + viewPoint(b)[2] + viewPoint(c)[2]) / 3);
  }
  const neighbours = edgeTriangles(indices, positions.length / 3);
  const drawn = (t: number): boolean => {
    const n = normals[t];
    return n !== null && n !== undefined && facesViewer(n);
  };
  const edgeColour = hex(colours.edge);
  const facets: Facet[] = [];
  for (let t = 0; t < count; t += 1) {
    const normal = normals[t];
    if (normal === null || normal === undefined || !facesViewer(normal)) continue;
    const corners = [0, 1, 2].map((k) => point(indices[t * 3 + k]!));
    const edges: [Vec3, Vec3][] = [];
    for (let k = 0; k < 3; k += 1) {
      const a = indices[t * 3 + k]!;
      const b = indices[t * 3 + ((k + 1) % 3)]!;
      const others = (neighbours.get(edgeKey(a, b)) ?? []).filter((other) => other !== t);
      const isEdge =
        others.length === 0 ||
        others.some((other) => {
          const n = normals[other];
          return n === null || n === undefined || !facesViewer(n) || dot(n, normal) < EDGE_COS;
        });
      // of two drawn triangles the nearer draws it (the later one; ties by number)
      const owns = others.every(
        (other) => !drawn(other) || depths[other]! < depths[t]! || (depths[other] === depths[t] && other < t),
      );
      if (isEdge && owns) edges.push([point(a), point(b)]);
    }
    facets.push({ corners, fill: shaded(colours.surface, lightness(normal)), depth: depths[t]!, edges, edgeColour });
  }
  return facets;
}

function edgeKey(a: number, b: number): number {
  return a < b ? a * 2 ** 26 + b : b * 2 ** 26 + a;
}

/** The triangles around each edge, by edgeKey. */
function edgeTriangles(indices: Uint32Array, vertexCount: number): Map<number, number[]> {
  if (vertexCount >= 2 ** 26) throw new RangeError(`${vertexCount} vertices are more than the picture keys`);
  const map = new Map<number, number[]>();
  for (let t = 0; t < indices.length / 3; t += 1) {
    for (let k = 0; k < 3; k += 1) {
      const key = edgeKey(indices[t * 3 + k]!, indices[t * 3 + ((k + 1) % 3)]!);
      const list = map.get(key);
      if (list === undefined) map.set(key, [t]);
      else list.push(t);
    }
  }
  return map;
}
