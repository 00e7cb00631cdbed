/**
 * The 3D finishing step of a setup: its sloped and curved faces (surface-faces.ts) finished with
 * one ball or bull-nose end mill of the library (surfacing/surface-finishing.ts), after the flat
 * end mills' floor and wall finishing.
 *
 * The tool: the largest ball end mill whose radius fits the faces' tightest concave radius (when
 * their surfaces give one) and whose holder clears the stock's top with the tip at the faces'
 * lowest point (the passes themselves go where its neck, shank and holder clear what stands
 * under them: surfacing/tool-clearance.ts); a bull-nose end mill (its corner radius fitting)
 * only when no ball fits: on a slope a bull-nose finishes like a ball of its corner radius. None
 * reaches: the largest that fits all the same, and what lies beyond its reach is left. None
 * fits: the one of the smallest radius (the fillets tighter than it keep what it leaves). No
 * ball or bull-nose end mill in the library: a ball end mill is reported missing
 * (tooling/missing.ts).
 *
 * The faces are finished in groups, an operation each (surface-groups.ts), which share the
 * tool's drop and clearance (surfacing/surface-finishing.ts SurfaceTooling).
 */
import { surfaceCutter } from "../surfacing/cutters.ts";
import { stepoverForScallop } from "../surfacing/scallop.ts";
import { SPLIT_DEG, SurfaceTooling, surfaceFinishing } from "../surfacing/surface-finishing.ts";
import type { MillingOutcome, MillingRequest } from "../milling/operation.ts";
import { missingEndMill, type MissingTool } from "../tooling/missing.ts";
import { mm } from "../tooling/select.ts";
import { holderReach, wallReach } from "../cutter-shape.ts";
import type { Cutter, TriangleSoup } from "../types.ts";
import type { SetupPart } from "./setup-part.ts";
import { faceGroups, type SurfaceGroup } from "./surface-groups.ts";

/** the scallop 3D finishing leaves between its passes when the plan's options do not say (mm) */
export const DEFAULT_SCALLOP_MM = 0.01;
/**
 * The ball end mill asked for when the library has none: at most this (mm), smaller when the
 * faces' concave radius says; the largest of the range, 25 mm, is no finishing tool for a fillet.
 */
const MISSING_BALL_MM = 6;
/** a tool's radius within this of a concave radius fits it (mm) */
const FITS_MM = 1e-3;

export interface SurfaceStep {
  tool: Cutter;
  generate: (request: MillingRequest) => MillingOutcome;
}

/** `steps`: one per group of faces (`groups`, in the same order), all with `tool` */
export type SurfacePlan =
  | { steps: SurfaceStep[]; groups: SurfaceGroup[]; tool: Cutter; missing: null; warning: string | null }
  | { steps: []; groups: []; tool: null; missing: MissingTool | null; warning: string };

/**
 * The setup's 3D finishing, or why there is none: null when the setup has no sloped or curved
 * face. `soup`: what the tip keeps out of (the part with its holes plugged, the workholding's boxes).
 */
