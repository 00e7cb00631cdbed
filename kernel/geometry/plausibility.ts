/**
 * Warnings about a part's size: nothing a milling machine takes is over 10 m across or under
 * 0.1 mm. Such sizes nearly always mean wrong units (a STEP file declaring metres while holding
 * millimetres, an STL written in metres or inches), so the user is told before quoting.
 */
import type { BoundingBox } from "../mesh/types.ts";
import { boxDiagonal, boxSize } from "./mesh-metrics.ts";
import type { IngestedWorkpiece } from "./types.ts";

type Warning = IngestedWorkpiece["warnings"][number];

export const MAX_PLAUSIBLE_DIAGONAL_MM = 10_000;
export const MIN_PLAUSIBLE_DIAGONAL_MM = 0.1;

export function sizeWarnings(bbox: BoundingBox, unitsRead: string): Warning[] {
  const diagonal = boxDiagonal(bbox);
  const size = boxSize(bbox)
    .map((value) => formatMm(value))
    .join(" x ");
  const declared =
    unitsRead === "unknown" ? "the file declares no unit, millimetres were assumed" : `the file declares ${unitsRead}`;
  if (diagonal > MAX_PLAUSIBLE_DIAGONAL_MM) {
    return [
      {
        code: "implausible_size",
        message: `The part measures ${size} mm (diagonal ${formatMm(diagonal)} mm), larger than any machine; ${declared}. Check the units: some files declare metres but hold millimetres.`,
      },
    ];
  }
  if (diagonal < MIN_PLAUSIBLE_DIAGONAL_MM) {
    return [
      {
        code: "implausible_size",
        message: `The part measures ${size} mm (diagonal ${formatMm(diagonal)} mm), too small to machine; ${declared}. Check the units: the file may hold metres.`,
      },
    ];
  }
  return [];
}

function formatMm(value: number): string {
  return Number(value.toPrecision(4)).toString();
}
