/**
 * What clamping.ts asks of a workholding, whatever it is: how deep it grips, what it can take
 * across, and where its solids stand. A vise grips with its two jaws on parallels; a fixture
 * plate, or the machine's table, with its edge clamps, the stock standing on it. The first and
 * later clampings (which faces to grip, whether the stock allows the grip) are the same for all.
 */
import { roundNumber } from "../../math/vec3.ts";
import { defaultGripMm, type GripOnParallels, gripOnParallels, MIN_GRIP_MM } from "../../workholding/grip.ts";
import { plateLayout } from "../../workholding/plate-geometry.ts";
import type { FixturePlate, MachineVise, Workholding } from "../../workholding/schema.ts";
import { viseLayout, type ViseLayout } from "../../workholding/vise-geometry.ts";
import { PlanError, type WorkholdingSummary } from "../plan-types.ts";
import type { Box3 } from "../types.ts";

/** a gripped face runs at least this far along the jaws, or a third of the jaw width if less (mm), */
export const MIN_CONTACT_LENGTH_MM = 20;
/** or, on material shorter than that along the side, this share of its length there */
export const SMALL_PART_CONTACT_SHARE = 0.8;

/** The solids and figures of a holder gripping a box, as the plan reports them. */
export type HolderLayout = Pick<
  WorkholdingSummary,
  "type" | "jaws" | "supports" | "clamps" | "grip_mm" | "parallel_height_mm" | "opening_mm" | "stick_out_mm"
>;

export interface Holder {
  /** what the messages call it: "no pair of faces the vise can hold" */
  name: string;
  /** how deep it grips the lowest part of what it holds (mm): the same for every setup of a plan */
  gripMm: number;
  /** soft jaws may take a side no planar face gives */
  softJawsAllowed: boolean;
  /** how far a gripped face must run along the side (mm) */
  contactMm: number;
  /** why it cannot hold `box` gripped across `axis`, in words; null when it can */
  refusal(box: Box3, axis: "x" | "y"): string | null;
  /** why it holds the blank `stock` across neither axis, in words */
  refusesBlank(stock: Box3): string;
  /** its solids holding `box` over its lowest gripMm, gripping across `axis` */
  layout(box: Box3, axis: "x" | "y"): HolderLayout;
}

/**
 * The holder a plan clamps its setups with; null when the plan is given no workholding. A vise
 * whose parallels give no grip of at least MIN_GRIP_MM, or clamps lower than that, hold nothing:
 * a PlanError saying so.
 */
function holderOf(workholding: Workholding | undefined): Holder | null {
  if (workholding === undefined) return null;
  if (workholding.kind === "fixture_plate") {
    if (workholding.clamp_height_mm < MIN_GRIP_MM)
      throw new PlanError(
        "workholding_unavailable",
        `clamps ${workholding.clamp_height_mm} mm tall grip the stock over less than the ${MIN_GRIP_MM} mm that holds it`,
      );
    return plateHolder(workholding);
  }
  const grip = viseGrip(workholding);
  if (grip === undefined)
    throw new PlanError(
      "workholding_unavailable",
      `no parallel of the vise's (${workholding.parallel_heights_mm.join(", ")} mm) gives a grip of at least ${MIN_GRIP_MM} mm in its ${workholding.jaw_height_mm} mm jaws`,
    );
  return viseHolder(workholding, grip.grip_mm);
}

/**
 * The holders a plan tries for each setup, in order: its workholding's (holderOf), then the
 * machine's table with edge clamps, which a machine has whatever stands on it, so a request's
 * override keeps it too. Empty when the plan is given no workholding: nothing holds it, not even
 * the table.
 */
export function holdersOf(workholding: Workholding | undefined, table: FixturePlate | undefined): Holder[] {
  const primary = holderOf(workholding);
  if (primary === null) return [];
  return table === undefined ? [primary] : [primary, plateHolder(table, "table")];
}

/**
 * The holder that will grip the blank `stock` (across y or x): the first of `holders` that takes
 * it, else the first. The setups' order depends on its grip (setup-part.ts: the band it
 * covers) before any setup is clamped.
 */
export function blankHolder(holders: readonly Holder[], stock: Box3): Holder | undefined {
  return (
    holders.find((holder) => holder.refusal(stock, "y") === null || holder.refusal(stock, "x") === null) ?? holders[0]
  );
}

/**
 * The grip the vise gives by the grip rule (grip.ts), or undefined when its parallels give none
 * (checkWorkholding refuses such a vise). The plan decides it once: the setups' order and the
 * features under the jaws depend on it before any setup is clamped.
 */
export function viseGrip(vise: MachineVise): GripOnParallels | undefined {
  return gripOnParallels(vise, defaultGripMm(vise.jaw_height_mm));
}

const extent = (box: Box3, axis: "x" | "y"): number =>
  axis === "y" ? box.max[1] - box.min[1] : box.max[0] - box.min[0];

