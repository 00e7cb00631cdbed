/**
 * Face analysis of a B-rep: per face its surface, area, centroid, box, normal or axis and sense;
 * per edge its curve, length, topology and convexity; and the attributed adjacency graph (AAG).
 * Conventions and tolerances: types.ts and README.md in this folder.
 *
 * Convexity is measured, not guessed from the surface types: at sample points along an edge the
 * two faces' outward normals come from their surfaces at the edge's (u, v) on each face (through
 * the edge's curve on that face), and the tangent from the edge's 3D curve, turned as the edge
 * runs in the first face's wire. Sampling uses a handful of scratch objects, so the loop
 * allocates nothing in WASM.
 *
 * Robustness: any shape is accepted (a solid, a shell, a compound). Edges with one face (open
 * shells) or more than two (non-manifold) are reported with their faces and a warning; a face or
 * edge OCCT fails on is reported with a warning and the rest goes on. The time budget is checked
 * between faces and between edges (a single OCCT call cannot be interrupted).
 */
import type {
  BRepAdaptor_Surface,
  gp_Pnt,
  gp_Pnt2d,
  gp_Vec,
  OpenCascadeInstance,
  TopoDS_Edge,
  TopoDS_Face,
  TopoDS_Shape,
} from "opencascade.js/dist/node.js";
import { withOcctScope, type OcctScope } from "../geometry/occt-scope.ts";
import { describeOcctException } from "../geometry/opencascade.ts";
import { GeometryError } from "../geometry-error.ts";
import { add, dot, normalise, scale, sub } from "../math/vec3.ts";
import { stepTimer } from "../step-timer.ts";
import { emptyFace } from "./empty-face.ts";
import { buildAdjacency, ConvexityVote, topologyWarnings, unionOfBoxes } from "./graph.ts";
import { freeValue, ownValue, prepareValueRelease, statics, type FeatureStatics } from "./occt-support.ts";
import type {
  AnalysisOptions,
  AnalysisWarning,
  Convexity,
  CurveType,
  EdgeAnalysis,
  EdgeTopology,
  FaceAnalysis,
  PartAnalysis,
  Sense,
  SurfaceType,
  Vec3,
  WireInfo,
} from "./types.ts";

export const DEFAULT_SMOOTH_ANGLE_RAD = Math.PI / 180; // 1 degree
export const DEFAULT_SAMPLES_PER_EDGE = 5;
export const DEFAULT_BUDGET_MS = 20_000;
/** a curvature below this (1/mm, a radius above 1 m) counts as flat when judging free-form faces */
const FLAT_CURVATURE = 1e-3;
/** relative precision asked of GProp's adaptive integration on free-form faces */
const FREE_FORM_AREA_PRECISION = 1e-7;
const ANALYTIC = new Set<SurfaceType>(["plane", "cylinder", "cone", "sphere", "torus"]);
/** |D1U x D1V| below this: a singular point of the surface (a pole), no normal there */
const SINGULAR = 1e-12;

export interface BrepAnalysisOptions extends AnalysisOptions {
  /** per face id: the STEP entity number (step-entities.ts); faces beyond it get null */
  stepEntities?: readonly (number | null)[];
}

/** Scratch objects for evaluations, made once per analysis. */
interface Scratch {
  point: gp_Pnt;
  tangent: gp_Vec;
  d1u: gp_Vec;
  d1v: gp_Vec;
  uv: gp_Pnt2d;
}

interface FaceContext {
  face: TopoDS_Face;
  surface: BRepAdaptor_Surface | null;
  /** turns D1U x D1V into the outward normal: face orientation times the whole part's */
  sign: number;
  isPlane: boolean;
  /** the integral of p . n over the face (exact for planes, cylinders, spheres), null otherwise */
  flux: number | null;
  /** OCCT failed on the face: its measurements are missing */
  failed: boolean;
}

interface EdgeUse {
  face: number;
  edge: TopoDS_Edge;
  /** REVERSED in the face's wire: the tangent runs against the curve */
  reversed: boolean;
  /** INTERNAL or EXTERNAL: the face lies on both sides (or neither) */
  internal: boolean;
}

class BudgetExceeded extends Error {}

