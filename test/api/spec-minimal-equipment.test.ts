/**
 * Holders, tools and assemblies with only the fields the spec shows (Holder: uuid, name,
 * stacking_group, manufacturer; Tool: uuid, name, tool_type, manufacturer, flute_count and
 * tool_parameters CuttingDiameter, DepthOfCutMaximum, OverallLength), over HTTP against a real
 * PostgreSQL: accepted wherever the spec accepts them, the answers listing what is assumed
 * (kernel/tools/assumed-geometry.ts), the stored items keeping only what was given.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { STANDALONE_HOLDER_SHANK_MM } from "../../kernel/tools/assumed-geometry.ts";
import { startTestApi, type TestApi } from "../support/api.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { createTestUser, type TestUser } from "../support/users.ts";

interface Assumed {
  field: string;
  value: unknown;
  reason: string;
}
type Item = Record<string, unknown> & {
  uuid: string;
  assumed?: Assumed[];
  warnings?: { field: string; code: string; message: string }[];
};
interface ErrorBody {
  detail: {
    code: string;
    message: string;
    details: { fields?: { field: string; code: string }[]; missing_scopes?: string[] };
  };
}

let db: TestDatabase;
let api: TestApi;
let alice: TestUser;
let bob: TestUser;

before(async () => {
  db = await createTestDatabase();
  api = await startTestApi(db);
  alice = await createTestUser(db.owner, "alice");
  bob = await createTestUser(db.owner, "bob");
});
after(async () => {
  await api.close();
  await db.drop();
});

const specHolder = () => ({
  uuid: randomUUID(),
  name: "SK40 collet chuck",
  stacking_group: "Holder",
  manufacturer: "Acme",
});
const specTool = (
  tool_type = "CentreCuttingEndMill",
  tool_parameters: Record<string, number> = { CuttingDiameter: 10, DepthOfCutMaximum: 22, OverallLength: 72 },
) => ({
  uuid: randomUUID(),
  name: `${tool_type} ${tool_parameters.CuttingDiameter}`,
  tool_type,
  manufacturer: "Acme",
  flute_count: 3,
  tool_parameters,
});
const specAssembly = (holder: object, tool: object) => ({
  uuid: randomUUID(),
  name: "Minimal",
  manufacturer: "Acme",
  components: [
    { component_type: "adaptive_item", adaptive_item: holder },
    { component_type: "parametric_cutting_tool", parametric_cutting_tool: tool },
  ],
});
const fieldsOf = (assumed: Assumed[] | undefined) => (assumed ?? []).map((a) => a.field);
const errorFields = (body: unknown) =>
  ((body as ErrorBody).detail.details.fields ?? []).map(({ field, code }) => `${field} ${code}`).sort();

async function storedBody(
  table: "holders" | "tools",
  user: TestUser,
  id: string,
): Promise<Record<string, unknown> | undefined> {
  const { rows } = await db.owner.query(`select body from app_public.${table} where user_id = $1 and id = $2`, [
    user.id,
    id,
  ]);
  return rows[0]?.body;
}

async function defaultLibrary(user: TestUser): Promise<string> {
  const res = await api.request<{ items: { id: string; is_default: boolean }[] }>("GET", "/libraries/equipment", {
    key: user.key,
  });
  const found = res.body.items.find((l) => l.is_default);
  assert.ok(found, "every new user has a default library");
  return found.id;
}

describe("a holder of the spec's fields", () => {
  it("is stored as given, answered with its assumed profile on POST, GET and list, and a PATCH that gives the profile ends the assumption", async () => {
    const holder = specHolder();
    const created = await api.request<Item>("POST", "/libraries/holders", { key: alice.key, body: holder });
    assert.equal(created.status, 201, created.text);
    const { assumed, ...rest } = created.body;
    assert.deepEqual(rest, holder);
    assert.deepEqual(fieldsOf(assumed), ["segments", "gauge_length_mm"]);
    assert.deepEqual(assumed![0]!.value, [
      { length_mm: 15.9, upper_diameter_mm: 63, lower_diameter_mm: 63 },
      { length_mm: 84.1, upper_diameter_mm: 52, lower_diameter_mm: 52 },
    ]);
    assert.match(assumed![0]!.reason, new RegExp(`shanks up to ${STANDALONE_HOLDER_SHANK_MM} mm`));
    assert.deepEqual(await storedBody("holders", alice, holder.uuid), holder, "nothing assumed is stored");

    const read = await api.request<Item>("GET", `/libraries/holders/${holder.uuid}`, { key: alice.key });
    assert.deepEqual(read.body, created.body);
    const list = await api.request<{ items: Item[] }>("GET", "/libraries/holders", { key: alice.key });
    assert.deepEqual(
      list.body.items.find((h) => h.uuid === holder.uuid),
      created.body,
    );

    const segments = [
      { length_mm: 16, upper_diameter_mm: 63, lower_diameter_mm: 63 },
      { length_mm: 54, upper_diameter_mm: 42, lower_diameter_mm: 42 },
    ];
    const given = await api.request<Item>("PATCH", `/libraries/holders/${holder.uuid}`, {
      key: alice.key,
      body: { segments },
    });
    assert.equal(given.status, 200, given.text);
    assert.deepEqual(
      fieldsOf(given.body.assumed),
      ["gauge_length_mm"],
      "the gauge length is the segments' sum, said so",
    );
    const whole = await api.request<Item>("PATCH", `/libraries/holders/${holder.uuid}`, {
      key: alice.key,
      body: { gauge_length_mm: 70 },
    });
    assert.equal(whole.body.assumed, undefined);
    const again = await api.request<Item>("PATCH", `/libraries/holders/${holder.uuid}`, {
      key: alice.key,
      body: { segments: null, gauge_length_mm: null },
    });
    assert.equal(again.status, 200, again.text);
    assert.deepEqual(fieldsOf(again.body.assumed), ["segments", "gauge_length_mm"]);
  });

  it("takes back a holder as it was read, assumed list included, without storing the list", async () => {
    const created = await api.request<Item>("POST", "/libraries/holders", { key: alice.key, body: specHolder() });
    const copy = { ...created.body, uuid: randomUUID() };
    const res = await api.request<Item>("POST", "/libraries/holders", { key: alice.key, body: copy });
    assert.equal(res.status, 201, res.text);
    const { assumed: _assumed, ...given } = copy;
    assert.deepEqual(await storedBody("holders", alice, copy.uuid), given);
  });
});

describe("a tool of the spec's fields", () => {
  it("is stored as given and answered with what is assumed for its type", async () => {
    const drill = specTool("Drill", { CuttingDiameter: 6.8, DepthOfCutMaximum: 20, OverallLength: 109 });
    const created = await api.request<Item>("POST", "/libraries/tools", { key: alice.key, body: drill });
    assert.equal(created.status, 201, created.text);
    const { assumed, ...rest } = created.body;
    assert.deepEqual(rest, drill);
    assert.deepEqual(
      assumed!.map((a) => [a.field, a.value]),
      [
        ["tool_parameters.PointAngle", 140],
        ["tool_parameters.FluteLength", 20],
        ["tool_parameters.ShankDiameter", 8],
        ["tool_material", "hss"],
      ],
    );
    assert.deepEqual(await storedBody("tools", alice, drill.uuid), drill);
    const read = await api.request<Item>("GET", `/libraries/tools/${drill.uuid}`, { key: alice.key });
    assert.deepEqual(read.body, created.body);
    const list = await api.request<{ items: Item[] }>("GET", "/libraries/tools?tool_type=Drill", { key: alice.key });
    assert.deepEqual(
      list.body.items.find((t) => t.uuid === drill.uuid),
      created.body,
    );

    const patched = await api.request<Item>("PATCH", `/libraries/tools/${drill.uuid}`, {
      key: alice.key,
      body: { tool_parameters: { PointAngle: 118 }, tool_material: "hss_cobalt" },
    });
    assert.equal(patched.status, 200, patched.text);
    assert.deepEqual(fieldsOf(patched.body.assumed), ["tool_parameters.FluteLength", "tool_parameters.ShankDiameter"]);
  });

  it("accepts a tool whose shape cannot be assumed, and says the planner will not use it", async () => {
    const chamfer = specTool("ChamferMill", { CuttingDiameter: 10, OverallLength: 60 });
    const created = await api.request<Item>("POST", "/libraries/tools", { key: alice.key, body: chamfer });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(
      created.body.warnings?.map((w) => [w.field, w.code]),
      [["tool_parameters.ChamferAngle", "not_planned"]],
    );
    const validated = await api.request("POST", "/libraries/tools/validate", { key: alice.key, body: chamfer });
    assert.equal(validated.status, 204);
  });

  it("refuses a tool without a diameter or a type with 400 naming the field, storing nothing", async () => {
    for (const [body, expected] of [
      [{ ...specTool(), tool_parameters: { OverallLength: 72 } }, ["body.tool_parameters.CuttingDiameter required"]],
      [{ ...specTool(), tool_parameters: {} }, ["body.tool_parameters.CuttingDiameter required"]],
      [{ ...specTool(), tool_type: undefined }, ["body.tool_type required"]],
      [
        { ...specTool(), assumed: "ignored", tool_parameters: { CuttingDiameter: -4 } },
        ["body.tool_parameters.CuttingDiameter positive"],
      ],
    ] as const) {
      for (const path of ["/libraries/tools", "/libraries/tools/validate"]) {
        const res = await api.request<ErrorBody>("POST", path, { key: alice.key, body });
        assert.equal(res.status, 400, `${path} ${JSON.stringify(body)}`);
        assert.equal(res.body.detail.code, "invalid_parameter");
        assert.deepEqual(errorFields(res.body), expected);
      }
      assert.equal(await storedBody("tools", alice, body.uuid), undefined);
    }
  });
});

describe("an assembly of the spec's fields", () => {
  it("is accepted with add_to_library=true, answered with every assumption, its components saved as given", async () => {
    const library = await defaultLibrary(alice);
    const [holder, tool] = [specHolder(), specTool()];
    const assembly = specAssembly(holder, tool);
    const created = await api.request<Item>("POST", `/libraries/equipment/${library}/assemblies?add_to_library=true`, {
      key: alice.key,
      body: assembly,
    });
    assert.equal(created.status, 201, created.text);
    const { assumed, ...rest } = created.body;
    assert.deepEqual(rest, assembly);
    assert.deepEqual(fieldsOf(assumed), [
      "components.1.parametric_cutting_tool.tool_parameters.FluteLength",
      "components.1.parametric_cutting_tool.tool_parameters.ShankDiameter",
      "components.1.parametric_cutting_tool.tool_material",
      "components.1.parametric_cutting_tool.tool_parameters.LengthBelowHolder",
      "components.0.adaptive_item.segments",
      "components.0.adaptive_item.gauge_length_mm",
    ]);
    // the holder's profile for the tool's 10 mm shank: an ER32 nut's 50 mm below the SK40 flange
    const segments = assumed!.find((a) => a.field === "components.0.adaptive_item.segments")!.value as {
      lower_diameter_mm: number;
    }[];
    assert.deepEqual(
      segments.map((s) => s.lower_diameter_mm),
      [63, 50],
    );
    assert.equal(assumed!.find((a) => a.field.endsWith("LengthBelowHolder"))!.value, 24);

    assert.deepEqual(await storedBody("holders", alice, holder.uuid), holder);
    assert.deepEqual(await storedBody("tools", alice, tool.uuid), tool);
    const standalone = await api.request<Item>("GET", `/libraries/holders/${holder.uuid}`, { key: alice.key });
    assert.deepEqual(fieldsOf(standalone.body.assumed), ["segments", "gauge_length_mm"]);
    const read = await api.request<{ library: { assemblies: Item[] } }>("GET", `/libraries/equipment/${library}`, {
      key: alice.key,
    });
    assert.deepEqual(
      read.body.library.assemblies.find((a) => a.uuid === assembly.uuid),
      created.body,
    );

    // an assembly read back goes in again as it is; what was assumed is not stored
    const copy = { ...created.body, uuid: randomUUID() };
    const again = await api.request<Item>("POST", `/libraries/equipment/${library}/assemblies`, {
      key: alice.key,
      body: copy,
    });
    assert.equal(again.status, 201, again.text);
    const { rows } = await db.owner.query("select body from app_public.library_assemblies where id = $1", [copy.uuid]);
    assert.equal(rows[0].body.assumed, undefined);
  });

  it("plans a tool alone with an assumed holder, and a library of spec-minimal assemblies is accepted whole", async () => {
    const alone = {
      uuid: randomUUID(),
      name: "Drill alone",
      components: [
        {
          component_type: "parametric_cutting_tool",
          parametric_cutting_tool: specTool("Drill", { CuttingDiameter: 5 }),
        },
      ],
    };
    const res = await api.request<{ id: string; library: { assemblies: Item[] } }>("POST", "/libraries/equipment", {
      key: alice.key,
      body: {
        library: {
          name: "Minimal",
          assemblies: [alone, specAssembly(specHolder(), specTool("Tap", { CuttingDiameter: 8 }))],
        },
      },
    });
    assert.equal(res.status, 201, res.text);
    const [first, second] = res.body.library.assemblies;
    const holder = first!.assumed?.find((a) => a.field === "components");
    assert.match(holder?.reason ?? "", /no Holder/);
    assert.ok(
      second!.assumed?.some(
        (a) => a.field === "components.1.parametric_cutting_tool.tool_parameters.ThreadPitch" && a.value === 1.25,
      ),
    );
  });

  it("refuses what the spec does not make optional with 400 naming each field, storing nothing", async () => {
    const library = await defaultLibrary(alice);
    const { stacking_group: _group, ...noGroup } = specHolder();
    const noDiameter = { ...specTool(), tool_parameters: { OverallLength: 72 } };
    const bad = specAssembly(noGroup, noDiameter);
    const res = await api.request<ErrorBody>("POST", `/libraries/equipment/${library}/assemblies?add_to_library=true`, {
      key: alice.key,
      body: bad,
    });
    assert.equal(res.status, 400, res.text);
    assert.deepEqual(errorFields(res.body), [
      "body.components.0.adaptive_item.stacking_group required",
      "body.components.1.parametric_cutting_tool.tool_parameters.CuttingDiameter required",
    ]);
    const { rows } = await db.owner.query(
      "select count(*)::int as n from app_public.library_assemblies where id = $1",
      [bad.uuid],
    );
    assert.equal(rows[0].n, 0);
    assert.equal(await storedBody("tools", alice, noDiameter.uuid), undefined);
  });

  it("answers 404 for another user's library and items, and 403 without the write scope", async () => {
    const library = await defaultLibrary(alice);
    const holder = specHolder();
    assert.equal((await api.request("POST", "/libraries/holders", { key: alice.key, body: holder })).status, 201);
    const stolen = await api.request<ErrorBody>(
      "POST",
      `/libraries/equipment/${library}/assemblies?add_to_library=true`,
      { key: bob.key, body: specAssembly(specHolder(), specTool()) },
    );
    assert.equal(stolen.status, 404);
    assert.equal(stolen.body.detail.code, "not_found");
    assert.equal((await api.request("GET", `/libraries/holders/${holder.uuid}`, { key: bob.key })).status, 404);
    assert.equal(
      (await api.request("PATCH", `/libraries/holders/${holder.uuid}`, { key: bob.key, body: { gauge_length_mm: 80 } }))
        .status,
      404,
    );
    const readOnly = await alice.keyWith(["equipment:read", "libraries:read"]);
    for (const [path, body] of [
      ["/libraries/holders", specHolder()],
      ["/libraries/tools", specTool()],
      [`/libraries/equipment/${library}/assemblies?add_to_library=true`, specAssembly(specHolder(), specTool())],
    ] as const) {
      const res = await api.request<ErrorBody>("POST", path, { key: readOnly, body });
      assert.equal(res.status, 403, path);
      assert.deepEqual(res.body.detail.details.missing_scopes, ["equipment:write"]);
    }
    assert.deepEqual(await storedBody("holders", alice, holder.uuid), holder);
  });
});
