/**
 * How the setup is held, as the rows of a table: the facts the program header's clamping lines
 * give (kernel/post/clamping-lines.ts), read from the same workholding summary of the plan: what
 * holds the stock, the opening to set, how the part lies, what is gripped and how deep, what it
 * stands on, how far it stands out, and where each jaw or clamp is in the setup's coordinates.
 */
import type { WorkholdingSummary } from "../cam/plan-types.ts";
import type { Box3 } from "../math/box3.ts";
import { mm } from "./format.ts";
import type { FactRow } from "./sheet-types.ts";

export function workholdingRows(w: WorkholdingSummary): FactRow[] {
  const vise = w.type === "vise";
  const [held, seatedOn] = w.type === "machine_table" ? ["Machine table", "the table"] : ["Fixture plate", "the plate"];
  const [one, all] = vise ? ["Jaw", "Jaws"] : ["Clamp", "Clamps"];
  const rows: FactRow[] = [{ label: "Held in", value: vise ? viseWords(w) : plateWords(w, held) }];
  if (vise && w.opening_mm !== null) rows.push({ label: "Opening to set", value: `${mm(w.opening_mm)} mm` });
  const o = w.orientation;
  if (o !== undefined) {
    rows.push({ label: "Part lies", value: `${o.up} side up, ${o.right} to the right, ${o.back} to the back` });
    if (vise)
      rows.push({ label: "Fixed jaw side", value: `the part's ${w.grip_axis === "y" ? o.back : o.right} side` });
  }
  rows.push({ label: "Gripping", value: w.clamped.description });
  const axis = w.grip_axis.toUpperCase();
  rows.push({ label: "Grip", value: `${all} on the ${axis}- and ${axis}+ faces, ${mm(w.grip_mm)} mm deep` });
  const seat =
    w.parallel_height_mm > 0 ? `parallels ${mm(w.parallel_height_mm)} mm high` : vise ? "the vise's ways" : seatedOn;
  rows.push({ label: "Stands on", value: seat });
  rows.push({ label: "Stick-out", value: `${mm(w.stick_out_mm)} mm above the ${all.toLowerCase()}` });
  const plate = w.supports[0];
  if (!vise && plate !== undefined)
    rows.push({ label: w.type === "machine_table" ? "Table at" : "Plate at", value: place(plate) });
  const boxes = vise ? w.jaws : w.clamps;
  // a vise's jaws come fixed first, then moving (the plan's summary says so)
  boxes.forEach((box, i) => {
    const name = vise && i < 2 ? ["Fixed jaw", "Moving jaw"][i]! : `${one} ${i + 1}`;
    rows.push({ label: `${name} at`, value: place(box) });
  });
  return rows;
}

function viseWords(w: WorkholdingSummary): string {
  // each jaw is as wide as the vise, along the axis the jaws do not close on
  const along = w.grip_axis === "y" ? 0 : 1;
  const jaw = w.jaws[0];
  const width = jaw === undefined ? "" : `, ${mm(jaw.max[along] - jaw.min[along])} mm wide`;
  return `Vise, ${w.soft_jaws ? "soft jaws" : "jaws"}${width}`;
}

function plateWords(w: WorkholdingSummary, held: string): string {
  const plate = w.supports[0];
  const clamp = w.clamps[0];
  const size = plate === undefined ? "" : ` ${mm(plate.max[0] - plate.min[0])} × ${mm(plate.max[1] - plate.min[1])} mm`;
  const high = clamp === undefined ? "" : `, ${mm(clamp.max[2] - clamp.min[2])} mm high`;
  return `${held}${size}, ${w.clamps.length} edge clamps${high}`;
}

/** where a box is in the setup's coordinates: "X -30.24 .. 119.76, Y 48.62 .. 68.62, Z -80.53 .. -35.53" */
function place(box: Box3): string {
  return ["X", "Y", "Z"].map((axis, i) => `${axis} ${mm(box.min[i]!)} .. ${mm(box.max[i]!)}`).join(", ");
}
