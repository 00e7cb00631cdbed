import type { Move } from "../../kernel/cam/types.ts";
import { camPlanOf, type CamPlan } from "../../kernel/job/plan.ts";
import { findMachineArchetype, type MachineArchetype } from "../../kernel/machines/archetypes.ts";
import { type FakeHold, fakePlanResult } from "./fake-plan.ts";

const machine = findMachineArchetype("vmc-850-fanuc") as MachineArchetype;
const options = { include_face_milling: true, sort_by_height: false };

/**
 * The made-up plan's first setup with moves a control must take: a helical full turn, a quarter
 * arc each way round, and drilling with and without a dwell, or pecking. (Tapping is left out:
 * rs274 has no G84 to check Fanuc's by.) A control's pecks start at R and come back down to its
 * own clearance over the last peck (LinuxCNC 0.254 mm, a Fanuc its parameter 5115), not where
 * ../cam/holes/cycles.ts models them, so pecking is checked for acceptance, not for its length.
 * `workholding`: the setup held in a vise or on a fixture plate (fake-plan.ts, fakeViseHold, fakePlateHold).
 */
export function everyMovePlan(pecks: boolean, workholding: FakeHold = null): CamPlan {
  const fake = camPlanOf(fakePlanResult({ workholding }), options, machine);
  const setup = fake.setups[0] as CamPlan["setups"][number];
  const cycle = (kind: "drill" | "dwell" | "peck" | "chip_break", x: number): Move => ({
    kind: "drill",
    cycle: kind,
    at: [
      [x, 30],
      [x, 40],
    ],
    retract_z: 2,
    top_z: 0,
    bottom_z: -12,
    peck_mm: kind === "peck" || kind === "chip_break" ? 3 : null,
    dwell_s: kind === "dwell" ? 0.5 : 0,
    feed: 150,
  });
  const moves: Move[][] = [
    [
      { kind: "rapid", to: [-6, 0, 5] },
      { kind: "linear", to: [-6, 0, 0], feed: 400 },
      { kind: "linear", to: [60, 0, 0], feed: 1500 },
    ],
    [
      { kind: "rapid", to: [30, 20, 5] },
      { kind: "linear", to: [40, 20, -1], feed: 300 },
      { kind: "arc", to: [40, 20, -2], centre: [30, 20], clockwise: true, feed: 1200 },
      { kind: "arc", to: [30, 30, -2], centre: [30, 20], clockwise: false, feed: 1200 },
      { kind: "arc", to: [40, 20, -2], centre: [30, 20], clockwise: true, feed: 1200 },
      { kind: "linear", to: [40, 20, 5], feed: 1200 },
    ],
    pecks ? [cycle("peck", 30), cycle("chip_break", 40)] : [cycle("drill", 10), cycle("dwell", 20)],
  ];
  return {
    ...fake,
    setups: [
      { ...setup, operations: setup.operations.map((operation, i) => ({ ...operation, moves: moves[i] ?? [] })) },
    ],
  };
}
