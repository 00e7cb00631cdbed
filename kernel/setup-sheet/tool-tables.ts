/**
 * The tool tables: the job's (each tool once, with the setups that use it and how deep it goes in
 * each) and a setup's. Their facts are setup-facts.ts's jobTools and setupTools, the same the
 * program header lists, so the T numbers here are the programs' numbers.
 */
import type { CamPlan } from "../job/plan.ts";
import { jobTools, setupTools, type JobTool } from "../job/setup-facts.ts";
import { mm } from "./format.ts";
import type { Column, Table } from "./sheet-types.ts";

const TOOL_COLUMNS: Column[] = [
  { title: "T", align: "right", weight: 3 },
  { title: "Type", align: "left", weight: 9 },
  { title: "Tool", align: "left", weight: 26 },
  { title: "Ø mm", align: "right", weight: 5 },
  { title: "Corner r", align: "right", weight: 5 },
  { title: "Flutes", align: "right", weight: 5 },
  { title: "Stick-out", align: "right", weight: 6 },
  { title: "Holder", align: "left", weight: 15 },
];

/** The job's tools by T number; the last column gives each setup (1-based) that uses it and its deepest Z there. */
export function jobToolTable(plan: Pick<CamPlan, "setups">): Table {
  const deepest = new Map<string, string[]>();
  plan.setups.forEach((_, i) => {
    for (const tool of setupTools(plan, i)) {
      const list = deepest.get(tool.assembly_uuid) ?? [];
      list.push(`${i + 1} (Z ${mm(tool.deepest_z)})`);
      deepest.set(tool.assembly_uuid, list);
    }
  });
  return {
    columns: [...TOOL_COLUMNS, { title: "Setups (deepest Z)", align: "left", weight: 14 }],
    rows: jobTools(plan).map((tool) => [...toolCells(tool), (deepest.get(tool.assembly_uuid) ?? []).join(", ")]),
    footer: null,
  };
}

/** The setup's tools in the order it first uses them, with the deepest Z each reaches there. */
export function setupToolTable(plan: Pick<CamPlan, "setups">, setupIndex: number): Table {
  return {
    columns: [...TOOL_COLUMNS, { title: "Deepest Z", align: "right", weight: 7 }],
    rows: setupTools(plan, setupIndex).map((tool) => [...toolCells(tool), mm(tool.deepest_z)]),
    footer: null,
  };
}

function toolCells(tool: JobTool): string[] {
  return [
    String(tool.number),
    tool.type_words,
    toolName(tool),
    mm(tool.diameter_mm),
    mm(tool.corner_radius_mm),
    String(tool.flutes),
    mm(tool.stick_out_mm),
    // no holder on the assembly, or a plan made before holders were kept
    tool.holder ?? "–",
  ];
}

/** An assembly's name ends "... in <holder>": the holder has a column of its own. */
function toolName(tool: JobTool): string {
  const suffix = tool.holder === null ? null : ` in ${tool.holder}`;
  return suffix !== null && tool.name.endsWith(suffix) ? tool.name.slice(0, -suffix.length) : tool.name;
}
