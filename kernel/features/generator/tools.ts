/**
 * Tool bodies in a face's local frame (frame.ts), built in world coordinates: the volumes a
 * feature removes. Every tool reaches 1 mm out of the faces it opens through, so no tool face lies
 * on a face of the block (coplanar booleans would leave faces whose history says little).
 */
import type { OpenCascadeInstance, TopoDS_Shape } from "opencascade.js/dist/node.js";
import type { OcctScope } from "../../geometry/occt-scope.ts";
import { cut, fuse, makeCylinder } from "../test-support.ts";
import { makeCone } from "../recognition/test-parts.ts";
import { directionToWorld, type Frame, toWorld, type Vec3 } from "./frame.ts";
import { generatorOcct } from "./occt.ts";

/** How far a tool reaches past a face it opens through, mm. */
export const OVERSHOOT = 1;

/** The planar polygon `points` (local, in order) swept along local `extrusion`. */
export function prism(
  oc: OpenCascadeInstance,
  scope: OcctScope,
  frame: Frame,
  points: readonly Vec3[],
  extrusion: Vec3,
): TopoDS_Shape {
  const g = generatorOcct(oc);
  const polygon = scope.own(new g.BRepBuilderAPI_MakePolygon_1());
  for (const point of points) polygon.Add_1(scope.own(new oc.gp_Pnt_3(...toWorld(frame, point))));
  polygon.Close();
  if (!polygon.IsDone()) throw new Error("BRepBuilderAPI_MakePolygon failed");
  const face = scope.own(new g.BRepBuilderAPI_MakeFace_15(scope.own(polygon.Wire()), true));
  if (!face.IsDone()) throw new Error("BRepBuilderAPI_MakeFace failed");
  const vector = scope.own(new g.gp_Vec_4(...directionToWorld(frame, extrusion)));
  const made = scope.own(new g.BRepPrimAPI_MakePrism_1(scope.own(face.Face()), vector, false, true));
  return scope.own(made.Shape());
}

/** A prism of the local 2D polygon `outline` from z0 to z1 (along w). */
export function extrudeOutline(
  oc: OpenCascadeInstance,
  scope: OcctScope,
  frame: Frame,
  outline: readonly (readonly [number, number])[],
  z0: number,
  z1: number,
): TopoDS_Shape {
  return prism(
    oc,
    scope,
    frame,
    outline.map(([x, y]) => [x, y, z0] as const),
    [0, 0, z1 - z0],
  );
}

/** A cylinder from local `base` along local `direction`. */
export function cylinder(
  oc: OpenCascadeInstance,
  scope: OcctScope,
  frame: Frame,
  base: Vec3,
  direction: Vec3,
  radius: number,
  height: number,
): TopoDS_Shape {
  const d = directionToWorld(frame, direction);
  return makeCylinder(oc, scope, [...toWorld(frame, base)], [d[0], d[1], d[2]], radius, height);
}

/** A cone from local `base` along local `direction`, radius r1 there and r2 at `height`. */
export function cone(
  oc: OpenCascadeInstance,
  scope: OcctScope,
  frame: Frame,
  base: Vec3,
  direction: Vec3,
  r1: number,
  r2: number,
  height: number,
): TopoDS_Shape {
  const d = directionToWorld(frame, direction);
  return makeCone(oc, scope, [...toWorld(frame, base)], [d[0], d[1], d[2]], r1, r2, height);
}

/** A vertical (along w) cylinder at local (x, y) from z0 to z1. */
export function post(
  oc: OpenCascadeInstance,
  scope: OcctScope,
  frame: Frame,
  [x, y]: readonly [number, number],
  radius: number,
  z0: number,
  z1: number,
): TopoDS_Shape {
  return cylinder(oc, scope, frame, [x, y, z0], [0, 0, 1], radius, z1 - z0);
}

/**
 * One body of `shapes`, its faces merged where they lie on one surface: a fuse leaves an
 * obround's floor in three pieces and its round ends cut at the box, which a modeller's pocket
 * (and MFCAD++'s) has as one floor and two half cylinders.
 */
export function union(oc: OpenCascadeInstance, scope: OcctScope, shapes: readonly TopoDS_Shape[]): TopoDS_Shape {
  const [first, ...rest] = shapes;
  if (first === undefined) throw new Error("union of nothing");
  const fused = rest.reduce((sum, shape) => fuse(oc, scope, sum, shape), first);
  const unify = scope.own(new (generatorOcct(oc).ShapeUpgrade_UnifySameDomain_2)(fused, true, true, false));
  unify.Build();
  return scope.own(unify.Shape());
}

export function difference(
  oc: OpenCascadeInstance,
  scope: OcctScope,
  shape: TopoDS_Shape,
  tool: TopoDS_Shape,
): TopoDS_Shape {
  return cut(oc, scope, shape, tool);
}
