/**
 * Malformed input to every route of the table, generated with fast-check: arbitrary JSON and
 * mutations of each route's valid body, bytes that are not JSON or carry the wrong
 * Content-Type, malformed multipart for the upload routes, arbitrary and mutated query
 * strings, and arbitrary strings in place of path parameters. Whatever arrives, the answer is
 * below 500, a refusal is the spec's error envelope, and a refused request changes nothing
 * stored (every table of user data is compared before and after each request).
 *
 * The routes are walked from the table, so a new route is fuzzed the day it is added. Each
 * route that can change data gets an owner of its own, so what a fuzzed request that happens
 * to be valid does (a 2xx is allowed) does not reach the other routes' runs.
 *
 * SWARF_FUZZ_SEED fixes fast-check's seed (a failure prints the seed and path to replay it);
 * SWARF_FUZZ_RUNS scales the number of runs of every property (default 1).
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { gzipSync } from "node:zlib";
import { after, before, describe, it } from "node:test";
import fc from "fast-check";
import { z } from "zod";
import type { RouteSpec } from "../../api/route.ts";
import { routes } from "../../api/routes/index.ts";
import { createGeometryPool, type GeometryPool } from "../../geometry-pool/pool.ts";
import { startTestApi, type RequestOptions, type TestApi, type TestResponse } from "../support/api.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { multipart } from "../support/multipart.ts";
import { createRouteFixtures, validBodies, type RouteFixtures } from "../support/route-fixtures.ts";
import { createTestUser, type TestUser } from "../support/users.ts";

const SCALE = Number(process.env.SWARF_FUZZ_RUNS ?? 1);
const SEED = process.env.SWARF_FUZZ_SEED === undefined ? undefined : Number(process.env.SWARF_FUZZ_SEED);

/** fast-check's parameters for a property of `runs` runs (times SWARF_FUZZ_RUNS) */
function runs(numRuns: number): { numRuns: number; seed?: number; endOnFailure: boolean } {
  return {
    numRuns: Math.max(1, Math.round(numRuns * SCALE)),
    ...(SEED === undefined ? {} : { seed: SEED }),
    // shrinking replays requests by the thousand (a long string a character at a time):
    // the first counterexample is reported as found, unless SWARF_FUZZ_SHRINK asks for it
    endOnFailure: !process.env.SWARF_FUZZ_SHRINK,
  };
}

interface ErrorEnvelope {
  detail: { code: unknown; message: unknown; details: unknown; request_id: unknown };
}

/**
 * Routes whose success starts expensive work: fuzzed against a project the route refuses
 * before anything starts. CAM planning refuses a project without a workpiece (409
 * workpiece_missing) before it queues a planning task.
 */
const REFUSING_PROJECT = new Set(["startCamPlanning"]);

/**
 * Tables of reference data the migrations seed and no route writes; big enough to make a
 * snapshot per request slow. Every other table of app_public is compared.
 */
const REFERENCE_TABLES = new Set(["catalogue_entries", "machines", "materials"]);

/** A closed tetrahedron, 10 mm: an STL the geometry thread reads in a moment. */
const TETRAHEDRON_STL = Buffer.from(
  [
    "solid t",
    ...[
      ["0 0 -1", "0 0 0", "0 10 0", "10 0 0"],
      ["0 -1 0", "0 0 0", "10 0 0", "0 0 10"],
      ["-1 0 0", "0 0 0", "0 0 10", "0 10 0"],
      ["0.577 0.577 0.577", "10 0 0", "0 10 0", "0 0 10"],
    ].flatMap(([normal, a, b, c]) => [
      `facet normal ${normal}`,
      " outer loop",
      `  vertex ${a}`,
      `  vertex ${b}`,
      `  vertex ${c}`,
      " endloop",
      "endfacet",
    ]),
    "endsolid t",
    "",
  ].join("\n"),
);

let db: TestDatabase;
let api: TestApi;
let geometry: GeometryPool;
let snapshotSql: string;
let machines = 0;

interface Owner {
  user: TestUser;
  fixtures: RouteFixtures;
  /** a project without a workpiece (see REFUSING_PROJECT) */
  bareProjectId: string;
}

async function createOwner(label: string): Promise<Owner> {
  const user = await createTestUser(db.owner, label);
  machines += 1;
  const fixtures = await createRouteFixtures(db, api, user, `fuzz-mill-${machines}-${randomUUID().slice(0, 8)}`);
  const bare = await api.request<{ id: string }>("POST", "/projects", {
    key: user.key,
    body: { name: "Bare", customer: "Bare" },
  });
  assert.equal(bare.status, 201);
  return { user, fixtures, bareProjectId: bare.body.id };
}

