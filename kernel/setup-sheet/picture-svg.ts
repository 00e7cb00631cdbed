/**
 * A picture as inline SVG, for the HTML sheet. Shapes are written in the painter's order;
 * consecutive polygons of one fill become one path (the part's flat faces are runs of triangles
 * of one shade), and so do consecutive lines of one stroke, which keeps a part of thousands of
 * triangles to a few hundred kilobytes. Every polygon of a path winds the same way on screen, so
 * the nonzero fill rule fills their overlaps rather than cutting holes. Each style is a class of
 * the SVG's own style sheet, named after the picture's `id` (a page's SVGs share one name space),
 * so a path carries a short class name rather than its colours.
 */
import { escapeXml } from "./escape.ts";
import type { Picture, Point2, Shape } from "./picture-shapes.ts";

/** `id`: unique among the SVGs of one page, a letter first ("s1") */
export function pictureSvg(picture: Picture, title: string, id: string): string {
  const body: string[] = [];
  const classes = new Map<string, string>();
  let run: { style: string; d: string[] } | null = null;
  const flush = (): void => {
    if (run !== null) body.push(`<path class="${classes.get(run.style)}" d="${run.d.join("")}"/>`);
    run = null;
  };
  for (const shape of picture.shapes) {
    if (shape.kind === "label") {
      flush();
      body.push(
        `<text x="${n(shape.at[0])}" y="${n(shape.at[1])}" fill="${shape.colour}" font-size="${shape.size}" font-family="Helvetica, Arial, sans-serif" font-weight="bold" text-anchor="${shape.anchor}">${escapeXml(shape.text)}</text>`,
      );
      continue;
    }
    const style = styleOf(shape);
    if (run === null || run.style !== style) {
      flush();
      run = { style, d: [] };
      if (!classes.has(style)) classes.set(style, `${id}-${classes.size.toString(36)}`);
    }
    run.d.push(pathData(shape.points, shape.kind === "polygon"));
  }
  flush();
  const rules = [...classes].map(([style, name]) => `.${name}{${style}}`);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${picture.width} ${picture.height}" role="img" aria-label="${escapeXml(title)}">`,
    `<title>${escapeXml(title)}</title>`,
    `<style>${rules.join("")}</style>`,
    ...body,
    "</svg>",
  ].join("\n");
}

/** the shape's style as CSS declarations */
function styleOf(shape: Exclude<Shape, { kind: "label" }>): string {
  if (shape.kind === "polygon")
    return `fill:${shape.fill};stroke:${shape.stroke};stroke-width:${shape.width};stroke-linejoin:round`;
  const dash = shape.dashed ? ";stroke-dasharray:5 4" : "";
  return `fill:none;stroke:${shape.stroke};stroke-width:${shape.width};stroke-linecap:round${dash}`;
}

/** A polygon as one winding (clockwise on screen, whatever it came as), closed; a line open. */
function pathData(points: Point2[], closed: boolean): string {
  const ordered = closed && signedArea(points) < 0 ? [...points].reverse() : points;
  const parts = ordered.map((p, i) => `${i === 0 ? "M" : "L"}${n(p[0])} ${n(p[1])}`);
  return closed ? `${parts.join("")}Z` : parts.join("");
}

/** twice the signed area, y down: positive for clockwise on screen */
export function signedArea(points: Point2[]): number {
  let sum = 0;
  for (let i = 0; i < points.length; i += 1) {
    const a = points[i]!;
    const b = points[(i + 1) % points.length]!;
    sum += a[0] * b[1] - b[0] * a[1];
  }
  return sum;
}

/** a coordinate to a tenth of a unit (a picture is some 700 across), as short as it reads; never -0 */
function n(value: number): string {
  return String(Math.round(value * 10) / 10 + 0);
}
