/**
 * Two things face analysis needs from OCCT beyond kernel/geometry:
 *
 * - Typed views of static methods on namespaces that occt.d.ts declared before this module
 *   needed more of them (`oc.TopoDS.Edge_1`, `oc.BRep_Tool.Degenerated`...): `statics(oc)`.
 *
 * - Freeing objects that `releaseOcctObject` (kernel/geometry/occt-release.ts) cannot free in
 *   this build: values a method returns of classes it has not learned (gp_Vec, gp_Cylinder,
 *   gp_Ax1...), and edges, wires and vertices (only TopoDS_Shape, Face, Shell, Solid and
 *   Compound are learned there). Their embind destructor is the shared placeholder, so
 *   `delete()` alone keeps 12 bytes per edge and up to a few hundred per surface description.
 *   `ownValue(scope, value)` hands such an object to the scope so that it is freed for real, the
 *   same way occt-release.ts does it: a value is destroyed with the real destructor of its
 *   numbered subclass (same layout, only constructors added); a shape is emptied (Nullify,
 *   identity location) and its block given back with free(), which occt-release.ts has verified
 *   is OCCT's allocator in this build (otherwise shapes are left to plain delete()).
 *   Any other object goes to `scope.own` unchanged.
 */
import type {
  BRep_ToolFeatureStatics,
  BRepGPropFeatureStatics,
  BRepToolsFeatureStatics,
  OpenCascadeInstance,
  TopLoc_Location,
  TopoDS_Downcasts,
} from "opencascade.js/dist/node.js";
import type { OcctScope } from "../geometry/occt-scope.ts";
import { needsManualDestructor, releaseOcctObject, type Releasable } from "../geometry/occt-release.ts";

export interface FeatureStatics {
  TopoDS: OpenCascadeInstance["TopoDS"] & TopoDS_Downcasts;
  BRep_Tool: OpenCascadeInstance["BRep_Tool"] & BRep_ToolFeatureStatics;
  BRepTools: OpenCascadeInstance["BRepTools"] & BRepToolsFeatureStatics;
  BRepGProp: OpenCascadeInstance["BRepGProp"] & BRepGPropFeatureStatics;
}

/** The namespaces of `oc` with the static methods kernel/features declares (occt.d.ts). */
export function statics(oc: OpenCascadeInstance): FeatureStatics {
  return {
    TopoDS: oc.TopoDS as FeatureStatics["TopoDS"],
    BRep_Tool: oc.BRep_Tool as FeatureStatics["BRep_Tool"],
    BRepTools: oc.BRepTools as FeatureStatics["BRepTools"],
    BRepGProp: oc.BRepGProp as FeatureStatics["BRepGProp"],
  };
}

/** embind's bookkeeping behind every object (not part of the typed API) */
interface RegisteredClass {
  rawDestructor: (pointer: number) => void;
  baseClass?: RegisteredClass;
}
interface EmbindObject {
  $$?: { ptr?: number; ptrType?: { registeredClass?: RegisteredClass } };
}

function registeredClassOf(object: unknown): RegisteredClass | undefined {
  return (object as EmbindObject).$$?.ptrType?.registeredClass;
}

/** Numbered classes whose base is what methods return by value. */
const VALUE_SAMPLES = [
  "gp_Vec_1",
  "gp_Pnt2d_1",
  "gp_Ax1_1",
  "gp_Ax2_1",
  "gp_Ax3_1",
  "gp_Pln_1",
  "gp_Cylinder_1",
  "gp_Cone_1",
  "gp_Sphere_1",
  "gp_Torus_1",
  "gp_Circ_1",
];
/** Shape classes occt-release.ts does not learn. */
const SHAPE_CLASSES = ["TopoDS_Edge", "TopoDS_Wire", "TopoDS_Vertex"];

type Freer =
  | { kind: "value"; destroy: (pointer: number) => void }
  | { kind: "shape"; free: (pointer: number) => void; identity: TopLoc_Location };

const learned = new WeakMap<OpenCascadeInstance, Map<RegisteredClass, Freer>>();

function freersOf(oc: OpenCascadeInstance): Map<RegisteredClass, Freer> {
  let freers = learned.get(oc);
  if (freers !== undefined) return freers;
  freers = new Map();
  learned.set(oc, freers);
  const constructors = oc as unknown as Record<string, (new () => Releasable) | undefined>;
  const probe = new oc.TopoDS_Shape();
  const placeholder = registeredClassOf(probe)?.rawDestructor;
  // occt-release.ts frees TopoDS_Shape by hand only once it has checked that OCCT allocates with malloc
  const shapesByHand = needsManualDestructor(probe);
  releaseOcctObject(probe);
  if (placeholder === undefined) return freers;
  for (const name of VALUE_SAMPLES) {
    const make = constructors[name];
    if (make === undefined) continue;
    let sample: Releasable;
    try {
      sample = new make();
    } catch {
      continue; // not constructible without arguments in this build: left to releaseOcctObject
    }
    const numbered = registeredClassOf(sample);
    const base = numbered?.baseClass;
    if (numbered && base && base.rawDestructor === placeholder && numbered.rawDestructor !== placeholder) {
      freers.set(base, { kind: "value", destroy: numbered.rawDestructor });
    }
    sample.delete(); // numbered: its own destructor runs
  }
  if (shapesByHand) {
    const identity = new oc.TopLoc_Location_1(); // kept for the instance's lifetime
    const free = (pointer: number): void => oc._free(pointer);
    for (const name of SHAPE_CLASSES) {
      const make = constructors[name];
      if (make === undefined) continue;
      const sample = new make();
      const registered = registeredClassOf(sample);
      if (registered && registered.rawDestructor === placeholder)
        freers.set(registered, { kind: "shape", free, identity });
      freeNow(sample, registered === undefined ? undefined : freers.get(registered));
    }
  }
  return freers;
}

function freeNow(object: Releasable, freer: Freer | undefined): void {
  if (freer === undefined) {
    releaseOcctObject(object);
    return;
  }
  if (freer.kind === "shape") {
    object.Nullify?.();
    object.Location_2?.(freer.identity, false);
  }
  const pointer = (object as EmbindObject).$$?.ptr;
  object.delete();
  if (pointer === undefined || pointer === 0) return;
  if (freer.kind === "shape") freer.free(pointer);
  else freer.destroy(pointer);
}

/** Prepares the release of values and edges for `oc` (done on first use otherwise). */
export function prepareValueRelease(oc: OpenCascadeInstance): void {
  freersOf(oc);
}

/**
 * Takes `object` into `scope` so that it is freed for real when the scope ends, including the
 * classes occt-release.ts leaves to a placeholder destructor (see above). Returns `object`.
 */
export function ownValue<T extends Releasable>(oc: OpenCascadeInstance, scope: OcctScope, object: T): T {
  const registered = registeredClassOf(object);
  const freer = registered === undefined ? undefined : freersOf(oc).get(registered);
  if (freer === undefined) return scope.own(object);
  scope.own({ delete: () => freeNow(object, freer) });
  return object;
}

/** Frees `object` now, as `ownValue` would at the end of its scope. */
export function freeValue(oc: OpenCascadeInstance, object: Releasable): void {
  const registered = registeredClassOf(object);
  freeNow(object, registered === undefined ? undefined : freersOf(oc).get(registered));
}