/** The whole stored state of user data, one digest per table, as the database owner sees it. */
async function buildSnapshotSql(): Promise<string> {
  const { rows } = await db.owner.query<{ name: string }>(
    `select table_name as name from information_schema.tables
      where table_schema = 'app_public' and table_type = 'BASE TABLE' order by table_name`,
  );
  // an order-free digest of the rows' versions: the count and the sum of their xmin's hashes. A
  // committed insert or update makes a row version with a new xmin, a delete drops one; hashing
  // the versions rather than the rows' text leaves the plans and meshes in TOAST unread (the
  // text digest made this file's snapshots most of its run time)
  const digest = (from: string) =>
    `(select count(*) || ':' || coalesce(sum(hashtext(t.xmin::text)::bigint), 0) from ${from})`;
  const parts = rows
    .filter((row) => !REFERENCE_TABLES.has(row.name))
    .map((row) => `'${row.name}', ${digest(`app_public.${row.name} t`)}`);
  // app_private: what a request can write besides app_public (blobs without their bytes;
  // api_keys, rate-limit slots and idempotency claims change on every request by design)
  parts.push(
    `'blobs', ${digest("app_private.blobs t")}`,
    `'webhook_secrets', ${digest("app_private.webhook_secrets t")}`,
    `'webhook_events', ${digest("app_private.webhook_events t")}`,
    // a view: the queued jobs' own columns, read as text (few rows, none wide)
    `'queued_jobs', (select count(*) || ':' || coalesce(sum(hashtext(t::text)::bigint), 0) from (select id, key, task_identifier, run_at from graphile_worker.jobs) t)`,
  );
  return `select jsonb_build_object(${parts.join(", ")}) as state`;
}

async function snapshot(): Promise<Record<string, string>> {
  const { rows } = await db.owner.query<{ state: Record<string, string> }>(snapshotSql);
  return rows[0]!.state;
}

/**
 * The state as the last refused request left it: nothing else writes between two requests of
 * this file (no workers run), so it is the next request's "before" too, and a refusal costs one
 * snapshot instead of two. Forgotten after a success, and when a route's owner is made.
 */
let known: Record<string, string> | undefined;

/** What a request was, for a failure's message. */
function describeRequest(method: string, path: string, options: RequestOptions): string {
  const body = options.raw ? options.raw.body : options.body === undefined ? "" : JSON.stringify(options.body);
  const text = Buffer.isBuffer(body) ? body.toString("latin1") : body;
  const type = options.raw ? ` (${options.raw.contentType})` : "";
  return `${method} ${path.slice(0, 300)}${type} ${text.slice(0, 300)}`;
}

/**
 * Sends one request and checks the rules every answer obeys: below 500, a refusal in the
 * error envelope with the request's id, and nothing stored changed by a refusal.
 */
async function send(method: string, path: string, options: RequestOptions = {}): Promise<TestResponse> {
  const what = describeRequest(method, path, options);
  const before = known ?? (await snapshot());
  known = undefined;
  const res = await api.request(method, path, options);
  assert.ok(res.status < 500, `${res.status} for ${what}: ${res.text.slice(0, 500)}`);
  if (res.status >= 400) {
    assert.match(res.headers.get("content-type") ?? "", /^application\/json/, `${res.status} for ${what} is JSON`);
    const detail = (res.body as ErrorEnvelope).detail;
    assert.ok(
      typeof detail === "object" && detail !== null,
      `${res.status} for ${what} has detail: ${res.text.slice(0, 300)}`,
    );
    assert.equal(typeof detail.code, "string", `detail.code for ${what}`);
    assert.equal(typeof detail.message, "string", `detail.message for ${what}`);
    assert.ok(
      typeof detail.details === "object" && detail.details !== null && !Array.isArray(detail.details),
      `detail.details for ${what}`,
    );
    assert.equal(typeof detail.request_id, "string", `detail.request_id for ${what}`);
    assert.equal(
      detail.request_id,
      res.headers.get("x-request-id"),
      `detail.request_id is the X-Request-Id of ${what}`,
    );
    const after = await snapshot();
    assert.deepEqual(after, before, `${res.status} ${String(detail.code)} for ${what} changed nothing stored`);
    known = after;
  }
  return res;
}

// ---------------------------------------------------------------------------------------------
// JSON texts
// ---------------------------------------------------------------------------------------------

/** A piece of JSON text written as is: numbers JSON.stringify cannot write, deep nesting. */
class Raw {
  constructor(readonly text: string) {}
}

