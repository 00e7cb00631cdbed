/**
 * T numbers for a whole job, given once all its setups are planned: a tool keeps its number (and
 * with it the H and D registers the postprocessors give it) in every setup, so a setter loading
 * the next setup never meets a length offset measured for another tool.
 *
 * An assembly with a pocket number (the shop's magazine, kernel/tools/assembly.ts) gets it;
 * every other tool the lowest number no pocket number takes, in the order the job first uses
 * them (setup order, then operation order). Two assemblies with one pocket number: the first
 * used keeps it, the other is numbered as if it had none, and a `tool_number_conflict` warning
 * names the number and both tools.
 */
import { assemblyHolderName, type Assembly } from "../../tools/assembly.ts";
import type { PlanWarning, ToolSummary } from "../plan-types.ts";
import type { Cutter, Operation } from "../types.ts";

/** What numbering reads of an operation. */
export type ToolUse = Pick<Operation, "tool">;

export interface JobToolNumbers {
  /** per setup, in the order given: the tools it uses, in the order it first uses them */
  setups: ToolSummary[][];
  warnings: PlanWarning[];
}

export interface JobToolNumbering {
  /** each setup's operations (their tools), setups in the order the shop runs them */
  setups: readonly (readonly ToolUse[])[];
  /** the library the job was planned with: pocket numbers and holders by assembly uuid */
  library: readonly Assembly[];
}

/** Each tool of the job with its T number, and what pocket numbers clash. */
export function jobToolNumbers({ setups, library }: JobToolNumbering): JobToolNumbers {
  const assemblies = new Map(library.map((assembly) => [assembly.uuid, assembly]));
  const used = firstUses(setups);
  const numbers = new Map<string, number>();
  const pocketOwner = new Map<number, Cutter>();
  const clashes: Clash[] = [];
  for (const tool of used) {
    const pocket = assemblies.get(tool.assembly_uuid)?.pocket_number;
    if (pocket === undefined) continue;
    const owner = pocketOwner.get(pocket);
    if (owner === undefined) {
      pocketOwner.set(pocket, tool);
      numbers.set(tool.assembly_uuid, pocket);
    } else clashes.push({ pocket, owner, other: tool });
  }
  let next = 1;
  for (const tool of used) {
    if (numbers.has(tool.assembly_uuid)) continue;
    while (pocketOwner.has(next)) next += 1;
    numbers.set(tool.assembly_uuid, next);
    next += 1;
  }
  const numberOf = (tool: Cutter) => numbers.get(tool.assembly_uuid) as number;
  return {
    setups: setups.map((operations) =>
      firstUses([operations]).map((tool) => ({
        number: numberOf(tool),
        assembly_uuid: tool.assembly_uuid,
        name: tool.name,
        tool_type: tool.tool_type,
        diameter_mm: tool.diameter,
        corner_radius_mm: tool.corner_radius,
        holder: holderOf(assemblies.get(tool.assembly_uuid)),
      })),
    ),
    warnings: clashes.map((clash) => conflictWarning(clash, numberOf(clash.other))),
  };
}

/** Two assemblies of the job with one pocket number: `owner` was used first. */
interface Clash {
  pocket: number;
  owner: Cutter;
  other: Cutter;
}

/** The job's tools (one cutter per assembly) in the order it first uses them. */
function firstUses(setups: readonly (readonly ToolUse[])[]): Cutter[] {
  const seen = new Map<string, Cutter>();
  for (const operations of setups)
    for (const { tool } of operations) if (!seen.has(tool.assembly_uuid)) seen.set(tool.assembly_uuid, tool);
  return [...seen.values()];
}

function conflictWarning({ pocket, owner, other }: Clash, renumbered: number): PlanWarning {
  return {
    code: "tool_number_conflict",
    message:
      `T${pocket} is the pocket number of ${owner.name} and of ${other.name}: ${owner.name}, used first, ` +
      `keeps it, ${other.name} is T${renumbered} in this job`,
    details: {
      number: pocket,
      kept_assembly_uuid: owner.assembly_uuid,
      kept_name: owner.name,
      renumbered_assembly_uuid: other.assembly_uuid,
      renumbered_name: other.name,
      renumbered_to: renumbered,
    },
  };
}

/** null: the assembly has no holder (the planner assumed one) or is not in the library. */
function holderOf(assembly: Assembly | undefined): string | null {
  return assembly === undefined ? null : assemblyHolderName(assembly);
}
