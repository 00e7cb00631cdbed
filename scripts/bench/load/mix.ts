/**
 * What a virtual client of `npm run bench:load` does at each step: one action drawn by weight
 * from a mix of what an integration of the API does all day, mostly reads:
 *
 *   reads     its projects (list, one, their tasks, their quote and quote job), its planning
 *             tasks (polling), the libraries (equipment list and one library, machines,
 *             materials) and the external catalogue (search, tool types)
 *   writes    POST /projects (three in ten with an Idempotency-Key, a quarter of those sent again
 *             as a client does that missed the answer: the replay must be the same project),
 *             POST /projects/{id}/workpiece (partC.step or partC.stl from the fixtures),
 *             POST /projects/{id}/stock/bounding-box, and POST .../automation/cam-planning
 *             (at most `plansPerKey`, each on a project of its own with a workpiece and stock)
 *
 * An action whose project is not ready yet does the step that readies one instead (see
 * `resolve`), so every client works its projects through the same pipeline.
 */
import { randomUUID } from "node:crypto";
import { STANDARD_MANUFACTURER } from "../../../kernel/tools/catalogue/entry.ts";
import type { Answer, Call, Client, Phase } from "./client.ts";

export const PLANNING_MATERIAL = "aluminium-6061";
export const STOCK_OFFSETS = { minus_x: 2, plus_x: 2, minus_y: 2, plus_y: 2, minus_z: 0, plus_z: 5 };
export const PLAN_OPTIONS = { include_face_milling: true, sort_by_height: false };

/** the route templates, in the order the report lists them */
export const ROUTES = {
  listProjects: "GET /projects",
  getProject: "GET /projects/{project_id}",
  projectTasks: "GET /tasks/by-project/{project_id}",
  getTask: "GET /tasks/{task_id}",
  quote: "GET /projects/{project_id}/quote",
  quoteJob: "GET /projects/{project_id}/quote/job",
  libraries: "GET /libraries/equipment",
  library: "GET /libraries/equipment/{library_id}",
  machines: "GET /libraries/machines",
  materials: "GET /libraries/materials",
  catalogueSearch: "GET /equipment/external-catalogue/search",
  toolTypes: "GET /equipment/external-catalogue/tool-types",
  createProject: "POST /projects",
  replayProject: "POST /projects (Idempotency-Key repeated)",
  upload: "POST /projects/{project_id}/workpiece",
  stock: "POST /projects/{project_id}/stock/bounding-box",
  plan: "POST /projects/{project_id}/automation/cam-planning",
  healthz: "GET /healthz",
  probe: "GET /healthz (probe, no key)",
  createLibrary: "POST /libraries/equipment",
} as const;

type ActionName =
  | "listProjects"
  | "getProject"
  | "projectTasks"
  | "getTask"
  | "quote"
  | "quoteJob"
  | "libraries"
  | "library"
  | "machines"
  | "materials"
  | "catalogueSearch"
  | "toolTypes"
  | "createProject"
  | "upload"
  | "stock"
  | "plan";

/**
 * Relative weights of the actions a step draws from. Uploads are few: a STEP file keeps a
 * geometry thread busy for about half a second here (more while a planning takes the cores),
 * and at 20 keys' pace one in 90 requests (more while the plannings' projects are prepared)
 * is about half an upload a second, what two shared cores
 * absorb beside a planning without a queue that grows for the whole run.
 */
export const WEIGHTS: Readonly<Record<ActionName, number>> = {
  listProjects: 14,
  getProject: 20,
  projectTasks: 8,
  getTask: 6,
  quote: 6,
  quoteJob: 3,
  libraries: 3,
  library: 1,
  machines: 3,
  materials: 2,
  catalogueSearch: 6,
  toolTypes: 1,
  createProject: 5,
  upload: 1,
  stock: 1,
  plan: 1.5,
};

const CATALOGUE_QUERIES = [
  "q=end+mill+6",
  "q=twist+drill+8.5",
  "q=tap+M8",
  "q=spot+drill",
  "q=DIN+338+8.5",
  "tool_types=Drill&diameter_min=5&diameter_max=6",
  `manufacturer=${encodeURIComponent(STANDARD_MANUFACTURER)}&tool_types=CentreCuttingEndMill&limit=20`,
];

export interface PartUpload {
  /** the fixture's file name */
  name: string;
  body: Buffer;
  contentType: string;
}

interface ProjectState {
  id: string;
  workpiece: "none" | "busy" | "done";
  stock: "none" | "busy" | "done";
  plan: "none" | "busy" | "done";
}

/** A planning the mix started: the task's fate is read from the database at the end. */
export interface PlanningRequest {
  client: number;
  projectId: string;
  taskId: string;
  /** ms since the run's origin when the 202 arrived */
  acceptedAt: number;
  queued: boolean;
}

export interface ClientState {
  client: Client;
  rng(): number;
  libraryId: string;
  uploads: readonly PartUpload[];
  plansLeft: number;
  projects: ProjectState[];
  tasks: string[];
  plannings: PlanningRequest[];
  t0: number;
}

