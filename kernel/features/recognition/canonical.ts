/**
 * Planes and cylinders hiding in free-form faces. Some CAD systems write every face as a
 * B-spline (and STEP converters do), which leaves the rules without normals and axes. From the
 * part's triangles (each face's own, oriented out of the material) a face is taken for
 *
 * - a plane when all its vertices lie within the tolerance of the plane through them and its
 *   surface normals agree within 1 degree: the normal is the triangles' area-weighted one;
 * - a cylinder when its surface normals are all perpendicular to one axis (the least-scattered
 *   direction of the normals) and its vertices lie on one circle around it (a least-squares
 *   circle, all within the tolerance): radius, sense, sweep and axial range follow.
 *
 * Edges follow their faces: a free-form edge whose start, middle and end are in line and whose
 * length is their distance is a line; one whose length matches the arc through the three points
 * is that circle. The analysis is copied, never changed; the warning says how many faces were
 * read this way.
 */
import type { TriangleMesh } from "../../mesh/types.ts";
import type { EdgeAnalysis, FaceAnalysis, PartAnalysis, Vec3 } from "../types.ts";
import { add, basisAround, cross, distance, dot, length, normalise, scale, sub } from "../../math/vec3.ts";

const ANALYTIC = new Set(["plane", "cylinder", "cone", "sphere", "torus"]);
const NORMAL_AGREEMENT = Math.cos((1 * Math.PI) / 180);

export interface Recovered {
  analysis: PartAnalysis;
  planes: number[];
  cylinders: number[];
}

export function recoverSurfaces(analysis: PartAnalysis, mesh: TriangleMesh, tolerance: number): Recovered {
  const free = analysis.faces.filter((face) => !ANALYTIC.has(face.surface));
  if (free.length === 0) return { analysis, planes: [], cylinders: [] };
  const vertices = verticesByFace(mesh, analysis.faces.length);
  const planes: number[] = [],
    cylinders: number[] = [];
  const faces = analysis.faces.map((face) => {
    if (ANALYTIC.has(face.surface)) return face;
    const data = vertices[face.id];
    if (data === undefined || data.points.length < 3) return face;
    const plane = asPlane(face, data, tolerance);
    if (plane !== null) {
      planes.push(face.id);
      return plane;
    }
    const cylinder = asCylinder(face, data, tolerance);
    if (cylinder !== null) {
      cylinders.push(face.id);
      return cylinder;
    }
    return face;
  });
  const touched = new Set([...planes, ...cylinders]);
  const axisOf = (edge: EdgeAnalysis): Vec3 | null => {
    for (const id of edge.faces) {
      const face = faces[id];
      if (face?.normal) return face.normal;
      if (face?.axis) return face.axis.direction;
    }
    return null;
  };
  const edges = analysis.edges.map((edge) =>
    edge.faces.some((f) => touched.has(f)) && edge.curve !== "line" && edge.curve !== "circle"
      ? recoverEdge(edge, tolerance, axisOf(edge))
      : edge,
  );
  const warnings = [...analysis.warnings];
  if (touched.size > 0) {
    warnings.push({
      code: "free_form_faces_read_as_analytic",
      message: `${planes.length} free-form faces were read as planes and ${cylinders.length} as cylinders from their triangles, to recognise features on them.`,
      faces: [...touched].sort((a, b) => a - b),
    });
  }
  return { analysis: { ...analysis, faces, edges, warnings }, planes, cylinders };
}

interface FaceVertices {
  points: Vec3[];
  normals: Vec3[];
  /** area-weighted sum of the triangles' outward normals */
  areaNormal: Vec3;
}

