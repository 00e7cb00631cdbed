/**
 * Parts built with OCCT for the recognition and setup tests, on top of ../test-support.ts: cones,
 * tori and chamfers (which occt.d.ts does not declare; typed here), and the parts themselves.
 * Not used in production.
 */
import type { OpenCascadeInstance, TopoDS_Edge, TopoDS_Shape } from "opencascade.js/dist/node.js";
import type { OcctScope } from "../../geometry/occt-scope.ts";
import { cut, fillet, fuse, makeBox, makeCylinder, edgesWhere } from "../test-support.ts";
import type { EdgeAnalysis } from "../types.ts";

type Point = [number, number, number];

interface Made {
  Shape(): TopoDS_Shape;
  delete(): void;
}
interface MoreOcct {
  BRepPrimAPI_MakeCone_3: new (
    axes: unknown,
    r1: number,
    r2: number,
    height: number,
  ) => Made & { Solid(): TopoDS_Shape };
  BRepPrimAPI_MakeTorus_5: new (axes: unknown, major: number, minor: number) => Made & { Solid(): TopoDS_Shape };
  BRepFilletAPI_MakeChamfer: new (
    shape: TopoDS_Shape,
  ) => Made & { Add_2(distance: number, edge: TopoDS_Edge): void; Build(progress: unknown): void; IsDone(): boolean };
}

function more(oc: OpenCascadeInstance): MoreOcct {
  return oc as unknown as MoreOcct;
}

function axes(oc: OpenCascadeInstance, scope: OcctScope, base: Point, direction: Point) {
  return scope.own(new oc.gp_Ax2_3(scope.own(new oc.gp_Pnt_3(...base)), scope.own(new oc.gp_Dir_4(...direction))));
}

/** A cone from `base` along `direction`, radius r1 there and r2 at `height`. */
export function makeCone(
  oc: OpenCascadeInstance,
  scope: OcctScope,
  base: Point,
  direction: Point,
  r1: number,
  r2: number,
  height: number,
): TopoDS_Shape {
  const maker = scope.own(new (more(oc).BRepPrimAPI_MakeCone_3)(axes(oc, scope, base, direction), r1, r2, height));
  return scope.own(maker.Solid());
}

export function makeTorus(
  oc: OpenCascadeInstance,
  scope: OcctScope,
  centre: Point,
  direction: Point,
  major: number,
  minor: number,
): TopoDS_Shape {
  const maker = scope.own(new (more(oc).BRepPrimAPI_MakeTorus_5)(axes(oc, scope, centre, direction), major, minor));
  return scope.own(maker.Solid());
}

/** `shape` with `edges` chamfered by `distance` on both sides. */
export function chamfer(
  oc: OpenCascadeInstance,
  scope: OcctScope,
  shape: TopoDS_Shape,
  edges: TopoDS_Edge[],
  distance: number,
): TopoDS_Shape {
  const maker = scope.own(new (more(oc).BRepFilletAPI_MakeChamfer)(shape));
  for (const edge of edges) maker.Add_2(distance, edge);
  maker.Build(scope.own(new oc.Message_ProgressRange_1()));
  if (!maker.IsDone()) throw new Error("BRepFilletAPI_MakeChamfer failed");
  return scope.own(maker.Shape());
}

const near = (a: number, b: number) => Math.abs(a - b) < 1e-6;
const isAt = (edge: EdgeAnalysis, axis: 0 | 1 | 2, value: number) =>
  near(edge.start[axis], value) && near(edge.end[axis], value);

/**
 * A 60 x 40 x 20 plate with: a through hole (diameter 6 at x 10), a blind hole (diameter 8, 12
 * deep, flat bottom, at x 25), a counterbored through hole (diameter 5.5, counterbore 10 x 5 deep,
 * at x 40) and a countersunk through hole (diameter 4.5, a 90 degree countersink 9 across, at x 52),
 * all on y = 20, drilled from the top (+Z).
 */
