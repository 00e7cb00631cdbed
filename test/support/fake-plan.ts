/**
 * A planner's result made up for tests (not a real plan of any part): two setups, from +Z and
 * from -Z, with a face milling, a pocket roughing with lines and arcs, and a peck drilling each
 * (three blocks a setup), so everything the job keeps and summarises has something in it.
 * `moves` sets how many cutting moves the roughing has (a large plan for size and speed checks);
 * `workholding` holds each setup in the Fanuc VMC's default vise (fakeViseHold) or on the
 * router's default fixture plate (fakePlateHold).
 */
import type { Completeness, PlanResult, PlannedSetup, WorkholdingSummary } from "../../kernel/cam/plan-types.ts";
import { operationBlocks } from "../../kernel/cam/planner/blocks.ts";
import { summaryOf } from "../../kernel/cam/planner/clamping.ts";
import { plateHolder, viseHolder } from "../../kernel/cam/planner/holders.ts";
import type { Box3, Cutter, Move, Operation, Vec3 } from "../../kernel/cam/types.ts";
import { defaultWorkholding } from "../../kernel/workholding/defaults.ts";
import { defaultGripMm, gripOnParallels } from "../../kernel/workholding/grip.ts";
import type { FixturePlate, MachineVise } from "../../kernel/workholding/schema.ts";

export const FAKE_END_MILL_UUID = "0b6a4c9e-6f0e-4a36-9d2d-3f3c1c6f2a10";
export const FAKE_DRILL_UUID = "5c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f";

function cutter(kind: Cutter["kind"], uuid: string, name: string, diameter: number): Cutter {
  return {
    kind,
    assembly_uuid: uuid,
    name,
    tool_type: kind === "drill" ? "Drill" : "CentreCuttingEndMill",
    diameter,
    corner_radius: 0,
    tip_angle_deg: kind === "drill" ? 140 : null,
    tip_diameter: 0,
    chamfer_angle_deg: null,
    pitch_mm: null,
    flute_length: 3 * diameter,
    max_stepdown: diameter,
    neck_diameter: diameter,
    neck_length: 0,
    shank_diameter: diameter,
    stick_out: 4 * diameter,
    flutes: kind === "drill" ? 2 : 3,
    centre_cutting: true,
    tool_material: "carbide",
    holder: [{ length: 40, lower_diameter: 2 * diameter, upper_diameter: 2 * diameter }],
  };
}

function roughingMoves(count: number): Move[] {
  const moves: Move[] = [
    { kind: "rapid", to: [0, 0, 5] },
    { kind: "linear", to: [0, 0, -1], feed: 300 },
  ];
  for (let i = 0; i < count; i += 1) {
    const y = (i % 40) * 0.5;
    moves.push(
      i % 5 === 4
        ? { kind: "arc", to: [20, y + 1, -1], centre: [20, y + 0.5], clockwise: i % 2 === 0, feed: 1200 }
        : { kind: "linear", to: [i % 2 === 0 ? 20 : 0, y, -1], feed: 1200 },
    );
  }
  moves.push({ kind: "rapid", to: [0, 0, 5] });
  return moves;
}

function setup(index: number, direction: Vec3, stock: Box3, moves: number): PlannedSetup {
  const endMill = cutter("flat", FAKE_END_MILL_UUID, "D10 end mill", 10);
  const drill = cutter("drill", FAKE_DRILL_UUID, "D6.8 drill", 6.8);
  const id = `s${index}`;
  const operations: Operation[] = [
    {
      id: `${id}-op0`,
      kind: "face_milling",
      name: "Facing the top with 10 mm end mill",
      features: [],
      tool: endMill,
      parameters: {
        spindle_rpm: 9000,
        feed_mm_min: 1500,
        plunge_feed_mm_min: 400,
        stepdown_mm: 1,
        stepover_mm: 7,
        allowance_xy_mm: 0,
        allowance_z_mm: 0,
        coolant: "flood",
      },
      clearance_z: 5,
      moves: [
        { kind: "rapid", to: [-6, 0, 5] },
        { kind: "linear", to: [-6, 0, 0], feed: 400 },
        { kind: "linear", to: [100, 0, 0], feed: 1500 },
        { kind: "rapid", to: [100, 0, 5] },
      ],
    },
    {
      id: `${id}-op1`,
      kind: "roughing",
      name: "Roughing pocket (feature 4) with 10 mm end mill",
      features: [4],
      tool: endMill,
      parameters: {
        spindle_rpm: 9000,
        feed_mm_min: 1200,
        plunge_feed_mm_min: 300,
        stepdown_mm: 1,
        stepover_mm: 4,
        allowance_xy_mm: 0.2,
        allowance_z_mm: 0.1,
        coolant: "flood",
      },
      clearance_z: 5,
      moves: roughingMoves(moves),
    },
    {
      id: `${id}-op2`,
      kind: "drilling",
      name: "Drilling 2 holes (feature 7) with 6.8 mm drill",
      features: [7],
      tool: drill,
      parameters: {
        spindle_rpm: 4700,
        feed_mm_min: 470,
        plunge_feed_mm_min: 470,
        stepdown_mm: 3,
        stepover_mm: 0,
        allowance_xy_mm: 0,
        allowance_z_mm: 0,
        coolant: "flood",
      },
      clearance_z: 5,
      moves: [
        { kind: "rapid", to: [10, 10, 5] },
        {
          kind: "drill",
          cycle: "peck",
          at: [
            [10, 10],
            [30, 10],
          ],
          retract_z: 2,
          top_z: 0,
          bottom_z: -12,
          peck_mm: 3,
          dwell_s: 0,
          feed: 470,
        },
        { kind: "rapid", to: [30, 10, 5] },
      ],
    },
  ];
  return {
    id,
    name: `Setup ${index + 1} (${direction[2] > 0 ? "+Z" : "-Z"})`,
    index,
    direction,
    wcs: {
      origin: [stock.min[0], stock.min[1], direction[2] > 0 ? stock.max[2] : stock.min[2]],
      x_axis: [1, 0, 0],
      z_axis: direction,
    },
    work_offset: `G5${4 + index}`,
    stock,
    machining_time_s: 100 + moves / 10,
    blocks: operationBlocks(id, operations),
    operations,
    tools: [
      {
        number: 1,
        assembly_uuid: FAKE_END_MILL_UUID,
        name: "D10 end mill",
        tool_type: "CentreCuttingEndMill",
        diameter_mm: 10,
      },
      { number: 2, assembly_uuid: FAKE_DRILL_UUID, name: "D6.8 drill", tool_type: "Drill", diameter_mm: 6.8 },
    ],
    verification: {
      gouges: 0,
      rapids_through_material: 0,
      holder_collisions: 0,
      material_left_mm3: 12.5,
      material_left_pct: 0.4,
    },
  };
}

