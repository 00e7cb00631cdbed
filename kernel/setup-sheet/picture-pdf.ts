/**
 * A picture drawn on a PDF page with pdfkit's vector paths: the same shapes, in the same order, as
 * picture-svg.ts writes for the HTML. Consecutive polygons of one fill are one path, filled and
 * stroked once, as in the SVG.
 */
// the import brings pdfkit's PDFKit namespace of types into scope
import type {} from "pdfkit";
import { signedArea } from "./picture-svg.ts";
import type { Picture, Point2, Shape } from "./picture-shapes.ts";

export interface PicturePlacement {
  /** top-left corner on the page, points */
  x: number;
  y: number;
  /** points across; the height follows the picture's proportions */
  width: number;
}

/** Draws the picture; returns the height it took (points). */
export function drawPicture(doc: PDFKit.PDFDocument, picture: Picture, at: PicturePlacement): number {
  const scale = at.width / picture.width;
  doc.save();
  doc.rect(at.x, at.y, at.width, picture.height * scale).clip();
  doc.translate(at.x, at.y).scale(scale);
  doc.lineJoin("round").lineCap("round");
  let style: string | null = null;
  let open: Exclude<Shape, { kind: "label" }> | null = null;
  const finish = (): void => {
    if (open === null) return;
    if (open.kind === "polygon") doc.lineWidth(open.width).fillAndStroke(open.fill, open.stroke);
    else {
      doc.lineWidth(open.width);
      if (open.dashed) doc.dash(5, { space: 4 });
      doc.stroke(open.stroke);
      doc.undash();
    }
    open = null;
    style = null;
  };
  for (const shape of picture.shapes) {
    if (shape.kind === "label") {
      finish();
      drawLabel(doc, shape);
      continue;
    }
    const key =
      shape.kind === "polygon"
        ? `p${shape.fill}${shape.stroke}${shape.width}`
        : `l${shape.stroke}${shape.width}${shape.dashed}`;
    if (key !== style) {
      finish();
      style = key;
      open = shape;
    }
    if (shape.kind === "polygon") {
      const points = signedArea(shape.points) < 0 ? [...shape.points].reverse() : shape.points;
      doc.polygon(...points);
    } else {
      path(doc, shape.points);
    }
  }
  finish();
  doc.restore();
  return picture.height * scale;
}

function path(doc: PDFKit.PDFDocument, points: Point2[]): void {
  for (const [i, p] of points.entries()) {
    if (i === 0) doc.moveTo(p[0], p[1]);
    else doc.lineTo(p[0], p[1]);
  }
}

/** SVG places text by its baseline; pdfkit by its top: moved up by the font's ascent. */
function drawLabel(doc: PDFKit.PDFDocument, label: Extract<Shape, { kind: "label" }>): void {
  doc.font("Helvetica-Bold").fontSize(label.size);
  const width = doc.widthOfString(label.text);
  const x =
    label.anchor === "start" ? label.at[0] : label.anchor === "middle" ? label.at[0] - width / 2 : label.at[0] - width;
  doc.fillColor(label.colour).text(label.text, x, label.at[1] - label.size * 0.78, { lineBreak: false });
}
