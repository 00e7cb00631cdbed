/**
 * The work offsets each control has, in the order setups take them: the setup at index i uses
 * its control's register i, and a setup past the last has none (its program is refused:
 * too_many_setups). The postprocessors write these registers and the planner names a setup's
 * work offset from the same table, so the plan, the API and the program say the same register.
 * They are a fact of the machine's control, so they sit here, below both.
 */
const G54_TO_G57 = ["G54", "G55", "G56", "G57"];
const G54_TO_G59 = [...G54_TO_G57, "G58", "G59"];

const numbered = (prefix: string, first: number, count: number): string[] =>
  Array.from({ length: count }, (_, i) => `${prefix}${first + i}`);

export const CONTROL_WORK_OFFSETS = {
  /** Fanuc 0i-MF / 31i-B: the standard 48 additional offsets G54.1 P1 to P48 past G59 */
  fanuc: [...G54_TO_G59, ...numbered("G54.1 P", 1, 48)],
  /** Haas NGC: G154 P1 to P99 past G59 */
  haas: [...G54_TO_G59, ...numbered("G154 P", 1, 99)],
  /** LinuxCNC: nine, G59.1 to G59.3 past G59 */
  linuxcnc: [...G54_TO_G59, ...numbered("G59.", 1, 3)],
  /** Grbl: six */
  grbl: G54_TO_G59,
  /** Sinumerik 840D: G54 to G57, then the extended G505 to G599 */
  sinumerik: [...G54_TO_G57, ...numbered("G", 505, 95)],
} as const satisfies Record<string, readonly string[]>;

/**
 * The work offset of the setup at `index` (0-based) on a machine with this postprocessor: the
 * register its program selects. Heidenhain takes the datum from a preset table row instead
 * (CYCL DEF 247, the setup's number), and a control with fewer offsets than setups has none for
 * the last ones: those are named by Fanuc's numbering, G54 onwards.
 */
export function workOffsetName(postprocessor: string, index: number): string {
  const own: readonly string[] | undefined = Object.hasOwn(CONTROL_WORK_OFFSETS, postprocessor)
    ? (CONTROL_WORK_OFFSETS as Record<string, readonly string[]>)[postprocessor]
    : undefined;
  return own?.[index] ?? CONTROL_WORK_OFFSETS.fanuc[index] ?? `G54.1 P${index - G54_TO_G59.length + 1}`;
}
