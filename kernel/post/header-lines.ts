/**
 * The program's header: what a setter reads before pressing cycle start, as plain text lines
 * each control wraps in its own comments (iso.ts: the dialect's comment; heidenhain.ts: `;`).
 * The job and setup, the part and its material, how the part is turned, the work offset and
 * where its origin is, the stock and where the part sits in it, the cycle time, the tools (T,
 * type, diameter, corner radius, flutes, stick-out, deepest Z, then the full name and holder),
 * then the clamping lines (clamping-lines.ts). Every fact comes from the program start's facts
 * (kernel/job/setup-facts.ts), as the setup sheet's and the quote's do.
 *
 * Every line is at most HEADER_LINE_MAX characters, the narrowest comment a control shows in
 * full, so no control cuts one short: longer text is wrapped at words.
 */
import { formatDuration } from "../job/setup-facts.ts";
import { CLAMPING_LINE_MAX, clampingLines, wrapped, wrappedPhrases } from "./clamping-lines.ts";
import type { ProgramStart } from "./motion.ts";

export const HEADER_LINE_MAX = CLAMPING_LINE_MAX;

/** The header's lines; `number` writes a length as the control's words do (read, not executed). */
export function headerLines(start: ProgramStart, number: (value: number) => string): string[] {
  const { facts, setup } = start;
  const lines = wrapped(`${start.project} - setup ${setup.index + 1} of ${setup.count}: ${setup.name}`);
  const about = [
    facts.part === null ? null : `Part ${facts.part}`,
    facts.material === null ? null : `material ${facts.material}`,
  ].filter((text) => text !== null);
  if (about.length > 0) lines.push(...wrapped(about.join(", ")));
  lines.push(...wrapped(`Part ${facts.turn}`));
  lines.push(...wrapped(`${facts.work_offset.code}: ${facts.work_offset.origin}`));
  const size = ([x, y, z]: readonly number[]): string => `X ${number(x!)}, Y ${number(y!)}, Z ${number(z!)}`;
  lines.push(`Stock ${size(facts.stock.stock_mm)}`);
  const inStock = facts.stock.part_in_stock;
  if (facts.stock.part_mm !== null && inStock !== null) {
    lines.push(`Part ${size(facts.stock.part_mm)}, stock beyond it:`);
    lines.push(
      ...wrapped(
        `${number(inStock.left)} left, ${number(inStock.right)} right, ${number(inStock.front)} front, ` +
          `${number(inStock.back)} back, ${number(inStock.top)} on top, ${number(inStock.bottom)} below`,
      ),
    );
  }
  lines.push(`Cycle time ${formatDuration(facts.cycle_time_s)}`);
  for (const tool of facts.tools) {
    lines.push(
      ...wrappedPhrases([
        `T${tool.number} ${tool.type_words} D${number(tool.diameter_mm)} R${number(tool.corner_radius_mm)}` +
          `${tool.flutes > 0 ? ` ${tool.flutes} flutes` : ""}`,
        `stick-out ${number(tool.stick_out_mm)}`,
        `Z min ${number(tool.deepest_z)}`,
      ]),
    );
    lines.push(...wrapped(tool.name));
    // assembly names often end "in <holder>" already
    if (tool.holder !== null && !tool.name.includes(tool.holder)) lines.push(...wrapped(`holder ${tool.holder}`));
  }
  if (start.workholding !== null) lines.push(...clampingLines(start.workholding, number));
  return lines;
}
