/**
 * A setup that ends without a toolpath is left out of the plan: a shop would clamp the part for
 * nothing, the quote would charge that clamping, and its program would be empty (post/run
 * answers 409 no_toolpaths). What it was there for is reported instead, as a SetupLeftOut and an
 * `unmachined` entry (`setup_left_out`): its features and faces, or what it was added for, and
 * why nothing was made.
 */
import type { Operation } from "../types.ts";
import type { SetupLeftOut, Unmachined } from "../plan-types.ts";
import type { SetupPart } from "./setup-part.ts";

/** What a setup's planning gave: the kept operations, the dropped ones, and what it reported. */
export interface SetupOutcome {
  setup: Pick<SetupPart, "name" | "direction" | "features" | "faces" | "focus" | "addedFor">;
  operations: readonly Operation[];
  /** operation_dropped entries of this setup */
  dropped: readonly Unmachined[];
  /** the setup's other unmachined entries (its milling's and holes') */
  unmachined: readonly Unmachined[];
}

/** True when some operation moves the tool: a setup worth clamping. */
export function hasToolpaths(operations: readonly Operation[]): boolean {
  return operations.some((operation) => operation.moves.length > 0);
}

/** The setup left out, and its `setup_left_out` entry for `unmachined`. */
export function withoutToolpaths(outcome: SetupOutcome): { setup: SetupLeftOut; unmachined: Unmachined } {
  const { setup } = outcome;
  const features = setup.features.map((feature) => feature.id);
  const faces = [...new Set([...setup.faces, ...(setup.focus ?? [])])];
  const message = `setup ${setup.name} is left out: it has no toolpath. It was there for ${purpose(setup, features, faces)}; ${why(outcome)}`;
  return {
    setup: { name: setup.name, direction: setup.direction, reason: "no_toolpaths", message, features, faces },
    unmachined: { code: "setup_left_out", message, features, faces, volume_mm3: null },
  };
}

function purpose(setup: SetupOutcome["setup"], features: readonly number[], faces: readonly number[]): string {
  const parts: string[] = [];
  if (setup.addedFor !== null) parts.push(setup.addedFor);
  if (features.length > 0)
    parts.push(
      `${features.length === 1 ? "feature" : "features"} ${features.join(", ")} (${[...new Set(setup.features.map((f) => f.class.replace(/_/g, " ")))].join(", ")})`,
    );
  if (faces.length > 0) parts.push(`${faces.length === 1 ? "face" : "faces"} ${faces.join(", ")}`);
  return parts.length > 0 ? parts.join(" and ") : "no feature or face of its own";
}

const TOOL_CODES = /^(tool_missing|no_tool_)/;

function why(outcome: SetupOutcome): string {
  const dropped = outcome.dropped.length;
  if (dropped > 0)
    return `the verification dropped ${dropped === 1 ? "the one operation" : `all ${dropped} operations`} made for it (operation_dropped says why)`;
  // what the library lacks for the setup's own features first, else for what it would have milled
  const own = new Set(outcome.setup.features.map((feature) => feature.id));
  const toolless = outcome.unmachined.filter((u) => TOOL_CODES.test(u.code));
  const lacking = toolless.find((u) => u.features.some((id) => own.has(id))) ?? toolless[0];
  if (lacking !== undefined) return `no tool of the library could make them: ${lacking.message}`;
  return "nothing was left for it to cut: the setups before it took all it reaches";
}
