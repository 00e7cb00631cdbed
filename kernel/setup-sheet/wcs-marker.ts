/**
 * The work offset's origin as a drawing marks a datum (a circle in quarters, two of them filled)
 * with its name beside it, and the setup's X (red), Y (green) and Z (blue) arrows drawn from it
 * and labelled: the setter sees which corner to touch off and which way the axes run.
 */
import type { Vec3 } from "../math/vec3.ts";
import type { Point2, Shape } from "./picture-shapes.ts";

const AXES: { name: string; direction: Vec3; colour: string }[] = [
  { name: "X", direction: [1, 0, 0], colour: "#d62828" },
  { name: "Y", direction: [0, 1, 0], colour: "#1f9a3a" },
  { name: "Z", direction: [0, 0, 1], colour: "#1f5fd6" },
];

const MARK_RADIUS = 7;
const HEAD_LENGTH = 10;
const HEAD_HALF_WIDTH = 4;

export interface WcsMarkerInput {
  project(point: Vec3): Point2;
  /** mm of the setup along each arrow */
  axisLength: number;
  label: string;
}

export function wcsMarker({ project, axisLength, label }: WcsMarkerInput): Shape[] {
  const origin = project([0, 0, 0]);
  const shapes: Shape[] = [];
  for (const axis of AXES) {
    const tip = project(axis.direction.map((d) => d * axisLength) as Vec3);
    const dx = tip[0] - origin[0];
    const dy = tip[1] - origin[1];
    const length = Math.hypot(dx, dy) || 1;
    const [ux, uy] = [dx / length, dy / length];
    const base: Point2 = [tip[0] - ux * HEAD_LENGTH, tip[1] - uy * HEAD_LENGTH];
    shapes.push({ kind: "line", points: [origin, base], stroke: axis.colour, width: 2.4, dashed: false });
    shapes.push({
      kind: "polygon",
      points: [
        tip,
        [base[0] - uy * HEAD_HALF_WIDTH, base[1] + ux * HEAD_HALF_WIDTH],
        [base[0] + uy * HEAD_HALF_WIDTH, base[1] - ux * HEAD_HALF_WIDTH],
      ],
      fill: axis.colour,
      stroke: axis.colour,
      width: 0.6,
    });
    shapes.push({
      kind: "label",
      at: [tip[0] + ux * 10, tip[1] + uy * 10 + 5],
      text: axis.name,
      colour: axis.colour,
      size: 15,
      anchor: "middle",
    });
  }
  shapes.push(...datumSymbol(origin));
  shapes.push({
    kind: "label",
    at: [origin[0] - MARK_RADIUS - 4, origin[1] + MARK_RADIUS + 12],
    text: label,
    colour: "#111111",
    size: 13,
    anchor: "end",
  });
  return shapes;
}

/** A circle in quarters, the first and third filled black, the others white. */
function datumSymbol(centre: Point2): Shape[] {
  const quarter = (from: number, fill: string): Shape => {
    const points: Point2[] = [centre];
    for (let k = 0; k <= 8; k += 1) {
      const angle = from + (k / 8) * (Math.PI / 2);
      points.push([centre[0] + MARK_RADIUS * Math.cos(angle), centre[1] - MARK_RADIUS * Math.sin(angle)]);
    }
    return { kind: "polygon", points, fill, stroke: "#111111", width: 1 };
  };
  return [0, 1, 2, 3].map((k) => quarter((k * Math.PI) / 2, k % 2 === 0 ? "#111111" : "#ffffff"));
}
