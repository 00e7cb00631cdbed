/**
 * Which STEP entity each face of a read solid came from: n of `#n = ADVANCED_FACE(...)`.
 *
 * The map goes through the reader's own transfer results, not through the order of faces:
 * STEPControl_Reader's work session (XSControl_WorkSession) holds a transfer reader whose
 * Transfer_TransientProcess binds every STEP entity it translated to its result. For each bound
 * entity that is a face (a StepShape_FaceSurface, which ADVANCED_FACE is), the binder's shape
 * (TransferBRep_BinderOfShape::Result) is looked up among the solid's faces (TopTools map,
 * IsSame: same TShape and location), and the entity's number in the file is the model's
 * IdentLabel (StepData_StepModel; its Number is a position in the model, not #n). Shape
 * healing during the transfer updates the bound results, so they are the solid's faces.
 *
 * That needs the reader that read the file: `readStepWithEntities` reads with readStep
 * (kernel/geometry/step.ts: millimetres, the same refusals and warnings) and maps the faces in
 * its callback, before the reader is released.
 */
import type {
  OpenCascadeInstance,
  STEPControl_Reader,
  TopLoc_Location,
  TopoDS_Shape,
  TopTools_IndexedMapOfShape,
} from "opencascade.js/dist/node.js";
import { withOcctScope, type OcctScope } from "../geometry/occt-scope.ts";
import { readStep, type StepRead } from "../geometry/step.ts";
import type { AnalysisWarning } from "./types.ts";

export interface FaceEntityMap {
  /** per face id (TopExp_Explorer order over the solid): its STEP entity number, or null */
  entities: (number | null)[];
  warnings: AnalysisWarning[];
}

export interface StepReadWithEntities extends StepRead {
  /** per face id of `solid`: n of the `#n = ADVANCED_FACE` it was read from */
  faceEntities: (number | null)[];
  /** problems of the map (faces without an entity...); `warnings` are the reader's */
  entityWarnings: AnalysisWarning[];
}

/** Reads `bytes` like readStep (kernel/geometry/step.ts) and maps its faces to entities; the solid is owned by `scope`. */
export function readStepWithEntities(
  oc: OpenCascadeInstance,
  bytes: Uint8Array,
  scope: OcctScope,
): StepReadWithEntities {
  let map: FaceEntityMap | undefined;
  const read = readStep(oc, bytes, scope, (reader, solid) => {
    map = mapFaceEntities(oc, reader, solid);
  });
  if (!map) throw new Error("readStep returned without calling back with its reader");
  return { ...read, faceEntities: map.entities, entityWarnings: map.warnings };
}

/**
 * The STEP entity of every face of `shape` (a shape `reader` produced, or part of one), through
 * the reader's transfer results. Call it before the reader is released.
 */