/** JSON text of a value that may hold Raw pieces and own "__proto__" keys. */
function jsonText(value: unknown): string {
  if (value instanceof Raw) return value.text;
  if (Array.isArray(value)) return `[${value.map(jsonText).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    return `{${Object.keys(value)
      .map((key) => `${JSON.stringify(key)}:${jsonText((value as Record<string, unknown>)[key])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** An object with these own properties, "__proto__" included as a key like any other. */
function objectOf(entries: readonly (readonly [string, unknown])[]): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  for (const [key, value] of entries)
    Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
  return object;
}

const awkwardKey = fc.oneof(
  fc.constantFrom(
    "__proto__",
    "constructor",
    "prototype",
    "toString",
    "hasOwnProperty",
    "",
    " ",
    "\u0000",
    "a.b",
    "0",
    "💥",
  ),
  fc.string({ unit: "binary", maxLength: 12 }),
);

const specialNumber = fc
  .constantFrom(
    "-0",
    "-0.0",
    "1e400",
    "-1e400",
    "1e-400",
    "4.9e-324",
    "1.7976931348623157e308",
    "123456789012345678901234567890",
    "9007199254740993",
    "-9007199254740993",
    "0.1e1",
    "1E2",
    "1e0",
  )
  .map((text) => new Raw(text));

const specialString = fc.constantFrom(
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\ud800",
  "\udfff",
  "\u202e",
  "\ufeff",
  "💥",
  "ǅ",
  "\r\n",
  "'; drop table app_public.projects; --",
  "%00",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, sent as it is
  "${7*7}",
  "null",
  "true",
  "0",
  "-1",
  "NaN",
  "Infinity",
  "__proto__",
  "http://",
  "2026-02-30T25:61:61Z",
  "00000000-0000-0000-0000-000000000000",
);

/** up to 200 000 characters: past the 256 KiB body limit when they take several bytes */
const longString = fc
  .tuple(fc.integer({ min: 1000, max: 200_000 }), fc.constantFrom("x", "é", "💥", "\u0000", " "))
  .map(([length, unit]) => unit.repeat(Math.ceil(length / unit.length)));

/** arrays or objects nested up to 40 000 deep (JSON.parse copes; what comes after must too) */
const deepNesting = fc
  .tuple(fc.integer({ min: 50, max: 40_000 }), fc.boolean())
  .map(
    ([depth, arrays]) =>
      new Raw(arrays ? "[".repeat(depth) + "]".repeat(depth) : `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`),
  );

const leaf: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: fc.constant(null), weight: 2 },
  { arbitrary: fc.boolean(), weight: 2 },
  { arbitrary: fc.integer(), weight: 2 },
  { arbitrary: fc.double(), weight: 2 },
  { arbitrary: fc.string({ unit: "binary", maxLength: 30 }), weight: 3 },
  { arbitrary: specialNumber, weight: 2 },
  { arbitrary: specialString, weight: 2 },
  { arbitrary: longString, weight: 1 },
  { arbitrary: deepNesting, weight: 1 },
);

const { value: anyJson } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", maxDepth: 6 },
    leaf,
    fc.array(tie("value"), { maxLength: 5 }),
    fc.array(fc.tuple(awkwardKey, tie("value")), { maxLength: 5 }).map(objectOf),
  ),
}));

/** an arbitrary JSON body: ours (with Raw pieces and awkward keys) or fast-check's own */
const arbitraryJsonBody: fc.Arbitrary<unknown> = fc.oneof(anyJson, fc.jsonValue({ stringUnit: "binary" }));

// ---------------------------------------------------------------------------------------------
// Mutations of a valid body
// ---------------------------------------------------------------------------------------------

type Path = readonly (string | number)[];

function pathsOf(value: unknown, at: Path = []): Path[] {
  const paths: Path[] = [at];
  if (Array.isArray(value)) for (const [index, item] of value.entries()) paths.push(...pathsOf(item, [...at, index]));
  else if (typeof value === "object" && value !== null && !(value instanceof Raw)) {
    for (const key of Object.keys(value)) paths.push(...pathsOf((value as Record<string, unknown>)[key], [...at, key]));
  }
  return paths;
}

interface Mutation {
  kind: "remove" | "wrong_type" | "null" | "extra_key" | "wrap_in_array" | "object_to_array";
  /** which node: an index into the body's paths, modulo their count */
  pick: number;
  value: unknown;
  key: string;
}

/**
 * Mutations of a body; an added key is unknown, awkward, or one the body's schema knows
 * somewhere (an optional field the valid body leaves out, such as remote_data or vendor_data,
 * then gets an arbitrary value).
 */
function mutations(schemaKeys: readonly string[]): fc.Arbitrary<Mutation[]> {
  const mutation = fc.record({
    kind: fc.constantFrom<Mutation["kind"]>(
      "remove",
      "wrong_type",
      "null",
      "extra_key",
      "wrap_in_array",
      "object_to_array",
    ),
    pick: fc.nat(),
    value: fc.oneof(leaf, anyJson),
    key: fc.oneof(
      fc.constantFrom("__proto__", "constructor", "unknown_field", "id", "user_id"),
      awkwardKey,
      ...(schemaKeys.length > 0 ? [fc.constantFrom(...schemaKeys)] : []),
    ),
  });
  return fc.array(mutation, { minLength: 1, maxLength: 3 });
}

/** Every object key the schema knows, at any depth. */
function keysOf(schema: z.ZodType | undefined, into = new Set<string>(), seen = new WeakSet<z.ZodType>()): Set<string> {
  if (!schema || seen.has(schema)) return into;
  seen.add(schema);
  const inner: unknown[] = [];
  if (schema instanceof z.ZodObject) {
    for (const [key, value] of Object.entries(schema.shape)) {
      into.add(key);
      inner.push(value);
    }
  } else if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable || schema instanceof z.ZodDefault) {
    inner.push(schema.unwrap());
  } else if (schema instanceof z.ZodArray) {
    inner.push(schema.element);
  } else if (schema instanceof z.ZodPipe) {
    inner.push(schema.in, schema.out);
  } else if (schema instanceof z.ZodUnion) {
    inner.push(...schema.options);
  }
  for (const child of inner) keysOf(child as z.ZodType, into, seen);
  return into;
}

/** the body with the mutations applied in order; undefined when the root was removed */
function mutate(valid: unknown, mutations: readonly Mutation[]): unknown {
  const root: { body: unknown } = { body: structuredClone(valid) };
  for (const m of mutations) {
    const paths = pathsOf(root.body);
    const path: Path = ["body", ...paths[m.pick % paths.length]!];
    let parent: unknown = root;
    for (const step of path.slice(0, -1)) parent = (parent as Record<string | number, unknown>)[step];
    const container = parent as Record<string | number, unknown>;
    const last = path.at(-1)!;
    const node = container[last];
    switch (m.kind) {
      case "remove":
        if (Array.isArray(container) && typeof last === "number") container.splice(last, 1);
        else delete container[last];
        break;
      case "wrong_type":
        container[last] = m.value;
        break;
      case "null":
        container[last] = null;
        break;
      case "extra_key": {
        const target =
          typeof node === "object" && node !== null && !Array.isArray(node) && !(node instanceof Raw)
            ? node
            : container;
        if (Array.isArray(target)) target.push(m.value);
        else
          Object.defineProperty(target, m.key, {
            value: m.value,
            enumerable: true,
            writable: true,
            configurable: true,
          });
        break;
      }
      case "wrap_in_array":
        container[last] = [node];
        break;
      case "object_to_array":
        container[last] = typeof node === "object" && node !== null ? Object.values(node) : [node, node];
        break;
    }
    if (root.body === undefined) break;
  }
  return root.body;
}

// ---------------------------------------------------------------------------------------------
// Bytes that are not JSON
// ---------------------------------------------------------------------------------------------

interface RawBody {
  body: Buffer;
  contentType: string;
  headers: Record<string, string>;
}

const contentType = fc.constantFrom(
  "application/json",
  "application/json; charset=utf-16",
  "application/json; charset=latin1",
  "application/json; charset=bogus",
  "application/merge-patch+json",
  "text/plain",
  "text/json",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "application/octet-stream",
  "application/xml",
  "",
  "*/*",
  "application/json, text/plain",
  "garbage",
  "application/",
);

const contentEncoding = fc.constantFrom<string | null>(
  null,
  null,
  null,
  "gzip",
  "deflate",
  "br",
  "identity",
  "x-bogus",
);

/** 4 MiB of "[" in 4 KiB: it inflates past any body limit */
const GZIP_BOMB = gzipSync(Buffer.from("[".repeat(4 * 1024 * 1024)));

function rawBodies(validText: string): fc.Arbitrary<RawBody> {
  const withHeaders = (body: fc.Arbitrary<Buffer>, type: fc.Arbitrary<string>): fc.Arbitrary<RawBody> =>
    fc.tuple(body, type, contentEncoding).map(
      ([bytes, ct, encoding]): RawBody => ({
        body: bytes,
        contentType: ct,
        headers: encoding ? { "Content-Encoding": encoding } : {},
      }),
    );
  return fc.oneof(
    // garbage bytes under any type
    withHeaders(
      fc.uint8Array({ minLength: 1, maxLength: 2000 }).map((bytes) => Buffer.from(bytes)),
      contentType,
    ),
    withHeaders(
      fc.string({ unit: "binary", minLength: 1, maxLength: 200 }).map((text) => Buffer.from(text)),
      contentType,
    ),
    // the valid body cut short, or with something after it
    withHeaders(
      fc.nat().map((cut) => Buffer.from(validText.slice(0, cut % Math.max(1, validText.length)) || "{")),
      fc.constant("application/json"),
    ),
    withHeaders(
      fc
        .constantFrom("}", ",", " x", "\u0000", "{}", "//", "/* */", "\ud800")
        .map((tail) => Buffer.from(validText + tail)),
      fc.constant("application/json"),
    ),
    // JSON5-ish, single quotes, a BOM, NaN: what JSON.parse refuses
    withHeaders(
      fc
        .constantFrom(
          "{name: 'x'}",
          "{'a': 1}",
          "\ufeff{}",
          "[NaN]",
          '{"a": Infinity}',
          '{"a": 01}',
          '{"a": .5}',
          '{"a":"\\x41"}',
          '"\\ud800"',
        )
        .map((text) => Buffer.from(text)),
      fc.constant("application/json"),
    ),
    // the valid body with a type other than JSON
    withHeaders(
      fc.constant(Buffer.from(validText)),
      contentType.filter((ct) => !/json/.test(ct)),
    ),
    // compressed: the valid body, bytes that only claim to be compressed, and a bomb past the limit
    fc.constantFrom<RawBody>(
      {
        body: gzipSync(Buffer.from(validText)),
        contentType: "application/json",
        headers: { "Content-Encoding": "gzip" },
      },
      { body: GZIP_BOMB, contentType: "application/json", headers: { "Content-Encoding": "gzip" } },
      { body: Buffer.from(validText), contentType: "application/json", headers: { "Content-Encoding": "gzip" } },
      {
        body: gzipSync(Buffer.from(validText)).subarray(0, 20),
        contentType: "application/json",
        headers: { "Content-Encoding": "gzip" },
      },
    ),
  );
}

// ---------------------------------------------------------------------------------------------
// Multipart
// ---------------------------------------------------------------------------------------------

interface Upload {
  body: Buffer;
  contentType: string;
}

const garbageBytes = fc.uint8Array({ minLength: 0, maxLength: 3000 }).map((bytes) => Buffer.from(bytes));
const awkwardFilename = fc.oneof(
  fc.constantFrom(
    "",
    "part.stl",
    "../../etc/passwd",
    "a\u0000.stl",
    '"quoted".stl',
    "💥.step",
    "x".repeat(2000),
    "con",
    "a;b=c",
  ),
  fc.string({ unit: "binary", maxLength: 40 }).map((name) => name.replace(/["\r\n]/g, "_")),
);

function uploads(field: string): fc.Arbitrary<Upload> {
  const boundaryOf = (contentType: string) => contentType.split("boundary=")[1]!;
  return fc.oneof(
    // no file part: nothing, or a text field by the file's name
    fc.constant(multipart([])),
    fc.constant(multipart([{ name: field, data: "a text field, not a file" }])),
    // the file under another name, or two files
    fc
      .tuple(
        fc.string({ minLength: 1, maxLength: 20 }).filter((name) => name !== field && !/["\r\n]/.test(name)),
        garbageBytes,
      )
      .map(([name, data]) => multipart([{ name, filename: "part.stl", data }])),
    garbageBytes.map((data) =>
      multipart([
        { name: field, filename: "a.stl", data },
        { name: field, filename: "b.stl", data },
      ]),
    ),
    // garbage bytes as the file, under an awkward filename
    fc.tuple(garbageBytes, awkwardFilename).map(([data, filename]) => multipart([{ name: field, filename, data }])),
    // a readable part under an awkward filename: the filename is what is stored
    awkwardFilename.map((filename) =>
      multipart([{ name: field, filename, contentType: "model/stl", data: TETRAHEDRON_STL }]),
    ),
    // cut short, with the closing boundary or more missing
    fc.tuple(garbageBytes, fc.nat()).map(([data, cut]) => {
      const whole = multipart([{ name: field, filename: "part.stl", data }]);
      return { body: whole.body.subarray(0, cut % whole.body.length), contentType: whole.contentType };
    }),
    // a boundary other than the body's, none at all, or none in the body
    garbageBytes.map((data) => {
      const whole = multipart([{ name: field, filename: "part.stl", data }]);
      return { body: whole.body, contentType: `multipart/form-data; boundary=${boundaryOf(whole.contentType)}x` };
    }),
    fc.constant({
      body: multipart([{ name: field, filename: "part.stl", data: "x" }]).body,
      contentType: "multipart/form-data",
    }),
    fc
      .tuple(
        garbageBytes,
        fc.constantFrom(
          "multipart/form-data; boundary=x",
          "multipart/mixed; boundary=x",
          "application/octet-stream",
          "application/json",
          "text/plain",
          "",
        ),
      )
      .map(([body, ct]) => ({ body, contentType: ct })),
    // a part whose headers are broken
    fc
      .constantFrom(
        "Content-Disposition: form-data\r\n",
        'Content-Disposition: attachment; name="file"\r\n',
        "X: y\r\n",
        "",
      )
      .map((headers) => ({
        body: Buffer.from(`--b\r\n${headers}\r\nbytes\r\n--b--\r\n`),
        contentType: "multipart/form-data; boundary=b",
      })),
  );
}

// ---------------------------------------------------------------------------------------------
// Query strings and path parameters
// ---------------------------------------------------------------------------------------------

/** percent-encodes everything but the unreserved characters, byte by byte of the UTF-8 */
function percentEncode(text: string): string {
  let out = "";
  for (const byte of Buffer.from(text, "utf8")) {
    const char = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~]/.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

/** the text as it stands, but for the characters that would end the query or the path */
function asIs(text: string): string {
  return text.replace(/#/g, "%23");
}

const MALFORMED_ESCAPES = [
  "%",
  "%%",
  "%zz",
  "%E0%A4%A",
  "%C0%AF",
  "%ED%A0%80",
  "%FF",
  "%00",
  "%u0041",
  "%2",
  "%%32%35",
];

const queryValue = fc.oneof(
  fc.constantFrom(
    "",
    "0",
    "-1",
    "-0",
    "1.5",
    "1e309",
    "-1e309",
    "1e3",
    "0x1f",
    "0b1",
    " 1",
    "1 ",
    "+1",
    "NaN",
    "Infinity",
    "-Infinity",
    "99999999999999999999999",
    "9007199254740993",
    "true",
    "false",
    "TRUE",
    "1",
    "yes",
    "null",
    "undefined",
    "[]",
    "{}",
    "\u0000",
    "💥",
    "\ud800",
    "csv",
    "excel",
    "en",
    "de",
    "mesh",
    "thumbnail",
    "drill",
    ...MALFORMED_ESCAPES,
  ),
  fc.integer().map(String),
  fc.double().map(String),
  fc.bigInt().map(String),
  fc.string({ unit: "binary", maxLength: 40 }),
  // long: up to 6 000 characters percent-encoded (see QUERY_BUDGET)
  fc
    .tuple(fc.integer({ min: 100, max: 6000 }), fc.constantFrom("a", "1", "é", "💥"))
    .map(([length, unit]) => unit.repeat(Math.floor(length / percentEncode(unit).length))),
);

interface QueryPart {
  key: string;
  value: string;
  /** sent as is (malformed escapes reach the server) instead of percent-encoded */
  verbatim: boolean;
  /** `key` alone, without `=` */
  bare: boolean;
}

/**
 * What a query may take of Node's 16 KiB request head: Node answers a longer head itself (431,
 * no body) before the application sees the request. Parts past it are left out.
 */
const QUERY_BUDGET = 10_000;

function queryText(parts: readonly QueryPart[]): string {
  const encode = (text: string, verbatim: boolean) => (verbatim ? asIs(text) : percentEncode(text));
  const texts: string[] = [];
  let used = 0;
  for (const p of parts) {
    // percent-encoded is the longest a part gets on the wire (the URL parser encodes what asIs leaves)
    const wire = percentEncode(p.key).length + (p.bare ? 0 : 1 + percentEncode(p.value).length) + 1;
    if (used + wire > QUERY_BUDGET) continue;
    used += wire;
    texts.push(encode(p.key, p.verbatim) + (p.bare ? "" : `=${encode(p.value, p.verbatim)}`));
  }
  return texts.length === 0 ? "" : `?${texts.join("&")}`;
}

function queryKeys(route: RouteSpec): string[] {
  return route.query instanceof z.ZodObject ? Object.keys(route.query.shape) : [];
}

function arbitraryQuery(keys: readonly string[]): fc.Arbitrary<string> {
  const key = fc.oneof(
    ...(keys.length > 0 ? [fc.constantFrom(...keys), fc.constantFrom(...keys.map((k) => `${k}[]`))] : []),
    fc.constantFrom(
      "__proto__",
      "constructor",
      "toString",
      "hasOwnProperty",
      "",
      "a[b]",
      "[]",
      "q[0]",
      "limit",
      "cursor",
      "%",
      "&&",
      "==",
    ),
    fc.string({ unit: "binary", maxLength: 12 }),
  );
  const part = fc.record({ key, value: queryValue, verbatim: fc.boolean(), bare: fc.boolean() });
  return fc.oneof(
    fc.array(part, { maxLength: 8 }).map(queryText),
    // the query as a whole: anything, as it stands
    fc.string({ unit: "binary", maxLength: 200 }).map((text) => `?${asIs(text)}`),
    fc.constantFrom("?", "??", "?&", "?=", "?&=&", "?%", "?a=1&a=2&a=3", `?${"x=1&".repeat(500)}`),
  );
}

interface QueryMutation {
  key: string;
  kind: "omit" | "empty" | "repeat" | "replace" | "bracketed" | "bare";
  value: string;
}

/** the valid query with each mutation applied to the parameter it names */
function mutateQuery(valid: URLSearchParams, mutations: readonly QueryMutation[]): string {
  let parts: QueryPart[] = [...valid].map(([key, value]) => ({ key, value, verbatim: false, bare: false }));
  for (const m of mutations) {
    const part = { key: m.key, value: m.value, verbatim: MALFORMED_ESCAPES.includes(m.value), bare: false };
    switch (m.kind) {
      case "omit":
        parts = parts.filter((p) => p.key !== m.key);
        break;
      case "empty":
        parts = [...parts.filter((p) => p.key !== m.key), { ...part, value: "" }];
        break;
      case "repeat":
        parts = [...parts, part];
        break;
      case "replace":
        parts = [...parts.filter((p) => p.key !== m.key), part];
        break;
      case "bracketed":
        parts = [...parts.filter((p) => p.key !== m.key), { ...part, key: `${m.key}[]` }];
        break;
      case "bare":
        parts = [...parts.filter((p) => p.key !== m.key), { ...part, bare: true }];
        break;
    }
  }
  return queryText(parts);
}

function pathValue(ownId: string | undefined): fc.Arbitrary<string> {
  return fc.oneof(
    fc.string({ unit: "binary", maxLength: 60 }).map(percentEncode),
    fc.string({ minLength: 1, maxLength: 10 }).map(percentEncode),
    fc.uuid().map(String),
    fc
      .tuple(fc.integer({ min: 100, max: 6000 }), fc.constantFrom("a", "é", "0", "💥"))
      .map(([length, unit]) => percentEncode(unit).repeat(Math.floor(length / percentEncode(unit).length))),
    fc.constantFrom(
      ...MALFORMED_ESCAPES,
      ".",
      "..",
      "%2e%2e",
      "%2F",
      "a%2Fb",
      "%20",
      "null",
      "0",
      "-1",
      "1e400",
      "NaN",
      "__proto__",
      "constructor",
      "00000000-0000-0000-0000-000000000000",
      "ffffffff-ffff-ffff-ffff-ffffffffffff",
    ),
    // the owner's own id, written the ways Postgres reads but the schema may not
    ...(ownId
      ? [
          fc.constantFrom(
            ownId.toUpperCase(),
            `%7B${ownId}%7D`,
            ownId.replace(/-/g, ""),
            `${ownId}x`,
            `%20${ownId}`,
            `${ownId}%00`,
            `${ownId}%0A`,
          ),
        ]
      : []),
  );
}

// ---------------------------------------------------------------------------------------------

before(async () => {
  db = await createTestDatabase();
  geometry = createGeometryPool({ size: 1 });
  const ready = geometry.ready();
  api = await startTestApi(db, {
    geometry,
    // the fuzzing runs thousands of requests a minute on one key: 429s would hide the answers
    env: {
      RATE_LIMIT_PER_MINUTE: "1000000",
      CAM_PLANNING_RATE_LIMIT_PER_HOUR: "1000000",
      UPLOAD_LIMIT_BYTES: String(1024 * 1024),
    },
  });
  snapshotSql = await buildSnapshotSql();
  await snapshot();
  await ready;
});
after(async () => {
  await api.close();
  await geometry.close();
  await db.drop();
});

describe("malformed input to every route of the table", () => {
  /** the owner of the read-only routes' resources, shared by them */
  let reader: Owner | undefined;

  for (const route of routes) {
    if (!route.params && !route.query && !route.body && !route.upload) continue; // nothing a client sends is validated
    const label = `${route.method.toUpperCase()} ${route.path}`;
    const method = route.method.toUpperCase();
    const params = [...route.path.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1]!);
    const keys = queryKeys(route);

    describe(label, () => {
      let owner: Owner;
      /** the route's path and query string the way the owner calls it validly, with some ids replaced */
      const pathOf = (ids: Record<string, string> = {}, query?: string) => {
        const own: Record<string, string> = {
          ...owner.fixtures.ids,
          ...(REFUSING_PROJECT.has(route.operationId) ? { project_id: owner.bareProjectId } : {}),
        };
        const path = route.path.replace(/\{([a-z_]+)\}/g, (_, name: string) => {
          const id = ids[name] ?? own[name]; // a fuzzed id may be empty
          if (id === undefined) throw new Error(`no id for {${name}} of ${route.operationId}`);
          return id;
        });
        return path + (query ?? owner.fixtures.queries[route.operationId] ?? "");
      };

      before(async () => {
        // a route that may change data has an owner of its own; the read-only ones share one
        if (route.method === "get") reader ??= await createOwner("reader");
        owner = route.method === "get" && reader ? reader : await createOwner(route.operationId);
        known = undefined;
      });

      if (route.body) {
        const valid = validBodies[route.operationId];

        it("answers arbitrary JSON bodies below 500, refusing them in the error envelope without changing anything", async () => {
          await fc.assert(
            fc.asyncProperty(arbitraryJsonBody, async (body) => {
              await send(method, pathOf(), {
                key: owner.user.key,
                raw: { body: jsonText(body), contentType: "application/json" },
              });
            }),
            runs(20),
          );
        });

        it("answers mutations of a valid body (a field removed, of the wrong type, null, an unknown key, an array) below 500, in the envelope", async () => {
          assert.ok(valid !== undefined, `validBodies has no body for ${route.operationId}`);
          await fc.assert(
            fc.asyncProperty(mutations([...keysOf(route.body)]), async (applied) => {
              const body = mutate(valid, applied);
              const options: RequestOptions =
                body === undefined ? {} : { raw: { body: jsonText(body), contentType: "application/json" } };
              await send(method, pathOf(), { key: owner.user.key, ...options });
            }),
            runs(25),
          );
        });

        it("answers bytes that are not JSON or a broken Content-Encoding below 500, in the envelope, and a body of another type with 415", async () => {
          await fc.assert(
            fc.asyncProperty(rawBodies(JSON.stringify(valid ?? {})), async (raw) => {
              const res = await send(method, pathOf(), {
                key: owner.user.key,
                raw: { body: raw.body, contentType: raw.contentType },
                headers: raw.headers,
              });
              if (!raw.headers["Content-Encoding"] && !/json/.test(raw.contentType)) {
                assert.equal(res.status, 415, `a ${JSON.stringify(raw.contentType)} body is 415`);
              }
            }),
            runs(15),
          );
        });
      }

      if (route.upload) {
        const field = route.upload.field;
        it(`answers malformed multipart (no ${field} part, another name, garbage, cut short, a wrong boundary) below 500, in the envelope`, async () => {
          await fc.assert(
            fc.asyncProperty(uploads(field), async (upload) => {
              await send(method, pathOf(), { key: owner.user.key, raw: upload });
            }),
            runs(20),
          );
        });
      }

      it("answers arbitrary query strings (repeated keys, empty values, huge, negative, unicode, long) below 500, in the envelope", async () => {
        await fc.assert(
          fc.asyncProperty(arbitraryQuery(keys), async (query) => {
            await send(method, pathOf({}, query), { key: owner.user.key, ...bodyOf(route) });
          }),
          runs(15),
        );
      });

      if (keys.length > 0) {
        it(`answers mutations of its query parameters (${keys.join(", ")}) below 500, in the envelope`, async () => {
          const validQuery = new URLSearchParams(owner.fixtures.queries[route.operationId] ?? "");
          const mutationOf = fc.record({
            key: fc.constantFrom(...keys),
            kind: fc.constantFrom<QueryMutation["kind"]>("omit", "empty", "repeat", "replace", "bracketed", "bare"),
            value: queryValue,
          });
          await fc.assert(
            fc.asyncProperty(fc.array(mutationOf, { minLength: 1, maxLength: 3 }), async (applied) => {
              await send(method, pathOf({}, mutateQuery(validQuery, applied)), {
                key: owner.user.key,
                ...bodyOf(route),
              });
            }),
            runs(15),
          );
        });
      }

      if (params.length > 0) {
        it(`answers arbitrary strings in place of ${params.join(" and ")} below 500, in the envelope`, async () => {
          const value = fc
            .constantFrom(...params)
            .chain((param) => fc.tuple(fc.constant(param), pathValue(owner.fixtures.ids[param])));
          await fc.assert(
            fc.asyncProperty(value, async ([param, text]) => {
              await send(method, pathOf({ [param]: text }), { key: owner.user.key, ...bodyOf(route) });
            }),
            runs(15),
          );
        });
      }

      if (REFUSING_PROJECT.has(route.operationId)) {
        it("started no task while it was fuzzed", async () => {
          const { rows } = await db.owner.query<{ n: number }>(
            "select count(*)::int as n from app_public.tasks where user_id = $1 and project_id = $2",
            [owner.user.id, owner.bareProjectId],
          );
          assert.equal(rows[0]!.n, 0);
        });
      }
    });
  }
});

describe("malformed input that was answered 500", () => {
  let owner: Owner;
  before(async () => {
    owner = await createOwner("regressions");
    known = undefined;
  });

  interface FieldsBody {
    detail: { code: string; details: { fields?: { field: string; code: string }[] } };
  }

  it("answers 400 invalid_parameter for a path parameter that is not percent-encoded UTF-8, on an id and on a text parameter", async () => {
    const manufacturer = owner.fixtures.ids.manufacturer!;
    for (const text of ["%", "%zz", "%E0%A4%A", "%FF"]) {
      for (const path of [
        `/projects/${text}`,
        `/equipment/external-catalogue/${manufacturer}/${text}`,
        `/projects/${text}/stock/bounding-box`,
      ]) {
        const method = path.endsWith("bounding-box") ? "POST" : "GET";
        const res = await send(method, path, {
          key: owner.user.key,
          ...(method === "POST" ? { body: validBodies.setStockBoundingBox } : {}),
        });
        assert.equal(res.status, 400, `${method} ${path}`);
        const body = res.body as FieldsBody;
        assert.equal(body.detail.code, "invalid_parameter");
        assert.deepEqual(
          body.detail.details.fields?.map((f) => [f.field, f.code]),
          [["path", "invalid_encoding"]],
        );
      }
    }
  });

  it("answers 400 invalid_parameter for U+0000 in a text path parameter, a query value, a body field and a JSON object, storing nothing", async () => {
    const manufacturer = owner.fixtures.ids.manufacturer!;
    const requests: [string, string, RequestOptions][] = [
      ["GET", `/equipment/external-catalogue/${manufacturer}/a%00b`, {}],
      ["GET", "/equipment/external-catalogue/search?q=drill%00", {}],
      ["POST", "/projects", { body: { name: "Nul\u0000", customer: "C" } }],
      ["PATCH", `/projects/${owner.fixtures.ids.project_id!}`, { body: { customer: "\u0000" } }],
      ["POST", "/libraries/equipment", { body: { library: { name: "Nul" }, remote_data: { key: "a\u0000b" } } }],
    ];
    for (const [method, path, options] of requests) {
      const res = await send(method, path, { key: owner.user.key, ...options }); // send() checks nothing was stored
      assert.equal(res.status, 400, `${method} ${path}: ${res.text}`);
      const body = res.body as FieldsBody;
      assert.equal(body.detail.code, "invalid_parameter", `${method} ${path}`);
      assert.deepEqual(
        body.detail.details.fields?.map((f) => f.code),
        ["invalid_character"],
        `${method} ${path}`,
      );
    }
  });

  it("answers 400 json_too_deep for a free-form object (remote_data, vendor_data) nested thousands of levels deep, storing nothing", async () => {
    const deep = (depth: number) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
    const holder = JSON.stringify({ ...(validBodies.createHolder as object), uuid: randomUUID() });
    const requests: [string, string][] = [
      ["/libraries/equipment", `{"library":{"name":"Deep"},"remote_data":${deep(5000)}}`],
      [`/libraries/equipment/${owner.fixtures.ids.library_id!}`, `{"remote_data":${deep(40_000)}}`],
      ["/libraries/holders", `${holder.slice(0, -1)},"vendor_data":${deep(5000)}}`],
    ];
    for (const [path, text] of requests) {
      const method = path.startsWith("/libraries/equipment/") ? "PATCH" : "POST";
      const res = await send(method, path, {
        key: owner.user.key,
        raw: { body: text, contentType: "application/json" },
      });
      assert.equal(res.status, 400, `${method} ${path}: ${res.text}`);
      assert.equal((res.body as FieldsBody).detail.code, "json_too_deep");
    }
  });
});

describe("the snapshot every refusal is checked against", () => {
  it("sees a row written, even with the same values, and a row deleted", async () => {
    const before = await snapshot();
    const { rows } = await db.owner.query<{ id: string }>(
      "update app_public.projects set name = name where id = (select id from app_public.projects limit 1) returning id",
    );
    assert.equal(rows.length, 1);
    const written = await snapshot();
    assert.notDeepEqual(written, before, "an update");
    await db.owner.query("delete from app_public.projects where id = $1", [rows[0]!.id]);
    assert.notDeepEqual(await snapshot(), written, "a delete");
    known = undefined;
  });
});

/** the route's valid body, for the properties that fuzz something else */
function bodyOf(route: RouteSpec): RequestOptions {
  if (route.upload)
    return { raw: multipart([{ name: route.upload.field, filename: "part.stl", data: TETRAHEDRON_STL }]) };
  const body = validBodies[route.operationId];
  return body === undefined ? {} : { body };
}
