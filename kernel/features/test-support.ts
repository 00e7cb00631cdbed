/**
 * Parts for the face-analysis tests, built with OCCT primitives and operations, and the MFCAD
 * fixtures (../shared/fixtures/mfcad). Not used in production.
 */
import fs from "node:fs";
import path from "node:path";
import type { OpenCascadeInstance, TopoDS_Edge, TopoDS_Shape } from "opencascade.js/dist/node.js";
import type { OcctScope } from "../geometry/occt-scope.ts";
import { FIXTURE_PARTS } from "../geometry/test-support.ts";
import { analyseSolid } from "./analyse-brep.ts";
import { statics } from "./occt-support.ts";
import type { EdgeAnalysis } from "./types.ts";

export const MFCAD = path.resolve(FIXTURE_PARTS, "..", "mfcad");

export interface MfcadLabels {
  model: string;
  faces: { step_entity: number; face_id: number; class: string }[];
}

/** The MFCAD model names, sorted. */
export function mfcadModels(): string[] {
  return fs
    .readdirSync(path.join(MFCAD, "step"))
    .filter((name) => name.endsWith(".step"))
    .map((name) => name.slice(0, -".step".length))
    .sort();
}

export function mfcadStep(model: string): Uint8Array {
  return new Uint8Array(fs.readFileSync(path.join(MFCAD, "step", `${model}.step`)));
}

export function mfcadLabels(model: string): MfcadLabels {
  return JSON.parse(fs.readFileSync(path.join(MFCAD, "labels", `${model}.json`), "utf8")) as MfcadLabels;
}

/** n -> the name of `#n = ADVANCED_FACE('name', ...)` for every advanced face of a STEP text. */
export function advancedFaces(stepText: string): Map<number, string> {
  const faces = new Map<number, string>();
  for (const match of stepText.matchAll(/#(\d+)\s*=\s*ADVANCED_FACE\s*\(\s*'([^']*)'/g))
    faces.set(Number(match[1]), match[2] as string);
  return faces;
}

type Point = [number, number, number];

/** A box [corner, corner + size], owned by `scope`. */
export function makeBox(
  oc: OpenCascadeInstance,
  scope: OcctScope,
  size: Point,
  corner: Point = [0, 0, 0],
): TopoDS_Shape {
  const maker = scope.own(new oc.BRepPrimAPI_MakeBox_3(scope.own(new oc.gp_Pnt_3(...corner)), ...size));
  return scope.own(maker.Solid());
}

/** A cylinder of `radius` from `base` along `direction` for `height`. */
export function makeCylinder(
  oc: OpenCascadeInstance,
  scope: OcctScope,
  base: Point,
  direction: Point,
  radius: number,
  height: number,
): TopoDS_Shape {
  const axes = scope.own(
    new oc.gp_Ax2_3(scope.own(new oc.gp_Pnt_3(...base)), scope.own(new oc.gp_Dir_4(...direction))),
  );
  return scope.own(scope.own(new oc.BRepPrimAPI_MakeCylinder_3(axes, radius, height)).Solid());
}

export function cut(oc: OpenCascadeInstance, scope: OcctScope, shape: TopoDS_Shape, tool: TopoDS_Shape): TopoDS_Shape {
  const operation = scope.own(new oc.BRepAlgoAPI_Cut_3(shape, tool, scope.own(new oc.Message_ProgressRange_1())));
  if (!operation.IsDone() || operation.HasErrors()) throw new Error("BRepAlgoAPI_Cut failed");
  return scope.own(operation.Shape());
}

export function fuse(oc: OpenCascadeInstance, scope: OcctScope, shape: TopoDS_Shape, tool: TopoDS_Shape): TopoDS_Shape {
  const operation = scope.own(new oc.BRepAlgoAPI_Fuse_3(shape, tool, scope.own(new oc.Message_ProgressRange_1())));
  if (!operation.IsDone() || operation.HasErrors()) throw new Error("BRepAlgoAPI_Fuse failed");
  return scope.own(operation.Shape());
}

/** The edges of `shape` (by analysis edge id, which is TopExp::MapShapes order) that `pick` selects. */
export function edgesWhere(
  oc: OpenCascadeInstance,
  scope: OcctScope,
  shape: TopoDS_Shape,
  pick: (edge: EdgeAnalysis) => boolean,
): TopoDS_Edge[] {
  const picked = analyseSolid(oc, shape).edges.filter(pick);
  const map = scope.own(new oc.TopTools_IndexedMapOfShape_1());
  oc.TopExp.MapShapes_1(shape, oc.TopAbs_ShapeEnum.TopAbs_EDGE, map);
  return picked.map((edge) => scope.own(statics(oc).TopoDS.Edge_1(scope.own(map.FindKey(edge.id + 1)))));
}

/** `shape` with `edges` rounded to `radius`. */
export function fillet(
  oc: OpenCascadeInstance,
  scope: OcctScope,
  shape: TopoDS_Shape,
  edges: TopoDS_Edge[],
  radius: number,
): TopoDS_Shape {
  const maker = scope.own(new oc.BRepFilletAPI_MakeFillet(shape, oc.ChFi3d_FilletShape.ChFi3d_Rational));
  for (const edge of edges) maker.Add_2(radius, edge);
  maker.Build(scope.own(new oc.Message_ProgressRange_1()));
  if (!maker.IsDone()) throw new Error("BRepFilletAPI_MakeFillet failed");
  return scope.own(maker.Shape());
}

/** `shape` with every surface and curve turned into a B-spline. */
export function nurbs(oc: OpenCascadeInstance, scope: OcctScope, shape: TopoDS_Shape): TopoDS_Shape {
  const converter = scope.own(new oc.BRepBuilderAPI_NurbsConvert_2(shape, true));
  if (!converter.IsDone()) throw new Error("BRepBuilderAPI_NurbsConvert failed");
  return scope.own(converter.Shape());
}

/** A shell of the faces of `shape` except those `drop` names (by explorer index). */
export function shellWithout(
  oc: OpenCascadeInstance,
  scope: OcctScope,
  shape: TopoDS_Shape,
  drop: number[],
): TopoDS_Shape {
  const builder = scope.own(new oc.BRep_Builder());
  const shell = scope.own(new oc.TopoDS_Shell());
  builder.MakeShell(shell);
  const explorer = scope.own(
    new oc.TopExp_Explorer_2(shape, oc.TopAbs_ShapeEnum.TopAbs_FACE, oc.TopAbs_ShapeEnum.TopAbs_SHAPE),
  );
  for (let index = 0; explorer.More(); explorer.Next(), index++) {
    if (!drop.includes(index)) builder.Add(shell, scope.own(explorer.Current()));
  }
  return shell;
}

export function near(actual: number, expected: number, tolerance: number, what: string): void {
  if (!(Math.abs(actual - expected) <= tolerance))
    throw new Error(`${what}: ${actual} is not within ${tolerance} of ${expected}`);
}

export function nearVector(
  actual: readonly number[] | null,
  expected: readonly number[],
  tolerance: number,
  what: string,
): void {
  if (actual === null) throw new Error(`${what}: null, expected [${expected.join(", ")}]`);
  const distance = Math.hypot(...actual.map((value, i) => value - (expected[i] as number)));
  if (!(distance <= tolerance))
    throw new Error(`${what}: [${actual.join(", ")}] is not within ${tolerance} of [${expected.join(", ")}]`);
}
