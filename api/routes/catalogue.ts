/**
 * The external tool catalogue (spec: External tool catalogue; docs/catalogue.md): the tool
 * types and how many entries each has, the search, and one entry as the full assembly
 * library entry a client posts to its own library after giving it a fresh uuid. Reference
 * data every user reads alike; written only by the seed and `cli catalogue import`.
 */
import { z } from "zod";
import { countByToolType, getCatalogueAssembly } from "../../db/queries/catalogue/entries.ts";
import { MAX_QUERY_WORDS, normalizeQuery, queryWords } from "../../db/queries/catalogue/query-words.ts";
import { searchCatalogue } from "../../db/queries/catalogue/search.ts";
import type { CatalogueHit } from "../../db/queries/catalogue/hit.ts";
import { Assembly } from "../../kernel/tools/assembly.ts";
import {
  describeToolTypes,
  isToolType,
  TOOL_FAMILIES,
  TOOL_TYPES,
  type ToolType,
} from "../../kernel/tools/tool-types.ts";
import { HttpError } from "../../http/errors/index.ts";
import { json } from "../reply.ts";
import { defineRoute } from "../route.ts";
import { NoQuery } from "../schemas/common.ts";

/** q, trimmed, must be this long unless a filter narrows the search (spec: Limits). */
export const MIN_QUERY_LENGTH = 4;
const FILTERS = ["manufacturer", "tool_types", "diameter_min", "diameter_max"] as const;
const MAX_DIAMETER_MM = 10_000;

const ManufacturerName = z.string().trim().min(1).max(100);

// ---------------------------------------------------------------------------------------------
// Schemas

const CatalogueToolType = z
  .object({
    tool_type: z.enum(TOOL_TYPES).describe("a tool's tool_type, and a value of the search's tool_types filter"),
    label: z.string(),
    family: z.enum(TOOL_FAMILIES).describe("what the type does to the part"),
    entry_count: z
      .number()
      .int()
      .min(0)
      .describe("catalogue entries of this type (of the manufacturer, when one is given)"),
  })
  .meta({ id: "CatalogueToolType" });

const CatalogueToolTypeList = z
  .object({ tool_types: z.array(CatalogueToolType).describe("in the tool model's order") })
  .meta({ id: "CatalogueToolTypeList" });

const ToolTypesQuery = z.strictObject({
  manufacturer: ManufacturerName.optional().describe(
    "only the types this manufacturer offers (any letter case); an unknown one is 404 manufacturer_not_found",
  ),
});

const CatalogueSearchItem = z
  .object({
    article_number: z
      .string()
      .describe("with manufacturer, what GET /equipment/external-catalogue/{manufacturer}/{article_number} takes"),
    manufacturer: z.string(),
    name: z.string(),
    tool_type: z.string().describe("a value of GET /equipment/external-catalogue/tool-types"),
    diameter_mm: z.number().describe("cutting diameter"),
    flute_length_mm: z.number().nullable(),
    overall_length_mm: z.number().nullable(),
    shank_diameter_mm: z.number().nullable(),
    standard: z
      .string()
      .nullable()
      .describe('the dimension standard the entry follows ("DIN 338"); null for a maker\'s own range'),
  })
  .meta({ id: "CatalogueSearchItem" });

const CatalogueSearchResults = z
  .object({
    results: z
      .array(CatalogueSearchItem)
      .describe("best first: exact article number, then by relevance, then by diameter (docs/catalogue.md)"),
    count: z.number().int().min(0).describe("entries in results"),
    truncated: z.boolean().describe("more entries matched than limit: narrow the search to see the others"),
  })
  .meta({ id: "CatalogueSearchResults" });

