/**
 * A solid whose every face carries its class by construction. Each operation (a boolean cut by a
 * feature's tool body, a fillet or chamfer on edges) hands the labels on through OCCT's own
 * history of that operation: a face the operation modified passes its label to the faces it
 * became (Modified), a deleted face drops out, a face of the tool becomes the feature's faces,
 * and a blend's new faces are what its edges generated (Generated). So a face a later feature
 * cuts into keeps its first feature's class, as MFCAD labels it, and nothing is re-recognised.
 *
 * An operation whose result is not one solid with every face labelled, or (when checking each
 * step) not valid by BRepCheck_Analyzer, is refused and leaves the solid as it was.
 */
import type { OpenCascadeInstance, TopoDS_Edge, TopoDS_Face, TopoDS_Shape } from "opencascade.js/dist/node.js";
import type { OcctScope } from "../../geometry/occt-scope.ts";
import { subShapes } from "../../geometry/topology.ts";
import type { FaceClass } from "../recognition/types.ts";
import { type BlendMaker, generatorOcct, type History, type ListOfShape } from "./occt.ts";

interface LabelledFace {
  face: TopoDS_Shape;
  label: FaceClass;
}

/** Where new labelled faces come from in one operation. */
interface Sources {
  /** faces of a tool body: they, or what they became, take `label` */
  toolFaces?: readonly TopoDS_Shape[];
  /** edges (or vertices) of a blend: the faces they generated take `label` */
  generators?: readonly TopoDS_Shape[];
  label: FaceClass;
}

export class LabelledSolid {
  #shape: TopoDS_Shape;
  #faces: LabelledFace[];
  #labels: FaceClass[];

  constructor(
    private readonly oc: OpenCascadeInstance,
    private readonly scope: OcctScope,
    shape: TopoDS_Shape,
    label: FaceClass = "stock",
    /** run BRepCheck_Analyzer after every operation (slow); otherwise call `isValid()` at the end */
    private readonly checkEachStep = true,
  ) {
    this.#shape = shape;
    this.#faces = subShapes(oc, shape, oc.TopAbs_ShapeEnum.TopAbs_FACE, scope).map((face) => ({ face, label }));
    this.#labels = this.#faces.map((f) => f.label);
  }

  get shape(): TopoDS_Shape {
    return this.#shape;
  }

  /** The class of each face, by face id (TopExp_Explorer position, as the face analysis numbers them). */
  get labels(): readonly FaceClass[] {
    return this.#labels;
  }

