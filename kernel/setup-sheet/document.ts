/**
 * The setup sheet of a planned job, as a document (sheet-types.ts): the job's facts and tool
 * table, then one page per setup with its picture, stock, work offset, workholding, tools,
 * operations and totals. Every fact that a program header, the task result or the quote also
 * shows comes from kernel/job/setup-facts.ts (operation facts from operation-facts.ts), so the
 * sheet agrees with them.
 */
import type { TriangleSoup } from "../cam/types.ts";
import { operationFacts, setupTotals } from "../job/operation-facts.ts";
import type { CamPlan } from "../job/plan.ts";
import {
  formatDuration,
  jobCycleTimeS,
  setupTurnWords,
  stockFacts,
  workOffsetFacts,
  type StockFacts,
} from "../job/setup-facts.ts";
import type { MachineArchetype } from "../machines/archetypes.ts";
import type { Box3 } from "../math/box3.ts";
import { mm, size } from "./format.ts";
import { operationsTable } from "./operations-table.ts";
import { setupPicture, type PictureOptions } from "./picture.ts";
import type { FactRow, SetupPage, SetupSheet } from "./sheet-types.ts";
import { jobToolTable, setupToolTable } from "./tool-tables.ts";
import { workholdingRows } from "./workholding-table.ts";

export interface SetupSheetInput {
  plan: CamPlan;
  project: string;
  /** the workpiece's file name; null when not known */
  part: string | null;
  /** the material's name; null when the project has none */
  material: string | null;
  /** the part's bounding box in workpiece coordinates; null when not known */
  partBox: Box3 | null;
  /** the machine the job was planned for (its name, its rapids and tool changes for the times) */
  machine: MachineArchetype;
  /** the postprocessor of its control, which names the work offsets */
  postprocessor: string;
  /** the part's mesh in workpiece coordinates; null when the workpiece has none yet */
  mesh: TriangleSoup | null;
  /** the job the plan is of; null to leave it out */
  jobId: string | null;
  picture?: PictureOptions;
}

const CONTROL_NAMES: Readonly<Record<string, string>> = {
  fanuc: "Fanuc",
  haas: "Haas",
  heidenhain: "Heidenhain TNC",
  sinumerik: "Siemens Sinumerik 840D",
  linuxcnc: "LinuxCNC",
  grbl: "Grbl",
};

export function setupSheet(input: SetupSheetInput): SetupSheet {
  const { plan } = input;
  const job: FactRow[] = [
    { label: "Project", value: input.project },
    { label: "Part", value: input.part ?? "not known" },
    { label: "Material", value: input.material ?? "not set" },
    { label: "Machine", value: input.machine.name },
    { label: "Control", value: CONTROL_NAMES[input.postprocessor] ?? input.postprocessor },
    { label: "Setups", value: String(plan.setups.length) },
    { label: "Cycle time", value: `${formatDuration(jobCycleTimeS(plan.setups))}, every setup and tool change` },
  ];
  if (input.jobId !== null) job.push({ label: "Job", value: input.jobId });
  return {
    title: `Setup sheet: ${input.project}`,
    job,
    tools: jobToolTable(plan),
    setups: plan.setups.map((_, i) => setupPage(input, i)),
  };
}

function setupPage(input: SetupSheetInput, index: number): SetupPage {
  const setup = input.plan.setups[index]!;
  const offset = workOffsetFacts(setup, input.postprocessor);
  const stock = stockFacts(setup, input.partBox);
  const totals = setupTotals(setup, input.machine);
  const facts: FactRow[] = [
    { label: "Part turned", value: setupTurnWords(setup) },
    { label: "Material", value: input.material ?? "not set" },
    ...stockRows(stock),
    { label: "Work offset", value: offset.code },
    { label: "Origin", value: offset.origin },
    { label: "Cycle time", value: formatDuration(totals.cycle_s) },
  ];
  const unmeshed = input.mesh === null ? " The part has no mesh yet: the stock and workholding only." : "";
  return {
    heading: `Setup ${index + 1} of ${input.plan.setups.length}: ${setup.name}`,
    facts,
    picture: setupPicture(
      {
        stock: setup.stock,
        wcs: setup.wcs,
        workholding: setup.workholding ?? null,
        mesh: input.mesh,
        originLabel: offset.code,
      },
      input.picture,
    ),
    caption:
      `Seen from the front of the machine, from above and a little from the right: the stock outlined (dashed ` +
      `behind), the origin of ${offset.code} marked, X red, Y green, Z blue.${unmeshed}`,
    workholding: setup.workholding === undefined ? null : workholdingRows(setup.workholding),
    tools: setupToolTable(input.plan, index),
    operations: operationsTable(operationFacts(input.plan, index, input.machine)),
    totals: [
      { label: "Cutting", value: formatDuration(totals.cutting_s) },
      { label: "Rapids", value: formatDuration(totals.rapid_s) },
      {
        label: "Tool changes",
        value: `${totals.tool_changes} × ${mm(input.machine.tool_change_s)} s = ${formatDuration(totals.tool_change_s)}`,
      },
      { label: "Cycle time", value: formatDuration(totals.cycle_s) },
    ],
  };
}

function stockRows(stock: StockFacts): FactRow[] {
  const rows: FactRow[] = [{ label: "Stock", value: `${size(stock.stock_mm)} (X × Y × Z)` }];
  if (stock.part_mm !== null) rows.push({ label: "Part", value: size(stock.part_mm) });
  const s = stock.part_in_stock;
  if (s !== null) {
    rows.push({
      label: "Part in stock",
      value: `left ${mm(s.left)}, right ${mm(s.right)}, front ${mm(s.front)}, back ${mm(s.back)}, top ${mm(s.top)}, bottom ${mm(s.bottom)} mm`,
    });
  }
  return rows;
}