export function mapFaceEntities(
  oc: OpenCascadeInstance,
  reader: STEPControl_Reader,
  shape: TopoDS_Shape,
): FaceEntityMap {
  const kinds = oc.TopAbs_ShapeEnum;
  return withOcctScope((scope) => {
    // face ids in explorer order, and the map's index of each (a face met twice keeps one index)
    const faceMap = scope.own(new oc.TopTools_IndexedMapOfShape_1());
    oc.TopExp.MapShapes_1(shape, kinds.TopAbs_FACE, faceMap);
    const idsOfIndex: number[][] = Array.from({ length: faceMap.Size() + 1 }, () => []);
    let faceCount = 0;
    withOcctScope((local) => {
      const explorer = local.own(new oc.TopExp_Explorer_2(shape, kinds.TopAbs_FACE, kinds.TopAbs_SHAPE));
      for (; explorer.More(); explorer.Next(), faceCount++) {
        const index = withOcctScope((inner) => faceMap.FindIndex(inner.own(explorer.Current())));
        idsOfIndex[index]?.push(faceCount);
      }
    });
    // faces without their location, for a solid placed by an assembly (its faces carry the
    // placement, the bound results do not); built on the first miss
    let unlocated: { map: { FindIndex(shape: TopoDS_Shape): number }; identity: TopLoc_Location } | null = null;
    const indexOf = (face: TopoDS_Shape, local: OcctScope): number => {
      const index = faceMap.FindIndex(face);
      if (index > 0) return index;
      unlocated ??= unlocatedFaces(oc, faceMap, scope);
      return unlocated.map.FindIndex(local.own(face.Located(unlocated.identity, false)));
    };
    const entities: (number | null)[] = new Array<number | null>(faceCount).fill(null);
    const warnings: AnalysisWarning[] = [];
    const conflicts: number[] = [];
    let unlabelled = 0;

    const session = scope.own(reader.WS());
    if (session.IsNull()) return noSession(entities);
    const transferReader = scope.own(session.get().TransferReader());
    if (transferReader.IsNull()) return noSession(entities);
    const process = scope.own(transferReader.get().TransientProcess());
    const modelHandle = scope.own(reader.StepModel());
    if (process.IsNull() || modelHandle.IsNull()) return noSession(entities);
    const transfer = process.get();
    const model = modelHandle.get();
    // ADVANCED_FACE is a StepShape_AdvancedFace, a kind of StepShape_FaceSurface
    const faceType = scope.own(oc.StepShape_FaceSurface.get_type_descriptor());

    const mapped = transfer.NbMapped();
    for (let i = 1; i <= mapped; i++) {
      withOcctScope((local) => {
        const entity = local.own(transfer.Mapped(i));
        if (entity.IsNull() || !entity.get().IsKind_1(faceType)) return;
        const binderHandle = local.own(transfer.MapItem(i));
        if (binderHandle.IsNull()) return;
        const binder = binderHandle.get();
        if (!("Result" in binder) || !binder.HasResult()) return;
        const result = local.own((binder as { Result(): TopoDS_Shape }).Result());
        if (result.IsNull()) return;
        let label = model.IdentLabel(entity);
        if (!(label > 0)) {
          label = model.Number(entity);
          unlabelled++;
        }
        // the result is the face, or (after healing split it) a shape holding several
        const explorer = local.own(new oc.TopExp_Explorer_2(result, kinds.TopAbs_FACE, kinds.TopAbs_SHAPE));
        for (; explorer.More(); explorer.Next()) {
          const index = withOcctScope((inner) => indexOf(inner.own(explorer.Current()), inner));
          for (const id of idsOfIndex[index] ?? []) {
            const known = entities[id];
            if (known === null || known === undefined) entities[id] = label;
            else if (known !== label) conflicts.push(id);
          }
        }
      });
    }

    const missing = entities.flatMap((entity, id) => (entity === null ? [id] : []));
    if (missing.length > 0) {
      warnings.push({
        code: "faces_without_step_entity",
        message: `${missing.length} of ${faceCount} faces could not be traced to a STEP face entity (made by shape healing?); their step entity is null.`,
        faces: missing,
      });
    }
    if (conflicts.length > 0) {
      warnings.push({
        code: "ambiguous_step_entity",
        message: `${conflicts.length} faces were produced by more than one STEP face entity; the first was kept.`,
        faces: [...new Set(conflicts)],
      });
    }
    if (unlabelled > 0) {
      warnings.push({
        code: "step_entity_numbers_unknown",
        message: `${unlabelled} STEP face entities carry no #number from the file; their position in the model was used instead.`,
      });
    }
    return { entities, warnings };
  });
}

/** A map whose index i holds face i of `faces` without its location. */
function unlocatedFaces(oc: OpenCascadeInstance, faces: TopTools_IndexedMapOfShape, scope: OcctScope) {
  const identity = scope.own(new oc.TopLoc_Location_1());
  const map = scope.own(new oc.TopTools_IndexedMapOfShape_1());
  for (let i = 1; i <= faces.Size(); i++) {
    withOcctScope((local) => map.Add(local.own(local.own(faces.FindKey(i)).Located(identity, false))));
  }
  return { map, identity };
}

function noSession(entities: (number | null)[]): FaceEntityMap {
  return {
    entities,
    warnings: [
      {
        code: "faces_without_step_entity",
        message: "The STEP reader kept no transfer results; no face could be traced to its entity.",
      },
    ],
  };
}
