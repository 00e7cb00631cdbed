/** The route table of the public API, v1 (2026-05-09). */
import type { RouteSpec } from "../route.ts";
import { projectRoutes } from "./projects.ts";
import { taskRoutes } from "./tasks.ts";

export const routes: readonly RouteSpec[] = [...projectRoutes, ...taskRoutes];