/** Analyses every face and edge of `shape` (a solid, shell or compound) in millimetres. */
export function analyseSolid(
  oc: OpenCascadeInstance,
  shape: TopoDS_Shape,
  options: BrepAnalysisOptions = {},
): PartAnalysis {
  const started = performance.now();
  const budgetMs = options.budgetMs ?? DEFAULT_BUDGET_MS;
  const deadline = options.deadline ?? started + budgetMs;
  const smoothAngle = options.smoothAngleRad ?? DEFAULT_SMOOTH_ANGLE_RAD;
  const samples = Math.max(1, Math.floor(options.samplesPerEdge ?? DEFAULT_SAMPLES_PER_EDGE));
  const partial = options.onTimeout === "partial";
  prepareValueRelease(oc);
  const st = statics(oc);
  const kinds = oc.TopAbs_ShapeEnum;

  return withOcctScope((scope) => {
    const timings: Record<string, number> = {};
    const warnings: AnalysisWarning[] = [];
    let complete = true;
    const checkBudget = (stage: string, done: number, total: number): void => {
      if (performance.now() <= deadline) return;
      if (partial) {
        complete = false;
        warnings.push({
          code: "analysis_incomplete",
          message: `The time budget ran out while analysing ${stage} (${done} of ${total} done); the rest is missing.`,
        });
        throw new BudgetExceeded();
      }
      throw new GeometryError(
        "analysis_timeout",
        `Face analysis did not finish within its time budget (${Math.round(deadline - started)} ms): it was at ${stage} ${done + 1} of ${total}.`,
        { budgetMs: Math.round(deadline - started), stage, done, total },
      );
    };
    const time = stepTimer(timings);

    const scratch: Scratch = {
      point: scope.own(new oc.gp_Pnt_1()),
      tangent: scope.own(new oc.gp_Vec_1()),
      d1u: scope.own(new oc.gp_Vec_1()),
      d1v: scope.own(new oc.gp_Vec_1()),
      uv: scope.own(new oc.gp_Pnt2d_1()),
    };

    const edgeMap = scope.own(new oc.TopTools_IndexedMapOfShape_1());
    oc.TopExp.MapShapes_1(shape, kinds.TopAbs_EDGE, edgeMap);
    const edgeCount = edgeMap.Size();
    const uses: EdgeUse[][] = Array.from({ length: edgeCount }, () => []);

    const faceCount = countFaces(oc, shape);
    const faces: FaceAnalysis[] = [];
    const contexts: FaceContext[] = [];
    try {
      time("faces", () => {
        const explorer = scope.own(new oc.TopExp_Explorer_2(shape, kinds.TopAbs_FACE, kinds.TopAbs_SHAPE));
        for (let id = 0; explorer.More(); explorer.Next(), id++) {
          checkBudget("face", id, faceCount);
          const face = withOcctScope((local) => scope.own(st.TopoDS.Face_1(local.own(explorer.Current()))));
          const stepEntity = options.stepEntities?.[id] ?? null;
          const { analysis, context } = analyseFace(oc, st, face, id, stepEntity, scratch, scope, warnings);
          analysis.wires = faceWires(oc, st, face, id, edgeMap, uses, scope, warnings);
          analysis.outerWires = analysis.wires.filter((wire) => wire.outer).length;
          analysis.innerWires = analysis.wires.length - analysis.outerWires;
          analysis.edges = [...new Set(analysis.wires.flatMap((wire) => wire.edges))].sort((a, b) => a - b);
          faces.push(analysis);
          contexts.push(context);
        }
      });
    } catch (error) {
      if (!(error instanceof BudgetExceeded)) throw error;
    }

    // the volume, by the divergence theorem: V = 1/3 of the sum over the faces of the integral
    // of p . n, exact from area and centroid for planes, cylinders and spheres; GProp's volume
    // of the whole part if it has other faces. A closed part whose faces point into the
    // material has a negative one: then every normal is turned around.
    const closedTopology =
      complete &&
      faces.length > 0 &&
      uses.every((list) => {
        const sides = list.reduce((count, use) => count + (use.internal ? 2 : 1), 0);
        return sides === 2 || (list[0] !== undefined && st.BRep_Tool.Degenerated(list[0].edge));
      });
    let volume: number | null = null;
    if (closedTopology) {
      volume = time("orientation", () => {
        const fluxes = contexts.map((context) => context.flux);
        if (fluxes.every((flux): flux is number => flux !== null))
          return fluxes.reduce((sum, flux) => sum + flux, 0) / 3;
        return gpropVolume(oc, shape);
      });
    }
    // an inside-out part also runs its wires the other way: the tangent turns with the normals
    let flip = 1;
    if (volume !== null && volume < 0) {
      volume = -volume;
      flip = -1;
      for (const context of contexts) context.sign = -context.sign;
      for (const face of faces) {
        if (face.normal) face.normal = scale(face.normal, -1);
        if (face.sense) face.sense = face.sense === "convex" ? "concave" : "convex";
      }
      warnings.push({
        code: "inverted_solid",
        message:
          "The part's faces point into its material (negative volume); normals and convexity were taken the other way round.",
      });
    }

    const edges: EdgeAnalysis[] = [];
    if (complete) {
      try {
        time("edges", () => {
          for (let e = 0; e < edgeCount; e++) {
            checkBudget("edge", e, edgeCount);
            edges.push(analyseEdge(oc, st, e, uses[e] ?? [], contexts, flip, samples, smoothAngle, scratch, warnings));
          }
        });
      } catch (error) {
        if (!(error instanceof BudgetExceeded)) throw error;
      }
    }

    const adjacency = buildAdjacency(edges);
    topologyWarnings(edges, warnings);
    // faces OCCT failed on have no box
    const bbox = unionOfBoxes(faces.filter((_, id) => contexts[id]?.failed === false).map((face) => face.bbox));
    timings.total = performance.now() - started;
    return {
      source: "brep" as const,
      faces,
      edges,
      adjacency,
      bbox,
      volume,
      closed:
        complete &&
        faces.length > 0 &&
        edges.every((edge) => edge.topology !== "free" && edge.topology !== "non_manifold"),
      complete,
      warnings,
      tolerances: { smoothAngleRad: smoothAngle, samplesPerEdge: samples },
      timings,
    };
  });
}

