/**
 * What a project's inputs tell the client besides being stored: the material id a sent name
 * resolves to (kernel/materials/resolve-material.ts), and which setups the stock would not fit
 * the machine in (kernel/cam/planner/travel.ts). Both are answered as `warnings` of the request
 * that set them, so nothing the client sent changes without its saying so.
 */
import { z } from "zod";
import type { Queryable } from "../../../db/request-transaction.ts";
import { materialNames } from "../../../db/queries/machines-materials.ts";
import { AXIS_DIRECTIONS } from "../../../kernel/math/vec3.ts";
import { travelWarnings, type MachineTravel, type NamedDirection } from "../../../kernel/cam/planner/travel.ts";
import type { Box3 } from "../../../kernel/cam/types.ts";
import type { PlanSummary } from "../../../kernel/job/plan.ts";
import { resolveMaterialId } from "../../../kernel/materials/resolve-material.ts";
import { HttpError } from "../../../http/errors/index.ts";

export const RequestWarning = z
  .object({
    code: z
      .string()
      .describe(
        "material_alias (material_id named a material by another name), stock_exceeds_travel (setups the stock does not fit the machine in)",
      ),
    message: z.string(),
    sent: z.string().optional().describe("material_alias: the value sent"),
    material_id: z.string().optional().describe("material_alias: the id stored"),
    axis: z.enum(["X", "Y", "Z"]).optional().describe("stock_exceeds_travel: the machine axis the stock exceeds"),
    setups: z
      .array(z.string())
      .optional()
      .describe('stock_exceeds_travel: the setups concerned ("+X", "-X", a plan\'s tilted setup by its name)'),
  })
  .meta({ id: "RequestWarning" });
export type RequestWarning = z.input<typeof RequestWarning>;

export const requestWarnings = z.array(RequestWarning);

/**
 * The material id to store for what the client sent: an id of a material the user may use as it
 * is, another of its names as that id with a material_alias warning. Anything else is 400
 * invalid_parameter (field code unknown_reference, as the database says of an id it does not
 * know) with details.nearest.
 */
export async function resolveMaterial(
  db: Queryable,
  sent: string,
): Promise<{ id: string; warnings: RequestWarning[] }> {
  const resolved = resolveMaterialId(sent, await materialNames(db));
  if (resolved.kind === "id") return { id: resolved.id, warnings: [] };
  if (resolved.kind === "alias") {
    return {
      id: resolved.id,
      warnings: [
        {
          code: "material_alias",
          message: `material_id ${JSON.stringify(sent)} names the material ${resolved.id}: stored as ${resolved.id}`,
          sent,
          material_id: resolved.id,
        },
      ],
    };
  }
  const message = `material ${JSON.stringify(sent)} is not available to this user; the nearest: ${resolved.nearest.join(", ")} (GET /libraries/materials lists them)`;
  throw new HttpError(400, "invalid_parameter", message, {
    fields: [{ field: "body.material_id", code: "unknown_reference", message }],
    nearest: resolved.nearest,
  });
}

/** The machine snapshot of a job (travel_mm) as the travel check takes it. */
export function snapshotTravel(machine: { name: string; travel_mm: readonly number[] }): MachineTravel {
  return {
    name: machine.name,
    travel_x_mm: machine.travel_mm[0]!,
    travel_y_mm: machine.travel_mm[1]!,
    travel_z_mm: machine.travel_mm[2]!,
  };
}

/**
 * The setups to check: the stock's six axis directions, and the setups of a plan made for this
 * workpiece that are not along an axis (a feature's own direction), by their names.
 */
function setupsToCheck(plan: PlanSummary | null): NamedDirection[] {
  const alongAxis = (d: readonly number[]) =>
    AXIS_DIRECTIONS.some((axis) => axis.direction.every((c, i) => Math.abs(c - d[i]!) < 1e-9));
  return [...AXIS_DIRECTIONS, ...(plan?.setups ?? []).filter((setup) => !alongAxis(setup.direction))];
}

export function stockTravelWarnings(machine: MachineTravel, stock: Box3, plan: PlanSummary | null): RequestWarning[] {
  return travelWarnings(machine, stock, setupsToCheck(plan));
}
