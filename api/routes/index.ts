/** The route table of the public API, v1 (2026-05-09). */
import type { RouteSpec } from "../route.ts";
import { fileRoutes } from "./files.ts";
import { jobRoutes } from "./jobs.ts";
import { projectRoutes } from "./projects.ts";
import { taskRoutes } from "./tasks.ts";
import { workpieceRoutes } from "./workpiece.ts";

export const routes: readonly RouteSpec[] = [...projectRoutes, ...workpieceRoutes, ...jobRoutes, ...taskRoutes, ...fileRoutes];
