/**
 * The shape of every tool choice: candidates go through filters in order, each a rule of what
 * fits; the survivors are ranked. When a filter leaves nothing, that filter is the limiting
 * dimension and its message says so with the numbers, so a user knows which tool to add.
 */
import type { Cutter } from "../types.ts";
import type { MissingTool } from "./missing.ts";
import { HOLDER_CLEARANCE_MM, holderReach, isCarbide, wallReach } from "../cutter-shape.ts";

/** Lengths within this (mm) are equal: recognition measures to about a micrometre. */
export const FIT_EPSILON_MM = 1e-3;

/** Which rule left no tool. */
export type SelectionLimit =
  | "tool_kind"
  | "corner_radius"
  | "width"
  | "depth"
  | "holder_clearance"
  | "diameter"
  | "chamfer_angle"
  | "chamfer_width"
  | "thread";

/**
 * no_tool_of_kind: the library has no tool of the kind at all (no chamfer mill, no tap);
 * no_tool_fits: it has some, and `limit` says what none of them satisfies.
 */
export type SelectionCode = "no_tool_fits" | "no_tool_of_kind";

/** A recognised feature as messages name it. */
export interface FeatureRef {
  id: number;
  class: string;
}

export interface Refusal {
  ok: false;
  code: SelectionCode;
  message: string;
  features: number[];
  limit: SelectionLimit;
  /** the tool that would have been used had the library held it (missing.ts), when one would do */
  missing?: MissingTool;
}

export interface Chosen {
  ok: true;
  cutter: Cutter;
  /** what the user may want to know about the choice (a fallback, rest machining left) */
  notes: string[];
}

export type Selection = Chosen | Refusal;

export interface Filter {
  limit: SelectionLimit;
  keep(cutter: Cutter): boolean;
  /** why none of `before` (the candidates this filter saw) passed, with the numbers */
  why(before: Cutter[]): string;
}

/** Tie-breaks after a caller's own order: carbide first (faster, stiffer), shorter stick-out (stiffer), library order. */
export function standardTieBreak(a: Cutter, b: Cutter, order: Map<Cutter, number>): number {
  return (
    Number(isCarbide(b)) - Number(isCarbide(a)) ||
    a.stick_out - b.stick_out ||
    (order.get(a) ?? 0) - (order.get(b) ?? 0)
  );
}

export function featureName(feature: FeatureRef): string {
  return `feature ${feature.id} (${feature.class.replaceAll("_", " ")})`;
}

/** mm as a message prints them: "6.8", "0.25". */
export function mm(value: number): string {
  return String(Math.round(value * 1000) / 1000);
}

export function refusal(code: SelectionCode, limit: SelectionLimit, features: FeatureRef[], message: string): Refusal {
  return { ok: false, code, message, features: features.map((f) => f.id), limit };
}

/**
 * The best candidate of `kind` passing every filter, by `compare` then standardTieBreak. `what`
 * names the tool in messages ("end mill", "drill").
 */
export function pick(
  cutters: readonly Cutter[],
  kind: (cutter: Cutter) => boolean,
  filters: readonly Filter[],
  compare: (a: Cutter, b: Cutter) => number,
  feature: FeatureRef,
  what: string,
): Selection {
  const order = new Map(cutters.map((c, i) => [c, i]));
  let survivors = cutters.filter(kind);
  if (survivors.length === 0) {
    return refusal(
      "no_tool_of_kind",
      "tool_kind",
      [feature],
      `The library has no ${what} for ${featureName(feature)}: add one to the project's equipment library.`,
    );
  }
  for (const filter of filters) {
    const next = survivors.filter((c) => filter.keep(c));
    if (next.length === 0)
      return refusal(
        "no_tool_fits",
        filter.limit,
        [feature],
        `No ${what} in the library fits ${featureName(feature)}: ${filter.why(survivors)}.`,
      );
    survivors = next;
  }
  const best = [...survivors].sort((a, b) => compare(a, b) || standardTieBreak(a, b, order))[0] as Cutter;
  return { ok: true, cutter: best, notes: [] };
}

export function smallest(cutters: readonly Cutter[], value: (c: Cutter) => number): number {
  return Math.min(...cutters.map(value));
}

export function largest(cutters: readonly Cutter[], value: (c: Cutter) => number): number {
  return Math.max(...cutters.map(value));
}

/**
 * Reach: the tip `tipDepth` below the top of the walls with flutes and relieved neck only
 * (wallReach) in a cut `boreDiameter` wide, and the holder HOLDER_CLEARANCE_MM above material
 * that is `above` mm higher than the walls' top.
 */
export function reachFilters(
  tipDepth: (c: Cutter) => number,
  above: number,
  boreDiameter: (c: Cutter) => number,
): Filter[] {
  return [
    {
      limit: "depth",
      keep: (c) => wallReach(c, { bore_diameter: boreDiameter(c) }) + FIT_EPSILON_MM >= tipDepth(c),
      why: (before) =>
        `the tool must reach ${mm(smallest(before, tipDepth))} mm below its top and the longest reach among the tools that fit otherwise is ${mm(largest(before, (c) => wallReach(c, { bore_diameter: boreDiameter(c) })))} mm (flutes, then only a neck or shank narrower than the cut)`,
    },
    {
      limit: "holder_clearance",
      keep: (c) => holderReach(c) + FIT_EPSILON_MM >= above + tipDepth(c),
      why: (before) =>
        `the tool's tip goes ${mm(above + smallest(before, tipDepth))} mm below the material around it, above which the holder must stay ${HOLDER_CLEARANCE_MM} mm; the longest stick-out is ${mm(largest(before, (c) => c.stick_out))} mm`,
    },
  ];
}
