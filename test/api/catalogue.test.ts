/**
 * The external tool catalogue through the API: tool types, search, single entries. The
 * database holds the seeded standard range, 5,000 synthetic entries (analysed, so that the
 * planner's estimates choose between the search's plans as they would in production) and a
 * few entries of our own whose names hold LIKE's wildcards.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import type pg from "pg";
import type { CatalogueHit } from "../../db/queries/catalogue/hit.ts";
import { referenceSearch, searchCatalogue, type CatalogueSearch } from "../../db/queries/catalogue/search.ts";
import { upsertCatalogueEntries } from "../../db/seed/catalogue.ts";
import { validateAssembly } from "../../kernel/tools/assembly.ts";
import { STANDARD_MANUFACTURER } from "../../kernel/tools/catalogue/entry.ts";
import { generateSyntheticCatalogue } from "../../kernel/tools/catalogue/synthetic-catalogue.ts";
import { TOOL_TYPES } from "../../kernel/tools/tool-types.ts";
import { startTestApi, type TestApi } from "../support/api.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { createTestUser, type TestUser } from "../support/users.ts";

interface ErrorBody {
  detail: {
    code: string;
    message: string;
    details: Record<string, unknown> & { fields?: { field: string; code: string; message: string }[] };
  };
}

interface SearchBody {
  results: CatalogueHit[];
  count: number;
  truncated: boolean;
}

interface ToolTypesBody {
  tool_types: { tool_type: string; label: string; family: string; entry_count: number }[];
}

const BASE = "/equipment/external-catalogue";
/** our own entries: a maker with an ampersand and LIKE's wildcards in names and article numbers */
const OWN_MAKER = "Wildcard & Sons";

let db: TestDatabase;
let api: TestApi;
let alice: TestUser;
let synthetic: ReturnType<typeof generateSyntheticCatalogue>;

before(async () => {
  db = await createTestDatabase();
  api = await startTestApi(db, { env: { RATE_LIMIT_PER_MINUTE: "100000" } });
  alice = await createTestUser(db.owner, "alice");
  synthetic = generateSyntheticCatalogue(5000, 11);
  await upsertCatalogueEntries(db.owner, synthetic, "synthetic");
  // three entries of our own, made from synthetic ones (the assembly is theirs; search does not read it)
  const base = synthetic.filter((e) => e.tool_type === "Drill").slice(0, 3);
  const own = [
    { article_number: "WS-100%_A", name: "Marking drill 100%_A special" },
    { article_number: "WS-100XYA", name: "Marking drill 100XYA special" },
    { article_number: "WS-PLAIN-7", name: "Plain drill ____ edition" },
  ].map((fields, i) => ({
    ...base[i]!,
    ...fields,
    manufacturer: OWN_MAKER,
    assembly: { ...base[i]!.assembly, manufacturer: OWN_MAKER },
  }));
  await upsertCatalogueEntries(db.owner, own, "import");
  await db.owner.query("vacuum analyze app_public.catalogue_entries");
});
after(async () => {
  await api.close();
  await db.drop();
});

function search(query: string, key = alice.key) {
  return api.request<SearchBody & ErrorBody>("GET", `${BASE}/search?${query}`, { key });
}

async function ok(query: string): Promise<SearchBody> {
  const res = await search(query);
  assert.equal(res.status, 200, `${query}: ${res.text}`);
  assert.equal(res.body.count, res.body.results.length);
  return res.body;
}

function nondecreasing(values: number[]): boolean {
  return values.every((value, i) => i === 0 || values[i - 1]! <= value);
}

const enc = encodeURIComponent;

