/**
 * A setup sheet read as a person reads it: the HTML's text and the PDF's (through poppler's
 * pdfinfo and pdftotext, the reader CI installs), and the facts each setup's page must name, as
 * kernel/job/setup-facts.ts words them.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { CamPlan } from "../../kernel/job/plan.ts";
import { formatDuration, jobTools, stockFacts, workOffsetFacts } from "../../kernel/job/setup-facts.ts";
import type { Box3 } from "../../kernel/math/box3.ts";
import { size } from "../../kernel/setup-sheet/format.ts";

/** the facts every form of the sheet must give for a setup: work offset, its origin, stock size, cycle time */
export function setupSheetFacts(plan: CamPlan, index: number, control: string, partBox: Box3 | null): string[] {
  const setup = plan.setups[index]!;
  const offset = workOffsetFacts(setup, control);
  return [
    offset.code,
    offset.origin,
    size(stockFacts(setup, partBox).stock_mm),
    formatDuration(setup.machining_time_s),
  ];
}

/** every T number of the job as the sheet's tool tables show it: "3 end mill" */
export function setupSheetToolWords(plan: CamPlan): string[] {
  return jobTools(plan).map((tool) => `${tool.number} ${tool.type_words}`);
}

/** the HTML's text: pictures and tags dropped, entities read, white space made one space */
export function htmlText(html: string): string {
  return html
    .replace(/<svg[\s\S]*?<\/svg>/g, " ")
    .replace(/<[^>]+>/g, " ")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ");
}

/** A PDF as a reader opens it: pdfinfo's report (it fails on a broken file) and the text, white space made one space. */
export function readPdf(bytes: Uint8Array): { info: string; text: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "setup-sheet-"));
  try {
    const file = path.join(dir, "sheet.pdf");
    fs.writeFileSync(file, bytes);
    return {
      info: execFileSync("pdfinfo", [file], { encoding: "utf8" }),
      text: execFileSync("pdftotext", [file, "-"], { encoding: "utf8" }).replace(/\s+/g, " "),
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
