/**
 * A picture as flat 2-D shapes in picture units (x to the right, y down, from the top-left
 * corner): what picture.ts draws and both picture-svg.ts and picture-pdf.ts write, so the HTML
 * and the PDF show the same picture.
 */

export type Point2 = [number, number];

export type Shape =
  /** filled, its outline stroked in `stroke` (the fill itself on the part: no seams between triangles) */
  | { kind: "polygon"; points: Point2[]; fill: string; stroke: string; width: number }
  | { kind: "line"; points: Point2[]; stroke: string; width: number; dashed: boolean }
  | { kind: "label"; at: Point2; text: string; colour: string; size: number; anchor: "start" | "middle" | "end" };

export interface Picture {
  width: number;
  height: number;
  shapes: Shape[];
}