/**
 * GProp's volume of the closed shells of `shape` (as kernel/geometry/measure.ts takes it):
 * negative when its faces point inwards; null when it fails. Its fixed-order integration is
 * about 0.03 % off on B-spline faces; the adaptive one is exact but takes seconds on a part like
 * NIST FTC-10, and the sign is what matters here.
 */
function gpropVolume(oc: OpenCascadeInstance, shape: TopoDS_Shape): number | null {
  return withOcctScope((scope) => {
    const properties = scope.own(new oc.GProp_GProps_1());
    try {
      oc.BRepGProp.VolumeProperties_1(shape, properties, true, false, false);
    } catch {
      return null; // no orientation evidence: keep the faces as they are
    }
    return properties.Mass();
  });
}

function countFaces(oc: OpenCascadeInstance, shape: TopoDS_Shape): number {
  return withOcctScope((scope) => {
    let count = 0;
    const explorer = scope.own(
      new oc.TopExp_Explorer_2(shape, oc.TopAbs_ShapeEnum.TopAbs_FACE, oc.TopAbs_ShapeEnum.TopAbs_SHAPE),
    );
    for (; explorer.More(); explorer.Next()) count++;
    return count;
  });
}

// ---------------------------------------------------------------------------------------------
// faces

function surfaceTypeOf(oc: OpenCascadeInstance, surface: BRepAdaptor_Surface): SurfaceType {
  const type = surface.GetType();
  const types = oc.GeomAbs_SurfaceType;
  if (type === types.GeomAbs_Plane) return "plane";
  if (type === types.GeomAbs_Cylinder) return "cylinder";
  if (type === types.GeomAbs_Cone) return "cone";
  if (type === types.GeomAbs_Sphere) return "sphere";
  if (type === types.GeomAbs_Torus) return "torus";
  if (type === types.GeomAbs_BSplineSurface) return "bspline";
  if (type === types.GeomAbs_BezierSurface) return "bezier";
  if (type === types.GeomAbs_SurfaceOfRevolution) return "revolution";
  if (type === types.GeomAbs_SurfaceOfExtrusion) return "extrusion";
  if (type === types.GeomAbs_OffsetSurface) return "offset";
  return "other";
}

function xyz(value: { X(): number; Y(): number; Z(): number }): Vec3 {
  return [value.X(), value.Y(), value.Z()];
}

/** `value` as a Vec3, then freed (for values a method returned). */
function takeXyz(oc: OpenCascadeInstance, value: { X(): number; Y(): number; Z(): number; delete(): void }): Vec3 {
  try {
    return xyz(value);
  } finally {
    freeValue(oc, value);
  }
}

function finiteOr(value: number, fallback: number): number {
  return Number.isFinite(value) ? value : fallback;
}

