/**
 * Freeing OCCT objects for real. In opencascade.js 2.0.0-beta.6e177a4, `delete()` frees nothing
 * for objects whose JavaScript class is a non-polymorphic base class: every TopoDS_Shape, and
 * every value a method returns (gp_Pnt from Poly_Triangulation::Node, Poly_Triangle, gp_Trsf,
 * TCollection_AsciiString...). Their embind destructor is one shared placeholder function, the
 * same for TopoDS_Shape and gp_Pnt, which no real destructor could be. Measured: a million
 * `Node(1).delete()` keep 31 MB; a shape read from a file and deleted keeps its whole B-rep.
 * Objects made with a numbered constructor (`new oc.gp_Pnt_3(...)`) are freed properly.
 *
 * So, releasing an object:
 * - a shape or handle is first `Nullify()`d, which drops its reference to the B-rep data;
 * - a value of a base class whose numbered subclass has a real destructor (same layout, the
 *   subclass only adds constructors) is destroyed with that destructor after `delete()`;
 * - a shape, which has no numbered subclass, is emptied (Nullify, identity location) so that
 *   nothing is left for a destructor to do, and its 12 bytes are given back with free(). That
 *   is only done after checking that OCCT allocates with malloc in this build (Standard::Allocate
 *   hands out the very block malloc just freed).
 * The placeholder is recognised at start-up by identity, so a build with working destructors
 * gets plain `delete()` and nothing is freed twice.
 */
import type { OpenCascadeInstance, TopLoc_Location } from "opencascade.js/dist/node.js";

type RawDestructor = (pointer: number) => void;

/** embind's bookkeeping behind every object (not part of the typed API) */
interface RegisteredClass {
  name: string;
  rawDestructor: RawDestructor;
  baseClass?: RegisteredClass;
}
interface EmbindObject {
  $$?: { ptr?: number; ptrType?: { registeredClass?: RegisteredClass } };
}

export interface Releasable {
  delete(): void;
  Nullify?(): void;
  Location_2?(location: TopLoc_Location, raiseException: boolean): void;
}

interface ManualRelease {
  /** called with the object's address after `delete()` */
  destroy: RawDestructor;
  /** for shapes: set before destroying, so no location is left referenced */
  identity?: TopLoc_Location;
}

/** class -> how to free its objects for real */
const manualRelease = new WeakMap<RegisteredClass, ManualRelease>();
const prepared = new WeakSet<OpenCascadeInstance>();

function registeredClassOf(object: unknown): RegisteredClass | undefined {
  return (object as EmbindObject).$$?.ptrType?.registeredClass;
}

/** Learns, once per instance, which classes need their destructor called by hand. */
export function prepareRelease(oc: OpenCascadeInstance): void {
  if (prepared.has(oc)) return;
  prepared.add(oc);
  const shape = new oc.TopoDS_Shape();
  const placeholder = registeredClassOf(shape)?.rawDestructor;
  shape.delete();
  if (placeholder === undefined) return;
  const samples: Releasable[] = [
    new oc.gp_Pnt_3(0, 0, 0),
    new oc.gp_Dir_4(0, 0, 1),
    new oc.gp_Trsf_1(),
    new oc.Poly_Triangle_2(1, 2, 3),
    new oc.TCollection_AsciiString_1(),
  ];
  for (const sample of samples) {
    const numbered = registeredClassOf(sample);
    const base = numbered?.baseClass;
    if (numbered && base && base.rawDestructor === placeholder && numbered.rawDestructor !== placeholder) {
      manualRelease.set(base, { destroy: numbered.rawDestructor });
    }
    sample.delete(); // a numbered class: freed by its own destructor
  }
  if (!allocatesWithMalloc(oc)) return;
  const identity = new oc.TopLoc_Location_1(); // kept for the instance's lifetime
  const free = (pointer: number): void => oc._free(pointer);
  const shapes: Releasable[] = [
    new oc.TopoDS_Shape(),
    new oc.TopoDS_Face(),
    new oc.TopoDS_Shell(),
    new oc.TopoDS_Solid(),
    new oc.TopoDS_Compound(),
  ];
  for (const empty of shapes) {
    const registered = registeredClassOf(empty);
    if (registered && registered.rawDestructor === placeholder)
      manualRelease.set(registered, { destroy: free, identity });
    releaseOcctObject(empty);
  }
}

/** Whether Standard::Allocate is malloc: a 12-byte shape gets the 12-byte block malloc just freed. */
function allocatesWithMalloc(oc: OpenCascadeInstance): boolean {
  const block = oc._malloc(12);
  oc._free(block);
  const shape = new oc.TopoDS_Shape();
  const same = (shape as EmbindObject).$$?.ptr === block;
  shape.delete();
  if (same) oc._free(block); // the shape's block, which delete() did not give back
  return same;
}

/** Deletes `object` so that its memory is really given back (see above). */
export function releaseOcctObject(object: Releasable): void {
  object.Nullify?.();
  const registered = registeredClassOf(object);
  const manual = registered === undefined ? undefined : manualRelease.get(registered);
  if (manual?.identity !== undefined) object.Location_2?.(manual.identity, false);
  const pointer = (object as EmbindObject).$$?.ptr;
  object.delete();
  if (manual !== undefined && pointer !== undefined && pointer !== 0) manual.destroy(pointer);
}

/** Whether `object` is of a class this build cannot free by `delete()` alone (for tests). */
export function needsManualDestructor(object: unknown): boolean {
  const registered = registeredClassOf(object);
  return registered !== undefined && manualRelease.has(registered);
}