/**
 * A vise gripping with `gripMm`. The jaws close across y, the frame's own; an x grip is laid out
 * with x and y swapped and swapped back in every box: the WCS stays the setup's.
 */
export function viseHolder(vise: MachineVise, gripMm: number): Holder {
  return {
    name: "vise",
    gripMm,
    softJawsAllowed: vise.soft_jaws_allowed,
    contactMm: Math.min(MIN_CONTACT_LENGTH_MM, vise.jaw_width_mm / 3),
    refusal: (box, axis) =>
      extent(box, axis) > vise.max_opening_mm
        ? `${roundNumber(extent(box, axis), 2)} mm is wider than the vise's ${vise.max_opening_mm} mm opening`
        : null,
    refusesBlank: (stock) =>
      `the stock (${roundNumber(extent(stock, "x"), 2)} x ${roundNumber(extent(stock, "y"), 2)} mm) is wider than the vise's ${vise.max_opening_mm} mm opening across both axes`,
    layout: (box, axis) => viseSummaryLayout(layoutAcross(axis, vise, box, gripMm)),
  };
}

/** A vise's layout as the plan reports it. */
export function viseSummaryLayout(layout: ViseLayout): HolderLayout {
  return {
    type: "vise",
    jaws: [layout.jaws.fixed, layout.jaws.moving],
    supports: layout.supports,
    clamps: [],
    grip_mm: layout.grip_mm,
    parallel_height_mm: layout.parallel_height_mm,
    opening_mm: layout.opening_mm,
    stick_out_mm: layout.stick_out_mm,
  };
}

function swapped(box: Box3): Box3 {
  return { min: [box.min[1], box.min[0], box.min[2]], max: [box.max[1], box.max[0], box.max[2]] };
}

/** viseLayout across `axis`: for x, the box is laid out with x and y swapped and every box swapped back. */
function layoutAcross(axis: "x" | "y", vise: MachineVise, box: Box3, gripMm: number): ViseLayout {
  if (axis === "y") return viseLayout(vise, box, gripMm);
  const layout = viseLayout(vise, swapped(box), gripMm);
  return {
    ...layout,
    jaws: { fixed: swapped(layout.jaws.fixed), moving: swapped(layout.jaws.moving) },
    supports: layout.supports.map(swapped),
  };
}

/**
 * A fixture plate with edge clamps: they grip over their height, on the two faces across the
 * axis, and the plate takes what stands on it with a clamp's length to spare on both faces
 * across the axis (a clamp stands on the plate). A plate may be bolted down either way round, so
 * its length lies along the frame's x or, when only that fits, along its y (the route's check
 * takes it either way too); the machine's table cannot be turned (`on: "table"`). A gripped
 * face must be as long as a clamp is wide, or 20 mm.
 */
export function plateHolder(plate: FixturePlate, on: "plate" | "table" = "plate"): Holder {
  const size = `${plate.plate_length_mm} x ${plate.plate_width_mm} mm ${on}`;
  const turned: FixturePlate = {
    ...plate,
    plate_length_mm: plate.plate_width_mm,
    plate_width_mm: plate.plate_length_mm,
  };
  const ways = on === "plate" ? [plate, turned] : [plate];
  const room = (box: Box3, axis: "x" | "y", across: "x" | "y") =>
    extent(box, across) + (axis === across ? 2 * plate.clamp_length_mm : 0);
  const laid = (box: Box3, axis: "x" | "y"): FixturePlate | null =>
    ways.find((p) => room(box, axis, "x") <= p.plate_length_mm && room(box, axis, "y") <= p.plate_width_mm) ?? null;
  return {
    name: `${on}'s clamps`,
    gripMm: plate.clamp_height_mm,
    softJawsAllowed: false,
    contactMm: Math.min(MIN_CONTACT_LENGTH_MM, plate.clamp_width_mm),
    refusal: (box, axis) =>
      laid(box, axis) !== null
        ? null
        : `${roundNumber(extent(box, "x"), 2)} x ${roundNumber(extent(box, "y"), 2)} mm with clamps ${plate.clamp_length_mm} mm out on its ${axis} faces does not fit on the ${size}`,
    refusesBlank: (stock) =>
      `the stock (${roundNumber(extent(stock, "x"), 2)} x ${roundNumber(extent(stock, "y"), 2)} mm) with its clamps does not fit on the ${size}`,
    layout: (box, axis) => {
      const layout = plateLayout(laid(box, axis) ?? plate, box, axis === "x" ? 0 : 1);
      return {
        type: on === "plate" ? "fixture_plate" : "machine_table",
        jaws: [],
        supports: [layout.plate],
        clamps: layout.clamps,
        grip_mm: layout.grip_mm,
        parallel_height_mm: 0,
        opening_mm: null,
        stick_out_mm: layout.stick_out_mm,
      };
    },
  };
}
