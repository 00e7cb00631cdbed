/**
 * A setup held in its vise or on its fixture plate, else on the machine's table (issue 35): the
 * first holder whose clamping holds it
 * (clamping.ts), the boxes its milling and holes keep out of (keep-out.ts: the jaws and
 * parallels, or the clamps and the plate, grown by the keep-out) and the solids its verification
 * checks (simulation/fixtures.ts), or why no holder's clamping holds it, each holder's reason.
 *
 * The first setup to cut grips the blank; every later one grips what the setups before it left,
 * as the voxel model across setups has it. A blank without the allowance below the part to grip
 * it clear of the part is still gripped, with a `stock_allowance_needed` warning: the band its
 * jaws or clamps cover is left to the turned-over setup (setup-part.ts adds it: the setup opposite the
 * first one held, -Z after +Z).
 */
import type { Feature } from "../../features/recognition/types.ts";
import { directionName, isAxisDirection, roundNumber } from "../../math/vec3.ts";
import { frameYAxis } from "../frames.ts";
import type { PlanWarning, SetupLeftOut, Unmachined, WorkholdingSummary } from "../plan-types.ts";
import { fixtureBoxes, type FixtureBox } from "../simulation/fixtures.ts";
import type { VoxelStock } from "../simulation/voxel-stock.ts";
import type { Box3, Frame, Vec3 } from "../types.ts";
import { type Clamping, firstClamping, laterClamping, soupMinZ, type StockAllowanceNeeded } from "./clamping.ts";
import type { Holder } from "./holders.ts";
import { grownBox, WORKHOLDING_KEEP_OUT_MM } from "./keep-out.ts";
import type { SetupPart } from "./setup-part.ts";

/**
 * Whether one of the holders grips the blank in a setup along `direction` whose stock box (in
 * the setup's frame) is `stock`: the first clamping's answer, whatever the allowance below the part.
 */
export function gripsBlank(holders: readonly Holder[]): (direction: Vec3, stock: Box3) => boolean {
  return (direction, stock) =>
    tiltMessage(direction) === null &&
    holders.some((holder) => {
      const clamping = firstClamping({ direction, stock, partBottomZ: stock.min[2], holder });
      return !("problem" in clamping && clamping.problem.code === "workholding_unavailable");
    });
}

export interface HoldContext {
  /** the vise or plate, then the table, tried in turn for each setup (holders.ts: holdersOf) */
  holders: readonly Holder[];
  acrossSetups: VoxelStock;
  /** per voxel, material thicker than the tolerance after the setups kept so far; null before any */
  thick: Uint8Array | null;
  toleranceMm: number;
  features: readonly Feature[];
  /** the names of the setups kept before this one, in order */
  earlier: readonly string[];
}

/** The setup with its keep-out and fixtures, the summary the plan reports, and a warning if any. */
export interface HeldSetup {
  setup: SetupPart & { keepOut: Box3[]; fixtures: FixtureBox[] };
  summary: WorkholdingSummary;
  warning: PlanWarning | null;
}

/** A setup no clamping holds: left out, and what the plan says of it. */
export interface UnheldSetup {
  leftOut: SetupLeftOut;
  unmachined: Unmachined;
}

/** The setup held by the first of the context's holders that can, or left out with every one's reason. */
export function holdSetup(setup: SetupPart, context: HoldContext): HeldSetup | UnheldSetup {
  const refusals: { holder: Holder; message: string; faces: number[] }[] = [];
  const tilted = tiltMessage(setup.direction);
  for (const holder of tilted === null ? context.holders : []) {
    const clamping = clampingWith(holder, setup, context);
    if ("summary" in clamping) return held(setup, clamping.summary, null);
    const { problem } = clamping;
    if (problem.code === "stock_allowance_needed") return held(setup, problem.summary, problem);
    refusals.push({ holder, message: problem.message, faces: problem.faces });
  }
  const features = setup.features.map((feature) => feature.id);
  const message = tilted ?? refusals.map((r) => r.message).join("; ");
  const why =
    tilted === null
      ? refusals.map(
          (r, n) => `${n === 0 ? "the" : "nor the"} ${r.holder.name}${n === 0 ? " cannot hold it" : ""}: ${r.message}`,
        )
      : [tilted];
  return {
    leftOut: {
      name: setup.name,
      direction: setup.direction,
      reason: "workholding_unavailable",
      message: `setup ${setup.name}: ${message}`,
      features,
      faces: setup.faces,
    },
    unmachined: {
      code: "workholding_unavailable",
      message: `setup ${setup.name} is left out: ${why.join("; ")}`,
      features,
      faces: [...new Set(refusals.flatMap((r) => r.faces))].sort((a, b) => a - b),
      volume_mm3: null,
    },
  };
}