describe("GET /equipment/external-catalogue/tool-types", () => {
  it("lists every tool type of the tool model with its entry count, in the model's order", async () => {
    const res = await api.request<ToolTypesBody>("GET", `${BASE}/tool-types`, { key: alice.key });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(
      res.body.tool_types.map((t) => t.tool_type),
      [...TOOL_TYPES],
    );
    const { rows } = await db.owner.query<{ tool_type: string; n: number }>(
      "select tool_type, count(*)::int as n from app_public.catalogue_entries group by tool_type",
    );
    const counts = new Map(rows.map((r) => [r.tool_type, r.n]));
    for (const type of res.body.tool_types) {
      assert.equal(type.entry_count, counts.get(type.tool_type) ?? 0, type.tool_type);
      assert.ok(type.label.length > 0);
      assert.ok(["mill", "drill", "reamer", "tap", "thread_mill"].includes(type.family));
    }
    const endMill = res.body.tool_types.find((t) => t.tool_type === "CentreCuttingEndMill");
    assert.deepEqual(
      { label: endMill?.label, family: endMill?.family },
      { label: "End mill, centre cutting", family: "mill" },
    );
  });

  it("lists only the types a manufacturer offers, matching the manufacturer in any letter case", async () => {
    const res = await api.request<ToolTypesBody>(
      "GET",
      `${BASE}/tool-types?manufacturer=${enc(OWN_MAKER.toUpperCase())}`,
      { key: alice.key },
    );
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(
      res.body.tool_types.map((t) => [t.tool_type, t.entry_count]),
      [["Drill", 3]],
    );

    const standard = await api.request<ToolTypesBody>(
      "GET",
      `${BASE}/tool-types?manufacturer=${enc(STANDARD_MANUFACTURER.toLowerCase())}`,
      { key: alice.key },
    );
    assert.equal(standard.status, 200);
    const { rows } = await db.owner.query<{ tool_type: string; n: number }>(
      "select tool_type, count(*)::int as n from app_public.catalogue_entries where manufacturer = $1 group by tool_type",
      [STANDARD_MANUFACTURER],
    );
    assert.deepEqual(
      standard.body.tool_types.map((t) => [t.tool_type, t.entry_count]),
      TOOL_TYPES.filter((type) => rows.some((r) => r.tool_type === type)).map((type) => [
        type,
        rows.find((r) => r.tool_type === type)!.n,
      ]),
    );
    assert.ok(standard.body.tool_types.every((t) => t.entry_count > 0));
  });

  it("answers 404 manufacturer_not_found for a manufacturer without entries", async () => {
    const res = await api.request<ErrorBody>("GET", `${BASE}/tool-types?manufacturer=Nobody%20Tools`, {
      key: alice.key,
    });
    assert.equal(res.status, 404);
    assert.equal(res.body.detail.code, "manufacturer_not_found");
    assert.equal(res.body.detail.details.manufacturer, "Nobody Tools");
  });
});

