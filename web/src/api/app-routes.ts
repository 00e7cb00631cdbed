/** The app's own routes (the session, API keys, the projects list), beside the public API. */
import { APP_API } from "./base.ts";
import { request } from "./client.ts";
import type { Offsets, Page, TaskStatus } from "./projects.ts";

export interface SessionUser {
  id: string;
  email: string;
}

export interface Session {
  user: SessionUser;
  csrf_token: string;
}

export interface ApiKey {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  created_at: string;
  last_used_at: string | null;
}

export interface CreatedApiKey extends ApiKey {
  key: string;
}

export const readSession = () => request<Session>("GET", `${APP_API}/session`);
export const signIn = (email: string, password: string) =>
  request<Session>("POST", `${APP_API}/session`, { email, password });
export const signInWithLink = (token: string) => request<Session>("POST", `${APP_API}/session/link`, { token });
export const signOut = () => request<void>("DELETE", `${APP_API}/session`);

export const listKeys = () => request<{ items: ApiKey[] }>("GET", `${APP_API}/keys`);
export const createKey = (name: string, scopes: string[]) =>
  request<CreatedApiKey>("POST", `${APP_API}/keys`, { name, scopes });
export const revokeKey = (id: string) => request<void>("DELETE", `${APP_API}/keys/${encodeURIComponent(id)}`);
export const listScopes = () => request<{ scopes: string[] }>("GET", `${APP_API}/scopes`);

/** a row of the Projects page: the project with its latest task and its part's thumbnail */
export interface ListedProject {
  id: string;
  name: string;
  customer: string;
  current_job_id: string | null;
  created_at: string;
  updated_at: string;
  latest_task: { task_id: string; task_name: string; status: TaskStatus; progress: number } | null;
  /** the uploaded file's name */
  part_name: string | null;
  /** presigned, on this origin; null without a part */
  thumbnail_url: string | null;
}

export const listProjectsWithStatus = (cursor: string | null) =>
  request<Page<ListedProject>>(
    "GET",
    `${APP_API}/projects?limit=20${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
  );

/** a project's part and its stock offsets, for planning it again */
export interface ProjectPart {
  part: {
    file_name: string | null;
    bbox: { min: number[]; max: number[]; size: number[] };
    face_count: number;
  } | null;
  stock_offsets: Offsets | null;
  /** the current job has a plan (planned here, or imported from a .famc file) */
  planned: boolean;
}

export const readProjectPart = (projectId: string) =>
  request<ProjectPart>("GET", `${APP_API}/projects/${encodeURIComponent(projectId)}/part`);