/**
 * Why a setup whose tool axis lies along no workpiece axis is held by none of the holders, or
 * null: the vise, plate and table hold the blank square to the table, and a part tilted for a
 * chamfer or an inclined face stands in a sine vise or on an angle plate, which the planner does
 * not model. Laying the jaws out in the tilted setup's frame would put them where they are not.
 */
function tiltMessage(direction: Vec3): string | null {
  if (isAxisDirection(direction)) return null;
  const along = Math.max(...direction.map(Math.abs));
  const degrees = Math.round((Math.acos(Math.min(1, along)) * 180) / Math.PI);
  return `the part stands tilted ${degrees} degrees from every workpiece axis: it needs a sine vise or an angle plate, which the planner does not model`;
}

function clampingWith(holder: Holder, setup: SetupPart, context: HoldContext): Clamping {
  return context.earlier.length === 0 || context.thick === null
    ? firstClamping({
        direction: setup.direction,
        stock: setup.stock,
        partBottomZ: soupMinZ(setup.soup),
        holder,
      })
    : laterClamping({
        setup,
        acrossSetups: context.acrossSetups,
        thick: context.thick,
        tolerance_mm: context.toleranceMm,
        features: context.features,
        earlier: context.earlier,
        holder,
      });
}

/** The setup held as `summary` says: its keep-out, fixtures and summary, with the stock it lacks if any. */
function held(setup: SetupPart, summary: WorkholdingSummary, problem: StockAllowanceNeeded | null): HeldSetup {
  const warning: PlanWarning | null =
    problem === null
      ? null
      : {
          code: problem.code,
          message: `setup ${setup.name}: ${problem.message}`,
          details: {
            setup: setup.name,
            axis: problem.axis,
            given_mm: um(problem.given_mm),
            needed_mm: um(problem.needed_mm),
            missing_mm: um(problem.missing_mm),
          },
        };
  const solids = [...summary.jaws, ...summary.supports, ...summary.clamps];
  return {
    setup: {
      ...setup,
      keepOut: solids.map((box) => grownBox(box, WORKHOLDING_KEEP_OUT_MM)),
      fixtures: fixtureBoxes(summary),
    },
    summary: { ...reported(summary), orientation: orientationOf(setup.frame) },
    warning,
  };
}

/** the summary as the plan reports it: micrometres, not the float32 noise of the part's mesh */
function reported(summary: WorkholdingSummary): WorkholdingSummary {
  const box = (b: Box3): Box3 => ({
    min: [um(b.min[0]), um(b.min[1]), um(b.min[2])],
    max: [um(b.max[0]), um(b.max[1]), um(b.max[2])],
  });
  return {
    ...summary,
    jaws: summary.jaws.map(box),
    supports: summary.supports.map(box),
    clamps: summary.clamps.map(box),
    grip_mm: um(summary.grip_mm),
    parallel_height_mm: um(summary.parallel_height_mm),
    opening_mm: summary.opening_mm === null ? null : um(summary.opening_mm),
    stick_out_mm: um(summary.stick_out_mm),
  };
}

/** micrometres: the figures a plan reports, not the float32 noise of the part's mesh */
function um(value: number): number {
  return roundNumber(value, 3);
}

/** the part's sides up, to the right and to the back, as the setter turns it into the vise */
function orientationOf(frame: Frame): NonNullable<WorkholdingSummary["orientation"]> {
  return {
    up: directionName(frame.z_axis),
    right: directionName(frame.x_axis),
    back: directionName(frameYAxis(frame)),
  };
}
