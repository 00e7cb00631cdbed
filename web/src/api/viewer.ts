/** The project viewer's routes: its scene (JSON) and a setup's toolpaths (binary, toolpath-buffer.ts). */
import { APP_API } from "./base.ts";
import { refusal, request } from "./client.ts";
import { decodeToolpaths, type SetupToolpaths } from "./toolpath-buffer.ts";
import type { ViewerScene } from "../../../contracts/viewer.ts";

export const readViewerScene = (projectId: string) =>
  request<ViewerScene>("GET", `${APP_API}/projects/${encodeURIComponent(projectId)}/viewer`);

export async function readSetupToolpaths(projectId: string, setupIndex: number): Promise<SetupToolpaths> {
  const url = `${APP_API}/projects/${encodeURIComponent(projectId)}/setups/${setupIndex}/toolpaths`;
  const response = await fetch(url, { credentials: "same-origin" });
  if (!response.ok) throw refusal(url, response.status, await response.text());
  return decodeToolpaths(await response.arrayBuffer());
}
