/**
 * The setup sheet: what a setter prints and hangs at the machine, for every setup of the
 * project's current CAM job (docs/setup-sheet.md). An extension of the public API.
 */
import { z } from "zod";
import { bytes } from "../reply.ts";
import { defineRoute } from "../route.ts";
import { idParams } from "../schemas/common.ts";
import { PAPERS, SHEET_FORMATS, setupSheetFile } from "./shared/setup-sheet-file.ts";

const SetupSheetQuery = z.strictObject({
  format: z
    .enum(SHEET_FORMATS)
    .optional()
    .describe("html (the default): one self-contained page that prints on A4 or Letter; pdf: the same sheet as a PDF"),
  paper: z
    .enum(PAPERS)
    .optional()
    .describe("the PDF's paper size, a4 (the default) or letter; the HTML prints on the printer's paper"),
});

export const setupSheetRoutes = [
  defineRoute({
    method: "get",
    path: "/projects/{project_id}/setup-sheet",
    operationId: "getSetupSheet",
    summary: "The setup sheet of the current CAM job, as HTML or PDF",
    description:
      "An extension. Per job: the project, part, material, machine and control, the number of setups, the cycle " +
      "time and the tool table (T numbers as the programs use them). Per setup, each on a page of its own: how the " +
      "part is turned, a picture of it in its workholding seen from the front of the machine with the work " +
      "offset's origin and the X, Y and Z axes, stock and part sizes and where the part sits in the stock, the " +
      "work offset and its origin in words, the workholding, the setup's tools, the operations in order (strategy, " +
      "tool, stepdown and stepover, allowances, spindle speed and feed, Z range, cutting and rapid length and time) " +
      "and the totals, whose cycle time is the quote's machining time of the setup. Content-Disposition names the " +
      "file `setup-sheet_<project_id>.html` (or `.pdf`); the HTML is gzip-encoded when Accept-Encoding asks for it.",
    tag: "Jobs",
    scopes: ["projects:read"],
    params: idParams("project_id"),
    query: SetupSheetQuery,
    responses: {
      200: {
        description: "the sheet: text/html (format=html) or application/pdf (format=pdf)",
        contentType: "*/*",
        schema: z.string().describe("an HTML document, or a PDF"),
        headers: {
          "Content-Disposition": 'inline; filename="setup-sheet_<project_id>.html" (or .pdf)',
          "X-Job-Id": "the job the sheet was made from",
        },
      },
    },
    errors: [404, 409],
    errorCodes: {
      404: "job_missing: the project has no CAM job yet",
      409: "no_toolpaths (the job was not planned), machine_unknown (planned for a machine this build does not know)",
    },
    async handler({ db, params, query }) {
      const format = query.format ?? "html";
      const sheet = await setupSheetFile(db, params.project_id, { format, paper: query.paper ?? "a4" });
      return bytes(
        200,
        sheet.bytes,
        sheet.contentType,
        {
          "Content-Disposition": `inline; filename="${sheet.filename}"`,
          "X-Job-Id": sheet.jobId,
          "Cache-Control": "no-store",
        },
        { compressible: format === "html" },
      );
    },
  }),
];