describe("GET /equipment/external-catalogue/search", () => {
  it("puts the entry whose article number is q first, in any letter case, before entries that merely contain it", async () => {
    const target = synthetic.find((e) => e.tool_type === "Tap")!;
    const body = await ok(`q=${enc(target.article_number.toLowerCase())}`);
    assert.equal(body.results[0]?.article_number, target.article_number);
    assert.equal(body.results[0]?.manufacturer, target.manufacturer);
    assert.equal(body.results[0]?.tool_type, "Tap");
    assert.equal(body.results[0]?.diameter_mm, target.diameter_mm);
    assert.equal(body.results[0]?.overall_length_mm, target.overall_length_mm);
    assert.equal(body.results[0]?.flute_length_mm, target.flute_length_mm);
    assert.equal(body.results[0]?.shank_diameter_mm, target.shank_diameter_mm);
    assert.equal(body.results[0]?.standard, null);
  });

  it("finds an article number by a fragment from its middle", async () => {
    const target = synthetic[1234]!;
    const fragment = target.article_number.slice(3, 10); // e.g. "DR01I6Y" of "LHM-DR01I6Y-1255"
    const body = await ok(`q=${enc(fragment)}&limit=100`);
    assert.ok(
      body.results.some((r) => r.article_number === target.article_number),
      `${fragment} finds ${target.article_number}`,
    );
    const contains = body.results.map((r) => r.article_number.toLowerCase().includes(fragment.toLowerCase()));
    assert.ok(contains[0], "an article number holding it comes first");
    assert.deepEqual(
      contains,
      [...contains].sort((a, b) => Number(b) - Number(a)),
      "article numbers holding it before any other match",
    );
  });

  it("matches q word by word, each word the start of a word of the entry, in any order", async () => {
    const body = await ok("q=dril%20twis&limit=50");
    assert.ok(body.results.length > 0);
    for (const r of body.results) assert.match(r.name, /\btwist\b.*\bdrill\b|\bdrill\b.*\btwist\b/i, r.name);
    assert.ok(body.results.every((r) => r.tool_type === "Drill"));
  });

  it("ranks the entries whose diameter is a number of q first: end mill 6 gives end mills of 6 mm", async () => {
    const body = await ok("q=end%20mill%206&limit=10");
    assert.equal(body.results.length, 10);
    for (const r of body.results) {
      assert.equal(r.diameter_mm, 6, `${r.article_number} ${r.name}`);
      assert.match(r.name, /end mill/i);
    }
    assert.equal(body.truncated, true);
  });

  it("finds a fragment of a name that no word starts with", async () => {
    const body = await ok(`q=${enc("wist dri")}&limit=100`);
    assert.equal(body.results.length, 100);
    assert.ok(
      body.results.every((r) => r.name.toLowerCase().includes("wist dri")),
      "twist drills",
    );
  });

  it("filters by manufacturer in any letter case, by diameter, without q", async () => {
    const body = await ok("manufacturer=kestrel%20TOOLING&limit=30");
    assert.equal(body.results.length, 30);
    assert.ok(body.results.every((r) => r.manufacturer === "Kestrel Tooling"));
    assert.ok(nondecreasing(body.results.map((r) => r.diameter_mm)), "by diameter");
    const smallest = Math.min(
      ...synthetic.filter((e) => e.manufacturer === "Kestrel Tooling").map((e) => e.diameter_mm),
    );
    assert.equal(body.results[0]?.diameter_mm, smallest);
    assert.equal(body.truncated, true);
  });

  it("filters by tool_types given comma-separated and repeated, and by an inclusive diameter range", async () => {
    const body = await ok("tool_types=Drill,Reamer&tool_types=Tap&diameter_min=5&diameter_max=8&limit=100");
    assert.equal(body.results.length, 100);
    assert.ok(body.results.every((r) => ["Drill", "Reamer", "Tap"].includes(r.tool_type)));
    assert.ok(body.results.every((r) => r.diameter_mm >= 5 && r.diameter_mm <= 8));
    assert.equal(body.results[0]?.diameter_mm, 5, "5 itself is in range");
    assert.ok(nondecreasing(body.results.map((r) => r.diameter_mm)));

    const exact = await ok("tool_types=Reamer&diameter_min=8&diameter_max=8");
    assert.ok(exact.results.length > 0);
    assert.ok(exact.results.every((r) => r.diameter_mm === 8 && r.tool_type === "Reamer"));
  });

  it("combines q with every filter, each result meeting all of them", async () => {
    const body = await ok(
      "q=carbide&manufacturer=Brightwater%20Carbide&tool_types=BallEndMill,BullNoseEndMill&diameter_min=2&diameter_max=12&limit=40",
    );
    assert.ok(body.results.length > 0);
    for (const r of body.results) {
      assert.equal(r.manufacturer, "Brightwater Carbide");
      assert.ok(["BallEndMill", "BullNoseEndMill"].includes(r.tool_type));
      assert.ok(r.diameter_mm >= 2 && r.diameter_mm <= 12);
    }
  });

  it("accepts a q shorter than 4 characters when a filter is given", async () => {
    const body = await ok("q=m8&tool_types=Tap");
    assert.ok(body.results.length > 0);
    assert.ok(body.results.every((r) => r.tool_type === "Tap" && /\bm8/i.test(`${r.name} ${r.article_number}`)));
  });

  it("returns at most limit results, 20 by default, and says truncated only when more matched", async () => {
    const defaults = await ok("manufacturer=Meridian%20Edge");
    assert.equal(defaults.results.length, 20);
    assert.equal(defaults.truncated, true);
    const one = await ok("manufacturer=Meridian%20Edge&limit=1");
    assert.equal(one.results.length, 1);
    const own = await ok(`manufacturer=${enc(OWN_MAKER)}&limit=3`);
    assert.deepEqual([own.results.length, own.truncated], [3, false], "exactly three match");
    const more = await ok(`manufacturer=${enc(OWN_MAKER)}&limit=2`);
    assert.deepEqual([more.results.length, more.truncated], [2, true]);
  });

  it("refuses a q of 3 characters without a filter with 400 search_too_broad, trimming q first", async () => {
    for (const query of ["q=dri", `q=${enc("   dri  ")}`, "", "q=", "limit=5"]) {
      const res = await search(query);
      assert.equal(res.status, 400, query);
      assert.equal(res.body.detail.code, "search_too_broad", query);
      assert.equal(res.body.detail.details.min_query_length, 4);
      assert.deepEqual(res.body.detail.details.filters, ["manufacturer", "tool_types", "diameter_min", "diameter_max"]);
    }
    const res = await search(`q=${enc("  dri ")}`);
    assert.equal(res.body.detail.details.query_length, 3);
    assert.match(res.body.detail.message, /4 characters/);
    assert.equal((await search("q=dril")).status, 200, "4 characters are enough");
  });

  it("takes %%%%, ____, a%b_ and SQL in q literally: no error, no match-everything", async () => {
    for (const q of [
      "%%%%",
      "____",
      "a%b_",
      "'; drop table app_public.users; --",
      "\\\\\\\\",
      "end:*|drill",
      "!(zzzz)",
    ]) {
      const body = await ok(`q=${enc(q)}`);
      assert.ok(!body.truncated, `${q} does not match everything`);
      assert.ok(body.results.length <= 3, `${q}: ${body.results.map((r) => r.article_number).join(", ")}`);
    }
    assert.deepEqual((await ok(`q=${enc("%%%%")}`)).results, []);
    assert.deepEqual((await ok(`q=${enc("a%b_")}`)).results, []);
    const users = await db.owner.query("select count(*)::int as n from app_public.users");
    assert.ok(users.rows[0].n >= 1, "app_public.users is still there");
    // the wildcards are characters like any other: 100%_A finds the name holding them, not 100XYA
    const literal = await ok(`q=${enc("100%_A")}`);
    assert.equal(literal.results[0]?.article_number, "WS-100%_A");
    assert.ok(!literal.results.some((r) => r.article_number === "WS-100XYA"), "% and _ match only themselves");
    const underscores = await ok(`q=${enc("rill ____")}`);
    assert.deepEqual(
      underscores.results.map((r) => r.article_number),
      ["WS-PLAIN-7"],
    );
  });

  it("answers 400 invalid_parameter naming the field for a bad diameter, limit, tool type or parameter", async () => {
    const cases: [string, string, RegExp?][] = [
      ["q=drill&diameter_min=8&diameter_max=5", "query.diameter_min", /above diameter_max/],
      ["q=drill&diameter_min=-1", "query.diameter_min"],
      ["q=drill&diameter_max=", "query.diameter_max"],
      ["q=drill&diameter_max=wide", "query.diameter_max"],
      ["q=drill&limit=101", "query.limit"],
      ["q=drill&limit=0", "query.limit"],
      ["q=drill&tool_types=Drill,Spoon", "query.tool_types", /"Spoon"/],
      ["q=drill&tool_types=drill", "query.tool_types", /"drill"/],
      ["q=drill&tool_types=", "query.tool_types"],
      ["q=drill&colour=red", "query.colour"],
      [`q=${enc("a b c d e f g h i")}`, "query.q", /8 words/],
      [`q=${"x".repeat(201)}`, "query.q"],
    ];
    for (const [query, field, message] of cases) {
      const res = await search(query);
      assert.equal(res.status, 400, query);
      assert.equal(res.body.detail.code, "invalid_parameter", query);
      const fields = res.body.detail.details.fields ?? [];
      assert.deepEqual(
        fields.map((f) => f.field),
        [field],
        query,
      );
      if (message) assert.match(fields[0]!.message, message, query);
    }
  });

  it("gives the answer of a plain full sort, whichever plan each tier took", async () => {
    const searches: Partial<CatalogueSearch>[] = [
      { q: "end mill" },
      { q: "end mill 6" },
      { q: "face mill" },
      { q: "kestrel ball" },
      { q: "twist drill 8.5" },
      { q: "tialn", limit: 50 },
      { q: "drill end" },
      { q: "0600" },
      { q: synthetic[4321]!.article_number.slice(2, 9) },
      { q: "carbide", manufacturer: "brightwater carbide", toolTypes: ["BallEndMill"] },
      { q: "mill", toolTypes: ["FaceMill", "SlotMill"], diameterMin: 10, diameterMax: 40 },
      { q: null, manufacturer: "Sakuragawa Seiko", diameterMin: 3 },
      { q: null, toolTypes: ["Tap"], diameterMax: 6, limit: 100 },
      { q: "din 338 8.5" },
      { q: "Ø6 carbide" },
    ];
    for (const partial of searches) {
      const s: CatalogueSearch = {
        q: null,
        manufacturer: null,
        toolTypes: [],
        diameterMin: null,
        diameterMax: null,
        limit: 20,
        ...partial,
      };
      const [fast, slow] = await Promise.all([
        inTransaction(db.owner, (client) => searchCatalogue(client, s)),
        referenceSearch(db.owner, { ...s, limit: s.limit + 1 }),
      ]);
      const label = JSON.stringify(partial);
      assert.equal(fast.truncated, slow.length > s.limit, `${label} truncated`);
      const expected = slow.slice(0, s.limit);
      assert.deepEqual(
        fast.results.map((r) => r.diameter_mm),
        expected.map((r) => r.diameter_mm),
        `${label} diameters`,
      );
      // entries of the same tier and diameter at the last place may differ; every other place agrees
      const last = expected.at(-1);
      const settled = (r: { diameter_mm: number }, i: number) =>
        !(last && expected[i]!.tier === last.tier && r.diameter_mm === last.diameter_mm);
      assert.deepEqual(
        fast.results.filter((_r, i) => settled(expected[i]!, i)).map((r) => r.article_number),
        expected.filter(settled).map((r) => r.article_number),
        label,
      );
    }
  });

  it("walks the diameter index for common words and goes to the GIN indexes for rare ones", async () => {
    const statements = (s: Partial<CatalogueSearch>) =>
      inTransaction(db.owner, async (client) => {
        const seen: string[] = [];
        const traced = {
          query: (text: string, values?: unknown[]) => {
            seen.push(text);
            return client.query(text, values);
          },
        } as unknown as pg.PoolClient;
        await searchCatalogue(traced, {
          q: null,
          manufacturer: null,
          toolTypes: [],
          diameterMin: null,
          diameterMax: null,
          limit: 20,
          ...s,
        });
        return seen;
      });
    const walks = (seen: string[]) => seen.filter((sql) => sql.includes("row_number() over ()")).length;
    const common = await statements({ q: "end mill 6" });
    assert.ok(walks(common) >= 1, "end mill 6 is walked");
    const rare = await statements({ q: synthetic[77]!.article_number });
    assert.equal(walks(rare), 0, "an article number is looked up");
    const filters = await statements({ q: null, toolTypes: ["Drill", "Reamer"], diameterMin: 5 });
    assert.equal(filters.length, 1, "filters alone: one statement");
    assert.match(filters[0]!, /union all/, "a merge of one range scan per type");
  });
});