function analyseFace(
  oc: OpenCascadeInstance,
  st: FeatureStatics,
  face: TopoDS_Face,
  id: number,
  stepEntity: number | null,
  scratch: Scratch,
  scope: OcctScope,
  warnings: AnalysisWarning[],
): { analysis: FaceAnalysis; context: FaceContext } {
  const reversed = face.Orientation_1() === oc.TopAbs_Orientation.TopAbs_REVERSED;
  const sign = reversed ? -1 : 1;
  const analysis = emptyFace(id, stepEntity);
  const context: FaceContext = { face, surface: null, sign, isPlane: false, flux: null, failed: false };
  try {
    const surface = scope.own(new oc.BRepAdaptor_Surface_2(face, true));
    context.surface = surface;
    analysis.surface = surfaceTypeOf(oc, surface);
    context.isPlane = analysis.surface === "plane";
    withOcctScope((local) => {
      const properties = local.own(new oc.GProp_GProps_1());
      // Gauss integration of fixed order is exact on analytic faces; on free-form ones it is
      // not (0.3 % off on a B-spline cylinder), so they get the adaptive method
      if (ANALYTIC.has(analysis.surface)) st.BRepGProp.SurfaceProperties_1(face, properties, false, false);
      else st.BRepGProp.SurfaceProperties_2(face, properties, FREE_FORM_AREA_PRECISION, false);
      analysis.area = properties.Mass();
      analysis.centroid = takeXyz(oc, properties.CentreOfMass());
      const box = local.own(new oc.Bnd_Box_1());
      oc.BRepBndLib.Add(face, box, false);
      if (!box.IsVoid()) analysis.bbox = { min: takeXyz(oc, box.CornerMin()), max: takeXyz(oc, box.CornerMax()) };
    });
    context.flux = describeSurface(oc, surface, analysis, sign, scratch);
  } catch (error) {
    context.failed = true;
    context.flux = null;
    warnings.push({
      code: "face_analysis_failed",
      message: `Face ${id} could not be analysed (${describeOcctException(oc, error)}); its measurements are missing.`,
      faces: [id],
    });
  }
  return { analysis, context };
}

/**
 * Normal, axis, radii and sense from the surface; `sign` turns D1U x D1V outwards. Returns the
 * face's integral of p . n (for the volume) where it is exact from area and centroid: planes
 * n . c A; cylinders, n = s (p - L)perp / r: s (r A + (A / r) Lperp . (c - L)perp); spheres
 * s (r A + (A / r) C . (c - C)). Null for the other surfaces.
 */
