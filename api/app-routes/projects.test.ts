/**
 * GET /backend-api/api/app/projects against the real database: pages as the public GET
 * /projects pages them, each project with its latest task and its part's presigned thumbnail,
 * one statement for the tasks of the whole page; only the session's user's projects; no
 * session 401; a bad cursor or limit 400 in the envelope.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import fc from "fast-check";
import pg from "pg";
import { saveWorkpiece } from "../../db/queries/workpieces.ts";
import { APP_ROUTES_PATH } from "../../http/base-path.ts";
import { startTestApi, type TestApi } from "../../test/support/api.ts";
import { asUser } from "../../test/support/as-user.ts";
import { createTestDatabase, type TestDatabase } from "../../test/support/database.ts";
import { partC } from "../../test/support/fixture-workpiece.ts";
import { givePassword, signIn, type TestSession } from "../../test/support/sessions.ts";
import { insertTaskRecord } from "../../test/support/task-records.ts";
import { createTestUser, type TestUser } from "../../test/support/users.ts";

interface ErrorBody {
  detail: { code: string; message: string; details: { fields?: { field: string }[] }; request_id: string };
}
interface ListedProject {
  id: string;
  name: string;
  customer: string;
  current_job_id: string | null;
  created_at: string;
  updated_at: string;
  latest_task: { task_id: string; task_name: string; status: string; progress: number } | null;
  part_name: string | null;
  thumbnail_url: string | null;
}
interface ProjectsPage {
  items: ListedProject[];
  next_cursor: string | null;
}

const PROJECTS = `${APP_ROUTES_PATH}/projects`;

let db: TestDatabase;
let api: TestApi;
let alice: TestUser;
let bob: TestUser;
let aliceSession: TestSession;
let bobSession: TestSession;
/** alice's projects, oldest first */
const made: string[] = [];

function assertError(res: { status: number; body: unknown; text: string }, status: number, code: string): ErrorBody {
  assert.equal(res.status, status, res.text);
  const body = res.body as ErrorBody;
  assert.equal(body.detail.code, code);
  return body;
}

async function createProject(user: TestUser, name: string): Promise<string> {
  const res = await api.request<{ id: string }>("POST", "/projects", { key: user.key, body: { name, customer: "C" } });
  assert.equal(res.status, 201, res.text);
  return res.body.id;
}

