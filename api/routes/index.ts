/** The route table of the public API, v1 (2026-05-09). */
import type { RouteSpec } from "../route.ts";
import { automationRoutes } from "./automation.ts";
import { catalogueRoutes } from "./catalogue.ts";
import { equipmentImportRoutes } from "./equipment-import.ts";
import { equipmentLibraryRoutes } from "./equipment-libraries.ts";
import { fileRoutes } from "./files.ts";
import { holderToolRoutes } from "./holders-tools.ts";
import { jobRoutes } from "./jobs.ts";
import { postRoutes } from "./post.ts";
import { machineMaterialRoutes } from "./machines-materials.ts";
import { projectRoutes } from "./projects.ts";
import { quoteMachineRoutes } from "./quote-machines.ts";
import { quoteRoutes } from "./quote.ts";
import { setupSheetRoutes } from "./setup-sheet.ts";
import { taskRoutes } from "./tasks.ts";
import { webhookRoutes } from "./webhooks.ts";
import { workpieceRoutes } from "./workpiece.ts";

export const routes: readonly RouteSpec[] = [
  ...projectRoutes,
  ...workpieceRoutes,
  ...jobRoutes,
  ...postRoutes,
  ...setupSheetRoutes,
  ...automationRoutes,
  ...taskRoutes,
  ...fileRoutes,
  ...equipmentLibraryRoutes,
  ...equipmentImportRoutes,
  ...holderToolRoutes,
  ...catalogueRoutes,
  ...machineMaterialRoutes,
  ...quoteRoutes,
  ...quoteMachineRoutes,
  ...webhookRoutes,
];
