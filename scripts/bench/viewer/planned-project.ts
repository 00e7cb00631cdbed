/**
 * A fixture part planned through the public API as a person's browser would have it: a
 * project (aluminium, the user's starter library), the STEP uploaded, stock around it, the
 * automated CAM planning started and followed to its end. All with the session cookie.
 */
import fs from "node:fs";
import path from "node:path";

export interface AppSession {
  origin: string;
  cookie: string;
  csrf: string;
}

const PUBLIC = "/backend-api/api/public/v1";
const TERMINAL = new Set(["success", "failed", "cancelled"]);

async function call<T>(session: AppSession, method: string, route: string, body?: unknown | FormData): Promise<T> {
  const form = body instanceof FormData;
  const response = await fetch(`${session.origin}${PUBLIC}${route}`, {
    method,
    headers: {
      Cookie: `swarf_session=${session.cookie}`,
      "X-CSRF-Token": session.csrf,
      ...(body !== undefined && !form ? { "Content-Type": "application/json" } : {}),
    },
    ...(body !== undefined ? { body: form ? body : JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${route} answered ${response.status}: ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

export async function plannedProject(session: AppSession, file: string, say: (line: string) => void): Promise<string> {
  const name = path.basename(file);
  const project = await call<{ id: string }>(session, "POST", "/projects", {
    name,
    customer: "bench",
    material_id: "aluminium-6061",
  });
  const form = new FormData();
  form.append("file", new Blob([fs.readFileSync(file)]), name);
  await call(session, "POST", `/projects/${project.id}/workpiece`, form);
  await call(session, "POST", `/projects/${project.id}/stock/bounding-box`, {
    minus_x: 2,
    plus_x: 2,
    minus_y: 2,
    plus_y: 2,
    minus_z: 8,
    plus_z: 2,
  });
  const started = performance.now();
  const planning = await call<{ task_id: string }>(session, "POST", `/projects/${project.id}/automation/cam-planning`, {
    include_face_milling: true,
    sort_by_height: false,
  });
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const task = await call<{ status: string; error?: unknown }>(session, "GET", `/tasks/${planning.task_id}`);
    if (!TERMINAL.has(task.status)) continue;
    if (task.status !== "success") throw new Error(`planning ${name} ended ${task.status}: ${JSON.stringify(task)}`);
    break;
  }
  say(`${name}: planned in ${((performance.now() - started) / 1000).toFixed(0)} s (outside the timing)`);
  return project.id;
}
