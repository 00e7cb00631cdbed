/**
 * The order to draw the picture's solids in: the part and each box of the workholding. They do
 * not overlap (the jaws touch the part or the stock, the parallels stand under it), so between any
 * two an axis-aligned plane separates their boxes, and whichever lies on the viewer's side of it
 * is drawn later: a ray through both meets the far one first. Where two boxes overlap a little
 * (a jaw gripping the part's face that its box misses by a rounding), the axis along which they
 * overlap least serves.
 *
 * Each solid's faces are then drawn back to front within it: a box's visible faces never overlap
 * one another, and the part's triangles are sorted by depth (a painter's algorithm).
 */
import type { Box3 } from "../math/box3.ts";
import { OPERATOR_VIEW } from "./operator-view.ts";

/** Whether `a` is to be drawn before `b`. */
export function drawnBefore(a: Box3, b: Box3): boolean {
  let axis = 0;
  let gap = -Infinity;
  let aFirst = true;
  for (let k = 0; k < 3; k += 1) {
    const aBelow = b.min[k]! - a.max[k]!;
    const bBelow = a.min[k]! - b.max[k]!;
    if (Math.max(aBelow, bBelow) > gap) {
      gap = Math.max(aBelow, bBelow);
      axis = k;
      aFirst = aBelow >= bBelow;
    }
  }
  // `a` below `b` along the axis: it is drawn first when the viewer looks from the axis' + side
  const towards = OPERATOR_VIEW.towardViewer[axis]!;
  return aFirst ? towards > 0 : towards < 0;
}

/**
 * The indexes of `boxes` in drawing order: each taken once nothing left must come before it. A
 * cycle (three boxes may form one) is broken by taking the farthest, by its centre.
 */
export function drawingOrder(boxes: readonly Box3[]): number[] {
  const left = boxes.map((_, i) => i);
  const order: number[] = [];
  while (left.length > 0) {
    let pick = left.findIndex((i) => left.every((j) => j === i || !drawnBefore(boxes[j]!, boxes[i]!)));
    if (pick < 0) {
      const depth = (i: number): number => {
        const box = boxes[i]!;
        return [0, 1, 2].reduce(
          (sum, k) => sum + ((box.min[k]! + box.max[k]!) / 2) * OPERATOR_VIEW.towardViewer[k]!,
          0,
        );
      };
      pick = left.reduce((best, i, at) => (depth(i) < depth(left[best]!) ? at : best), 0);
    }
    order.push(left[pick]!);
    left.splice(pick, 1);
  }
  return order;
}
