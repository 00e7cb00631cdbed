/**
 * The setup's picture: the part in its workholding as the setter sees it from the front of the
 * machine (operator-view.ts), drawn flat-shaded back to front (a painter's algorithm: every facet
 * facing the viewer, sorted by depth), the stock as a light outline, the work offset's origin
 * marked and the X, Y and Z arrows drawn from it. Everything is in the setup's frame: the part's
 * mesh (workpiece coordinates) turned into it by the setup's WCS, the workholding's boxes given in
 * it already.
 *
 * The result is a list of 2-D shapes in picture units (x right, y down) that picture-svg.ts writes
 * as inline SVG and picture-pdf.ts draws with PDF vector paths: the HTML and the PDF show the same
 * picture.
 */
import type { WorkholdingSummary } from "../cam/plan-types.ts";
import { soupToFrame } from "../cam/frames.ts";
import type { Frame, TriangleSoup } from "../cam/types.ts";
import { boxCorners, type Box3 } from "../math/box3.ts";
import type { Vec3 } from "../math/vec3.ts";
import { boxFacets, type BoxColours } from "./box-facets.ts";
import { decimated, weld } from "./cluster-vertices.ts";
import { drawingOrder } from "./draw-order.ts";
import type { Facet, Rgb } from "./facet.ts";
import { facesViewer, viewPoint } from "./operator-view.ts";
import { partFacets } from "./part-facets.ts";
import type { Picture, Point2, Shape } from "./picture-shapes.ts";
import { wcsMarker } from "./wcs-marker.ts";

export interface SetupPictureInput {
  /** the stock box in the setup's frame */
  stock: Box3;
  wcs: Frame;
  /** null: planned without a workholding */
  workholding: WorkholdingSummary | null;
  /** the part's mesh in workpiece coordinates; null when the workpiece has none yet */
  mesh: TriangleSoup | null;
  /** "G54": written beside the origin */
  originLabel: string;
}

export interface PictureOptions {
  /** picture units across (default 720) */
  width?: number;
  /** at most this many units high (default 420); a tall scene is drawn smaller */
  maxHeight?: number;
  /** the part's mesh is merged down to at most this many triangles (default 6,000: about 3,000 face the viewer, which keeps a picture to some 250 KB of SVG) */
  maxTriangles?: number;
  /** the part alone: no stock outline and no work offset (the customer's quote document); default false */
  partOnly?: boolean;
}

const COLOURS = {
  part: { surface: [186, 198, 212] as Rgb, edge: [38, 46, 58] as Rgb },
  jaw: { surface: [120, 128, 140] as Rgb, edge: [44, 48, 56] as Rgb },
  parallel: { surface: [206, 184, 122] as Rgb, edge: [92, 78, 40] as Rgb },
  plate: { surface: [150, 156, 166] as Rgb, edge: [60, 64, 72] as Rgb },
  clamp: { surface: [222, 146, 64] as Rgb, edge: [96, 58, 20] as Rgb },
  stock: "#e39b2d",
} as const;

const MARGIN = 28;

export function setupPicture(input: SetupPictureInput, options: PictureOptions = {}): Picture {
  const width = options.width ?? 720;
  const maxHeight = options.maxHeight ?? 420;
  const stockSize = Math.max(...[0, 1, 2].map((i) => input.stock.max[i]! - input.stock.min[i]!));
  const solids = workholdingSolids(input.workholding, input.stock, stockSize);
  if (input.mesh !== null) {
    const part = weld(decimated(weld(soupToFrame(input.wcs, input.mesh)), options.maxTriangles ?? 6000));
    const facets = partFacets(part, COLOURS.part).sort((a, b) => a.depth - b.depth);
    if (facets.length > 0) solids.push({ box: bounds(part.positions), facets });
  }
  const facets = drawingOrder(solids.map((solid) => solid.box)).flatMap((i) => solids[i]!.facets);
  const axisLength = Math.max(10, 0.32 * stockSize);
  const axisEnds: Vec3[] = [
    [axisLength * 1.15, 0, 0],
    [0, axisLength * 1.15, 0],
    [0, 0, axisLength * 1.15],
  ];
  const fitted: Vec3[] = [...boxCorners(input.stock), ...(options.partOnly === true ? [] : axisEnds)];
  for (const facet of facets) fitted.push(...facet.corners);
  const screen = fitted.map(viewPoint);
  const uMin = Math.min(...screen.map((p) => p[0]));
  const uMax = Math.max(...screen.map((p) => p[0]));
  const vMin = Math.min(...screen.map((p) => p[1]));
  const vMax = Math.max(...screen.map((p) => p[1]));
  const scale = Math.min(
    (width - 2 * MARGIN) / Math.max(uMax - uMin, 1e-6),
    (maxHeight - 2 * MARGIN) / Math.max(vMax - vMin, 1e-6),
  );
  const height = Math.ceil((vMax - vMin) * scale + 2 * MARGIN);
  const left = (width - (uMax - uMin) * scale) / 2;
  const project = (p: Vec3): Point2 => {
    const [u, v] = viewPoint(p);
    return [round(left + (u - uMin) * scale), round(MARGIN + (vMax - v) * scale)];
  };

  const shapes: Shape[] = [];
  for (const facet of facets) {
    shapes.push({
      kind: "polygon",
      points: facet.corners.map(project),
      fill: facet.fill,
      stroke: facet.fill,
      width: 1,
    });
    for (const [a, b] of facet.edges)
      shapes.push({
        kind: "line",
        points: [project(a), project(b)],
        stroke: facet.edgeColour,
        width: 0.8,
        dashed: false,
      });
  }
  if (options.partOnly !== true) {
    shapes.push(...stockOutline(input.stock, project));
    shapes.push(...wcsMarker({ project, axisLength, label: input.originLabel }));
  }
  return { width, height, shapes };
}

