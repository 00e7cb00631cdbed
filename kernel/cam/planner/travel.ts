/**
 * Does the stock fit the machine? In every setup the stock's extent along the setup's x, y and z
 * must be within the machine's X, Y and Z travel, turned a quarter about Z when that fits better
 * (a vise takes the block either way round). Z is checked against the travel alone: tool length
 * and fixture height are the shop's to judge.
 *
 * A setup that does not fit is left out of the plan (setup-part.ts), not the whole plan: the
 * setups that fit still make what they reach. The API warns of it when the stock or the machine
 * is set (travelWarnings), before any plan.
 */
import { AXIS_DIRECTIONS } from "../../math/vec3.ts";
import type { MachineArchetype } from "../../machines/archetypes.ts";
import { boxToFrame, setupFrame } from "../frames.ts";
import type { Box3, Vec3 } from "../types.ts";

export type MachineTravel = Pick<MachineArchetype, "name" | "travel_x_mm" | "travel_y_mm" | "travel_z_mm">;

export type MachineAxis = "X" | "Y" | "Z";

/** How a setup's stock exceeds the travel: the machine axis, and the two lengths. */
export interface TravelExcess {
  axis: MachineAxis;
  stock_mm: number;
  travel_mm: number;
  /** "the stock is 105.5 mm along the tool axis, the Router's Z travel is 100 mm" */
  message: string;
}

const mm = (v: number) => `${Math.round(v * 10) / 10} mm`;

/** Null when the stock (in the setup's frame) fits the travel, else the first axis it exceeds. */
export function travelExcess(machine: MachineTravel, stockInFrame: Box3): TravelExcess | null {
  const size = [0, 1, 2].map((i) => (stockInFrame.max[i] as number) - (stockInFrame.min[i] as number)) as Vec3;
  const fitsXY = (a: number, b: number) => a <= machine.travel_x_mm && b <= machine.travel_y_mm;
  if (!fitsXY(size[0], size[1]) && !fitsXY(size[1], size[0])) {
    // named as clamped without the quarter turn: the axis a setter would see it overhang
    const axis: MachineAxis = size[0] > machine.travel_x_mm ? "X" : "Y";
    const stock = axis === "X" ? size[0] : size[1];
    const travel = axis === "X" ? machine.travel_x_mm : machine.travel_y_mm;
    return {
      axis,
      stock_mm: stock,
      travel_mm: travel,
      message: `the stock is ${mm(size[0])} x ${mm(size[1])} across the tool axis, the ${machine.name}'s travel is ${mm(machine.travel_x_mm)} x ${mm(machine.travel_y_mm)} (X x Y), either way round`,
    };
  }
  if (size[2] > machine.travel_z_mm) {
    return {
      axis: "Z",
      stock_mm: size[2],
      travel_mm: machine.travel_z_mm,
      message: `the stock is ${mm(size[2])} along the tool axis, the ${machine.name}'s Z travel is ${mm(machine.travel_z_mm)}`,
    };
  }
  return null;
}

/** The excess of a setup along `direction` (workpiece coordinates), with its frame as the planner makes it. */
export function setupTravelExcess(machine: MachineTravel, direction: Vec3, stock: Box3): TravelExcess | null {
  return travelExcess(machine, boxToFrame(setupFrame(direction, stock), stock));
}

/** A warning that setups along some directions would not fit the machine. */
export interface TravelWarning {
  code: "stock_exceeds_travel";
  message: string;
  /** the machine axis the stock exceeds */
  axis: MachineAxis;
  /** the setups concerned, by name: "+X", "-X" */
  setups: string[];
}

/** A setup direction, named: the stock's six axis directions by default, else a plan's setups. */
export interface NamedDirection {
  name: string;
  direction: Vec3;
}

/**
 * Which of the setups the stock would not fit, one warning per way it does not (opposite
 * directions clamp the same extents, so they share one). Without a plan the part's own setups are
 * not known: the stock's six axis directions stand for them.
 */
export function travelWarnings(
  machine: MachineTravel,
  stock: Box3,
  setups: readonly NamedDirection[] = AXIS_DIRECTIONS,
): TravelWarning[] {
  const warnings: TravelWarning[] = [];
  const excesses = new Map<string, { excess: TravelExcess; setups: string[] }>();
  for (const setup of setups) {
    const excess = setupTravelExcess(machine, setup.direction, stock);
    if (excess === null) continue;
    const same = excesses.get(excess.message);
    if (same) same.setups.push(setup.name);
    else excesses.set(excess.message, { excess, setups: [setup.name] });
  }
  for (const { excess, setups: names } of excesses.values()) {
    const subject = names.length > 1 ? `setups ${names.join(", ")} do` : `setup ${names[0]} does`;
    warnings.push({
      code: "stock_exceeds_travel",
      message: `${subject} not fit the ${machine.name} (${excess.axis} axis): ${excess.message}; planning leaves such a setup out and reports what only it reaches as unreachable`,
      axis: excess.axis,
      setups: names,
    });
  }
  return warnings;
}