  /** Cuts `tool` out; its faces in the result are `label`. False (and nothing changed) when the result is refused. */
  cut(tool: TopoDS_Shape, label: FaceClass): boolean {
    const oc = this.oc;
    const toolFaces = subShapes(oc, tool, oc.TopAbs_ShapeEnum.TopAbs_FACE, this.scope);
    return this.#apply(() => {
      const maker = this.scope.own(
        new (generatorOcct(oc).BRepAlgoAPI_Cut_3)(this.#shape, tool, this.scope.own(new oc.Message_ProgressRange_1())),
      );
      if (!maker.IsDone() || maker.HasErrors()) return null;
      return { maker, sources: { toolFaces, label } };
    });
  }

  /** Rounds `edges` to `radius`; the new faces are `round`. */
  fillet(edges: readonly TopoDS_Edge[], radius: number): boolean {
    const oc = this.oc;
    return this.#apply(() => {
      const maker = this.scope.own(
        new (generatorOcct(oc).BRepFilletAPI_MakeFillet)(this.#shape, oc.ChFi3d_FilletShape.ChFi3d_Rational),
      );
      for (const edge of edges) maker.Add_2(radius, edge);
      return this.#built(maker, { generators: edges, label: "round" });
    });
  }

  /** Bevels `edge`, `d1` along `face` and `d2` along its other face (an unequal pair: a bevel of another angle than 45 degrees). */
  chamfer(edge: TopoDS_Edge, face: TopoDS_Face, d1: number, d2: number): boolean {
    return this.#apply(() => {
      const maker = this.scope.own(new (generatorOcct(this.oc).BRepFilletAPI_MakeChamfer)(this.#shape));
      maker.Add_3(d1, d2, edge, face);
      return this.#built(maker, { generators: [edge], label: "chamfer" });
    });
  }

  #built(maker: BlendMaker, sources: Sources): { maker: BlendMaker; sources: Sources } | null {
    maker.Build(this.scope.own(new this.oc.Message_ProgressRange_1()));
    return maker.IsDone() ? { maker, sources } : null;
  }

  #apply(run: () => { maker: History & { Shape(): TopoDS_Shape }; sources: Sources } | null): boolean {
    const oc = this.oc;
    let done: ReturnType<typeof run>;
    try {
      done = run();
    } catch {
      return false; // OCCT threw (a pointer to a Standard_Failure): the operation did not work out
    }
    if (done === null) return false;
    const { maker, sources } = done;
    let result: TopoDS_Shape;
    try {
      result = this.scope.own(maker.Shape());
    } catch {
      return false;
    }
    const next: LabelledFace[] = [];
    const carry = (face: TopoDS_Shape, label: FaceClass) => {
      if (maker.IsDeleted(face)) return;
      const modified = this.#list(maker.Modified(face));
      if (modified.length === 0) next.push({ face, label });
      else for (const m of modified) next.push({ face: m, label });
    };
    for (const { face, label } of this.#faces) carry(face, label);
    for (const face of sources.toolFaces ?? []) carry(face, sources.label);
    for (const generator of sources.generators ?? [])
      for (const face of this.#list(maker.Generated(generator))) next.push({ face, label: sources.label });

    const labels = this.#labelsOf(result, next);
    if (labels === null || !this.#isOneSolid(result)) return false;
    if (this.checkEachStep && !isValidSolid(oc, this.scope, result)) return false;
    this.#shape = result;
    this.#faces = subShapes(oc, result, oc.TopAbs_ShapeEnum.TopAbs_FACE, this.scope).map((face, id) => ({
      face,
      label: labels[id] as FaceClass,
    }));
    this.#labels = labels;
    return true;
  }

  /** Per explorer face of `result`, the label of the tracked face that is it; null when one has none. */
  #labelsOf(result: TopoDS_Shape, tracked: readonly LabelledFace[]): FaceClass[] | null {
    const oc = this.oc;
    const map = this.scope.own(new oc.TopTools_IndexedMapOfShape_1());
    oc.TopExp.MapShapes_1(result, oc.TopAbs_ShapeEnum.TopAbs_FACE, map);
    const byIndex = new Map<number, FaceClass>();
    for (const { face, label } of tracked) {
      const index = map.FindIndex(face);
      if (index > 0 && !byIndex.has(index)) byIndex.set(index, label);
    }
    const labels: FaceClass[] = [];
    for (const face of subShapes(oc, result, oc.TopAbs_ShapeEnum.TopAbs_FACE, this.scope)) {
      const label = byIndex.get(map.FindIndex(face));
      if (label === undefined) return null;
      labels.push(label);
    }
    return labels;
  }

  /** The solid as it is now passes BRepCheck_Analyzer. */
  isValid(): boolean {
    return isValidSolid(this.oc, this.scope, this.#shape);
  }

  #isOneSolid(shape: TopoDS_Shape): boolean {
    const oc = this.oc;
    return subShapes(oc, shape, oc.TopAbs_ShapeEnum.TopAbs_SOLID, this.scope).length === 1;
  }

  #list(list: ListOfShape): TopoDS_Shape[] {
    this.scope.own(list);
    const shapes: TopoDS_Shape[] = [];
    while (list.Size() > 0) {
      shapes.push(this.scope.own(list.First_1()));
      list.RemoveFirst();
    }
    return shapes;
  }
}

/** BRepCheck_Analyzer with its geometric checks. */
export function isValidSolid(oc: OpenCascadeInstance, scope: OcctScope, shape: TopoDS_Shape): boolean {
  return scope.own(new (generatorOcct(oc).BRepCheck_Analyzer)(shape, true, false)).IsValid_2();
}
