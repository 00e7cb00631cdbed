/** Fitting a cylinder to triangles: its axis from their normals, its circle from their corners. */
import type { Cylinder } from "./region.ts";
import type { Vec3 } from "../types.ts";
import { add, basisAround, dot, scale } from "../../math/vec3.ts";
import { radialFrom, smallestEigenvector, solve3 } from "./linear-algebra.ts";
import { normalOf, pointOf, triangleCentroid, type MeshGeometry } from "./mesh-geometry.ts";

/** Kasa's algebraic circle fit of points projected along `axis`, with running sums. */
export class CircleFit {
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
export function fitCylinder(geometry: MeshGeometry, triangles: number[]): Cylinder {
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
