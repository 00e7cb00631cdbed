/**
 * Projects ready for CAM planning, made through the API the way a client makes them: a
 * project with a material, partC.stl as its workpiece (stored as the upload route stores it),
 * stock around it, and an equipment library of its own whose assemblies are the standard
 * range's first entry under names of the test's choosing (the planning tests' stand-in
 * planner, test/support/plan-test-thread.ts, reads its script from them).
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { newJobFrom } from "../../db/queries/jobs.ts";
import { saveWorkpiece } from "../../db/queries/workpieces.ts";
import { encodeCamPlan, PLAN_CONTENT_TYPE, summarisePlan, type CamPlan } from "../../kernel/job/plan.ts";
import type { Assembly } from "../../kernel/tools/assembly.ts";
import { generateStandardRange } from "../../kernel/tools/catalogue/standard-range.ts";
import { postgresBlobStore } from "../../storage/postgres.ts";
import type { TestApi } from "./api.ts";
import { asUser } from "./as-user.ts";
import { partC } from "./fixture-workpiece.ts";
import type { TestUser } from "./users.ts";

export const PLANNING_MATERIAL = "aluminium-6061";
export const STOCK_OFFSETS = { minus_x: 2, plus_x: 2, minus_y: 2, plus_y: 2, minus_z: 8, plus_z: 5 };

const STANDARD_RANGE = generateStandardRange();
const STANDARD_ASSEMBLY = STANDARD_RANGE[0]!.assembly;

/** an assembly of the standard range under another name and a fresh uuid */
export function namedAssembly(name: string): Assembly {
  return { ...STANDARD_ASSEMBLY, uuid: randomUUID(), name };
}

/** the standard range's assembly of this tool type closest to the diameter, under a fresh uuid */
export function catalogueAssembly(toolType: string, diameterMm: number): Assembly {
  const entries = STANDARD_RANGE.filter((e) => e.tool_type === toolType);
  if (entries.length === 0) throw new Error(`the standard range has no ${toolType}`);
  const best = entries.reduce((a, b) =>
    Math.abs(b.diameter_mm - diameterMm) < Math.abs(a.diameter_mm - diameterMm) ? b : a,
  );
  return { ...best.assembly, uuid: randomUUID() };
}

export interface PlanningProjectOptions {
  /**
   * the project's own library: assembly names (the standard range's first entry under each
   * name), or assemblies; [] an empty library; null none. Default ["End mill"]
   */
  library?: readonly (string | Assembly)[] | null;
  material?: string | null;
  workpiece?: boolean;
  stock?: boolean | typeof STOCK_OFFSETS;
  name?: string;
}

export async function planningProject(
  api: TestApi,
  user: TestUser,
  options: PlanningProjectOptions = {},
): Promise<string> {
  const library = options.library === undefined ? ["End mill"] : options.library;
  let libraryId: string | null = null;
  if (library) {
    const created = await api.request<{ id: string }>("POST", "/libraries/equipment", {
      key: user.key,
      body: {
        library: {
          name: `Planning ${randomUUID().slice(0, 8)}`,
          assemblies: library.map((entry) => (typeof entry === "string" ? namedAssembly(entry) : entry)),
        },
      },
    });
    assert.equal(created.status, 201, created.text);
    libraryId = created.body.id;
  }
  const project = await api.request<{ id: string }>("POST", "/projects", {
    key: user.key,
    body: {
      name: options.name ?? "Planned part",
      customer: "ACME",
      material_id: options.material === undefined ? PLANNING_MATERIAL : options.material,
      library_id: libraryId,
    },
  });
  assert.equal(project.status, 201, project.text);
  const projectId = project.body.id;
  if (options.workpiece === false) return projectId;
  const part = await partC();
  await asUser(api.pool, user, (db) => saveWorkpiece(db, projectId, part.ingested, part.original, part.glb, part.png));
  if (options.stock === false) return projectId;
  const offsets = typeof options.stock === "object" ? options.stock : STOCK_OFFSETS;
  const stock = await api.request("POST", `/projects/${projectId}/stock/bounding-box`, {
    key: user.key,
    body: offsets,
  });
  assert.equal(stock.status, 200, stock.text);
  return projectId;
}

export const PLAN_OPTIONS = { include_face_milling: true, sort_by_height: false };

/** A planning project (planningProject) whose current job holds `plan`, saved as the planning task saves one. */
export async function projectWithPlan(
  api: TestApi,
  user: TestUser,
  plan: CamPlan,
  options: PlanningProjectOptions = {},
): Promise<string> {
  const projectId = await planningProject(api, user, options);
  await asUser(api.pool, user, async (client) => {
    const blob = await postgresBlobStore.put(client, encodeCamPlan(plan), PLAN_CONTENT_TYPE);
    await newJobFrom(client, projectId, () => ({
      source: "plan",
      plan: { blobId: blob.id, summary: summarisePlan(plan) },
    }));
  });
  return projectId;
}

export interface PlanningStarted {
  task_id: string;
  queued?: true;
  queue_position?: number;
  options: typeof PLAN_OPTIONS;
}