/** A solid of the picture: its box (for the order solids are drawn in) and its facets, back to front. */
interface Solid {
  box: Box3;
  facets: Facet[];
}

function bounds(positions: Float32Array): Box3 {
  const min: Vec3 = [Infinity, Infinity, Infinity];
  const max: Vec3 = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < positions.length; i += 1) {
    const k = i % 3;
    min[k] = Math.min(min[k]!, positions[i]!);
    max[k] = Math.max(max[k]!, positions[i]!);
  }
  return { min, max };
}

/** picture units to a hundredth: enough for a print, and short in the SVG */
function round(value: number): number {
  return Math.round(value * 100) / 100;
}

/**
 * The workholding's boxes as solids. A plate or the machine's table is cut down to the stock's
 * surroundings (it may be a metre long); a vise, its jaws and parallels are drawn whole.
 */
function workholdingSolids(workholding: WorkholdingSummary | null, stock: Box3, stockSize: number): Solid[] {
  if (workholding === null) return [];
  const around = Math.max(25, 0.5 * stockSize);
  const near: Box3 = {
    min: [stock.min[0] - around, stock.min[1] - around, stock.min[2] - around],
    max: [stock.max[0] + around, stock.max[1] + around, stock.max[2] + around],
  };
  const vise = workholding.type === "vise";
  const solids: Solid[] = [];
  const add = (box: Box3 | null, colours: BoxColours): void => {
    if (box !== null) solids.push({ box, facets: boxFacets(box, colours) });
  };
  for (const jaw of workholding.jaws) add(jaw, COLOURS.jaw);
  for (const support of workholding.supports)
    add(vise ? support : clipped(support, near), vise ? COLOURS.parallel : COLOURS.plate);
  for (const clamp of workholding.clamps) add(clamp, COLOURS.clamp);
  return solids;
}

function clipped(box: Box3, window: Box3): Box3 | null {
  const min = [0, 1, 2].map((i) => Math.max(box.min[i]!, window.min[i]!)) as Vec3;
  const max = [0, 1, 2].map((i) => Math.min(box.max[i]!, window.max[i]!)) as Vec3;
  return min.every((value, i) => value < max[i]!) ? { min, max } : null;
}

/**
 * The stock's twelve edges, light and thin over everything: solid where a face beside the edge
 * faces the viewer, dashed where both are turned away (the edge lies behind the stock).
 */
function stockOutline(stock: Box3, project: (p: Vec3) => Point2): Shape[] {
  const shapes: Shape[] = [];
  const corner = (i: number): Vec3 => [
    i & 1 ? stock.max[0] : stock.min[0],
    i & 2 ? stock.max[1] : stock.min[1],
    i & 4 ? stock.max[2] : stock.min[2],
  ];
  for (let i = 0; i < 8; i += 1) {
    for (const axis of [0, 1, 2]) {
      if (i & (1 << axis)) continue;
      const j = i | (1 << axis);
      // the two faces beside the edge face across the other two axes, on the side the edge is on
      const visible = [0, 1, 2]
        .filter((other) => other !== axis)
        .some((other) => {
          const normal: Vec3 = [0, 0, 0];
          normal[other] = i & (1 << other) ? 1 : -1;
          return facesViewer(normal);
        });
      shapes.push({
        kind: "line",
        points: [project(corner(i)), project(corner(j))],
        stroke: COLOURS.stock,
        width: visible ? 1.2 : 0.8,
        dashed: !visible,
      });
    }
  }
  return shapes;
}