function describeSurface(
  oc: OpenCascadeInstance,
  surface: BRepAdaptor_Surface,
  analysis: FaceAnalysis,
  sign: number,
  scratch: Scratch,
): number | null {
  const u0 = surface.FirstUParameter(),
    u1 = surface.LastUParameter();
  const v0 = surface.FirstVParameter(),
    v1 = surface.LastVParameter();
  const um = Number.isFinite(u0 + u1) ? (u0 + u1) / 2 : finiteOr(u0, finiteOr(u1, 0));
  const vm = Number.isFinite(v0 + v1) ? (v0 + v1) / 2 : finiteOr(v0, finiteOr(v1, 0));

  // the outward normal at the parametric centre (it need not lie on the face: the relations used
  // below hold everywhere on an analytic surface)
  surface.D1(um, vm, scratch.point, scratch.d1u, scratch.d1v);
  const p: Vec3 = xyz(scratch.point);
  const n = crossNormalised(scratch.d1u, scratch.d1v, sign);

  return withOcctScope((local) => {
    const own = <T extends { delete(): void }>(value: T): T => ownValue(oc, local, value);
    switch (analysis.surface) {
      case "plane":
        analysis.normal = n;
        return dot(n, analysis.centroid) * analysis.area;
      case "cylinder": {
        const cylinder = own(surface.Cylinder());
        const axis = own(cylinder.Axis());
        const location = xyz(own(axis.Location()));
        const direction = xyz(own(axis.Direction()));
        analysis.radius = cylinder.Radius();
        const offset = dot(sub(analysis.centroid, location), direction);
        analysis.axis = { origin: add(location, scale(direction, offset)), direction };
        // v is the distance along the axis from the cylinder's location
        analysis.axialRange = orderedRange(v0 - offset, v1 - offset);
        analysis.sweepAngle = finiteOr(u1 - u0, 2 * Math.PI);
        analysis.sense = senseFrom(n, radialFromAxis(p, location, direction));
        if (analysis.sense === null) return null;
        const r = analysis.radius,
          area = analysis.area;
        const lPerp = radialFromAxis(location, [0, 0, 0], direction);
        const cPerp = radialFromAxis(analysis.centroid, location, direction);
        return (analysis.sense === "convex" ? 1 : -1) * (r * area + (area / r) * dot(lPerp, cPerp));
      }
      case "cone": {
        const cone = own(surface.Cone());
        const axis = own(cone.Axis());
        const location = xyz(own(axis.Location()));
        const direction = xyz(own(axis.Direction()));
        const angle = cone.SemiAngle();
        const offset = dot(sub(analysis.centroid, location), direction);
        analysis.axis = { origin: add(location, scale(direction, offset)), direction };
        // P(u, v) = location + (R + v sin a) radial + v cos a direction
        analysis.radius = cone.RefRadius() + offset * Math.tan(angle);
        analysis.semiAngle = Math.abs(angle);
        analysis.axialRange = orderedRange(v0 * Math.cos(angle) - offset, v1 * Math.cos(angle) - offset);
        analysis.sweepAngle = finiteOr(u1 - u0, 2 * Math.PI);
        analysis.sense = senseFrom(n, radialFromAxis(p, location, direction));
        return null;
      }
      case "sphere": {
        const sphere = own(surface.Sphere());
        const position = own(sphere.Position());
        const centre = xyz(own(position.Location()));
        analysis.axis = { origin: centre, direction: xyz(own(position.Direction())) };
        analysis.radius = sphere.Radius();
        analysis.sweepAngle = finiteOr(u1 - u0, 2 * Math.PI);
        analysis.sense = senseFrom(n, sub(p, centre));
        if (analysis.sense === null) return null;
        const r = analysis.radius,
          area = analysis.area;
        return (
          (analysis.sense === "convex" ? 1 : -1) * (r * area + (area / r) * dot(centre, sub(analysis.centroid, centre)))
        );
      }
      case "torus": {
        const torus = own(surface.Torus());
        const axis = own(torus.Axis());
        const centre = xyz(own(axis.Location()));
        const direction = xyz(own(axis.Direction()));
        const major = torus.MajorRadius();
        analysis.axis = { origin: centre, direction };
        analysis.radius = major;
        analysis.minorRadius = torus.MinorRadius();
        analysis.sweepAngle = finiteOr(u1 - u0, 2 * Math.PI);
        // the centre of the tube's circle nearest p lies in the torus's plane, at the major radius
        const tubeCentre = add(centre, scale(normalise(radialFromAxis(p, centre, direction)), major));
        analysis.sense = senseFrom(n, sub(p, tubeCentre));
        return null;
      }
      case "revolution": {
        const axis = own(surface.AxeOfRevolution());
        const location = xyz(own(axis.Location()));
        const direction = xyz(own(axis.Direction()));
        const offset = dot(sub(analysis.centroid, location), direction);
        analysis.axis = { origin: add(location, scale(direction, offset)), direction };
        analysis.sense = freeFormSense(oc, surface, um, vm, sign, local);
        return null;
      }
      default:
        analysis.sense = freeFormSense(oc, surface, um, vm, sign, local);
        return null;
    }
  });
}

/** Convex or concave from the principal curvatures at (u, v); null when flat or saddle-shaped. */
function freeFormSense(
  oc: OpenCascadeInstance,
  surface: BRepAdaptor_Surface,
  u: number,
  v: number,
  sign: number,
  scope: OcctScope,
): Sense | null {
  try {
    const properties = scope.own(new oc.BRepLProp_SLProps_1(surface, u, v, 2, 1e-7));
    if (!properties.IsCurvatureDefined()) return null;
    // relative to the outward normal; positive: bending towards the outside (hollow, like a hole)
    const a = sign * properties.MinCurvature();
    const b = sign * properties.MaxCurvature();
    const low = Math.min(a, b),
      high = Math.max(a, b);
    if (low >= -FLAT_CURVATURE && high > FLAT_CURVATURE) return "concave";
    if (high <= FLAT_CURVATURE && low < -FLAT_CURVATURE) return "convex";
    return null;
  } catch {
    return null;
  }
}

function senseFrom(outward: Vec3, awayFromCentre: Vec3): Sense | null {
  const d = dot(outward, awayFromCentre);
  if (d > 0) return "convex";
  if (d < 0) return "concave";
  return null;
}

