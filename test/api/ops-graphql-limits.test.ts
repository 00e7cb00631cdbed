/**
 * What one /ops/graphql request may ask (api/ops-graphql/query-limits.ts), against the real
 * schema and database: documents past a limit are refused before anything runs, every list
 * has a page size, and every statement a time limit.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { getIntrospectionQuery } from "postgraphile/graphql";
import { OPS_QUERY_LIMITS } from "../../api/ops-graphql/query-limits.ts";
import { startTestApi, type TestApi } from "../support/api.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { createTestUser } from "../support/users.ts";

interface Answer {
  data?: { allTasks?: { totalCount?: number; nodes?: { id: string }[] } } & Record<string, unknown>;
  errors?: { message: string }[];
  detail?: {
    code: string;
    message: string;
    details: { limit?: string; maximum?: number; found?: number };
    request_id: string;
  };
}

const TASKS = 130;
let db: TestDatabase;
let api: TestApi;
let operator: string;
let quoteReader: string;

async function graphql(key: string, query: string, variables?: Record<string, unknown>, target: TestApi = api) {
  return target.request<Answer>("POST", "/ops/graphql", { key, body: { query, variables } });
}

function assertRefused(
  response: { status: number; text: string; body: Answer; headers: Headers },
  limit: string,
): void {
  assert.equal(response.status, 400, response.text);
  assert.equal(response.body.detail?.code, "query_limit_exceeded");
  assert.equal(response.body.detail?.details.limit, limit, response.text);
  assert.equal(response.body.detail?.request_id, response.headers.get("x-request-id"));
}

before(async () => {
  db = await createTestDatabase();
  api = await startTestApi(db);
  const ops = await createTestUser(db.owner, "ops");
  operator = await ops.keyWith(["ops:read"]);
  const owner = await createTestUser(db.owner, "tasks");
  quoteReader = await owner.keyWith(["quote:read"]);
  await db.owner.query(
    `insert into app_public.tasks (user_id, task_name, worker_task, payload)
     select $1, 'test.idle', 'test_idle', '{}' from generate_series(1, $2)`,
    [owner.id, TASKS],
  );
});

after(async () => {
  await api?.close();
  await db?.drop();
});

describe("/ops/graphql limits", () => {
  it("refuses 2,400 aliased counts (91 kB) from a quote:read key before running any", async () => {
    const fields = Array.from({ length: 2400 }, (_, i) => `a${i}:allTasks(first:9){totalCount}`).join(" ");
    const query = `{${fields}}`;
    assert.ok(query.length > 80_000 && query.length < 100_000, `${query.length} bytes`);
    const refused = await graphql(quoteReader, query);
    assertRefused(refused, "aliases");
    assert.equal(refused.body.detail?.details.maximum, OPS_QUERY_LIMITS.maxAliases);
    assert.match(refused.body.detail!.message, /aliases; at most 20/);
  });

  it("gives a list without first the default page, and refuses a page above the maximum", async () => {
    const all = await graphql(operator, "{ allTasks { totalCount nodes { id } } }");
    assert.equal(all.status, 200, all.text);
    assert.equal(all.body.data?.allTasks?.totalCount, TASKS, "the count is of every row");
    assert.equal(all.body.data?.allTasks?.nodes?.length, OPS_QUERY_LIMITS.defaultPageSize);

    for (const [query, variables] of [
      ["{ allTasks(first: null) { nodes { id } } }", undefined],
      ["query ($n: Int) { allTasks(first: $n) { nodes { id } } }", {}],
      ["query ($n: Int) { allTasks(first: $n) { nodes { id } } }", { n: null }],
    ] as const) {
      const response = await graphql(operator, query, variables);
      assert.equal(response.status, 200, response.text);
      assert.equal(response.body.errors, undefined, response.text);
      assert.equal(
        response.body.data?.allTasks?.nodes?.length,
        OPS_QUERY_LIMITS.defaultPageSize,
        `${query} ${JSON.stringify(variables)}`,
      );
    }
    const last = await graphql(operator, "{ allTasks(last: 7) { nodes { id } } }");
    assert.equal(last.body.data?.allTasks?.nodes?.length, 7, "last alone is a page size");
    const asked = await graphql(operator, "query ($n: Int = 120) { allTasks(first: $n) { nodes { id } } }");
    assert.equal(asked.body.data?.allTasks?.nodes?.length, 120, "a page up to the maximum is served");

    assertRefused(await graphql(operator, "{ allTasks(first: 1001) { totalCount } }"), "page_size");
    assertRefused(
      await graphql(operator, "query ($n: Int) { allTasks(first: $n) { totalCount } }", { n: 200_000 }),
      "page_size",
    );
    assertRefused(await graphql(operator, "{ allTasks(last: 5000) { totalCount } }"), "page_size");
    assertRefused(
      await graphql(operator, "query ($n: Int) { allTasks(first: $n, condition: { attempts: $n }) { totalCount } }", {
        n: null,
      }),
      "page_size_variable",
    );
  });

  it("refuses rows multiplied along a path past the limit", async () => {
    const nested = "{ allWorkers(first: 1000) { nodes { tasksByLockedBy(first: 1000) { nodes { id } } } } }";
    const refused = await graphql(operator, nested);
    assertRefused(refused, "rows");
    assert.equal(refused.body.detail?.details.maximum, OPS_QUERY_LIMITS.maxRows);
    const pages = await graphql(
      operator,
      "{ allWorkers(first: 100) { nodes { tasksByLockedBy(first: 100) { nodes { id } } } } }",
    );
    assert.equal(pages.status, 200, pages.text);
  });

  it("refuses depth past the limit, and fragments that multiply, quickly", async () => {
    let deep = "id";
    for (let i = 0; i < 8; i++) deep = `workerByLockedBy { tasksByLockedBy(first: 1) { nodes { ${deep} } } }`;
    assertRefused(await graphql(operator, `{ allTasks(first: 1) { nodes { ${deep} } } }`), "depth");

    // each fragment spreads the next twice: 2^40 selections if expanded
    const fragments = Array.from(
      { length: 40 },
      (_, i) => `fragment F${i} on Query { ...F${i + 1} ...F${i + 1} }`,
    ).join("\n");
    const bomb = `{ ...F0 }\n${fragments}\nfragment F40 on Query { allQueueDepths(first: 1) { totalCount } }`;
    assertRefused(await graphql(operator, bomb), "selections");
  });

  it("serves the standard introspection query and the docs' kind of overview", async () => {
    const introspection = await graphql(operator, getIntrospectionQuery());
    assert.equal(introspection.status, 200, introspection.text.slice(0, 300));
    assert.equal(introspection.body.errors, undefined);
    assert.ok(introspection.body.data?.__schema);
  });

  it("refuses what is not a GraphQL request in the error envelope, and leaves syntax errors to GraphQL", async () => {
    for (const body of [
      [{ query: "{ allTasks { totalCount } }" }],
      { query: "" },
      { query: 5 },
      { query: "{ a }", variables: [1] },
      "text",
    ]) {
      const response = await api.request<Answer>("POST", "/ops/graphql", { key: operator, body });
      assert.equal(response.status, 400, JSON.stringify(body));
      assert.equal(response.body.detail?.code, "invalid_graphql_request");
    }
    const form = await api.request<Answer>("POST", "/ops/graphql", {
      key: operator,
      raw: { body: "query={allTasks{totalCount}}", contentType: "application/x-www-form-urlencoded" },
    });
    assert.equal(form.status, 415);
    const viaGet = await api.request<Answer>(
      "GET",
      `/ops/graphql?query=${encodeURIComponent("{ allTasks { totalCount } }")}`,
      { key: operator },
    );
    assert.equal(viaGet.status, 405, "only a POST, which is judged, reaches postgraphile");
    assert.equal(viaGet.headers.get("allow"), "POST");
    const syntax = await graphql(operator, "{ allTasks { ");
    assert.ok(syntax.status < 500 && syntax.body.errors && syntax.body.errors.length > 0, syntax.text);
  });

  it("cancels a statement that runs past OPS_GRAPHQL_STATEMENT_TIMEOUT_MS", async () => {
    // a view of the ops schema that takes 30 s to read; only this test database has it
    await db.owner.query("create view ops.slow_reads as select pg_sleep(30)::text as slept");
    await db.owner.query(`grant select on ops.slow_reads to ${api.env.APP_DB_ROLE}`);
    const impatient = await startTestApi(db, { env: { OPS_GRAPHQL_STATEMENT_TIMEOUT_MS: "300" } });
    try {
      const started = Date.now();
      const response = await graphql(operator, "{ allSlowReads { nodes { slept } } }", undefined, impatient);
      assert.ok(response.status < 500, response.text);
      assert.ok(response.body.errors && response.body.errors.length > 0, response.text);
      assert.ok(
        Date.now() - started < 20_000,
        `answered after ${Date.now() - started} ms, long before the 30 s statement ended`,
      );
    } finally {
      await impatient.close();
    }
  });
});