export function holePlate(oc: OpenCascadeInstance, scope: OcctScope): TopoDS_Shape {
  let part = makeBox(oc, scope, [60, 40, 20]);
  part = cut(oc, scope, part, makeCylinder(oc, scope, [10, 20, -1], [0, 0, 1], 3, 22));
  part = cut(oc, scope, part, makeCylinder(oc, scope, [25, 20, 8], [0, 0, 1], 4, 13));
  part = cut(oc, scope, part, makeCylinder(oc, scope, [40, 20, -1], [0, 0, 1], 2.75, 22));
  part = cut(oc, scope, part, makeCylinder(oc, scope, [40, 20, 15], [0, 0, 1], 5, 6));
  part = cut(oc, scope, part, makeCylinder(oc, scope, [52, 20, -1], [0, 0, 1], 2.25, 22));
  // a 90 degree cone: radius 2.25 at z = 17.75 growing to 4.5 at z = 20 (and on above the top)
  part = cut(oc, scope, part, makeCone(oc, scope, [52, 20, 17.75], [0, 0, 1], 2.25, 5.25, 3));
  return part;
}

/**
 * A 30 x 30 x 40 block with a through hole of diameter 6 along Z at (15, 15), counterbored 10
 * across from both ends: 8 deep from the top, 5 deep from the bottom.
 */
export function doubleCounterbore(oc: OpenCascadeInstance, scope: OcctScope): TopoDS_Shape {
  let part = makeBox(oc, scope, [30, 30, 40]);
  part = cut(oc, scope, part, makeCylinder(oc, scope, [15, 15, -1], [0, 0, 1], 3, 42));
  part = cut(oc, scope, part, makeCylinder(oc, scope, [15, 15, 32], [0, 0, 1], 5, 9));
  return cut(oc, scope, part, makeCylinder(oc, scope, [15, 15, -1], [0, 0, 1], 5, 6));
}

/** A blind hole with a 118 degree drill point: diameter 6, 10 deep to the shoulder, in a 20 mm cube. */
export function drilledCube(oc: OpenCascadeInstance, scope: OcctScope): TopoDS_Shape {
  const part = makeBox(oc, scope, [20, 20, 20]);
  const tipHeight = 3 / Math.tan((59 * Math.PI) / 180);
  const drill = fuse(
    oc,
    scope,
    makeCylinder(oc, scope, [10, 10, 10], [0, 0, 1], 3, 11),
    makeCone(oc, scope, [10, 10, 10 - tipHeight], [0, 0, 1], 0, 3, tipHeight),
  );
  return cut(oc, scope, part, drill);
}

/** A 40 x 40 x 20 block with a 20 x 10 x 5 pocket in the top whose vertical corners are rounded by 2 mm. */
export function roundedPocket(oc: OpenCascadeInstance, scope: OcctScope, cornerRadius = 2): TopoDS_Shape {
  let pocket = makeBox(oc, scope, [20, 10, 6], [10, 15, 15]);
  pocket = fillet(
    oc,
    scope,
    pocket,
    edgesWhere(oc, scope, pocket, (edge) => edge.curve === "line" && !near(edge.start[2], edge.end[2])),
    cornerRadius,
  );
  return cut(oc, scope, makeBox(oc, scope, [40, 40, 20]), pocket);
}

/** A 40 x 40 x 20 block with an obround (circular end) pocket 24 x 8, 5 deep, in the top. */
export function obroundPocket(oc: OpenCascadeInstance, scope: OcctScope): TopoDS_Shape {
  let tool = makeBox(oc, scope, [16, 8, 6], [12, 16, 15]);
  tool = fuse(oc, scope, tool, makeCylinder(oc, scope, [12, 20, 15], [0, 0, 1], 4, 6));
  tool = fuse(oc, scope, tool, makeCylinder(oc, scope, [28, 20, 15], [0, 0, 1], 4, 6));
  return cut(oc, scope, makeBox(oc, scope, [40, 40, 20]), tool);
}

/** A 40 x 40 x 20 block with an O-ring groove in the top: outer diameter 20, inner 14, 2 deep. */
export function oRingBlock(oc: OpenCascadeInstance, scope: OcctScope): TopoDS_Shape {
  const ring = cut(
    oc,
    scope,
    makeCylinder(oc, scope, [20, 20, 18], [0, 0, 1], 10, 3),
    makeCylinder(oc, scope, [20, 20, 17], [0, 0, 1], 7, 5),
  );
  return cut(oc, scope, makeBox(oc, scope, [40, 40, 20]), ring);
}

