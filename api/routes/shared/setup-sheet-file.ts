/**
 * A project's setup sheet as a file, HTML or PDF (kernel/setup-sheet), for the API's route and
 * the CLI alike: the current job's plan (plannedJob: 404, job_missing and no_toolpaths as the
 * programs answer them), the part's mesh for the pictures, and the machine the job was planned for.
 */
import type { Queryable } from "../../../db/request-transaction.ts";
import { workpieceMesh } from "../../../db/queries/workpieces.ts";
import { HttpError } from "../../../http/errors/index.ts";
import { findMachineArchetype } from "../../../kernel/machines/archetypes.ts";
import { readGlbTriangles } from "../../../kernel/mesh/glb-read.ts";
import { setupSheet } from "../../../kernel/setup-sheet/document.ts";
import { setupSheetHtml } from "../../../kernel/setup-sheet/html.ts";
import { setupSheetPdf, type Paper } from "../../../kernel/setup-sheet/pdf.ts";
import { plannedJob } from "./planned-job.ts";

export const SHEET_FORMATS = ["html", "pdf"] as const;
export type SheetFormat = (typeof SHEET_FORMATS)[number];
export const PAPERS = ["a4", "letter"] as const satisfies readonly Paper[];

export const SHEET_CONTENT_TYPES: Record<SheetFormat, string> = {
  html: "text/html; charset=utf-8",
  pdf: "application/pdf",
};

export interface SetupSheetFile {
  bytes: Buffer;
  contentType: string;
  /** setup-sheet_<project id>.html or .pdf */
  filename: string;
  jobId: string;
}

export async function setupSheetFile(
  db: Queryable,
  projectId: string,
  options: { format: SheetFormat; paper: Paper },
): Promise<SetupSheetFile> {
  const { job, workpiece, plan, postprocessor, context } = await plannedJob(db, projectId);
  const machine = findMachineArchetype(job.machine.product_id);
  if (machine === undefined) {
    throw new HttpError(
      409,
      "machine_unknown",
      `the job was planned for the machine ${job.machine.product_id}, which this build does not know: its times cannot be given`,
      { job_id: job.id, product_id: job.machine.product_id },
    );
  }
  const glb = await workpieceMesh(db, workpiece);
  const sheet = setupSheet({
    plan,
    project: context.project,
    part: context.part,
    material: context.material,
    partBox: context.partBox,
    machine,
    postprocessor,
    mesh: glb === null ? null : readGlbTriangles(glb),
    jobId: job.id,
  });
  const bytes =
    options.format === "pdf" ? await setupSheetPdf(sheet, options.paper) : Buffer.from(setupSheetHtml(sheet), "utf8");
  return {
    bytes,
    contentType: SHEET_CONTENT_TYPES[options.format],
    filename: `setup-sheet_${projectId}.${options.format}`,
    jobId: job.id,
  };
}
