/**
 * What a setter checks in a program before pressing cycle start, read from the program's text
 * itself (not from the plan it was written from): the header names the work offset's origin
 * and the stock's size; after every tool change the spindle and the coolant are on before the
 * tool moves down towards the stock and before its first cut; and across a job's programs one
 * tool keeps one T number. Each check returns what it found wrong, empty when nothing.
 */

/** A program's lines as its control reads them: Heidenhain's block numbers and `;` comments as the others' `(...)`. */
function blocks(program: string): string[] {
  return program.split("\n").map((line) => line.replace(/^\d+ /, "").trim());
}

/** comment text, whatever the control's comment form; null for a line that is not a comment */
function commentOf(line: string): string | null {
  if (line.startsWith("(") && line.endsWith(")")) return line.slice(1, -1);
  if (line.startsWith(";")) return line.slice(1).trim();
  return null;
}

/** Whether the header names the work offset with its origin and the stock's size. */
export function headerProblems(program: string, workOffset: string): string[] {
  const comments = blocks(program)
    .map(commentOf)
    .filter((text) => text !== null)
    .map((text) => text.toUpperCase());
  const problems: string[] = [];
  if (!comments.some((text) => text.startsWith(`${workOffset.toUpperCase()}: X0 Y0`)))
    problems.push(`no header line names ${workOffset} and where X0 Y0 is`);
  if (!comments.some((text) => /^STOCK X [\d.]+, Y [\d.]+, Z [\d.]+$/.test(text)))
    problems.push("no header line gives the stock's size");
  if (!comments.some((text) => /^CYCLE TIME /.test(text))) problems.push("no header line gives the cycle time");
  return problems;
}

const TOOL_CHANGE = /\bM6\b|^TOOL CALL \d+|^\(MSG,Load T\d+/;
const SPINDLE_ON = /\bM0?3\b/;
const COOLANT_ON = /\bM(0?7|0?8|83|88)\b/;
/** a block that cuts: a feed move or a drill cycle */
const FEED = /^(G0?[123]\b|G8[1-4]\b|G73\b|G33\.1\b|MCALL CYCLE|CYCL DEF 2\d\d|C |CP |L .*\bF\d)/;
/** a block that moves Z (down towards the stock, after a change) */
const MOVES_Z = /(^|\s)Z[+-]?[\d.]/;

/**
 * After every tool change the spindle must be on, and the coolant when `coolant` says the
 * operations use it, before the first move in Z (the approach down to clearance) and before
 * the first cut. Heidenhain's M functions ride on the moves, and act before them.
 */
export function toolChangeProblems(program: string, coolant: boolean): string[] {
  const problems: string[] = [];
  const lines = blocks(program);
  lines.forEach((line, i) => {
    if (!TOOL_CHANGE.test(line)) return;
    let spindle = false;
    let cool = !coolant;
    for (const next of lines.slice(i + 1)) {
      if (commentOf(next) !== null) continue;
      if (TOOL_CHANGE.test(next)) break;
      spindle ||= SPINDLE_ON.test(next);
      cool ||= COOLANT_ON.test(next);
      const movesDown = MOVES_Z.test(next) && !/\bM91\b|SUPA|G53|G28/.test(next);
      if (movesDown || FEED.test(next)) {
        if (!spindle || !cool)
          problems.push(
            `after "${line}": "${next}" comes before the ${spindle ? "coolant" : "spindle"} is on (line ${i + 1})`,
          );
        return;
      }
    }
  });
  return problems;
}

/**
 * One tool, one number across a job's programs: each header's tool line ("T3 end mill D10 R0 3
 * flutes, stick-out 48, Z min -20") without its depth names the tool; the same tool must have
 * the same number in every program, and a number one tool.
 */
export function toolNumberProblems(programs: readonly string[]): string[] {
  const byTool = new Map<string, string>();
  const byNumber = new Map<string, string>();
  const problems: string[] = [];
  programs.forEach((program, p) => {
    for (const line of blocks(program)) {
      const text = commentOf(line)?.toUpperCase();
      const tool = text === undefined ? null : /^T(\d+) (.+ STICK-OUT [\d.]+), Z MIN /.exec(text);
      if (!tool) continue;
      const [, number = "", what = ""] = tool;
      const known = byTool.get(what);
      if (known !== undefined && known !== number)
        problems.push(`program ${p + 1}: ${what} is T${number}, elsewhere T${known}`);
      const held = byNumber.get(number);
      if (held !== undefined && held !== what)
        problems.push(`program ${p + 1}: T${number} is ${what}, elsewhere ${held}`);
      byTool.set(what, number);
      byNumber.set(number, what);
    }
  });
  return problems;
}