/** every page from the first, following next_cursor */
async function allPages(session: TestSession, limit: number): Promise<ProjectsPage[]> {
  const pages: ProjectsPage[] = [];
  let cursor: string | null = null;
  do {
    const query: string = `?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
    const res = await session.request<ProjectsPage>("GET", `${PROJECTS}${query}`);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.headers.get("cache-control"), "no-store");
    pages.push(res.body);
    cursor = res.body.next_cursor;
  } while (cursor && pages.length < 100);
  return pages;
}

before(async () => {
  db = await createTestDatabase();
  api = await startTestApi(db, { env: { RATE_LIMIT_PER_MINUTE: "100000" } });
  alice = await createTestUser(db.owner, "alice");
  bob = await createTestUser(db.owner, "bob");
  await givePassword(db.owner, alice.id);
  await givePassword(db.owner, bob.id);
  aliceSession = await signIn(api, alice.email);
  bobSession = await signIn(api, bob.email);
  for (let i = 1; i <= 5; i++) made.push(await createProject(alice, `Bracket ${i}`));
});
after(async () => {
  await api?.close();
  await db?.drop();
});

describe("the projects list", () => {
  it("pages the user's projects newest first, each once, as the public API pages them", async () => {
    const pages = await allPages(aliceSession, 2);
    assert.deepEqual(
      pages.map((p) => p.items.length),
      [2, 2, 1],
    );
    assert.equal(pages.at(-1)?.next_cursor, null);
    const ids = pages.flatMap((p) => p.items.map((item) => item.id));
    assert.deepEqual(ids, [...made].reverse(), "newest first, none repeated or skipped");

    const publicPage = await api.request<{ items: { id: string; name: string }[] }>("GET", "/projects?limit=2", {
      key: alice.key,
    });
    assert.deepEqual(
      publicPage.body.items.map((p) => p.id),
      pages[0]?.items.map((p) => p.id),
    );
    // the public API's cursor is this route's cursor too
    const second = await aliceSession.request<ProjectsPage>(
      "GET",
      `${PROJECTS}?limit=2&cursor=${pages[0]?.next_cursor}`,
    );
    assert.deepEqual(second.body, pages[1]);

    const first = pages[0]?.items[0];
    assert.ok(first);
    assert.deepEqual(Object.keys(first).sort(), [
      "created_at",
      "current_job_id",
      "customer",
      "id",
      "latest_task",
      "name",
      "part_name",
      "thumbnail_url",
      "updated_at",
    ]);
    assert.equal(first.name, "Bracket 5");
    assert.equal(first.latest_task, null, "no task yet");
    assert.equal(first.thumbnail_url, null, "no part yet");
    assert.equal(first.part_name, null);

    const whole = await aliceSession.request<ProjectsPage>("GET", PROJECTS);
    assert.equal(whole.body.items.length, 5, "20 a page by default");
    assert.equal(whole.body.next_cursor, null);
  });

  it("gives each project its latest task, reading the tasks of the whole page in one statement", async () => {
    const [older, newer] = [made[0]!, made[1]!];
    await insertTaskRecord(db.owner, { userId: alice.id, projectId: older, workerTask: "test_idle" });
    const latest = await insertTaskRecord(db.owner, {
      userId: alice.id,
      projectId: older,
      workerTask: "test_idle",
      taskName: "automation.automated_cam_planning",
    });
    await db.owner.query("update app_public.tasks set status = 'running', progress = 0.4 where id = $1", [latest]);
    const done = await insertTaskRecord(db.owner, { userId: alice.id, projectId: newer, workerTask: "test_idle" });
    await db.owner.query("update app_public.tasks set status = 'failed' where id = $1", [done]);

    // every statement the API's pool sends during the request, by its text
    const statements: string[] = [];
    const query = pg.Client.prototype.query;
    pg.Client.prototype.query = function (this: pg.Client, ...args: Parameters<pg.Client["query"]>) {
      const [first] = args;
      statements.push(typeof first === "string" ? first : ((first as { text?: string }).text ?? ""));
      return (query as (...a: unknown[]) => unknown).apply(this, args);
    } as pg.Client["query"];
    let res: Awaited<ReturnType<TestSession["request"]>>;
    try {
      res = await aliceSession.request<ProjectsPage>("GET", PROJECTS);
    } finally {
      pg.Client.prototype.query = query;
    }
    assert.equal(res.status, 200, res.text);
    const items = (res.body as ProjectsPage).items;
    const byId = new Map(items.map((item) => [item.id, item]));
    assert.deepEqual(byId.get(older)?.latest_task, {
      task_id: latest,
      task_name: "automation.automated_cam_planning",
      status: "running",
      progress: 0.4,
    });
    assert.equal(byId.get(newer)?.latest_task?.status, "failed");
    assert.equal(byId.get(made[2]!)?.latest_task, null);
    assert.equal(
      statements.filter((text) => text.includes("app_public.tasks")).length,
      1,
      `one statement reads tasks: ${statements.join("\n---\n")}`,
    );
    assert.equal(statements.filter((text) => text.includes("app_public.workpieces")).length, 1);
  });

  it("gives a project with a part its file name and a presigned thumbnail that loads", async () => {
    const part = await partC();
    const withPart = made[2]!;
    await asUser(api.pool, alice, (client) =>
      saveWorkpiece(client, withPart, part.ingested, part.original, part.glb, part.png, { filename: "partC.stl" }),
    );
    const res = await aliceSession.request<ProjectsPage>("GET", PROJECTS);
    const item = res.body.items.find((p) => p.id === withPart);
    assert.ok(item?.thumbnail_url, res.text);
    assert.equal(item.part_name, "partC.stl");
    assert.ok(item.current_job_id);
    assert.ok(item.thumbnail_url.startsWith(`${api.origin}/backend-api/api/public/v1/files/`), item.thumbnail_url);
    const image = await fetch(item.thumbnail_url);
    assert.equal(image.status, 200);
    assert.equal(image.headers.get("content-type"), "image/png");
    assert.deepEqual(Buffer.from(await image.arrayBuffer()), part.png);

    const expires = Number(new URL(item.thumbnail_url).searchParams.get("expires"));
    assert.ok(expires - Date.now() / 1000 > 50 * 60, "the URL lives at least 50 minutes");

    const window = () => Math.floor(Date.now() / 600_000);
    const before = window();
    const again = await aliceSession.request<ProjectsPage>("GET", PROJECTS);
    if (window() === before && before === Math.floor((expires - 3600) / 600)) {
      assert.equal(
        again.body.items.find((p) => p.id === withPart)?.thumbnail_url,
        item.thumbnail_url,
        "the same URL on a reload within the signing window, so the browser's cached image serves",
      );
    }
    const others = res.body.items.filter((p) => p.id !== withPart);
    assert.ok(others.every((p) => p.thumbnail_url === null && p.part_name === null));
  });

  it("never lists another user's projects, and leaves out deleted ones", async () => {
    const bobs = await createProject(bob, "Bob's bracket");
    await insertTaskRecord(db.owner, { userId: bob.id, projectId: bobs, workerTask: "test_idle" });
    const alices = (await allPages(aliceSession, 100)).flatMap((p) => p.items);
    assert.ok(!alices.some((p) => p.id === bobs));
    assert.ok(!JSON.stringify(alices).includes("Bob"));
    const bobsList = (await allPages(bobSession, 100)).flatMap((p) => p.items);
    assert.deepEqual(
      bobsList.map((p) => p.id),
      [bobs],
    );
    assert.equal(bobsList[0]?.latest_task?.status, "queued");

    // alice's cursor in bob's session pages bob's projects only
    const page = await aliceSession.request<ProjectsPage>("GET", `${PROJECTS}?limit=1`);
    const crossed = await bobSession.request<ProjectsPage>(
      "GET",
      `${PROJECTS}?cursor=${encodeURIComponent(page.body.next_cursor ?? "")}`,
    );
    assert.equal(crossed.status, 200, crossed.text);
    assert.ok(crossed.body.items.every((p) => p.id === bobs));

    const gone = made[4]!;
    assert.equal((await api.request("DELETE", `/projects/${gone}`, { key: alice.key })).status, 204);
    const after = (await allPages(aliceSession, 100)).flatMap((p) => p.items);
    assert.ok(!after.some((p) => p.id === gone), "a deleted project is not listed");
  });

  it("needs a session: no cookie 401, and an API key is not a session", async () => {
    assertError(await api.request("GET", PROJECTS), 401, "not_signed_in");
    assertError(await api.request("GET", PROJECTS, { key: alice.key }), 401, "not_signed_in");
  });

  it("refuses a bad cursor or limit with 400 naming the field, in the envelope", async () => {
    const cases: [string, string][] = [
      ["?limit=0", "query.limit"],
      ["?limit=101", "query.limit"],
      ["?limit=2.5", "query.limit"],
      ["?limit=many", "query.limit"],
      ["?limit=1&limit=2", "query.limit"],
      ["?cursor=nonsense", "query.cursor"],
      [`?cursor=${Buffer.from("v1:-4").toString("base64url")}`, "query.cursor"],
      [`?cursor=${"x".repeat(201)}`, "query.cursor"],
      ["?sort=name", "query.sort"],
    ];
    for (const [query, field] of cases) {
      const res = await aliceSession.request("GET", `${PROJECTS}${query}`);
      const body = assertError(res, 400, "invalid_parameter");
      assert.ok(
        body.detail.details.fields?.some((f) => f.field === field),
        `${query}: ${field} named in ${res.text}`,
      );
      assert.equal(body.detail.request_id, res.headers.get("x-request-id"));
    }
  });

  it("answers arbitrary query strings below 500", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string(), fc.string(), async (limit, cursor) => {
        const query = `?limit=${encodeURIComponent(limit)}&cursor=${encodeURIComponent(cursor)}`;
        const res = await aliceSession.request("GET", `${PROJECTS}${query}`);
        assert.ok(res.status === 200 || res.status === 400, `${query}: ${res.status} ${res.text}`);
      }),
      { numRuns: 40, endOnFailure: true },
    );
  });
});
