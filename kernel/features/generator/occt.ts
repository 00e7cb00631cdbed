/**
 * The OCCT the generator needs beyond kernel/geometry/occt.d.ts, typed here (test support only:
 * the declarations are the package's, opencascade.full.d.ts, under the same names): boolean and
 * blend history (Modified, Generated, IsDeleted), polygon prisms, cones, the validity check.
 */
import type { OpenCascadeInstance, TopoDS_Edge, TopoDS_Face, TopoDS_Shape } from "opencascade.js/dist/node.js";

export interface ListOfShape {
  Size(): number;
  First_1(): TopoDS_Shape;
  RemoveFirst(): void;
  delete(): void;
}

/** What BRepBuilderAPI_MakeShape and BRepAlgoAPI_BuilderAlgo say about where a shape went. */
export interface History {
  Modified(shape: TopoDS_Shape): ListOfShape;
  Generated(shape: TopoDS_Shape): ListOfShape;
  IsDeleted(shape: TopoDS_Shape): boolean;
}

interface Maker {
  Shape(): TopoDS_Shape;
  IsDone(): boolean;
  delete(): void;
}

export interface BooleanMaker extends Maker, History {
  HasErrors(): boolean;
}

export interface BlendMaker extends Maker, History {
  Build(progress: unknown): void;
}

export interface FilletMaker extends BlendMaker {
  Add_2(radius: number, edge: TopoDS_Edge): void;
}

export interface ChamferMaker extends BlendMaker {
  /** `d1` on `face`, `d2` on the edge's other face */
  Add_3(d1: number, d2: number, edge: TopoDS_Edge, face: TopoDS_Face): void;
}

export interface GeneratorOcct {
  BRepAlgoAPI_Cut_3: new (shape: TopoDS_Shape, tool: TopoDS_Shape, progress: unknown) => BooleanMaker;
  BRepAlgoAPI_Fuse_3: new (shape: TopoDS_Shape, tool: TopoDS_Shape, progress: unknown) => BooleanMaker;
  BRepFilletAPI_MakeFillet: new (shape: TopoDS_Shape, kind: unknown) => FilletMaker;
  BRepFilletAPI_MakeChamfer: new (shape: TopoDS_Shape) => ChamferMaker;
  BRepBuilderAPI_MakePolygon_1: new () => {
    Add_1(point: unknown): void;
    Close(): void;
    IsDone(): boolean;
    Wire(): TopoDS_Shape;
    delete(): void;
  };
  BRepBuilderAPI_MakeFace_15: new (wire: TopoDS_Shape, onlyPlane: boolean) => Maker & { Face(): TopoDS_Face };
  BRepPrimAPI_MakePrism_1: new (shape: TopoDS_Shape, vector: unknown, copy: boolean, canonize: boolean) => Maker;
  BRepPrimAPI_MakeCone_3: new (axes: unknown, r1: number, r2: number, height: number) => Maker;
  BRepCheck_Analyzer: new (
    shape: TopoDS_Shape,
    geometry: boolean,
    parallel: boolean,
  ) => {
    IsValid_2(): boolean;
    delete(): void;
  };
  ShapeUpgrade_UnifySameDomain_2: new (
    shape: TopoDS_Shape,
    unifyEdges: boolean,
    unifyFaces: boolean,
    concatBSplines: boolean,
  ) => { Build(): void; Shape(): TopoDS_Shape; delete(): void };
  gp_Vec_4: new (x: number, y: number, z: number) => { delete(): void };
  TopoDS: { Face_1(shape: TopoDS_Shape): TopoDS_Face; Edge_1(shape: TopoDS_Shape): TopoDS_Edge };
}

export function generatorOcct(oc: OpenCascadeInstance): GeneratorOcct {
  return oc as unknown as GeneratorOcct;
}
