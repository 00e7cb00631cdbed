/**
 * The pencil finishing step of a setup: after its 3D finishing with a ball end mill
 * (surface-finishing-step.ts), a smaller ball along the valleys that ball left
 * (surfacing/pencil-finishing.ts). None when the 3D finishing uses a bull-nose end mill, or the
 * library has no smaller ball; the generator makes nothing where no valley is left.
 *
 * The tool: the largest ball end mill of at most PENCIL_SHARE of the finishing ball's radius
 * that reaches as deep as the finishing ball does; none reaches: the largest of them all the
 * same (what lies below its reach is left).
 */
import { wallReach } from "../cutter-shape.ts";
import { pencilFinishing } from "../surfacing/pencil-finishing.ts";
import type { Cutter, TriangleSoup } from "../types.ts";
import type { SetupPart } from "./setup-part.ts";
import { DEFAULT_SCALLOP_MM, type SurfaceStep } from "./surface-finishing-step.ts";

/**
 * A pencil ball's radius at most this share of the finishing ball's: the rest a ball leaves in a
 * sharp valley grows with its radius, and half is a shop's usual step down. On NIST STC-06's +Z
 * setup (a 6 mm ball, the pencil a 3 mm one) the rest at the dome's foot goes from 0.21 mm to
 * 0.026 mm.
 */
const PENCIL_SHARE = 0.5;

/**
 * The setup's pencil finishing after the 3D finishing with `finishing`, or null. `soup`: what the
 * tip keeps out of (the part with its holes plugged, the workholding's boxes).
 */
export function pencilFinishingStep(
  setup: SetupPart,
  soup: TriangleSoup,
  cutters: readonly Cutter[],
  options: { finishing: Cutter; scallop_mm: number | undefined },
): SurfaceStep | null {
  const { finishing } = options;
  if (finishing.kind !== "ball") return null;
  const tool = pencilTool(cutters, finishing);
  if (tool === null) return null;
  const job = {
    soup,
    part: setup.soup,
    triangleFaces: setup.triangleFaces,
    faces: setup.surfaces.faces,
    scallop_mm: options.scallop_mm ?? DEFAULT_SCALLOP_MM,
    finishing,
  };
  return { tool, generate: (request) => pencilFinishing(request, job) };
}

/** See the header. */
export function pencilTool(cutters: readonly Cutter[], finishing: Cutter): Cutter | null {
  const smaller = cutters.filter((c) => c.kind === "ball" && c.diameter <= PENCIL_SHARE * finishing.diameter + 1e-9);
  const depth = wallReach(finishing);
  const reaching = smaller.filter((c) => wallReach(c) >= depth - 1e-9);
  const largest = (tools: readonly Cutter[]) =>
    [...tools].sort((a, b) => b.diameter - a.diameter || wallReach(b) - wallReach(a))[0] ?? null;
  return largest(reaching) ?? largest(smaller);
}