function verticesByFace(mesh: TriangleMesh, faceCount: number): FaceVertices[] {
  const out: FaceVertices[] = Array.from({ length: faceCount }, () => ({
    points: [],
    normals: [],
    areaNormal: [0, 0, 0],
  }));
  const p = mesh.positions,
    n = mesh.normals,
    idx = mesh.indices;
  const seen = new Set<number>();
  for (let t = 0; t < idx.length / 3; t++) {
    const corners = [idx[3 * t] as number, idx[3 * t + 1] as number, idx[3 * t + 2] as number];
    const face = mesh.faceIds[corners[0] as number] as number;
    const target = out[face];
    if (target === undefined) continue;
    const [A, B, C] = corners.map((v) => [p[3 * v]!, p[3 * v + 1]!, p[3 * v + 2]!] as Vec3) as [Vec3, Vec3, Vec3];
    target.areaNormal = add(target.areaNormal, scale(cross(sub(B, A), sub(C, A)), 0.5));
    for (const v of corners) {
      if (seen.has(v)) continue;
      seen.add(v);
      target.points.push([p[3 * v]!, p[3 * v + 1]!, p[3 * v + 2]!]);
      target.normals.push(normalise([n[3 * v]!, n[3 * v + 1]!, n[3 * v + 2]!]));
    }
  }
  return out;
}

function asPlane(face: FaceAnalysis, data: FaceVertices, tolerance: number): FaceAnalysis | null {
  const normal = normalise(data.areaNormal);
  if (length(normal) === 0) return null;
  const offset = dot(normal, face.centroid);
  if (data.points.some((q) => Math.abs(dot(normal, q) - offset) > tolerance)) return null;
  if (data.normals.some((m) => length(m) > 0 && dot(m, normal) < NORMAL_AGREEMENT)) return null;
  return {
    ...face,
    surface: "plane",
    normal,
    axis: null,
    radius: null,
    sense: null,
    axialRange: null,
    sweepAngle: null,
  };
}

function asCylinder(face: FaceAnalysis, data: FaceVertices, tolerance: number): FaceAnalysis | null {
  const axis = leastScattered(data.normals);
  if (axis === null || data.normals.some((m) => Math.abs(dot(m, axis)) > 0.02)) return null;
  // circle through the points projected across the axis (Kasa's algebraic fit)
  const [u, v] = basisAround(axis);
  const xy = data.points.map((q) => [dot(q, u), dot(q, v)] as [number, number]);
  const fit = fitCircle(xy);
  if (fit === null || !(fit.r > tolerance)) return null;
  if (xy.some(([x, y]) => Math.abs(Math.hypot(x - fit.cx, y - fit.cy) - fit.r) > Math.max(tolerance, fit.r * 2e-3)))
    return null;
  const t = data.points.map((q) => dot(q, axis));
  const level = dot(face.centroid, axis);
  const origin = add(add(scale(u, fit.cx), scale(v, fit.cy)), scale(axis, level));
  // sense: do the normals point away from the axis?
  let away = 0;
  data.points.forEach((q, i) => {
    const radial = sub(q, add(add(scale(u, fit.cx), scale(v, fit.cy)), scale(axis, dot(q, axis))));
    away += dot(radial, data.normals[i] as Vec3);
  });
  const angles = xy.map(([x, y]) => Math.atan2(y - fit.cy, x - fit.cx)).sort((a, b) => a - b);
  let gap = (angles[0] as number) + 2 * Math.PI - (angles[angles.length - 1] as number);
  for (let i = 1; i < angles.length; i++) gap = Math.max(gap, (angles[i] as number) - (angles[i - 1] as number));
  return {
    ...face,
    surface: "cylinder",
    normal: null,
    axis: { origin, direction: axis },
    radius: fit.r,
    sense: away > 0 ? "convex" : "concave",
    axialRange: [Math.min(...t) - level, Math.max(...t) - level],
    sweepAngle: Math.min(2 * Math.PI, 2 * Math.PI - gap),
  };
}

/** The unit direction the vectors spread least along (smallest eigenvector of their scatter). */
function leastScattered(vectors: Vec3[]): Vec3 | null {
  const m = [0, 0, 0, 0, 0, 0, 0, 0, 0];
  for (const a of vectors) for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) m[3 * i + j]! += a[i]! * a[j]!;
  // power iteration on (trace I - M) finds M's smallest eigenvector
  const trace = m[0]! + m[4]! + m[8]!;
  const s = [trace - m[0]!, -m[1]!, -m[2]!, -m[3]!, trace - m[4]!, -m[5]!, -m[6]!, -m[7]!, trace - m[8]!];
  let x: Vec3 = [0.577, 0.578, 0.579];
  for (let k = 0; k < 200; k++) {
    const y: Vec3 = [
      s[0]! * x[0] + s[1]! * x[1] + s[2]! * x[2],
      s[3]! * x[0] + s[4]! * x[1] + s[5]! * x[2],
      s[6]! * x[0] + s[7]! * x[1] + s[8]! * x[2],
    ];
    const l = length(y);
    if (l === 0) return null;
    x = scale(y, 1 / l);
  }
  return x;
}