function radialFromAxis(p: Vec3, origin: Vec3, direction: Vec3): Vec3 {
  const w = sub(p, origin);
  return sub(w, scale(direction, dot(w, direction)));
}

function orderedRange(a: number, b: number): [number, number] | null {
  if (!Number.isFinite(a) || !Number.isFinite(b)) return null;
  return a <= b ? [a, b] : [b, a];
}

/** The face's wires, recording each edge's use by the face. */
function faceWires(
  oc: OpenCascadeInstance,
  st: FeatureStatics,
  face: TopoDS_Face,
  faceId: number,
  edgeMap: { FindIndex(shape: TopoDS_Shape): number },
  uses: EdgeUse[][],
  scope: OcctScope,
  warnings: AnalysisWarning[],
): WireInfo[] {
  const kinds = oc.TopAbs_ShapeEnum;
  const orientations = oc.TopAbs_Orientation;
  return withOcctScope((local) => {
    const wires: WireInfo[] = [];
    const shapes: TopoDS_Shape[] = [];
    const wireExplorer = local.own(new oc.TopExp_Explorer_2(face, kinds.TopAbs_WIRE, kinds.TopAbs_SHAPE));
    for (; wireExplorer.More(); wireExplorer.Next()) {
      const wire = local.own(wireExplorer.Current());
      shapes.push(wire);
      const info: WireInfo = { outer: false, edges: [] };
      const edgeExplorer = local.own(new oc.TopExp_Explorer_2(wire, kinds.TopAbs_EDGE, kinds.TopAbs_SHAPE));
      for (; edgeExplorer.More(); edgeExplorer.Next()) {
        withOcctScope((inner) => {
          const current = inner.own(edgeExplorer.Current());
          const index = edgeMap.FindIndex(current) - 1;
          if (index < 0) return;
          info.edges.push(index);
          const edge = ownValue(oc, scope, st.TopoDS.Edge_1(current));
          const orientation = edge.Orientation_1();
          uses[index]?.push({
            face: faceId,
            edge,
            reversed: orientation === orientations.TopAbs_REVERSED,
            internal: orientation === orientations.TopAbs_INTERNAL || orientation === orientations.TopAbs_EXTERNAL,
          });
        });
      }
      wires.push(info);
    }
    // a single wire is the outer one; among several, OCCT tells (by their extent in (u, v))
    let outer: TopoDS_Shape | null = null;
    if (wires.length === 1) {
      (wires[0] as WireInfo).outer = true;
      return wires;
    }
    if (wires.length > 1) {
      try {
        outer = ownValue(oc, local, st.BRepTools.OuterWire(face));
        if (outer.IsNull()) outer = null;
      } catch {
        outer = null;
      }
      for (const [i, shape] of shapes.entries()) (wires[i] as WireInfo).outer = outer?.IsSame(shape) ?? false;
    }
    if (wires.length > 0 && outer === null) {
      warnings.push({
        code: "no_outer_wire",
        message: `OCCT found no outer wire on face ${faceId}; all its wires are counted as inner.`,
        faces: [faceId],
      });
    }
    return wires;
  });
}

// ---------------------------------------------------------------------------------------------
// edges

function curveTypeOf(oc: OpenCascadeInstance, type: unknown): CurveType {
  const types = oc.GeomAbs_CurveType;
  if (type === types.GeomAbs_Line) return "line";
  if (type === types.GeomAbs_Circle) return "circle";
  if (type === types.GeomAbs_Ellipse) return "ellipse";
  if (type === types.GeomAbs_Hyperbola) return "hyperbola";
  if (type === types.GeomAbs_Parabola) return "parabola";
  if (type === types.GeomAbs_BezierCurve) return "bezier";
  if (type === types.GeomAbs_BSplineCurve) return "bspline";
  if (type === types.GeomAbs_OffsetCurve) return "offset";
  return "other";
}

function topologyOf(uses: EdgeUse[], degenerate: boolean): { topology: EdgeTopology; faces: number[] } {
  const faces = [...new Set(uses.map((use) => use.face))].sort((a, b) => a - b);
  if (degenerate) return { topology: "degenerate", faces };
  const sides = uses.reduce((count, use) => count + (use.internal ? 2 : 1), 0);
  if (faces.length === 1 && sides === 2) return { topology: "seam", faces };
  if (faces.length === 2 && sides === 2) return { topology: "manifold", faces };
  if (sides <= 1) return { topology: "free", faces };
  return { topology: "non_manifold", faces };
}