const json = (value: unknown) => JSON.stringify(value);
const JSON_HEADERS = { "Content-Type": "application/json" };

function pick<T>(rng: () => number, items: readonly T[]): T | undefined {
  return items.length > 0 ? items[Math.floor(rng() * items.length)] : undefined;
}

function draw(rng: () => number): ActionName {
  const entries = Object.entries(WEIGHTS) as [ActionName, number][];
  const total = entries.reduce((sum, [, w]) => sum + w, 0);
  let r = rng() * total;
  for (const [name, weight] of entries) {
    r -= weight;
    if (r < 0) return name;
  }
  return "getProject";
}

/**
 * The action to run for the one drawn. A planning with no project ready for it sets a
 * project's stock, or uploads a workpiece (creating a project for it if need be), so that
 * every client gets its plannings under way; once its plannings are spent it reads instead.
 * Setting stock with no project waiting for it is a read too: uploads stay at their weight.
 */
function resolve(state: ClientState, action: ActionName): ActionName {
  const has = (test: (p: ProjectState) => boolean) => state.projects.some(test);
  switch (action) {
    case "plan":
      if (state.plansLeft <= 0) return resolve(state, "getProject");
      if (has((p) => p.stock === "done" && p.plan === "none")) return "plan";
      if (has((p) => p.workpiece === "done" && p.stock === "none")) return "stock";
      // a workpiece on its way or a project waiting for its stock: wait for it
      if (has((p) => p.workpiece === "busy" || p.stock === "busy")) return resolve(state, "getProject");
      return resolve(state, "upload");
    case "stock":
      return has((p) => p.workpiece === "done" && p.stock === "none") ? "stock" : resolve(state, "getProject");
    case "upload":
      return has((p) => p.workpiece === "none") ? "upload" : "createProject";
    case "getTask":
      return state.tasks.length > 0 ? "getTask" : resolve(state, "getProject");
    case "getProject":
    case "projectTasks":
    case "quote":
    case "quoteJob":
      return state.projects.length > 0 ? action : "createProject";
    default:
      return action;
  }
}

function idOf(answer: Answer, field: "id" | "task_id"): string | null {
  try {
    const value = (JSON.parse(answer.text) as Record<string, unknown>)[field];
    return typeof value === "string" ? value : null;
  } catch {
    return null;
  }
}

const get = (route: string, path: string): Call => ({
  route,
  method: "GET",
  path,
  expect: [200],
  buckets: ["default"],
});

/** One step of a client in the mix: never rejects (a failure is a sample). */
export async function mixStep(state: ClientState, phase: Phase, until: number): Promise<void> {
  const action = resolve(state, draw(state.rng));
  try {
    await ACTIONS[action](state, phase, until);
  } catch (error) {
    state.client.flag(
      { route: ROUTES[action], method: "GET", path: "(the client)", expect: [], buckets: [] },
      phase,
      `the client failed: ${String(error)}`,
    );
  }
}

type Action = (state: ClientState, phase: Phase, until: number) => Promise<void>;

const anyProject = (state: ClientState) => pick(state.rng, state.projects)!;