/** A query value given once, repeated, or comma-separated (tool_types=A,B&tool_types=C). */
const ToolTypesFilter = z.union([z.string(), z.array(z.string())]).transform((value, ctx): ToolType[] => {
  const names = [value]
    .flat()
    .flatMap((part) => part.split(","))
    .map((name) => name.trim())
    .filter((name) => name !== "");
  if (names.length === 0) {
    ctx.addIssue({ code: "custom", message: "name at least one tool_type", input: value });
    return z.NEVER;
  }
  const unknown = names.filter((name) => !isToolType(name));
  if (unknown.length > 0) {
    ctx.addIssue({
      code: "custom",
      message: `unknown tool_type ${unknown.map((name) => JSON.stringify(name)).join(", ")}; the values are ${TOOL_TYPES.join(", ")}`,
      input: value,
    });
    return z.NEVER;
  }
  return [...new Set(names as ToolType[])];
});

/** A diameter bound in mm: a number of at least 0; an empty value is refused, not read as 0. */
const DiameterBound = (which: string) =>
  z
    .preprocess(
      (value) => (typeof value === "string" && value.trim() === "" ? undefined : value),
      z.coerce.number().min(0).max(MAX_DIAMETER_MM),
    )
    .describe(`${which} cutting diameter in mm, inclusive`);

const SearchQuery = z
  .strictObject({
    q: z
      .string()
      .max(200)
      .refine((q) => queryWords(q).length <= MAX_QUERY_WORDS, `at most ${MAX_QUERY_WORDS} words`)
      .optional()
      .describe(
        `text, trimmed: matched against article numbers (equal, then contained), then word by word ` +
          `(each word the start of a word of the entry; a number also the diameter), then as part of the name. ` +
          `At least ${MIN_QUERY_LENGTH} characters unless a filter is given; at most 200 characters and ${MAX_QUERY_WORDS} words`,
      ),
    manufacturer: ManufacturerName.optional().describe("only this manufacturer (any letter case); a filter"),
    tool_types: ToolTypesFilter.optional().describe(
      `only these types, comma-separated and/or repeated (${TOOL_TYPES.join(", ")}); a filter`,
    ),
    diameter_min: DiameterBound("smallest").optional(),
    diameter_max: DiameterBound("largest").optional(),
    limit: z.coerce.number().int().min(1).max(100).default(20).describe("most results, 1 to 100"),
  })
  .superRefine((query, ctx) => {
    if (
      query.diameter_min !== undefined &&
      query.diameter_max !== undefined &&
      query.diameter_min > query.diameter_max
    ) {
      ctx.addIssue({
        code: "custom",
        path: ["diameter_min"],
        message: `diameter_min (${query.diameter_min}) is above diameter_max (${query.diameter_max})`,
      });
    }
  });

const EntryParams = z.strictObject({
  manufacturer: z.string().min(1).max(100).describe("as in a search result (any letter case), URL-encoded"),
  article_number: z.string().min(1).max(100).describe("as in a search result, URL-encoded"),
});

const CatalogueAssembly = Assembly.meta({
  id: "CatalogueAssembly",
  description:
    "A full assembly library entry (holder and tool). POST it to /libraries/equipment/{library_id}/assemblies " +
    "after giving it a fresh uuid; the ids inside are stable across catalogue updates.",
});

// ---------------------------------------------------------------------------------------------

function searchTooBroad(length: number): HttpError {
  return new HttpError(
    400,
    "search_too_broad",
    `the search needs q of at least ${MIN_QUERY_LENGTH} characters or a filter (${FILTERS.join(", ")})`,
    { min_query_length: MIN_QUERY_LENGTH, query_length: length, filters: [...FILTERS] },
  );
}

