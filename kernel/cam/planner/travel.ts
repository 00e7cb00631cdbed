/**
 * Does the stock fit the machine? In every setup the stock's extent along the setup's x, y and z
 * must be within the machine's X, Y and Z travel, turned a quarter about Z when that fits better
 * (a vise takes the block either way round). Z is checked against the travel alone: tool length
 * and fixture height are the shop's to judge.
 */
import type { MachineArchetype } from "../../machines/archetypes.ts";
import { PlanError } from "../plan-types.ts";
import type { Box3 } from "../types.ts";

/** Throws part_exceeds_travel naming the setup and the axis that does not fit. */
export function checkTravel(machine: MachineArchetype, setupName: string, stockInFrame: Box3): void {
  const size = [0, 1, 2].map((i) => (stockInFrame.max[i] as number) - (stockInFrame.min[i] as number)) as [number, number, number];
  const fitsXY = (a: number, b: number) => a <= machine.travel_x_mm && b <= machine.travel_y_mm;
  const mm = (v: number) => `${Math.round(v * 10) / 10} mm`;
  if (!fitsXY(size[0], size[1]) && !fitsXY(size[1], size[0])) {
    throw new PlanError(
      "part_exceeds_travel",
      `setup ${setupName}: the stock is ${mm(size[0])} x ${mm(size[1])}, the ${machine.name}'s travel is ${mm(machine.travel_x_mm)} x ${mm(machine.travel_y_mm)}: choose a larger machine or smaller stock`,
    );
  }
  if (size[2] > machine.travel_z_mm) {
    throw new PlanError(
      "part_exceeds_travel",
      `setup ${setupName}: the stock is ${mm(size[2])} high along the tool axis, the ${machine.name}'s Z travel is ${mm(machine.travel_z_mm)}`,
    );
  }
}