const ACTIONS: Record<ActionName, Action> = {
  listProjects: async (s, phase, until) =>
    void (await s.client.send(get(ROUTES.listProjects, "/projects?limit=20"), phase, until)),
  getProject: async (s, phase, until) =>
    void (await s.client.send(get(ROUTES.getProject, `/projects/${anyProject(s).id}`), phase, until)),
  projectTasks: async (s, phase, until) =>
    void (await s.client.send(
      get(ROUTES.projectTasks, `/tasks/by-project/${anyProject(s).id}?limit=20`),
      phase,
      until,
    )),
  getTask: async (s, phase, until) => {
    // mostly the newest planning, as a client polls the one it waits for
    const taskId = s.rng() < 0.7 ? s.tasks.at(-1)! : pick(s.rng, s.tasks)!;
    await s.client.send(get(ROUTES.getTask, `/tasks/${taskId}`), phase, until);
  },
  quote: async (s, phase, until) =>
    void (await s.client.send(get(ROUTES.quote, `/projects/${anyProject(s).id}/quote`), phase, until)),
  quoteJob: async (s, phase, until) =>
    void (await s.client.send(get(ROUTES.quoteJob, `/projects/${anyProject(s).id}/quote/job`), phase, until)),
  libraries: async (s, phase, until) =>
    void (await s.client.send(get(ROUTES.libraries, "/libraries/equipment?limit=20"), phase, until)),
  library: async (s, phase, until) =>
    void (await s.client.send(get(ROUTES.library, `/libraries/equipment/${s.libraryId}`), phase, until)),
  machines: async (s, phase, until) =>
    void (await s.client.send(get(ROUTES.machines, "/libraries/machines"), phase, until)),
  materials: async (s, phase, until) =>
    void (await s.client.send(
      get(ROUTES.materials, s.rng() < 0.5 ? "/libraries/materials" : "/libraries/materials?category=aluminium"),
      phase,
      until,
    )),
  catalogueSearch: async (s, phase, until) =>
    void (await s.client.send(
      get(ROUTES.catalogueSearch, `/equipment/external-catalogue/search?${pick(s.rng, CATALOGUE_QUERIES)!}`),
      phase,
      until,
    )),
  toolTypes: async (s, phase, until) =>
    void (await s.client.send(get(ROUTES.toolTypes, "/equipment/external-catalogue/tool-types"), phase, until)),

  createProject: async (s, phase, until) => {
    const idempotencyKey = s.rng() < 0.3 ? `load-${s.client.index}-${randomUUID()}` : null;
    const n = s.projects.length + 1;
    const call: Call = {
      route: ROUTES.createProject,
      method: "POST",
      path: "/projects",
      headers: { ...JSON_HEADERS, ...(idempotencyKey ? { "Idempotency-Key": idempotencyKey } : {}) },
      body: json({
        name: `Load bracket ${s.client.index}-${n}`,
        customer: "ACME Load Testing",
        reference: `RFQ-${s.client.index}-${n}`,
        material_id: PLANNING_MATERIAL,
        library_id: s.libraryId,
      }),
      expect: [201],
      buckets: ["default"],
    };
    const answer = await s.client.send(call, phase, until);
    if (!answer) return;
    const id = idOf(answer, "id");
    if (!id) return s.client.flag(call, phase, `201 without an id: ${answer.text.slice(0, 200)}`);
    s.projects.push({ id, workpiece: "none", stock: "none", plan: "none" });
    if (!idempotencyKey || s.rng() >= 0.25) return;
    // the same request again, as a client that lost the answer sends it: the first answer, replayed
    const again: Call = { ...call, route: ROUTES.replayProject };
    const replay = await s.client.send(again, phase, until);
    if (!replay) return;
    if (replay.headers.get("idempotency-replayed") !== "true" || idOf(replay, "id") !== id) {
      s.client.flag(
        again,
        phase,
        `not a replay of project ${id}: Idempotency-Replayed ${String(replay.headers.get("idempotency-replayed"))}, ${replay.text.slice(0, 200)}`,
      );
    }
  },

  upload: async (s, phase, until) => {
    const project = pick(
      s.rng,
      s.projects.filter((p) => p.workpiece === "none"),
    )!;
    const part = pick(s.rng, s.uploads)!;
    project.workpiece = "busy";
    const answer = await s.client.send(
      {
        route: ROUTES.upload,
        method: "POST",
        path: `/projects/${project.id}/workpiece`,
        headers: {
          "Content-Type": part.contentType,
          ...(s.rng() < 0.3 ? { "Idempotency-Key": `load-${randomUUID()}` } : {}),
        },
        body: part.body,
        expect: [201],
        buckets: ["default"],
      },
      phase,
      until,
    );
    project.workpiece = answer ? "done" : "none";
  },

  stock: async (s, phase, until) => {
    const project = pick(
      s.rng,
      s.projects.filter((p) => p.workpiece === "done" && p.stock === "none"),
    )!;
    project.stock = "busy";
    const answer = await s.client.send(
      {
        route: ROUTES.stock,
        method: "POST",
        path: `/projects/${project.id}/stock/bounding-box`,
        headers: JSON_HEADERS,
        body: json(STOCK_OFFSETS),
        expect: [200],
        buckets: ["default"],
      },
      phase,
      until,
    );
    project.stock = answer ? "done" : "none";
  },

  plan: async (s, phase, until) => {
    const project = pick(
      s.rng,
      s.projects.filter((p) => p.stock === "done" && p.plan === "none"),
    )!;
    project.plan = "busy";
    s.plansLeft -= 1;
    const call: Call = {
      route: ROUTES.plan,
      method: "POST",
      path: `/projects/${project.id}/automation/cam-planning`,
      headers: { ...JSON_HEADERS, "Idempotency-Key": `load-plan-${randomUUID()}` },
      body: json(PLAN_OPTIONS),
      expect: [202],
      buckets: ["default", "cam_planning"],
    };
    const answer = await s.client.send(call, phase, until);
    if (!answer) {
      project.plan = "none";
      return;
    }
    project.plan = "done";
    const taskId = idOf(answer, "task_id");
    if (!taskId) return s.client.flag(call, phase, `202 without a task_id: ${answer.text.slice(0, 200)}`);
    s.tasks.push(taskId);
    const queued = answer.text.includes('"queued":true');
    s.plannings.push({
      client: s.client.index,
      projectId: project.id,
      taskId,
      acceptedAt: performance.now() - s.t0,
      queued,
    });
  },
};

/** The baseline's only request: no key, no rate limit, one `select 1` on the API's pool. */
export const HEALTHZ: Call = {
  route: ROUTES.healthz,
  method: "GET",
  path: "/healthz",
  root: true,
  expect: [200],
  buckets: [],
};
export const PROBE: Call = { ...HEALTHZ, route: ROUTES.probe };
