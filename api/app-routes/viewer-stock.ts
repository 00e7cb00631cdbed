/**
 * The stock of a setup as the simulation left it after one of its operations, for the viewer:
 *
 *   GET /projects/{project_id}/setups/{setup_index}/stock?after={operation index}
 *     -> 200 application/octet-stream: a height field of the setup's stock with a class per cell
 *        (left beyond the finishing tolerance, within it, cut into the part, no part under it) and
 *        the material left, laid out as kernel/cam/viewer/stock-view-bytes.ts says
 *
 * `after` is the operation's index in the setup, -1 for the stock before its first operation
 * (what the setups before it left); without it, after the setup's last. The setups before it
 * are simulated first, as the planner does (kernel/cam/viewer/plan-stock.ts), on a geometry
 * thread that keeps what it made per job.
 */
import type { Request, Response } from "express";
import { z } from "zod";
import { HttpError } from "../../http/errors/index.ts";
import type { AuthenticatedKey } from "../locals.ts";
import type { ApiServices } from "../services.ts";
import { askViewer, plannedInputs, sendStockBytes } from "./viewer-geometry.ts";

export const ViewerStockParams = z.strictObject({
  project_id: z.uuid(),
  setup_index: z
    .string()
    .regex(/^\d{1,4}$/, { error: "a whole number from 0" })
    .transform(Number),
});

export const ViewerStockQuery = z.strictObject({
  after: z
    .string()
    .regex(/^(-1|\d{1,5})$/, { error: "an operation's index in the setup, or -1 for before its first" })
    .transform(Number)
    .optional(),
});

export async function viewerStock(
  _req: Request,
  res: Response,
  services: ApiServices,
  auth: AuthenticatedKey,
): Promise<void> {
  const input = res.locals.input;
  if (!input) throw new Error("the validation middleware did not run");
  // validated, the indexes made numbers, by the router's validate()
  const { project_id: projectId, setup_index: setup } = input.params as z.output<typeof ViewerStockParams>;
  const query = input.query as z.output<typeof ViewerStockQuery>;
  const { request, summary } = await plannedInputs(services, auth, projectId);
  const planned = summary.setups[setup];
  if (planned === undefined)
    throw new HttpError(400, "setup_index_out_of_range", `the job has ${summary.setups.length} setups`, {
      setups: summary.setups.length,
      setup_index: setup,
    });
  const operations = planned.operations.length;
  const after = query.after ?? operations - 1;
  if (after >= operations)
    throw new HttpError(400, "operation_index_out_of_range", `setup ${setup} has ${operations} operations`, {
      operations,
      after,
    });
  const outcome = await askViewer(services, auth, {
    ...request,
    kind: "viewer",
    query: { kind: "stock", setup, after },
  });
  if (outcome.kind !== "stock") throw new Error(`the viewer answered ${outcome.kind} to a stock question`);
  sendStockBytes(res, outcome.bytes, request.jobId);
}
