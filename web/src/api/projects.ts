/**
 * The public API's project routes the Projects, Project and Quote pages call, with the
 * session: projects, the pickers' libraries, stock, planning and its tasks, the quote job.
 * Shapes as api/routes/*.ts answer them (only the fields the pages read).
 */
import { PUBLIC_API } from "./base.ts";
import { request } from "./client.ts";

export interface Page<T> {
  items: T[];
  next_cursor: string | null;
}

export interface Project {
  id: string;
  name: string;
  customer: string;
  product_id: string;
  material_id: string | null;
  library_id: string | null;
  current_job_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface Warning {
  code: string;
  message: string;
}

export interface Machine {
  product_id: string;
  name: string;
  travel_mm: number[];
}

export interface Material {
  id: string;
  name: string;
  category: string;
}

export interface EquipmentLibrary {
  id: string;
  library: { name: string; assembly_count: number };
  is_default: boolean;
}

export interface Offsets {
  minus_x: number;
  plus_x: number;
  minus_y: number;
  plus_y: number;
  minus_z: number;
  plus_z: number;
}

export interface SetupTool {
  number: number;
  name: string;
  tool_type: string;
  diameter_mm: number;
  holder: string | null;
}

export interface PlannedSetup {
  id: string;
  name: string;
  index: number;
  machining_time_s: number;
  operations: { id: string; name: string; kind: string; tool_number: number; machining_time_s: number }[];
  tools: SetupTool[];
}

export interface Completeness {
  status: "complete" | "incomplete";
  reasons: Warning[];
}

export interface PlanResult {
  machining_time_s: number;
  warnings: Warning[];
  setups: PlannedSetup[];
  completeness: Completeness | null;
  job_id: string;
}

export type TaskStatus = "queued" | "running" | "success" | "failed" | "cancelled";

export interface Task {
  task_id: string;
  task_name: string;
  status: TaskStatus;
  progress: number;
  result: PlanResult | Record<string, unknown> | null;
  error: { code: string; message: string } | null;
  created_at: string;
  finished_at: string | null;
}

export const TERMINAL: ReadonlySet<TaskStatus> = new Set(["success", "failed", "cancelled"]);

/** the planning task's result, when the task is a finished planning */
export function planResult(task: Task): PlanResult | null {
  const result = task.result;
  if (!result || !Array.isArray((result as Partial<PlanResult>).setups)) return null;
  return result as PlanResult;
}

const id = encodeURIComponent;
export const projectUrl = (projectId: string) => `${PUBLIC_API}/projects/${id(projectId)}`;

export const getProject = (projectId: string) => request<Project>("GET", projectUrl(projectId));
export const createProject = (body: {
  name: string;
  customer: string;
  product_id?: string;
  material_id?: string | null;
  library_id?: string | null;
}) => request<Project & { warnings: Warning[] }>("POST", `${PUBLIC_API}/projects`, body);
export const deleteProject = (projectId: string) => request<void>("DELETE", projectUrl(projectId));

export const listMachines = () => request<{ items: Machine[] }>("GET", `${PUBLIC_API}/libraries/machines`);
export const listMaterials = () => request<{ items: Material[] }>("GET", `${PUBLIC_API}/libraries/materials`);
export const listLibraries = () =>
  request<Page<EquipmentLibrary>>("GET", `${PUBLIC_API}/libraries/equipment?limit=100`);

export const setStock = (projectId: string, offsets: Offsets) =>
  request<{ warnings: Warning[] }>("POST", `${projectUrl(projectId)}/stock/bounding-box`, offsets);
export const startPlanning = (projectId: string) =>
  request<{ task_id: string; queued?: boolean; queue_position?: number }>(
    "POST",
    `${projectUrl(projectId)}/automation/cam-planning`,
    { include_face_milling: true, sort_by_height: false },
  );
export const getTask = (taskId: string) => request<Task>("GET", `${PUBLIC_API}/tasks/${id(taskId)}`);
export const listProjectTasks = (projectId: string) =>
  request<Page<Task>>("GET", `${PUBLIC_API}/tasks/by-project/${id(projectId)}?limit=50`);