export const catalogueRoutes = [
  defineRoute({
    method: "get",
    path: "/equipment/external-catalogue/tool-types",
    operationId: "listCatalogueToolTypes",
    summary: "The tool types, with how many catalogue entries each has",
    description:
      "Without manufacturer: every tool_type of the tool model (the values a tool's tool_type and the search's " +
      "tool_types filter take), each with its entries in the catalogue, 0 included. With manufacturer: only the " +
      "types that manufacturer offers.",
    tag: "External catalogue",
    scopes: ["equipment:read"],
    query: ToolTypesQuery,
    responses: { 200: { description: "the tool types", schema: CatalogueToolTypeList } },
    errors: [404],
    errorCodes: { 404: "manufacturer_not_found: no catalogue entry has this manufacturer" },
    async handler({ db, query }) {
      const manufacturer = query.manufacturer ?? null;
      const counts = new Map((await countByToolType(db, manufacturer)).map((row) => [row.tool_type, row.entry_count]));
      const types = describeToolTypes()
        .map(({ tool_type, label, family }) => ({ tool_type, label, family, entry_count: counts.get(tool_type) ?? 0 }))
        .filter((type) => manufacturer === null || type.entry_count > 0);
      if (manufacturer !== null && counts.size === 0) {
        throw new HttpError(404, "manufacturer_not_found", `the catalogue has no manufacturer ${manufacturer}`, {
          manufacturer,
        });
      }
      return json(200, { tool_types: types });
    },
  }),
  defineRoute({
    method: "get",
    path: "/equipment/external-catalogue/search",
    operationId: "searchCatalogue",
    summary: "Search the catalogue by text and filters",
    description:
      `Needs q of at least ${MIN_QUERY_LENGTH} characters (after trimming) or at least one filter ` +
      `(${FILTERS.join(", ")}); otherwise 400 search_too_broad. Filters combine with AND; q is optional with a ` +
      "filter. Order: the article number equal to q, then containing q; then entries whose words start with q's " +
      "words, those whose diameter is a number of q first and, within that, those of a tool type q names " +
      '("drill", "end mill") first; then names containing q. Within each, by diameter. Without q, by diameter. ' +
      "truncated says more matched than limit.",
    tag: "External catalogue",
    scopes: ["equipment:read"],
    query: SearchQuery,
    responses: { 200: { description: "the matches, best first", schema: CatalogueSearchResults } },
    errorCodes: {
      400: "search_too_broad: q shorter than 4 characters and no filter (details.min_query_length, query_length, filters)",
    },
    async handler({ db, query }) {
      const q = query.q === undefined ? "" : normalizeQuery(query.q);
      const filtered = FILTERS.some((name) => query[name] !== undefined);
      const length = [...q].length;
      if (length < MIN_QUERY_LENGTH && !filtered) throw searchTooBroad(length);
      const found = await searchCatalogue(db, {
        q: q === "" ? null : q,
        manufacturer: query.manufacturer ?? null,
        toolTypes: query.tool_types ?? [],
        diameterMin: query.diameter_min ?? null,
        diameterMax: query.diameter_max ?? null,
        limit: query.limit,
      });
      const results: CatalogueHit[] = found.results;
      return json(200, { results, count: results.length, truncated: found.truncated });
    },
  }),
  defineRoute({
    method: "get",
    path: "/equipment/external-catalogue/{manufacturer}/{article_number}",
    operationId: "getCatalogueEntry",
    summary: "One catalogue entry as a full assembly library entry",
    description:
      "The assembly (holder and tool) as the catalogue holds it. Give it a fresh uuid and POST it to " +
      "/libraries/equipment/{library_id}/assemblies. The manufacturer is matched in any letter case; so is the " +
      "article number when no entry has it in the case given.",
    tag: "External catalogue",
    scopes: ["equipment:read"],
    params: EntryParams,
    query: NoQuery,
    responses: { 200: { description: "the entry's assembly", schema: CatalogueAssembly } },
    errors: [404],
    errorCodes: { 404: "catalogue_entry_not_found: no entry of this manufacturer has this article number" },
    async handler({ db, params }) {
      const assembly = await getCatalogueAssembly(db, params.manufacturer, params.article_number);
      if (!assembly) {
        throw new HttpError(
          404,
          "catalogue_entry_not_found",
          `the catalogue has no article ${params.article_number} of ${params.manufacturer}`,
          {
            manufacturer: params.manufacturer,
            article_number: params.article_number,
          },
        );
      }
      return json(200, assembly);
    },
  }),
];