describe("GET /equipment/external-catalogue/{manufacturer}/{article_number}", () => {
  it("answers the entry's full assembly, which validateAssembly accepts once it has a fresh uuid", async () => {
    for (const entry of [synthetic[10]!, synthetic.find((e) => e.manufacturer === "Redfern & Holt")!]) {
      const res = await api.request<Record<string, unknown>>(
        "GET",
        `${BASE}/${enc(entry.manufacturer)}/${enc(entry.article_number)}`,
        { key: alice.key },
      );
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body, JSON.parse(JSON.stringify(entry.assembly)), "the assembly as stored");
      const validated = validateAssembly({ ...res.body, uuid: randomUUID() });
      assert.ok(validated.ok, JSON.stringify(!validated.ok && validated.violations));
    }
  });

  it("answers an assembly that POST /libraries/equipment/{library_id}/assemblies takes once it has a fresh uuid", async () => {
    const entry = synthetic.find((e) => e.tool_type === "BullNoseEndMill")!;
    const got = await api.request<Record<string, unknown>>(
      "GET",
      `${BASE}/${enc(entry.manufacturer)}/${enc(entry.article_number)}`,
      { key: alice.key },
    );
    assert.equal(got.status, 200);
    const libraries = await api.request<{ items: { id: string; is_default: boolean }[] }>(
      "GET",
      "/libraries/equipment",
      { key: alice.key },
    );
    assert.equal(libraries.status, 200, libraries.text);
    const library = libraries.body.items.find((l) => l.is_default)!;
    const uuid = randomUUID();
    const posted = await api.request<{ uuid: string; components: unknown[] }>(
      "POST",
      `/libraries/equipment/${library.id}/assemblies`,
      {
        key: alice.key,
        body: { ...got.body, uuid },
      },
    );
    assert.equal(posted.status, 201, posted.text);
    assert.equal(posted.body.uuid, uuid);
    assert.equal(posted.body.components.length, 2);
  });

  it("answers an entry of the seeded standard range, found through search", async () => {
    const found = await ok(`q=${enc("DIN 338 8.5")}&limit=1`);
    const hit = found.results[0]!;
    assert.equal(hit.manufacturer, STANDARD_MANUFACTURER);
    assert.equal(hit.standard, "DIN 338");
    const res = await api.request<{ uuid: string; manufacturer: string; components: { component_type: string }[] }>(
      "GET",
      `${BASE}/${enc(hit.manufacturer)}/${enc(hit.article_number)}`,
      { key: alice.key },
    );
    assert.equal(res.status, 200);
    assert.equal(res.body.manufacturer, STANDARD_MANUFACTURER);
    assert.deepEqual(
      res.body.components.map((c) => c.component_type),
      ["adaptive_item", "parametric_cutting_tool"],
    );
    assert.ok(validateAssembly({ ...res.body, uuid: randomUUID() }).ok);
  });

  it("matches the manufacturer, and the article number, in any letter case", async () => {
    const entry = synthetic[20]!;
    for (const [maker, article] of [
      [entry.manufacturer.toUpperCase(), entry.article_number],
      [entry.manufacturer.toLowerCase(), entry.article_number.toLowerCase()],
    ]) {
      const res = await api.request<{ uuid: string }>("GET", `${BASE}/${enc(maker!)}/${enc(article!)}`, {
        key: alice.key,
      });
      assert.equal(res.status, 200, `${maker} ${article}`);
      assert.equal(res.body.uuid, entry.assembly.uuid);
    }
    const own = await api.request<{ manufacturer: string }>("GET", `${BASE}/${enc(OWN_MAKER)}/${enc("WS-100%_A")}`, {
      key: alice.key,
    });
    assert.equal(own.status, 200, "reserved URL characters come through encoded");
  });

  it("answers 404 catalogue_entry_not_found for an unknown manufacturer or article number", async () => {
    const entry = synthetic[30]!;
    for (const path of [
      `Nobody/${enc(entry.article_number)}`,
      `${enc(entry.manufacturer)}/NO-SUCH-ARTICLE`,
      `${enc(entry.manufacturer)}/${enc("%")}`,
    ]) {
      const res = await api.request<ErrorBody>("GET", `${BASE}/${path}`, { key: alice.key });
      assert.equal(res.status, 404, path);
      assert.equal(res.body.detail.code, "catalogue_entry_not_found");
    }
  });

  it("answers 400 naming the path parameter that is longer than 100 characters", async () => {
    const res = await api.request<ErrorBody>("GET", `${BASE}/${"m".repeat(101)}/A-1`, { key: alice.key });
    assert.equal(res.status, 400);
    assert.deepEqual(
      res.body.detail.details.fields?.map((f) => f.field),
      ["path.manufacturer"],
    );
    const article = await api.request<ErrorBody>("GET", `${BASE}/Acme/${"a".repeat(101)}`, { key: alice.key });
    assert.deepEqual(
      article.body.detail.details.fields?.map((f) => f.field),
      ["path.article_number"],
    );
  });
});

