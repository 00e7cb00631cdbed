/**
 * Postprocessors: one setup of a stored plan as the program a control runs. Each control is a
 * module of its own over the one motion stream (motion.ts); the machine names its postprocessor
 * (kernel/machines/archetypes.ts). Programs are made line by line, never whole in memory.
 */
import type { CamPlan } from "../job/plan.ts";
import { fanuc } from "./fanuc.ts";
import { grbl } from "./grbl.ts";
import { haas } from "./haas.ts";
import { HEIDENHAIN_EXTENSION, heidenhainProgram } from "./heidenhain.ts";
import { isoProgram, type IsoDialect, type ProgramOptions } from "./iso.ts";
import { linuxcnc } from "./linuxcnc.ts";
import { motionStream, type Motion, type StreamOptions } from "./motion.ts";
import { sinumerik } from "./sinumerik.ts";
import { PostError } from "./post-error.ts";

export { PostError };

/** A control's writer: its file extension, whether a setup has a work offset there, and the program of a motion stream. */
interface Postprocessor {
  extension: string;
  /** throws PostError when the control cannot hold the setup (its work offsets run out) */
  checkSetup(index: number): void;
  program(stream: Iterable<Motion>, name: string, options: ProgramOptions): Iterable<string>;
}

const iso = (dialect: IsoDialect): Postprocessor => ({
  extension: dialect.extension,
  checkSetup: (index) => void dialect.workOffset(index),
  program: (stream, _name, options) => isoProgram(stream, dialect, options),
});

const WRITERS: Record<string, Postprocessor> = {
  fanuc: iso(fanuc),
  haas: iso(haas),
  linuxcnc: iso(linuxcnc),
  grbl: iso(grbl),
  sinumerik: iso(sinumerik),
  // preset table rows run into the thousands: any setup has one
  heidenhain: { extension: HEIDENHAIN_EXTENSION, checkSetup: () => {}, program: heidenhainProgram },
};

export interface PostedProgram {
  /** `<project>_<setup>` with the control's extension */
  filename: string;
  lines: Iterable<string>;
}

/** The postprocessors this build has. */
export const POSTPROCESSORS = Object.keys(WRITERS);

/** Whether the control has a work offset for the setup at this index (postSetup refuses one it has not: too_many_setups). */
export function holdsSetup(postprocessor: string, index: number): boolean {
  const writer = WRITERS[postprocessor];
  if (writer === undefined) return false;
  try {
    writer.checkSetup(index);
    return true;
  } catch (error) {
    if (error instanceof PostError) return false;
    throw error;
  }
}

/** What a program names beyond its plan, and how it is written. */
export interface PostContext extends Omit<StreamOptions, "control">, Partial<ProgramOptions> {}

/**
 * The program of setup `setupIndex` (0-based) for `postprocessor`. Throws PostError for a setup
 * the plan lacks, a plan without toolpaths there, or a postprocessor this build does not have.
 * The optional stop before each tool change is on unless `context.optionalStop` is false.
 */
export function postSetup(
  plan: CamPlan,
  setupIndex: number,
  postprocessor: string,
  context: PostContext,
): PostedProgram {
  const writer = WRITERS[postprocessor];
  if (writer === undefined)
    throw new PostError(
      "postprocessor_unavailable",
      `no postprocessor "${postprocessor}" in this build (it has ${POSTPROCESSORS.join(", ")})`,
    );
  const setup = plan.setups[setupIndex];
  if (setup === undefined)
    throw new PostError(
      "setup_index_out_of_range",
      `the job has ${plan.setups.length} setups; setup_index ${setupIndex} is not one of them`,
      { setups: plan.setups.length },
    );
  if (!setup.operations.some((operation) => operation.moves.length > 0))
    throw new PostError("no_toolpaths", `setup ${setupIndex} (${setup.name}) has no toolpaths`);
  // refused before the first line is sent
  writer.checkSetup(setup.index);
  const stem = `${fileStem(context.project)}_${fileStem(setup.name)}`;
  const stream = () => motionStream(plan, setupIndex, { ...context, control: postprocessor });
  const options: ProgramOptions = { optionalStop: context.optionalStop ?? true };
  return {
    filename: `${stem}${writer.extension}`,
    lines: { [Symbol.iterator]: () => writer.program(stream(), stem, options)[Symbol.iterator]() },
  };
}

/** A name as a file name's part: letters, digits, - and _ (others become _). */
function fileStem(name: string): string {
  return (
    name
      .normalize("NFKD")
      .replace(/[^A-Za-z0-9_-]+/g, "_")
      .replace(/^_+|_+$/g, "") || "setup"
  );
}