function analyseEdge(
  oc: OpenCascadeInstance,
  st: FeatureStatics,
  id: number,
  uses: EdgeUse[],
  contexts: FaceContext[],
  flip: number,
  samples: number,
  smoothAngle: number,
  scratch: Scratch,
  warnings: AnalysisWarning[],
): EdgeAnalysis {
  const first = uses[0];
  const result: EdgeAnalysis = {
    id,
    curve: "other",
    length: 0,
    start: [0, 0, 0],
    middle: [0, 0, 0],
    end: [0, 0, 0],
    circle: null,
    faces: [],
    topology: "free",
    convexity: null,
    angle: null,
    uniform: true,
  };
  if (first === undefined) return result; // an edge outside every face (a loose wire)
  try {
    return withOcctScope((scope) => {
      const degenerate = st.BRep_Tool.Degenerated(first.edge);
      const { topology, faces } = topologyOf(uses, degenerate);
      result.topology = topology;
      result.faces = faces;
      if (degenerate) {
        const context = contexts[first.face];
        const p = context === undefined ? null : pointOnFace(oc, first.edge, context, scratch, scope);
        if (p !== null) {
          result.start = p;
          result.middle = p;
          result.end = p;
        }
        return result;
      }
      const curve = scope.own(new oc.BRepAdaptor_Curve_2(first.edge));
      const t0 = curve.FirstParameter(),
        t1 = curve.LastParameter();
      result.curve = curveTypeOf(oc, curve.GetType());
      curve.D0(t0, scratch.point);
      result.start = xyz(scratch.point);
      curve.D0((t0 + t1) / 2, scratch.point);
      result.middle = xyz(scratch.point);
      curve.D0(t1, scratch.point);
      result.end = xyz(scratch.point);
      // lengths: exact from the ends of a line and the angle of an arc (its parameter), GProp otherwise
      if (result.curve === "circle") {
        const circle = ownValue(oc, scope, curve.Circle());
        const axis = ownValue(oc, scope, circle.Axis());
        result.circle = {
          center: xyz(scope.own(axis.Location())),
          axis: xyz(scope.own(axis.Direction())),
          radius: circle.Radius(),
        };
        result.length = circle.Radius() * Math.abs(t1 - t0);
      } else if (result.curve === "line") {
        result.length = Math.hypot(
          result.end[0] - result.start[0],
          result.end[1] - result.start[1],
          result.end[2] - result.start[2],
        );
      } else {
        const properties = scope.own(new oc.GProp_GProps_1());
        st.BRepGProp.LinearProperties(first.edge, properties, false, false);
        result.length = properties.Mass();
      }
      if (topology === "seam") {
        result.convexity = "smooth";
        result.angle = Math.PI;
        return result;
      }
      if (topology !== "manifold") return result;
      const second = uses.find((use) => use.face !== first.face) as EdgeUse;
      const a = contexts[first.face],
        b = contexts[second.face];
      if (!a?.surface || !b?.surface) return result;
      const straightBetweenPlanes = result.curve === "line" && a.isPlane && b.isPlane;
      const measured = measureConvexity(
        oc,
        curve,
        t0,
        t1,
        first,
        second,
        a,
        b,
        flip,
        straightBetweenPlanes ? 1 : samples,
        smoothAngle,
        scratch,
        scope,
      );
      if (measured === null) {
        warnings.push({
          code: "edge_convexity_unknown",
          message: `No normal could be taken along edge ${id}; its convexity is unknown.`,
          edges: [id],
        });
        return result;
      }
      result.convexity = measured.convexity;
      result.angle = measured.angle;
      result.uniform = measured.uniform;
      return result;
    });
  } catch (error) {
    warnings.push({
      code: "edge_analysis_failed",
      message: `Edge ${id} could not be analysed (${describeOcctException(oc, error)}).`,
      edges: [id],
      faces: result.faces,
    });
    return result;
  }
}

/** A point of an edge without a 3D curve (degenerate), through its curve on the face. */
function pointOnFace(
  oc: OpenCascadeInstance,
  edge: TopoDS_Edge,
  context: FaceContext,
  scratch: Scratch,
  scope: OcctScope,
): Vec3 | null {
  if (context.surface === null) return null;
  const pcurve = scope.own(new oc.BRepAdaptor_Curve2d_2(edge, context.face));
  pcurve.D0(pcurve.FirstParameter(), scratch.uv);
  context.surface.D1(scratch.uv.X(), scratch.uv.Y(), scratch.point, scratch.d1u, scratch.d1v);
  return xyz(scratch.point);
}

