/**
 * A planning service for tests that plan real parts end to end: a test database, the API on the
 * service's geometry thread (OCCT loaded), a worker running plan_cam, and a user; with the steps
 * such a test takes through the API (a project from a fixture part, planning it, its programs
 * judged).
 */
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { repoRoot } from "../../config/env.ts";
import { createGeometryPool, type GeometryPool } from "../../geometry-pool/pool.ts";
import { decodeFamc } from "../../kernel/job/famc.ts";
import { POSTPROCESSORS } from "../../kernel/post/index.ts";
import type { Assembly } from "../../kernel/tools/assembly.ts";
import { startWorkerRunner, type WorkerRunner } from "../../workers/runner.ts";
import { startTestApi, type TestApi } from "./api.ts";
import { createTestDatabase, type TestDatabase } from "./database.ts";
import { fileUpload } from "./multipart.ts";
import { catalogueAssembly, PLAN_OPTIONS, planningProject, type PlanningStarted } from "./planning.ts";
import { assertRunsAsPlanned, judgedByRs274, programBlocks, programText } from "./program-checks.ts";
import { rs274Missing } from "./rs274.ts";
import { type TaskRecord, waitForTask } from "./task-records.ts";
import { createTestUser, type TestUser } from "./users.ts";

// STC-06 plans in about 3 minutes alone, and the suite runs files two at a time
export const WAIT = { timeoutMs: 900_000, intervalMs: 200 };
export const TERMINAL = new Set(["success", "failed", "cancelled"]);

export interface FixturePart {
  name: string;
  bytes: Buffer;
}

export const fixturePart = (name: string): FixturePart => ({
  name,
  bytes: fs.readFileSync(path.resolve(repoRoot, "../shared/fixtures/parts", name)),
});

/** a shop's everyday tools from the standard range */
export const everydayTools = () => [
  catalogueAssembly("FaceMill", 50),
  catalogueAssembly("CentreCuttingEndMill", 10),
  catalogueAssembly("CentreCuttingEndMill", 6),
  catalogueAssembly("CentreCuttingEndMill", 3),
  catalogueAssembly("SpotDrill", 8),
  catalogueAssembly("Drill", 6.8),
  catalogueAssembly("Drill", 5),
  catalogueAssembly("ChamferMill", 10),
];

export class PlanningService {
  private constructor(
    readonly db: TestDatabase,
    readonly api: TestApi,
    private readonly geometry: GeometryPool,
    private readonly runner: WorkerRunner,
    readonly user: TestUser,
  ) {}

  static async start(): Promise<PlanningService> {
    const db = await createTestDatabase();
    const geometry = createGeometryPool({ size: 1 });
    await geometry.ready();
    const api = await startTestApi(db, { geometry, env: { RATE_LIMIT_PER_MINUTE: "100000" } });
    const runner = await startWorkerRunner({
      ownerUrl: db.ownerUrl,
      taskNames: ["plan_cam"],
      services: { geometry },
      concurrency: 1,
      heartbeatSeconds: 1,
      leaseStaleSeconds: 30,
      pollIntervalMs: 100,
    });
    return new PlanningService(db, api, geometry, runner, await createTestUser(db.owner, "alice"));
  }

  async stop(): Promise<void> {
    await this.runner.stop();
    await this.api.close();
    await this.geometry.close();
    await this.db.drop();
  }

  /** a project whose workpiece is a fixture part (partC.step unless told), uploaded (and so read by OCCT) */
  async stepProject(library: (string | Assembly)[] = ["End mill"], part = fixturePart("partC.step")): Promise<string> {
    const { api, user } = this;
    const projectId = await planningProject(api, user, { library, workpiece: false });
    const upload = await api.request("POST", `/projects/${projectId}/workpiece`, {
      key: user.key,
      raw: fileUpload(part.bytes, part.name),
    });
    assert.equal(upload.status, 201, upload.text);
    const stock = await api.request("POST", `/projects/${projectId}/stock/bounding-box`, {
      key: user.key,
      body: { minus_x: 2, plus_x: 2, minus_y: 2, plus_y: 2, minus_z: 8, plus_z: 5 },
    });
    assert.equal(stock.status, 200, stock.text);
    return projectId;
  }

  /** plans the project through the API and waits for the task to end */
  async plan(projectId: string): Promise<TaskRecord> {
    const res = await this.api.request<PlanningStarted>("POST", `/projects/${projectId}/automation/cam-planning`, {
      key: this.user.key,
      body: PLAN_OPTIONS,
    });
    assert.equal(res.status, 202, res.text);
    return waitForTask(this.db.owner, res.body.task_id, "finished", (task) => TERMINAL.has(task.status), WAIT);
  }

  /** a new project whose job is `projectId`'s current one, downloaded and imported (.famc): planned, with no planning task */
  async importedProject(projectId: string): Promise<string> {
    const { api, user } = this;
    const famc = await api.request("GET", `/projects/${projectId}/job`, { key: user.key });
    assert.equal(famc.status, 200, famc.text);
    const created = await api.request<{ id: string }>("POST", "/projects", {
      key: user.key,
      body: { name: "Imported", customer: "" },
    });
    assert.equal(created.status, 201, created.text);
    const imported = await api.request("POST", `/projects/${created.body.id}/job`, {
      key: user.key,
      raw: fileUpload(famc.bytes),
    });
    assert.equal(imported.status, 201, imported.text);
    return created.body.id;
  }

  /**
   * Every setup of the project's current plan as the route writes it for the project's (Fanuc)
   * machine, and in every postprocessor of the kernel, judged (program-checks.ts): each reads to
   * its end, and its feeds match the plan's. rs274's judgements skip without it.
   */
  async assertProgramsRun(projectId: string): Promise<void> {
    const { api, user } = this;
    const file = await decodeFamc(
      (await api.request("GET", `/projects/${projectId}/job`, { key: user.key })).bytes,
      user.id,
      async () => true,
    );
    const plan = file.plan?.document;
    assert.ok(plan, "the job keeps its plan");
    const project = await api.request<{ name: string }>("GET", `/projects/${projectId}`, { key: user.key });
    // every program downloaded before any is judged: judging blocks this process, the server's too,
    // and a keep-alive connection it let lapse meanwhile was reset under the next request
    const downloaded: string[] = [];
    for (let s = 0; s < plan.setups.length; s += 1) {
      const res = await api.request("POST", `/projects/${projectId}/post/run?setup_index=${s}`, { key: user.key });
      assert.equal(res.status, 200, res.text);
      downloaded.push(res.text);
    }
    downloaded.forEach((text, s) => {
      assert.deepEqual(
        programBlocks(text),
        programBlocks(programText(plan, s, "fanuc", project.body.name)),
        "the route writes the kernel's Fanuc program",
      );
      assert.match(
        text,
        /^\(PART X [\d.]+, Y [\d.]+, Z [\d.]+, STOCK BEYOND IT:\)$/m,
        "the header places the part in the stock",
      );
      for (const postprocessor of POSTPROCESSORS)
        if (!(judgedByRs274(postprocessor) && rs274Missing())) assertRunsAsPlanned(plan, s, postprocessor);
    });
  }
}
