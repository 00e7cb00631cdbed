/**
 * Design feedback on GET /projects/{id}/quote: the items the current job's plan found (kernel/dfm),
 * each with its sentence and each cost line with its name in ?language (English unless German
 * is asked for), an empty list without a plan or from a plan made before design feedback, and the refusals
 * (another user's project, a key without quote:read, a malformed id). The plans here are saved
 * as planning saves them, with items the kernel found on a part built with OCCT; the planning
 * itself, through the API, is in quote-completeness.test.ts.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { SCOPES } from "../../auth/scopes.ts";
import { designFeedback } from "../../kernel/dfm/design-feedback.ts";
import type { DesignFeedbackItem } from "../../kernel/dfm/types.ts";
import { designFeedbackText } from "../../kernel/quote/design-feedback-text.ts";
import { lineLabel } from "../../kernel/quote/export.ts";
import { recogniseFile } from "../../kernel/features/setups/recognise-file.ts";
import { cut, makeBox } from "../../kernel/features/test-support.ts";
import { writeBrep } from "../../kernel/geometry/brep.ts";
import { withOcctScope } from "../../kernel/geometry/occt-scope.ts";
import { loadOpenCascade } from "../../kernel/geometry/opencascade.ts";
import { startTestApi, type TestApi } from "../support/api.ts";
import { boxStock, createQuoteProject, savePlannedJob as saveJob } from "../support/quote-projects.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { createTestUser, type TestUser } from "../support/users.ts";

let db: TestDatabase;
let api: TestApi;
let alice: TestUser;
let bob: TestUser;
let items: DesignFeedbackItem[];

before(async () => {
  db = await createTestDatabase();
  api = await startTestApi(db);
  alice = await createTestUser(db.owner, "alice");
  bob = await createTestUser(db.owner, "bob");
  // a 40 x 40 x 30 block with a pocket 3 wide and 20 deep, 0.5 mm from its side
  const oc = await loadOpenCascade();
  const bytes = withOcctScope((scope) =>
    writeBrep(oc, cut(oc, scope, makeBox(oc, scope, [40, 40, 30]), makeBox(oc, scope, [3, 20, 21], [0.5, 10, 10]))),
  );
  const file = recogniseFile(oc, bytes, { budgetMs: 60_000 });
  items = designFeedback({
    analysis: file.analysis,
    recognition: file.recognition,
    setups: file.setups,
    mesh: file.mesh!,
    material: "aluminium",
    tools: [{ kind: "end_mill", diameter_mm: 1, reach_mm: 30, pitch_mm: null }],
  });
});
after(async () => {
  await api?.close();
  await db?.drop();
});

const createProject = (user: TestUser) => createQuoteProject(api, user, { product_id: "vmc-850-fanuc" });

/** a saved CAM job of one setup whose plan summary has `feedback` (absent: a plan made before design feedback) */
async function savePlannedJob(user: TestUser, projectId: string, feedback?: DesignFeedbackItem[]): Promise<void> {
  const summary = {
    machining_time_s: 600,
    warnings: [],
    unmachined: [],
    setups: [
      {
        id: randomUUID(),
        name: "Setup 1",
        index: 0,
        direction: [0, 0, 1],
        wcs: { origin: [0, 0, 0], x_axis: [1, 0, 0], z_axis: [0, 0, 1] },
        work_offset: "G54",
        machining_time_s: 600,
        operations: [],
        tools: [],
        verification: {},
      },
    ],
    ...(feedback === undefined ? {} : { design_feedback: feedback }),
  };
  await saveJob(db.owner, user, projectId, {
    bboxMax: [40, 40, 30],
    volumeMm3: 46740,
    stock: boxStock([40, 40, 30]),
    summary,
  });
}

type Line = { kind: "machining"; label: string; ref: string | null; title: string };
const quote = (user: TestUser, projectId: string, query = "") =>
  api.request<{
    design_feedback: (DesignFeedbackItem & { message: string })[];
    lines: Line[];
    detail?: { code: string; fields?: { field: string }[] };
  }>("GET", `/projects/${projectId}/quote${query}`, { key: user.key });

/** the items as the API words them in `language` */
const worded = (found: DesignFeedbackItem[], language: "en" | "de") =>
  found.map((item) => ({ ...item, message: designFeedbackText(item, language) }));

describe("design feedback on the quote", () => {
  it("carries the current plan's items as design_feedback, as the kernel found them", async () => {
    assert.deepEqual(items.map((i) => i.kind).sort(), ["corner_radius_below_tool", "deep_pocket", "thin_wall"]);
    const projectId = await createProject(alice);
    await savePlannedJob(alice, projectId, items);
    const res = await quote(alice, projectId);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.design_feedback, worded(items, "en"));
  });

  it("words each item and names each cost line in ?language, English unless German is asked for", async () => {
    const projectId = await createProject(alice);
    await savePlannedJob(alice, projectId, items);
    const de = await quote(alice, projectId, "?language=de");
    assert.equal(de.status, 200, de.text);
    assert.deepEqual(de.body.design_feedback, worded(items, "de"));
    assert.match(de.body.design_feedback.find((i) => i.kind === "thin_wall")!.message, /^Eine Wand ist /);
    for (const line of de.body.lines) assert.equal(line.title, lineLabel("de", line));
    const machining = de.body.lines.find((l) => l.kind === "machining")!;
    assert.equal(machining.title, `Bearbeitung: ${machining.label}`);
    const en = await quote(alice, projectId, "?language=en");
    assert.equal(en.body.lines.find((l) => l.kind === "machining")!.title, `Machining: ${machining.label}`);
    assert.deepEqual(en.body.design_feedback, worded(items, "en"));
  });

  it("refuses a language not offered and an unknown parameter with 400 naming it", async () => {
    const projectId = await createProject(alice);
    for (const [query, field] of [
      ["?language=fr", "language"],
      ["?lang=de", "lang"],
    ] as const) {
      const res = await quote(alice, projectId, query);
      assert.equal(res.status, 400, res.text);
      assert.ok(res.text.includes(field), res.text);
    }
  });

  it("is empty without a plan, and from a plan made before design feedback", async () => {
    const projectId = await createProject(alice);
    const none = await quote(alice, projectId);
    assert.equal(none.status, 200, none.text);
    assert.deepEqual(none.body.design_feedback, []);
    await savePlannedJob(alice, projectId);
    const older = await quote(alice, projectId);
    assert.equal(older.status, 200, older.text);
    assert.deepEqual(older.body.design_feedback, []);
  });

  it("follows the current job: a re-plan's items replace the earlier plan's", async () => {
    const projectId = await createProject(alice);
    await savePlannedJob(alice, projectId, items);
    await savePlannedJob(alice, projectId, items.slice(0, 1));
    assert.deepEqual((await quote(alice, projectId)).body.design_feedback, worded(items.slice(0, 1), "en"));
  });

  it("answers another user's project with 404, a key without quote:read with 403, a malformed id with 400", async () => {
    const projectId = await createProject(alice);
    await savePlannedJob(alice, projectId, items);
    const other = await quote(bob, projectId, "?language=de");
    assert.equal(other.status, 404);
    assert.equal(other.body.detail?.code, "not_found");
    const noRead = await alice.keyWith(SCOPES.filter((s) => s !== "quote:read"));
    assert.equal((await api.request("GET", `/projects/${projectId}/quote`, { key: noRead })).status, 403);
    assert.equal((await api.request("GET", "/projects/not-a-uuid/quote", { key: alice.key })).status, 400);
  });
});
