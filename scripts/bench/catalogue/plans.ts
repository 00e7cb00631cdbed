/**
 * What the searches did in the database: a search run once more as a request runs it (the
 * API role, in begin_request's transaction, so row-level security applies), each of its
 * statements under EXPLAIN ANALYZE first, summed up as the scans it used (which index, how
 * many times); and an answer checked against the plain full sort.
 */
import type pg from "pg";
import type { CatalogueHit } from "../../../db/queries/catalogue/hit.ts";
import { referenceSearch, searchCatalogue, type CatalogueSearch } from "../../../db/queries/catalogue/search.ts";
import { withRequestTransaction, type KeyCredential } from "../../../db/request-transaction.ts";

export interface StatementPlan {
  /** walk: the merged diameter-ordered scan; index: the GIN indexes, sorted */
  plan: "walk" | "index";
  ms: number;
  /** "Index Scan catalogue_type_diameter_idx x13", "Bitmap Index Scan catalogue_search_idx" */
  scans: string[];
  seqScan: boolean;
}

interface PlanNode {
  "Node Type": string;
  "Index Name"?: string;
  "Relation Name"?: string;
  Plans?: PlanNode[];
}

function scansOf(node: PlanNode, out: Map<string, number>): void {
  const type = node["Node Type"];
  if (/Scan$/.test(type) && (node["Index Name"] || node["Relation Name"])) {
    const key = `${type} ${node["Index Name"] ?? node["Relation Name"]}`;
    out.set(key, (out.get(key) ?? 0) + 1);
  }
  for (const child of node.Plans ?? []) scansOf(child, out);
}

/** Runs the search as the key's request would, with every statement explained first. */
export async function explainSearch(
  appPool: pg.Pool,
  credential: KeyCredential,
  search: CatalogueSearch,
): Promise<StatementPlan[]> {
  const plans: StatementPlan[] = [];
  await withRequestTransaction(appPool, credential, ["equipment:read"], (client) =>
    searchCatalogue(traced(client, plans), search),
  );
  return plans;
}

function traced(client: pg.PoolClient, plans: StatementPlan[]): pg.PoolClient {
  const wrapper = {
    async query(text: string | { text: string; values?: unknown[] }, values?: unknown[]) {
      const sql = typeof text === "string" ? text : text.text;
      const params = typeof text === "string" ? values : text.values;
      if (/^\s*select/i.test(sql) && !sql.includes("set_config(")) {
        const { rows } = await client.query<{
          "QUERY PLAN": [{ Plan: PlanNode; "Planning Time": number; "Execution Time": number }];
        }>(`explain (analyze, format json) ${sql}`, params);
        const explained = rows[0]!["QUERY PLAN"][0];
        const scans = new Map<string, number>();
        scansOf(explained.Plan, scans);
        plans.push({
          plan: sql.includes("union all") ? "walk" : "index",
          ms: explained["Planning Time"] + explained["Execution Time"],
          scans: [...scans].map(([scan, n]) => (n > 1 ? `${scan} x${n}` : scan)),
          seqScan: [...scans.keys()].some((scan) => scan.startsWith("Seq Scan")),
        });
      }
      return client.query(sql, params);
    },
  };
  return wrapper as unknown as pg.PoolClient;
}

/**
 * Null when the API's answer is the plain full sort's; else what differs. Entries of the same
 * tier and diameter at the last place may differ (which of them fit is not specified).
 */
export async function checkAgainstReference(
  pool: pg.Pool,
  search: CatalogueSearch,
  answer: { results: CatalogueHit[]; truncated: boolean },
): Promise<string | null> {
  const slow = await referenceSearch(pool, { ...search, limit: search.limit + 1 });
  const expected = slow.slice(0, search.limit);
  if (answer.truncated !== slow.length > search.limit)
    return `truncated ${answer.truncated}, the full sort says ${slow.length > search.limit}`;
  const diameters = (hits: { diameter_mm: number }[]) => hits.map((h) => h.diameter_mm).join(",");
  if (diameters(answer.results) !== diameters(expected))
    return `diameters ${diameters(answer.results)} against ${diameters(expected)}`;
  const last = expected.at(-1);
  const settled = (i: number) =>
    !(last && expected[i]!.tier === last.tier && expected[i]!.diameter_mm === last.diameter_mm);
  const ours = answer.results.filter((_, i) => settled(i)).map((h) => `${h.manufacturer}/${h.article_number}`);
  const theirs = expected.filter((_, i) => settled(i)).map((h) => `${h.manufacturer}/${h.article_number}`);
  return ours.join("|") === theirs.join("|") ? null : `entries ${ours.join(", ")} against ${theirs.join(", ")}`;
}