/** A 40 x 30 x 20 block with its top edges along X rounded by 3 mm, and a 2 mm chamfer on a vertical edge. */
export function roundedAndChamfered(oc: OpenCascadeInstance, scope: OcctScope): TopoDS_Shape {
  let part = makeBox(oc, scope, [40, 30, 20]);
  part = fillet(
    oc,
    scope,
    part,
    edgesWhere(oc, scope, part, (edge) => edge.curve === "line" && isAt(edge, 2, 20) && isAt(edge, 1, 0)),
    3,
  );
  return chamfer(
    oc,
    scope,
    part,
    edgesWhere(oc, scope, part, (edge) => edge.curve === "line" && isAt(edge, 0, 40) && isAt(edge, 1, 30)),
    2,
  );
}

/** A 40 x 40 x 20 block with a 20 x 20 x 5 pocket in the top (from z 15). */
export function pocketOnTop(oc: OpenCascadeInstance, scope: OcctScope): TopoDS_Shape {
  return cut(oc, scope, makeBox(oc, scope, [40, 40, 20]), makeBox(oc, scope, [20, 20, 6], [10, 10, 15]));
}

/** The same block with a second pocket, 10 x 10 x 4, in the bottom. */
export function pocketsTopAndBottom(oc: OpenCascadeInstance, scope: OcctScope): TopoDS_Shape {
  return cut(oc, scope, pocketOnTop(oc, scope), makeBox(oc, scope, [10, 10, 5], [15, 15, -1]));
}

/**
 * A 40 x 40 x 20 block with a closed T-shaped cavity: a narrow slot 6 wide from the top down to
 * z 10, widening to 16 from z 10 down to z 4, both from x 5 to x 35. The undersides of the
 * narrow slot's lips (facing -Z at z 10) are reached from no direction.
 */
export function tSlotBlock(oc: OpenCascadeInstance, scope: OcctScope): TopoDS_Shape {
  let part = makeBox(oc, scope, [40, 40, 20]);
  part = cut(oc, scope, part, makeBox(oc, scope, [30, 6, 11], [5, 17, 10]));
  return cut(oc, scope, part, makeBox(oc, scope, [30, 16, 6], [5, 12, 4]));
}

/** A 40 x 40 x 20 block with a half-round groove of radius 5 running through it top to bottom, in its -Y face. */
export function circularThroughSlot(oc: OpenCascadeInstance, scope: OcctScope): TopoDS_Shape {
  return cut(oc, scope, makeBox(oc, scope, [40, 40, 20]), makeCylinder(oc, scope, [20, 0, -1], [0, 0, 1], 5, 22));
}

/** A 40 x 40 x 20 block with a slot 8 wide from its -Y face, 5 deep, ending in a half circle at y 15. */
export function roundEndSlot(oc: OpenCascadeInstance, scope: OcctScope): TopoDS_Shape {
  const tool = fuse(
    oc,
    scope,
    makeBox(oc, scope, [8, 16, 6], [16, -1, 15]),
    makeCylinder(oc, scope, [20, 15, 15], [0, 0, 1], 4, 6),
  );
  return cut(oc, scope, makeBox(oc, scope, [40, 40, 20]), tool);
}

/**
 * A 40 x 40 x 20 block with a wide slot in its -Y face, 5 deep: a straight back wall from x 16
 * to 24 at y 6, turning into the open face by quarter circles of radius 6 centred on the edge.
 */
export function quarterEndSlot(oc: OpenCascadeInstance, scope: OcctScope): TopoDS_Shape {
  let tool = makeBox(oc, scope, [8, 7, 6], [16, -1, 15]);
  tool = fuse(oc, scope, tool, makeCylinder(oc, scope, [16, 0, 15], [0, 0, 1], 6, 6));
  tool = fuse(oc, scope, tool, makeCylinder(oc, scope, [24, 0, 15], [0, 0, 1], 6, 6));
  return cut(oc, scope, makeBox(oc, scope, [40, 40, 20]), tool);
}

/** A 40 x 40 x 20 block with a quarter-round step of radius 8 cut 5 deep at its (0, 0) top corner. */
export function roundCornerStep(oc: OpenCascadeInstance, scope: OcctScope): TopoDS_Shape {
  return cut(oc, scope, makeBox(oc, scope, [40, 40, 20]), makeCylinder(oc, scope, [0, 0, 15], [0, 0, 1], 8, 6));
}