function fitCircle(points: [number, number][]): { cx: number; cy: number; r: number } | null {
  // minimise sum (x^2 + y^2 + D x + E y + F)^2: 3 x 3 normal equations
  let sxx = 0,
    sxy = 0,
    syy = 0,
    sx = 0,
    sy = 0,
    sz = 0,
    sxz = 0,
    syz = 0;
  const n = points.length;
  for (const [x, y] of points) {
    const z = x * x + y * y;
    sxx += x * x;
    sxy += x * y;
    syy += y * y;
    sx += x;
    sy += y;
    sz += z;
    sxz += x * z;
    syz += y * z;
  }
  const a = [
    [sxx, sxy, sx],
    [sxy, syy, sy],
    [sx, sy, n],
  ];
  const b = [-sxz, -syz, -sz];
  const solved = solve3(a, b);
  if (solved === null) return null;
  const [D, E, F] = solved;
  const cx = -D / 2,
    cy = -E / 2;
  const r2 = cx * cx + cy * cy - F;
  return r2 > 0 ? { cx, cy, r: Math.sqrt(r2) } : null;
}

function solve3(a: number[][], b: number[]): [number, number, number] | null {
  const det = (m: number[][]) =>
    m[0]![0]! * (m[1]![1]! * m[2]![2]! - m[1]![2]! * m[2]![1]!) -
    m[0]![1]! * (m[1]![0]! * m[2]![2]! - m[1]![2]! * m[2]![0]!) +
    m[0]![2]! * (m[1]![0]! * m[2]![1]! - m[1]![1]! * m[2]![0]!);
  const d = det(a);
  if (Math.abs(d) < 1e-18) return null;
  const col = (k: number) => a.map((row, i) => row.map((value, j) => (j === k ? b[i]! : value)));
  return [det(col(0)) / d, det(col(1)) / d, det(col(2)) / d];
}

function recoverEdge(edge: EdgeAnalysis, tolerance: number, faceAxis: Vec3 | null): EdgeAnalysis {
  const chord = distance(edge.start, edge.end);
  if (chord <= tolerance) {
    // a closed edge: its middle is opposite its start on a full circle
    const radius = distance(edge.start, edge.middle) / 2;
    if (faceAxis === null || Math.abs(2 * Math.PI * radius - edge.length) > Math.max(tolerance, edge.length * 1e-3))
      return edge;
    return {
      ...edge,
      curve: "circle",
      circle: { center: scale(add(edge.start, edge.middle), 0.5), axis: faceAxis, radius },
    };
  }
  const mid = add(edge.start, scale(sub(edge.end, edge.start), 0.5));
  if (chord > 0 && distance(mid, edge.middle) <= tolerance && Math.abs(edge.length - chord) <= tolerance)
    return { ...edge, curve: "line", circle: null };
  // the circle through start, middle and end
  const a = sub(edge.start, edge.middle),
    b = sub(edge.end, edge.middle);
  const axb = cross(a, b);
  const l2 = dot(axb, axb);
  if (l2 < 1e-18) return edge;
  const center = add(
    edge.middle,
    scale(add(scale(cross(axb, a), dot(b, b)), scale(cross(b, axb), dot(a, a))), 1 / (2 * l2)),
  );
  const radius = distance(center, edge.start);
  const closed = distance(edge.start, edge.end) <= tolerance;
  // the arc's length from its angle (start to middle to end)
  const angle = (p: Vec3, q: Vec3) =>
    Math.acos(Math.max(-1, Math.min(1, dot(normalise(sub(p, center)), normalise(sub(q, center))))));
  const arc = closed ? 2 * Math.PI * radius : radius * (angle(edge.start, edge.middle) + angle(edge.middle, edge.end));
  if (Math.abs(arc - edge.length) > Math.max(tolerance, edge.length * 1e-3)) return edge;
  return { ...edge, curve: "circle", circle: { center, axis: normalise(axb), radius } };
}