interface Measured {
  convexity: Convexity;
  angle: number;
  uniform: boolean;
}

/**
 * The sign of (nA x nB) . t at `samples` points inside the edge (see types.ts). Returns null when
 * no sample had a defined normal on both faces.
 */
function measureConvexity(
  oc: OpenCascadeInstance,
  curve: { D1(u: number, p: gp_Pnt, v: gp_Vec): void },
  t0: number,
  t1: number,
  useA: EdgeUse,
  useB: EdgeUse,
  a: FaceContext,
  b: FaceContext,
  flip: number,
  samples: number,
  smoothAngle: number,
  scratch: Scratch,
  scope: OcctScope,
): Measured | null {
  const pcurveA = scope.own(new oc.BRepAdaptor_Curve2d_2(useA.edge, a.face));
  const pcurveB = scope.own(new oc.BRepAdaptor_Curve2d_2(useB.edge, b.face));
  const a0 = pcurveA.FirstParameter(),
    a1 = pcurveA.LastParameter();
  const b0 = pcurveB.FirstParameter(),
    b1 = pcurveB.LastParameter();
  const span = t1 - t0;
  const surfaceA = a.surface as BRepAdaptor_Surface;
  const surfaceB = b.surface as BRepAdaptor_Surface;
  const tangentSign = (useA.reversed ? -1 : 1) * flip;
  const vote = new ConvexityVote(smoothAngle);
  const { point, tangent, d1u, d1v, uv } = scratch;
  for (let k = 0; k < samples; k++) {
    const f = (k + 0.5) / samples;
    const t = t0 + f * span;
    curve.D1(t, point, tangent);
    let tx = tangentSign * tangent.X(),
      ty = tangentSign * tangent.Y(),
      tz = tangentSign * tangent.Z();
    const tl = Math.hypot(tx, ty, tz);
    if (!(tl > SINGULAR)) continue;
    tx /= tl;
    ty /= tl;
    tz /= tl;

    // normal of A at the edge: the edge's (u, v) on A (same parameter, mapped if the ranges differ)
    pcurveA.D0(a0 + f * (a1 - a0), uv);
    surfaceA.D1(uv.X(), uv.Y(), point, d1u, d1v);
    let ax = d1u.Y() * d1v.Z() - d1u.Z() * d1v.Y();
    let ay = d1u.Z() * d1v.X() - d1u.X() * d1v.Z();
    let az = d1u.X() * d1v.Y() - d1u.Y() * d1v.X();
    const al = Math.hypot(ax, ay, az);
    if (!(al > SINGULAR)) continue;
    ax *= a.sign / al;
    ay *= a.sign / al;
    az *= a.sign / al;

    pcurveB.D0(b0 + f * (b1 - b0), uv);
    surfaceB.D1(uv.X(), uv.Y(), point, d1u, d1v);
    let bx = d1u.Y() * d1v.Z() - d1u.Z() * d1v.Y();
    let by = d1u.Z() * d1v.X() - d1u.X() * d1v.Z();
    let bz = d1u.X() * d1v.Y() - d1u.Y() * d1v.X();
    const bl = Math.hypot(bx, by, bz);
    if (!(bl > SINGULAR)) continue;
    bx *= b.sign / bl;
    by *= b.sign / bl;
    bz *= b.sign / bl;

    const cx = ay * bz - az * by,
      cy = az * bx - ax * bz,
      cz = ax * by - ay * bx;
    vote.add(Math.atan2(cx * tx + cy * ty + cz * tz, ax * bx + ay * by + az * bz));
  }
  return vote.result();
}

// ---------------------------------------------------------------------------------------------
// vector arithmetic on small tuples (not in the sampling loop)

function crossNormalised(u: gp_Vec, v: gp_Vec, sign: number): Vec3 {
  const ux = u.X(),
    uy = u.Y(),
    uz = u.Z(),
    vx = v.X(),
    vy = v.Y(),
    vz = v.Z();
  const x = uy * vz - uz * vy,
    y = uz * vx - ux * vz,
    z = ux * vy - uy * vx;
  const length = Math.hypot(x, y, z);
  if (!(length > SINGULAR)) return [0, 0, 0];
  return [(sign * x) / length, (sign * y) / length, (sign * z) / length];
}
