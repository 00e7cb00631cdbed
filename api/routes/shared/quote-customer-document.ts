/**
 * The customer's quote document of a project (docs/quote.md, "The customer's document"): reads
 * the quote job, the settings, the current planned job and its part, takes the quote number,
 * prices each quantity break with the breakdown and writes the PDF or the workbook.
 */
import type { Queryable } from "../../../db/request-transaction.ts";
import { materialName } from "../../../db/queries/machines-materials.ts";
import { getProject } from "../../../db/queries/projects.ts";
import { getQuoteJob, getQuoteSettings, takeQuoteNumber } from "../../../db/queries/quote.ts";
import { getWorkpiece, workpieceMesh } from "../../../db/queries/workpieces.ts";
import { invalidParameter, notFound } from "../../../http/errors/index.ts";
import {
  customerDocumentFilename,
  customerQuoteDocument,
  partNameFromFile,
  type QuantityBreakPrice,
} from "../../../kernel/quote/customer-document.ts";
import { customerQuoteWorkbook } from "../../../kernel/quote/customer-excel.ts";
import type { DocumentLanguage } from "../../../kernel/quote/customer-labels.ts";
import { customerQuotePdf } from "../../../kernel/quote/customer-pdf.ts";
import { designFeedbackText } from "../../../kernel/quote/design-feedback-text.ts";
import { partPicture } from "../../../kernel/quote/part-picture.ts";
import { readGlbTriangles } from "../../../kernel/mesh/glb-read.ts";
import { currentPlannedJob } from "./planned-job.ts";
import { projectBreakdown, type ProjectBreakdown } from "./quote.ts";

export const CUSTOMER_CONTENT_TYPES = {
  pdf: "application/pdf",
  excel: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
} as const;

export interface CustomerDocumentFile {
  bytes: Buffer;
  contentType: string;
  filename: string;
  quoteNumber: string;
  /** the codes of the breakdown's warnings (of the largest break): the document itself shows none */
  warnings: string[];
}

const DAY_MS = 86_400_000;

export async function customerDocumentFile(
  db: Queryable,
  projectId: string,
  options: { format: "pdf" | "excel"; language: DocumentLanguage; now?: Date },
): Promise<CustomerDocumentFile> {
  const now = options.now ?? new Date();
  const project = await getProject(db, projectId);
  const quoteJob = project ? await getQuoteJob(db, projectId) : null;
  if (!project || !quoteJob) throw notFound("project", projectId);
  const today = now.toISOString().slice(0, 10);
  if (quoteJob.valid_until !== null && quoteJob.valid_until < today)
    throw invalidParameter([
      {
        field: "quote_job.valid_until",
        code: "in_the_past",
        message: `the quote job's valid_until ${quoteJob.valid_until} has passed: set a later one or null (PATCH /projects/{project_id}/quote/job)`,
      },
    ]);
  // refused as the programs and the setup sheet refuse: no job (404 job_missing), no plan (409 no_toolpaths)
  const job = await currentPlannedJob(db, projectId);
  const settings = await getQuoteSettings(db);
  const workpiece = job.workpieceId ? await getWorkpiece(db, job.workpieceId) : null;
  const glb = await workpieceMesh(db, workpiece);
  const partBox = workpiece?.meta.bbox ?? null;

  const quantities = quoteJob.quantity_breaks.length > 0 ? quoteJob.quantity_breaks : [quoteJob.quantity];
  const breaks: QuantityBreakPrice[] = [];
  let last: ProjectBreakdown["breakdown"] | null = null;
  for (const quantity of quantities) {
    const { breakdown } = await projectBreakdown(db, projectId, { quantity });
    breaks.push({ quantity, unit_price: breakdown.unit_price, total_price: breakdown.net_price });
    last = breakdown;
  }
  const taken = await takeQuoteNumber(db, projectId, now);
  if (!taken || !last) throw notFound("project", projectId);

  const fileName = workpiece?.meta.original_filename;
  const partName = quoteJob.part_name ?? (fileName ? partNameFromFile(fileName) : project.name);
  const validUntil =
    quoteJob.valid_until ??
    new Date(Date.parse(`${today}T00:00:00Z`) + settings.validity_days * DAY_MS).toISOString().slice(0, 10);
  const document = customerQuoteDocument({
    language: options.language,
    shop: { name: settings.shop_name, address: settings.shop_address, terms: settings.terms },
    quote_number: taken.quote_number,
    date: today,
    valid_until: validUntil,
    customer: { name: quoteJob.customer_name || project.customer, address: quoteJob.customer_address },
    part: {
      name: partName,
      material: project.material_id ? ((await materialName(db, project.material_id)) ?? project.material_id) : null,
      size_mm: partBox ? [0, 1, 2].map((i) => partBox.max[i]! - partBox.min[i]!) : null,
      picture: glb && partBox ? partPicture(readGlbTriangles(glb), partBox) : null,
    },
    breaks,
    tax_percentage: last.tax_percentage,
    delivery_days: quoteJob.delivery_days ?? settings.delivery_days,
    design_feedback: last.design_feedback.map((item) => designFeedbackText(item, options.language)),
  });
  const bytes =
    options.format === "pdf" ? await customerQuotePdf(document) : await customerQuoteWorkbook(document, today);
  return {
    bytes,
    contentType: CUSTOMER_CONTENT_TYPES[options.format],
    filename: customerDocumentFilename(
      taken.quote_number,
      partName,
      options.language,
      options.format === "pdf" ? "pdf" : "xlsx",
    ),
    quoteNumber: taken.quote_number,
    warnings: last.warnings.map((w) => w.code),
  };
}
