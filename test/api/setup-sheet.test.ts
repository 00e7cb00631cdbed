/**
 * GET /projects/{project_id}/setup-sheet: the current job's setup sheet as HTML or PDF. Jobs are
 * saved as the planning task saves them, with the plan of test/support/every-move-plan.ts held in
 * a vise, over partC.stl's mesh; kernel/setup-sheet/setup-sheet.test.ts reads a real plan's sheet.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { SCOPES } from "../../auth/scopes.ts";
import { formatDuration, jobTools, workOffsetFacts } from "../../kernel/job/setup-facts.ts";
import { startTestApi, type TestApi } from "../support/api.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import type { ErrorBody } from "../support/error-body.ts";
import { everyMovePlan } from "../support/every-move-plan.ts";
import { readPdf } from "../support/setup-sheet-text.ts";
import { planningProject, projectWithPlan } from "../support/planning.ts";
import { createTestUser, type TestUser } from "../support/users.ts";

let db: TestDatabase;
let api: TestApi;
let alice: TestUser;
let bob: TestUser;
let planned: string;
const plan = everyMovePlan(false, "vise");

before(async () => {
  db = await createTestDatabase();
  api = await startTestApi(db, { env: { RATE_LIMIT_PER_MINUTE: "100000" } });
  alice = await createTestUser(db.owner, "alice");
  bob = await createTestUser(db.owner, "bob");
  planned = await projectWithPlan(api, alice, plan, { name: "Bracket (rev B)" });
});
after(async () => {
  await api?.close();
  await db?.drop();
});

const sheet = (projectId: string, query = "", key = alice.key) =>
  api.request<ErrorBody>("GET", `/projects/${projectId}/setup-sheet${query}`, { key });

/** what every form of the sheet names: the T numbers, the work offset, its origin, the cycle time */
function namedFacts(): string[] {
  const setup = plan.setups[0]!;
  const offset = workOffsetFacts(setup, "fanuc");
  return [offset.code, offset.origin, formatDuration(setup.machining_time_s)];
}

describe("GET /projects/{project_id}/setup-sheet", () => {
  it("answers HTML by default, inline and named after the project, naming the tools, the work offset and the cycle time", async () => {
    const res = await sheet(planned);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.headers.get("content-type"), "text/html; charset=utf-8");
    assert.equal(res.headers.get("content-disposition"), `inline; filename="setup-sheet_${planned}.html"`);
    assert.match(res.headers.get("x-job-id") ?? "", /^[0-9a-f-]{36}$/);
    assert.match(res.text, /^<!DOCTYPE html>/);
    assert.match(res.text, /<h2>Setup 1 of 1: [^<]+<\/h2>/);
    assert.match(res.text, /<svg [^>]*viewBox/, "the picture, inline");
    for (const fact of namedFacts()) assert.ok(res.text.includes(fact.replace(/'/g, "&#39;")), fact);
    for (const tool of jobTools(plan)) assert.ok(res.text.includes(`<td class="num">${tool.number}</td>`));
    assert.ok(res.text.includes("Bracket (rev B)"));
  });

  it("answers a PDF a reader opens with format=pdf, A4 unless paper=letter, saying the same", async () => {
    const a4 = await sheet(planned, "?format=pdf");
    assert.equal(a4.status, 200);
    assert.equal(a4.headers.get("content-type"), "application/pdf");
    assert.equal(a4.headers.get("content-disposition"), `inline; filename="setup-sheet_${planned}.pdf"`);
    assert.equal(a4.bytes.subarray(0, 5).toString("latin1"), "%PDF-");
    const read = readPdf(a4.bytes);
    assert.match(read.info, /Page size:\s+595\.\d+ x 841\.\d+ pts \(A4\)/);
    for (const fact of namedFacts()) assert.ok(read.text.includes(fact), fact);
    for (const tool of jobTools(plan)) assert.ok(read.text.includes(`${tool.number} ${tool.type_words}`));
    const letter = await sheet(planned, "?format=pdf&paper=letter");
    assert.match(readPdf(letter.bytes).info, /Page size:\s+612 x 792 pts \(letter\)/);
  });

  it("answers 400 invalid_parameter for an unknown format or paper, a repeated one, or a parameter it does not know", async () => {
    for (const query of [
      "?format=docx",
      "?format=",
      "?paper=a3",
      "?format=html&format=pdf",
      "?verbose=1",
      "?setup_index=0",
    ]) {
      const res = await sheet(planned, query);
      assert.equal(res.status, 400, query);
      assert.equal(res.body.detail.code, "invalid_parameter", query);
    }
  });

  it("answers 409 no_toolpaths before planning, as post/run does, and 404 job_missing before any job", async () => {
    const unplanned = await sheet(await planningProject(api, alice));
    assert.equal(unplanned.status, 409);
    assert.equal(unplanned.body.detail.code, "no_toolpaths");
    const bare = await sheet(await planningProject(api, alice, { workpiece: false, stock: false }));
    assert.equal(bare.status, 404);
    assert.equal(bare.body.detail.code, "job_missing");
  });

  it("answers 404 for another user's project, as for one that does not exist", async () => {
    const others = await sheet(planned, "", bob.key);
    assert.equal(others.status, 404);
    assert.equal(others.body.detail.code, "not_found");
    const none = await sheet("00000000-0000-4000-8000-000000000000");
    assert.equal(none.status, 404);
    assert.equal(none.body.detail.code, "not_found");
  });

  it("answers 401 without a key and 403 insufficient_scope without projects:read", async () => {
    const anonymous = await api.request<ErrorBody>("GET", `/projects/${planned}/setup-sheet`);
    assert.equal(anonymous.status, 401);
    const key = await alice.keyWith(SCOPES.filter((scope) => scope !== "projects:read"));
    const res = await sheet(planned, "", key);
    assert.equal(res.status, 403);
    assert.equal(res.body.detail.code, "insufficient_scope");
  });
});
