/**
 * The workholding as the API shows it: a planning request's override (POST .../automation/cam-planning)
 * and a machine's default (GET /libraries/machines). The kernel's schema is the one source; this
 * names it once for the OpenAPI document.
 */
import { Workholding } from "../../kernel/workholding/schema.ts";

export const WorkholdingSchema = Workholding.describe(
  "what holds the stock: a machine vise (kind vise: jaws, opening, parallels) or a fixture plate with clamps " +
    "(kind fixture_plate); lengths in mm, x along the jaws, y across them",
).meta({ id: "Workholding" });
