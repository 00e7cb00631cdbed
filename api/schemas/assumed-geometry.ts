/**
 * What the answers about holders, tools and assemblies say was assumed (kernel/tools/
 * completion.ts, the table in kernel/tools/assumed-geometry.ts): `assumed` lists every value
 * the planner takes that the item does not give, `warnings` the geometry no value can stand in
 * for (the planner does not use the item until it is given). Both are read-only: worked out on
 * every answer from what is stored, which is only what the client gave, so a later update that
 * gives a value ends its assumption. Sent back (a holder read from GET put into an assembly as
 * it is), they are ignored.
 */
import { z } from "zod";
import type { Assembly } from "../../kernel/tools/assembly.ts";
import {
  completeAssembly,
  completeStandaloneHolder,
  completeTool,
  type Assumption,
  type GeometryWarning,
} from "../../kernel/tools/completion.ts";
import type { Holder } from "../../kernel/tools/holder.ts";
import type { Tool } from "../../kernel/tools/tool.ts";
import { isRecord } from "../../kernel/tools/violation.ts";

export const AssumedList = z
  .array(
    z.object({
      field: z
        .string()
        .describe(
          "the field the item does not give, as a dotted path (tool_parameters.PointAngle, segments, components.1.parametric_cutting_tool.tool_parameters.LengthBelowHolder)",
        ),
      value: z.unknown().describe("the value the planner takes for it"),
      reason: z.string().describe("where the value comes from and why it is on the safe side"),
    }),
  )
  .meta({
    id: "Assumed",
    readOnly: true,
    description:
      "Read-only, present when something was assumed: every value the planner takes that the item does not give " +
      "(docs/equipment-libraries.md has the table). Nothing assumed is stored: giving the field ends the assumption. Ignored when sent.",
  });

export const GeometryWarnings = z
  .array(
    z.object({
      field: z.string().describe("the missing field"),
      code: z.enum(["not_planned"]),
      message: z.string(),
    }),
  )
  .meta({
    id: "GeometryWarnings",
    readOnly: true,
    description:
      "Read-only, present when the item lacks geometry no value can safely stand in for (a chamfer mill's angle): the planner does not use it until it is given. Ignored when sent.",
  });

/** The read-only fields, for a schema's shape. */
export const assumedFields = { assumed: AssumedList.optional() };
export const assumedAndWarningFields = { ...assumedFields, warnings: GeometryWarnings.optional() };

const READ_ONLY = ["assumed", "warnings"];

/** The item without the read-only fields a client may send back. */
export function withoutReadOnly(input: unknown): unknown {
  if (!isRecord(input) || !READ_ONLY.some((key) => Object.hasOwn(input, key))) return input;
  return Object.fromEntries(Object.entries(input).filter(([key]) => !READ_ONLY.includes(key)));
}

/** An assembly without the read-only fields, its own and its components' objects'. */
export function assemblyWithoutReadOnly(input: unknown): unknown {
  const out = withoutReadOnly(input);
  if (!isRecord(out) || !Array.isArray(out.components)) return out;
  return {
    ...out,
    components: out.components.map((component: unknown) => {
      if (
        !isRecord(component) ||
        typeof component.component_type !== "string" ||
        !isRecord(component[component.component_type])
      )
        return component;
      return { ...component, [component.component_type]: withoutReadOnly(component[component.component_type]) };
    }),
  };
}

function withLists<T extends object>(
  item: T,
  assumed: Assumption[],
  warnings: GeometryWarning[] = [],
): T & { assumed?: Assumption[]; warnings?: GeometryWarning[] } {
  return { ...item, ...(assumed.length > 0 ? { assumed } : {}), ...(warnings.length > 0 ? { warnings } : {}) };
}

/** A stored holder as answered: with what its use on its own assumes. */
export function holderAnswer<T extends Holder>(holder: T): T & { assumed?: Assumption[] } {
  return withLists(holder, completeStandaloneHolder(holder).assumed);
}

/** A stored tool as answered: with what is assumed and what cannot be. */
export function toolAnswer<T extends Tool>(tool: T): T & { assumed?: Assumption[]; warnings?: GeometryWarning[] } {
  const completed = completeTool(tool);
  return withLists(tool, completed.assumed, completed.warnings);
}

/** A stored assembly as answered: with what the planner assumes for it (its holders' profiles for its tool's shank, the stick-out). */
export function assemblyAnswer<T extends Assembly>(
  assembly: T,
): T & { assumed?: Assumption[]; warnings?: GeometryWarning[] } {
  const completed = completeAssembly(assembly);
  return withLists(assembly, completed.assumed, completed.warnings);
}
