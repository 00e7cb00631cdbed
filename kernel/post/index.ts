/**
 * Postprocessors: one setup of a stored plan as the program a control runs. Each control is a
 * module of its own over the one motion stream (motion.ts); the machine names its postprocessor
 * (kernel/machines/archetypes.ts). Programs are made line by line, never whole in memory.
 */
import type { CamPlan } from "../job/plan.ts";
import { fanuc } from "./fanuc.ts";
import { grbl } from "./grbl.ts";
import { haas } from "./haas.ts";
import { isoProgram, type IsoDialect } from "./iso.ts";
import { linuxcnc } from "./linuxcnc.ts";
import { motionStream } from "./motion.ts";
import { PostError } from "./post-error.ts";

export { PostError };

const DIALECTS: Record<string, IsoDialect> = { fanuc, haas, linuxcnc, grbl };

export interface PostedProgram {
  /** `<project>_<setup>` with the control's extension */
  filename: string;
  lines: Iterable<string>;
}

/** The postprocessors this build has. */
export const POSTPROCESSORS = Object.keys(DIALECTS);

/**
 * The program of setup `setupIndex` (0-based) for `postprocessor`. Throws PostError for a setup
 * the plan lacks, a plan without toolpaths there, or a postprocessor this build does not have.
 */
export function postSetup(plan: CamPlan, setupIndex: number, postprocessor: string, names: { project: string }): PostedProgram {
  const dialect = DIALECTS[postprocessor];
  if (dialect === undefined) throw new PostError("postprocessor_unavailable", `no postprocessor "${postprocessor}" in this build (it has ${POSTPROCESSORS.join(", ")})`);
  const setup = plan.setups[setupIndex];
  if (setup === undefined) throw new PostError("setup_index_out_of_range", `the job has ${plan.setups.length} setups; setup_index ${setupIndex} is not one of them`, { setups: plan.setups.length });
  if (!setup.operations.some((operation) => operation.moves.length > 0)) throw new PostError("no_toolpaths", `setup ${setupIndex} (${setup.name}) has no toolpaths`);
  // validate the work offset before the first line is sent
  dialect.workOffset(setup.index);
  return {
    filename: `${fileStem(names.project)}_${fileStem(setup.name)}${dialect.extension}`,
    lines: { [Symbol.iterator]: () => isoProgram(motionStream(plan, setupIndex, names), dialect) },
  };
}

/** A name as a file name's part: letters, digits, - and _ (others become _). */
function fileStem(name: string): string {
  return name.normalize("NFKD").replace(/[^A-Za-z0-9_-]+/g, "_").replace(/^_+|_+$/g, "") || "setup";
}