export function surfaceFinishingStep(
  setup: SetupPart,
  soup: TriangleSoup,
  cutters: readonly Cutter[],
  scallop_mm: number | undefined,
): SurfacePlan | null {
  const { faces, concave_radius_mm } = setup.surfaces;
  if (faces.length === 0) return null;
  const depth = setup.stock.max[2] - lowestZ(setup, faces);
  const choice = surfaceTool(cutters, concave_radius_mm, depth);
  const where = `setup ${setup.name}: ${faces.length} sloped or curved ${faces.length === 1 ? "face" : "faces"}`;
  if (choice === null) {
    const missing = missingEndMill({
      tool_type: "BallEndMill",
      at_most_mm: concave_radius_mm === null ? MISSING_BALL_MM : Math.min(MISSING_BALL_MM, 2 * concave_radius_mm),
      // the range's balls reach no deeper than their flutes: asked for by size alone, as the faces within reach want
      purpose: "finish sloped and curved faces",
      features: [],
    });
    return {
      steps: [],
      groups: [],
      tool: null,
      missing,
      warning: `${where}: the library has no ball or bull-nose end mill to finish them`,
    };
  }
  const scallop = scallop_mm ?? DEFAULT_SCALLOP_MM;
  const cutter = surfaceCutter(choice.tool);
  const groups = faceGroups({
    soup: setup.soup,
    triangleFaces: setup.triangleFaces,
    faces,
    radius: cutter.radius,
    spacing: stepoverForScallop(cutter, { scallop, slopeDeg: SPLIT_DEG }),
  });
  const tooling = new SurfaceTooling(soup);
  const steps = groups.map(({ faces: group, band }) => {
    const job = {
      soup,
      part: setup.soup,
      triangleFaces: setup.triangleFaces,
      faces: group,
      scallop_mm: scallop,
      tooling,
      ...(band === null ? {} : { band }),
    };
    return { tool: choice.tool, generate: (request: MillingRequest) => surfaceFinishing(request, job) };
  });
  const warning = choice.why === null ? null : `${where}: ${choice.why}`;
  return { steps, groups, tool: choice.tool, missing: null, warning };
}

/** See the header: the tool and, when it falls short, how and what that leaves. */
export function surfaceTool(
  cutters: readonly Cutter[],
  concaveRadius: number | null,
  depth: number,
): { tool: Cutter; why: string | null } | null {
  const radiusOf = (c: Cutter) => (c.kind === "ball" ? c.diameter / 2 : c.corner_radius);
  const round = cutters.filter((c) => c.kind === "ball" || (c.kind === "bull" && c.corner_radius > 0));
  if (round.length === 0) return null;
  const fits = (c: Cutter) => concaveRadius === null || radiusOf(c) <= concaveRadius + FITS_MM;
  // the passes go as deep as the neck, shank and holder clear what stands under them: in the open, down to the holder
  const reaches = (c: Cutter) => holderReach(c) >= depth - 1e-9;
  const largest = (tools: readonly Cutter[]) =>
    [...tools].sort(
      (a, b) =>
        Number(b.kind === "ball") - Number(a.kind === "ball") || b.diameter - a.diameter || wallReach(b) - wallReach(a),
    )[0];
  // a ball that fits before a bull-nose that reaches deeper: on a slope a bull-nose finishes like
  // a ball of its corner radius, in passes that much closer
  for (const kind of ["ball", "bull"] as const) {
    const fitting = round.filter((c) => c.kind === kind && fits(c));
    const reaching = fitting.filter(reaches);
    if (reaching.length > 0) return { tool: largest(reaching) as Cutter, why: null };
    if (fitting.length === 0) continue;
    // none reaches: the largest that fits all the same, the faces beyond its reach left
    const tool = largest(fitting) as Cutter;
    return {
      tool,
      why: `no ball or bull-nose end mill reaches ${mm(depth)} mm deep: ${tool.name} finishes what lies within its reach, the faces below it keep the 2.5D finishing's terraces`,
    };
  }
  const smallest = [...round].sort((a, b) => radiusOf(a) - radiusOf(b) || wallReach(b) - wallReach(a))[0] as Cutter;
  return {
    tool: smallest,
    why: `no ball or bull-nose end mill fits their tightest concave radius of ${mm(concaveRadius ?? 0)} mm: they are finished with ${smallest.name}, which leaves the tighter fillets`,
  };
}

function lowestZ(setup: SetupPart, faces: readonly number[]): number {
  const wanted = new Set(faces);
  const { positions, indices } = setup.soup;
  let low = Infinity;
  for (let t = 0; t < indices.length / 3; t += 1) {
    if (!wanted.has(setup.triangleFaces[t] as number)) continue;
    for (let k = 0; k < 3; k += 1) low = Math.min(low, positions[3 * (indices[3 * t + k] as number) + 2] as number);
  }
  return low;
}