describe("catalogue scopes and documentation", () => {
  it("refuses a key without equipment:read with 403 insufficient_scope on every catalogue route", async () => {
    const key = await alice.keyWith(["equipment:write", "projects:read", "libraries:read"]);
    const entry = synthetic[0]!;
    for (const path of [
      `${BASE}/tool-types`,
      `${BASE}/search?q=drill`,
      `${BASE}/${enc(entry.manufacturer)}/${enc(entry.article_number)}`,
    ]) {
      const res = await api.request<ErrorBody>("GET", path, { key });
      assert.equal(res.status, 403, path);
      assert.equal(res.body.detail.code, "insufficient_scope");
      assert.deepEqual(res.body.detail.details.missing_scopes, ["equipment:read"]);
    }
    const reader = await alice.keyWith(["equipment:read"]);
    assert.equal((await search("q=drill", reader)).status, 200, "equipment:read alone is enough");
  });

  it("documents the three routes with response schemas of their own and their error codes", async () => {
    const doc = await api.request<{
      paths: Record<
        string,
        Record<
          string,
          {
            operationId: string;
            responses: Record<string, { description: string; content?: Record<string, { schema: { $ref?: string } }> }>;
          }
        >
      >;
      components: { schemas: Record<string, unknown> };
    }>("GET", "/backend-api/api/public/v1/openapi.json");
    const prefix = "/backend-api/api/public/v1/equipment/external-catalogue";
    const ops = [
      [`${prefix}/tool-types`, "listCatalogueToolTypes", "CatalogueToolTypeList", "404", /manufacturer_not_found/],
      [`${prefix}/search`, "searchCatalogue", "CatalogueSearchResults", "400", /search_too_broad/],
      [
        `${prefix}/{manufacturer}/{article_number}`,
        "getCatalogueEntry",
        "CatalogueAssembly",
        "404",
        /catalogue_entry_not_found/,
      ],
    ] as const;
    for (const [path, operationId, schema, status, code] of ops) {
      const op = doc.body.paths[path]?.get;
      assert.equal(op?.operationId, operationId);
      assert.equal(op?.responses["200"]?.content?.["application/json"]?.schema.$ref, `#/components/schemas/${schema}`);
      assert.ok(doc.body.components.schemas[schema], schema);
      assert.match(op?.responses[status]?.description ?? "", code);
    }
  });
});

async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query("begin");
    const result = await work(client);
    await client.query("commit");
    return result;
  } catch (error) {
    await client.query("rollback");
    throw error;
  } finally {
    client.release();
  }
}
