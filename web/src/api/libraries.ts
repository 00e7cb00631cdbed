/**
 * The public API's equipment routes (api/routes/equipment-libraries.ts, holders-tools.ts,
 * catalogue.ts), called with the session. Only the fields the pages show are typed; the rest
 * travels through untouched (a catalogue assembly is posted back as the API gave it).
 */
import { PUBLIC_API } from "./base.ts";
import { request } from "./client.ts";

export interface Page<T> {
  items: T[];
  next_cursor: string | null;
}

export interface LibrarySummary {
  id: string;
  library: { name: string; assembly_count: number };
  description: string;
  is_default: boolean;
  created_at: string;
  updated_at: string;
}

export type ToolParameters = Partial<Record<string, number>>;

export interface Tool {
  uuid?: string;
  name: string;
  tool_type: string;
  manufacturer?: string;
  article_number?: string;
  flute_count?: number;
  tool_parameters: ToolParameters;
}

export interface Holder {
  uuid?: string;
  name: string;
  stacking_group: string;
  manufacturer?: string;
  article_number?: string;
  spindle_interface?: string;
  gauge_length_mm?: number;
}

export type AssemblyComponent =
  | { component_type: "adaptive_item"; adaptive_item: Holder }
  | { component_type: "parametric_cutting_tool"; parametric_cutting_tool: Tool };

export interface Assembly {
  uuid: string;
  name: string;
  manufacturer?: string;
  pocket_number?: number;
  components: AssemblyComponent[];
  [other: string]: unknown;
}

export interface Library {
  id: string;
  library: { name: string; assemblies: Assembly[] };
  description: string;
  is_default: boolean;
  created_at: string;
  updated_at: string;
}

export interface CatalogueHit {
  article_number: string;
  manufacturer: string;
  name: string;
  tool_type: string;
  diameter_mm: number;
  flute_length_mm: number | null;
  overall_length_mm: number | null;
  shank_diameter_mm: number | null;
  standard: string | null;
}

export interface CatalogueResults {
  results: CatalogueHit[];
  count: number;
  truncated: boolean;
}

export interface FusionImportResult {
  imported: number;
  skipped: { index: number; reason: string }[];
  assembly_count: number;
}

const LIBRARIES = `${PUBLIC_API}/libraries/equipment`;
const one = (id: string) => `${LIBRARIES}/${encodeURIComponent(id)}`;

export const listLibraries = () => request<Page<LibrarySummary>>("GET", `${LIBRARIES}?limit=100`);
export const getLibrary = (id: string) => request<Library>("GET", one(id));
export const createLibrary = (name: string) => request<Library>("POST", LIBRARIES, { library: { name } });
export const deleteLibrary = (id: string) => request<void>("DELETE", one(id));
export const addAssembly = (libraryId: string, assembly: Assembly) =>
  request<Assembly>("POST", `${one(libraryId)}/assemblies?add_to_library=true`, assembly);
export const removeAssembly = (libraryId: string, assemblyId: string) =>
  request<void>("DELETE", `${one(libraryId)}/assemblies/${encodeURIComponent(assemblyId)}`);
export function importFusion(libraryId: string, file: File, manufacturer: string): Promise<FusionImportResult> {
  const form = new FormData();
  form.append("file", file);
  const query = manufacturer.trim() ? `?${new URLSearchParams({ manufacturer: manufacturer.trim() })}` : "";
  return request<FusionImportResult>("POST", `${one(libraryId)}/import/fusion${query}`, form);
}

const pageQuery = (cursor?: string) => new URLSearchParams(cursor ? { limit: "100", cursor } : { limit: "100" });
export const listTools = (cursor?: string) =>
  request<Page<Tool & { uuid: string }>>("GET", `${PUBLIC_API}/libraries/tools?${pageQuery(cursor)}`);
export const listHolders = (cursor?: string) =>
  request<Page<Holder & { uuid: string }>>("GET", `${PUBLIC_API}/libraries/holders?${pageQuery(cursor)}`);

/** the most a page loads of one list: ten requests */
export const LOAD_AT_MOST = 1000;

/**
 * Every page of a list, up to LOAD_AT_MOST items, so the page's filter sees all of a shop's
 * tools; `complete` is false when more were left on the server.
 */
export async function loadAll<T>(
  list: (cursor?: string) => Promise<Page<T>>,
): Promise<{ items: T[]; complete: boolean }> {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const page = await list(cursor);
    items.push(...page.items);
    cursor = page.next_cursor ?? undefined;
  } while (cursor && items.length < LOAD_AT_MOST);
  return { items, complete: cursor === undefined };
}

export function searchCatalogue(q: string): Promise<CatalogueResults> {
  const query = new URLSearchParams({ q, limit: "20" });
  return request<CatalogueResults>("GET", `${PUBLIC_API}/equipment/external-catalogue/search?${query}`);
}

export const catalogueAssembly = (manufacturer: string, articleNumber: string) =>
  request<Assembly>(
    "GET",
    `${PUBLIC_API}/equipment/external-catalogue/${encodeURIComponent(manufacturer)}/${encodeURIComponent(articleNumber)}`,
  );

/** the cutting tool of an assembly: its last component */
export function toolOf(assembly: Assembly): Tool | undefined {
  for (const component of [...assembly.components].reverse())
    if (component.component_type === "parametric_cutting_tool") return component.parametric_cutting_tool;
  return undefined;
}

export function holderOf(assembly: Assembly): Holder | undefined {
  for (const component of assembly.components)
    if (component.component_type === "adaptive_item") return component.adaptive_item;
  return undefined;
}
