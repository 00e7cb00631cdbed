/**
 * The setter's clamping lines in a program's header: what holds the stock, which faces it grips,
 * how deep, what it stands on, how far it stands out, and where the jaws (or clamps) are in the
 * setup's coordinates, so the part can be clamped, and the work offset checked against the jaws,
 * from the header alone (issue 35). Written once here, as plain text; each control wraps every
 * line in its own comment (iso.ts: the dialect's comment; heidenhain.ts: `;`), which also
 * capitalises (Fanuc) and removes the characters that would end it.
 *
 * Every line fits CLAMPING_LINE_MAX for any box within a metre of the work offset (a range at
 * three decimals, signs and all, is then at most 19 characters), so no control cuts one short;
 * the summary's own words are wrapped to fit.
 */
import type { WorkholdingSummary } from "../cam/plan-types.ts";

/** the narrowest comment a control shows in full (Fanuc's screens, Grbl): 60 characters */
export const CLAMPING_LINE_MAX = 60;

/**
 * The lines for a setup held by `workholding`, each a comment's text; `number` writes a length as
 * the control's words do (its decimals, no point on a whole number: it is read, not executed).
 */
export function clampingLines(workholding: WorkholdingSummary, number: (value: number) => string): string[] {
  const vise = workholding.type === "vise";
  // the machine's table, where the workholding could not hold the setup, is laid out as a plate
  const [surface, seatedOn] =
    workholding.type === "machine_table" ? ["Machine table", "table"] : ["Fixture plate", "plate"];
  const [one, all] = vise ? (["Jaw", "Jaws"] as const) : (["Clamp", "Clamps"] as const);
  const boxes = vise ? workholding.jaws : workholding.clamps;
  const grip = `grip ${number(workholding.grip_mm)} deep`;
  const lines: string[] = [];
  if (vise) {
    // each jaw is as wide as the vise, along the axis the jaws do not close on
    const along = workholding.grip_axis === "y" ? 0 : 1;
    const jaw = workholding.jaws[0];
    const width = jaw === undefined ? "" : ` ${number(jaw.max[along] - jaw.min[along])} wide`;
    const opening = workholding.opening_mm === null ? "" : `, set opening ${number(workholding.opening_mm)}`;
    lines.push(`Vise, ${workholding.soft_jaws ? "soft jaws" : "jaws"}${width}${opening}`);
  } else {
    // the plate is the one support; each clamp as tall as the others
    const plate = workholding.supports[0];
    const clamp = workholding.clamps[0];
    const size =
      plate === undefined ? "" : ` ${number(plate.max[0] - plate.min[0])} x ${number(plate.max[1] - plate.min[1])}`;
    const high = clamp === undefined ? "" : ` ${number(clamp.max[2] - clamp.min[2])} high`;
    lines.push(...wrapped(`${surface}${size}, ${workholding.clamps.length} edge clamps${high}`));
  }
  lines.push(...orientationLines(workholding));
  lines.push(...wrapped(`Gripping ${inComment(workholding.clamped.description)}`));
  const axis = workholding.grip_axis.toUpperCase();
  lines.push(`${all} on ${axis}- and ${axis}+ faces, ${grip}`);
  const seat =
    workholding.parallel_height_mm > 0
      ? `On parallels ${number(workholding.parallel_height_mm)}`
      : vise
        ? "On the ways"
        : `On the ${seatedOn}`;
  lines.push(`${seat}, stick-out ${number(workholding.stick_out_mm)} above the ${all.toLowerCase()}`);
  const range = (axis: string, low: number, high: number): string => `${axis}${number(low)}..${number(high)}`;
  // a vise's jaws come fixed first, then moving (WorkholdingSummarySchema): the setter knows which is which
  const name = (i: number): string => (vise && i < 2 ? ["Fixed jaw", "Moving jaw"][i]! : `${one} ${i + 1}`);
  if (!vise && workholding.supports[0] !== undefined) {
    const plate = workholding.supports[0];
    const label = seatedOn === "table" ? "Table" : "Plate";
    lines.push(`${label} ${range("X", plate.min[0], plate.max[0])} ${range("Y", plate.min[1], plate.max[1])}`);
  }
  boxes.forEach((box, i) => {
    lines.push(`${name(i)} ${range("X", box.min[0], box.max[0])} ${range("Y", box.min[1], box.max[1])}`);
  });
  // one height for them all: from the ways (or the plate's top) to the highest top, which a tool must clear
  if (boxes.length > 0) {
    const low = Math.min(...boxes.map((box) => box.min[2]));
    const high = Math.max(...boxes.map((box) => box.max[2]));
    lines.push(`${all} ${range("Z", low, high)}`);
  }
  return lines;
}

/**
 * How the part lies, in its own sides, so the setter turns it the right way before clamping:
 * "Part +Z side up, +X to the right, +Y to the back", then the side the fixed jaw takes.
 */
function orientationLines(workholding: WorkholdingSummary): string[] {
  const o = workholding.orientation;
  if (o === undefined) return [];
  const lines = wrapped(`Part ${o.up} side up, ${o.right} to the right, ${o.back} to the back`);
  if (workholding.type === "vise")
    lines.push(...wrapped(`Fixed jaw on the part's ${workholding.grip_axis === "y" ? o.back : o.right} side`));
  return lines;
}

/**
 * The description as a comment can carry it: Fanuc-type controls end a comment at ")" and the
 * dialects drop parentheses, so "sides (faces 1 and 4), finished" would read "sides faces 1 and
 * 4 , finished"; set off with commas instead.
 */
function inComment(description: string): string {
  return description.replace(/ \(([^()]*)\)/g, ", $1");
}

/** Words as lines of at most CLAMPING_LINE_MAX characters (a word longer than that is a line of its own). */
export function wrapped(text: string): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/)) {
    if (word === "") continue;
    if (line !== "" && line.length + 1 + word.length > CLAMPING_LINE_MAX) {
      lines.push(line);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  if (line !== "") lines.push(line);
  return lines;
}

/**
 * Phrases joined by ", " as lines of at most CLAMPING_LINE_MAX characters, broken only between
 * phrases, so a label stays on the line with its value ("Z min -14.992", never "Z min" then
 * "-14.992"); a phrase longer than a line is wrapped at words.
 */
export function wrappedPhrases(phrases: readonly string[]): string[] {
  const lines: string[] = [];
  let line = "";
  phrases.forEach((phrase, index) => {
    const text = index < phrases.length - 1 ? `${phrase},` : phrase;
    if (line !== "" && line.length + 1 + text.length <= CLAMPING_LINE_MAX) line = `${line} ${text}`;
    else {
      if (line !== "") lines.push(line);
      const words = wrapped(text);
      line = words.pop() ?? "";
      lines.push(...words);
    }
  });
  if (line !== "") lines.push(line);
  return lines;
}