/** A complete plan's figures, as the fake plan's setups and unmachined entries give them. */
export function fakeCompleteness(overrides: Partial<Completeness> = {}): Completeness {
  return {
    status: "complete",
    reasons: [],
    material_left: {
      volume_mm3: 12.5,
      pct_of_removable: 0.4,
      surface_pct: 0.2,
      surface_limit_pct: 0.5,
      tolerance_mm: 0.1,
    },
    holes_not_made: [],
    faces_unreachable: [],
    operations_dropped: 0,
    tools_missing: [],
    setups_left_out: [],
    sharp_corners: [{ faces: [40, 41], radius_left_mm: 1, length_mm: 12 }],
    ...overrides,
  };
}

/**
 * The stock (in the setup's frame) held as a planner would hold a blank: in vmc-850-fanuc's
 * default vise, across y, over the default grip on the parallels that give it.
 */
export function fakeViseHold(stock: Box3): WorkholdingSummary {
  const vise = defaultWorkholding("vmc-850-fanuc") as MachineVise;
  const grip = gripOnParallels(vise, defaultGripMm(vise.jaw_height_mm));
  if (grip === undefined) throw new RangeError("the default vise has no parallels for its default grip");
  const summary = summaryOf(viseHolder(vise, grip.grip_mm).layout(stock, "y"), "y", false, BLANK);
  return { ...summary, orientation: FAKE_ORIENTATION };
}

/** The stock held on router-450-grbl's default fixture plate, its edge clamps on the faces across y. */
export function fakePlateHold(stock: Box3): WorkholdingSummary {
  const plate = defaultWorkholding("router-450-grbl") as FixturePlate;
  const summary = summaryOf(plateHolder(plate).layout(stock, "y"), "y", false, BLANK);
  return { ...summary, orientation: FAKE_ORIENTATION };
}

/** the fake setup is +Z with the workpiece's axes (hold-setup.ts: orientationOf) */
const FAKE_ORIENTATION = { up: "+Z", right: "+X", back: "+Y" };

const BLANK: WorkholdingSummary["clamped"] = {
  description: "the blank's two sides below the part",
  grips: "stock",
  faces: [],
  features: [],
};

export type FakeHold = "vise" | "fixture_plate" | null;

export function fakePlanResult(
  options: { moves?: number; stock?: Box3; completeness?: Completeness; workholding?: FakeHold } = {},
): PlanResult {
  const moves = options.moves ?? 50;
  const stock: Box3 = options.stock ?? { min: [-2, -2, 0], max: [87.5, 46.6, 32.5] };
  const size: Vec3 = [stock.max[0] - stock.min[0], stock.max[1] - stock.min[1], stock.max[2] - stock.min[2]];
  const inFrame: Box3 = { min: [0, 0, -size[2]], max: [size[0], size[1], 0] };
  const setups = [setup(0, [0, 0, 1], inFrame, moves), setup(1, [0, 0, -1], inFrame, moves)].map((planned) =>
    options.workholding === "vise"
      ? { ...planned, workholding: fakeViseHold(planned.stock) }
      : options.workholding === "fixture_plate"
        ? { ...planned, workholding: fakePlateHold(planned.stock) }
        : planned,
  );
  return {
    machining_time_s: setups.reduce((sum, s) => sum + s.machining_time_s, 0),
    warnings: [{ code: "thin_wall", message: "a wall of 0.8 mm (feature 9) may chatter" }],
    unmachined: [
      {
        code: "no_tool_fits",
        message: "no tool in the library fits the 2 mm slot (feature 12)",
        features: [12],
        faces: [40, 41],
        volume_mm3: 35,
      },
    ],
    setups,
    completeness: options.completeness ?? fakeCompleteness(),
  };
}
