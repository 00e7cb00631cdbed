/**
 * Postprocessing: one setup of the project's current CAM job as the program its machine's control
 * runs (kernel/post). The machine is the one the job was planned for (its snapshot in the job),
 * so a program always matches the limits its toolpaths were planned within.
 */
import { z } from "zod";
import { postSetup, PostError } from "../../kernel/post/index.ts";
import { HttpError } from "../../http/errors/index.ts";
import { bytes } from "../reply.ts";
import { defineRoute } from "../route.ts";
import { BooleanQuery, idParams } from "../schemas/common.ts";
import { plannedJob } from "./shared/planned-job.ts";

const PostQuery = z.strictObject({
  setup_index: z
    .string({ error: "required: the setup's index, 0 for the first" })
    .regex(/^\d{1,4}$/, { error: "a whole number from 0" })
    .transform(Number)
    .describe("zero-based index of the setup in the current job (the order the shop runs them)"),
  optional_stop: BooleanQuery.optional().describe(
    "an extension: an optional stop (M01; M1 on LinuxCNC, Sinumerik and Heidenhain) before every tool change after " +
      "the first, so the setter can look at the last tool's work with the optional-stop switch on; default true. " +
      "Grbl stops at every change anyway (M0)",
  ),
});

/** the status a PostError answers with: the job (not the request) is what the control cannot take */
const POST_ERROR_STATUS: Record<string, number> = {
  setup_index_out_of_range: 400,
  no_toolpaths: 409,
  too_many_setups: 409,
  tapping_without_spindle: 409,
  postprocessor_unavailable: 501,
};

export const postRoutes = [
  defineRoute({
    method: "post",
    path: "/projects/{project_id}/post/run",
    operationId: "postprocessSetup",
    summary: "The G-code program of one setup of the current CAM job",
    description:
      "Writes setup `setup_index` of the project's current job with the postprocessor of the machine the job " +
      "was planned for (Fanuc, Haas, Heidenhain TNC, Sinumerik 840D, LinuxCNC, Grbl; docs/postprocessors.md). The " +
      "body is the program as plain text, gzip-encoded when Accept-Encoding asks for it; Content-Disposition names " +
      "the file `<project>_<setup>` with the control's extension (.nc Fanuc, Haas and Grbl, .h Heidenhain, .mpf " +
      "Sinumerik, .ngc LinuxCNC).",
    tag: "Jobs",
    scopes: ["cam:write"],
    params: idParams("project_id"),
    query: PostQuery,
    responses: {
      200: {
        description: "the program",
        contentType: "text/plain; charset=us-ascii",
        schema: z.string().describe("G-code, one block a line"),
        headers: {
          "Content-Disposition": 'attachment; filename="<project>_<setup>.nc"',
          "X-Job-Id": "the job the program was written from",
        },
      },
    },
    errors: [404, 409, 501],
    errorCodes: {
      400: "setup_index_out_of_range (details.setups: how many the job has)",
      404: "job_missing: the project has no CAM job yet",
      409: "no_toolpaths (the job was not planned, or the setup has no moves), too_many_setups (the control has fewer work offsets)",
      501: "postprocessor_unavailable: the machine's control has no postprocessor in this build",
    },
    async handler({ db, params, query }) {
      const { job, plan, postprocessor, context } = await plannedJob(db, params.project_id);
      try {
        const program = postSetup(plan, query.setup_index, postprocessor, {
          ...context,
          optionalStop: query.optional_stop ?? true,
        });
        const text = Buffer.from(programText(program.lines), "latin1");
        return bytes(
          200,
          text,
          "text/plain; charset=us-ascii",
          {
            "Content-Disposition": `attachment; filename="${program.filename}"`,
            "X-Job-Id": job.id,
            "Cache-Control": "no-store",
          },
          { compressible: true },
        );
      } catch (error) {
        if (error instanceof PostError) {
          throw new HttpError(POST_ERROR_STATUS[error.code] ?? 409, error.code, error.message, {
            ...error.details,
            job_id: job.id,
            setup_index: query.setup_index,
          });
        }
        throw error;
      }
    },
  }),
];

/** The lines as one text, each ended by a newline (controls want the last block ended too). */
function programText(lines: Iterable<string>): string {
  const parts: string[] = [];
  for (const line of lines) parts.push(line, "\n");
  return parts.join("");
}
