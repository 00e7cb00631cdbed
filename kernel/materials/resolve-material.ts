/**
 * A material id as a client sends it, to the id a project stores. The ids the user may use are
 * taken as sent; any other value is looked up among the names of those materials (id, name,
 * designations, and MATERIAL_ALIASES for the seeded ones), matched without case, spaces or
 * punctuation and with "aluminum" read as "aluminium": "AISI 304", "1.4301" and "ss-304" are all
 * stainless-1.4301. The caller says which id it stored (never silently: the answer carries a
 * material_alias warning). A value that names no material, or more than one, is unknown, with the
 * nearest ids by edit distance over those names.
 */
import { MATERIAL_ALIASES } from "./materials.ts";

/** What the caller knows of a material the user may use (a row of GET /libraries/materials). */
export interface MaterialNames {
  id: string;
  name: string;
  designations: readonly string[];
}

export type MaterialResolution =
  | { kind: "id"; id: string }
  | { kind: "alias"; id: string; sent: string }
  | { kind: "unknown"; sent: string; nearest: string[] };

/** how many ids an unknown value's answer suggests */
export const NEAREST_COUNT = 3;

/** "EN AW-6061" -> "enaw6061", "Aluminum 6061" -> "aluminium6061" */
export function materialKey(name: string): string {
  return name
    .normalize("NFKD")
    .toLowerCase()
    .replace(/aluminum/g, "aluminium")
    .replace(/[^a-z0-9]/g, "");
}

function namesOf(material: MaterialNames): string[] {
  return [material.id, material.name, ...material.designations, ...(MATERIAL_ALIASES[material.id] ?? [])];
}

export function resolveMaterialId(sent: string, materials: readonly MaterialNames[]): MaterialResolution {
  if (materials.some((m) => m.id === sent)) return { kind: "id", id: sent };
  const key = materialKey(sent);
  const keys = materials.map((m) => ({ id: m.id, keys: [...new Set(namesOf(m).map(materialKey))] }));
  const named = key === "" ? [] : keys.filter((m) => m.keys.includes(key));
  if (named.length === 1) return { kind: "alias", id: named[0]!.id, sent };
  // a name two materials share says neither: the client has to choose
  if (named.length > 1) return { kind: "unknown", sent, nearest: named.map((m) => m.id).slice(0, NEAREST_COUNT) };
  const ranked = keys
    .map((m, order) => ({ id: m.id, order, distance: Math.min(...m.keys.map((k) => editDistance(key, k))) }))
    .sort((a, b) => a.distance - b.distance || a.order - b.order);
  return { kind: "unknown", sent, nearest: ranked.slice(0, NEAREST_COUNT).map((m) => m.id) };
}

/** Levenshtein distance: insertions, deletions and substitutions, one each. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length]!;
}
