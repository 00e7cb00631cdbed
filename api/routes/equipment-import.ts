/**
 * A Fusion 360 tool library uploaded into one of the user's equipment libraries: the file is
 * read by the same parser as `cli catalogue import` (kernel/tools/catalogue/fusion-library.ts),
 * each usable tool becomes an assembly of the library (holder and tool, validated as on
 * create) and its components are saved to the user's holder and tool libraries, as
 * add_to_library=true does. Tools the parser cannot use are skipped with the reason; a file
 * that is not a Fusion library as a whole is a 400 and nothing changes.
 */
import { z } from "zod";
import { assemblyInPocket, insertAssembly, listAssemblies } from "../../db/queries/assemblies.ts";
import { getLibrary } from "../../db/queries/equipment-libraries.ts";
import { lockEquipment, saveComponents } from "../../db/queries/equipment-sync.ts";
import { FusionLibraryError, parseFusionLibrary } from "../../kernel/tools/catalogue/fusion-library.ts";
import { HttpError, notFound } from "../../http/errors/index.ts";
import type { UploadedFile } from "../route.ts";
import { json } from "../reply.ts";
import { defineRoute } from "../route.ts";
import { idParams } from "../schemas/common.ts";

/** the manufacturer the tools are filed under when the request names none */
export const DEFAULT_IMPORT_MANUFACTURER = "Fusion 360 library";

const ImportQuery = z.strictObject({
  manufacturer: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .optional()
    .describe(
      `the maker the tools are filed under (the files' own vendor fields are often empty). Default "${DEFAULT_IMPORT_MANUFACTURER}"`,
    ),
});

const FusionImportResult = z
  .object({
    imported: z.number().int().min(0).describe("assemblies added to the library"),
    skipped: z
      .array(z.object({ index: z.number().int().describe("the tool's index in the file's data"), reason: z.string() }))
      .describe("tools not added: a type Swarf does not model, a rule they break, a repeat, or already in the library"),
    assembly_count: z.number().int().min(0).describe("the library's assemblies now (GET the library to read them)"),
  })
  .meta({ id: "FusionImportResult" });

function fileText(file: UploadedFile | null): string {
  if (!file) throw new Error("the multipart middleware did not run");
  return file.bytes.toString("utf8").replace(/^\uFEFF/, "");
}

export const equipmentImportRoutes = [
  defineRoute({
    method: "post",
    path: "/libraries/equipment/{library_id}/import/fusion",
    operationId: "importFusionToolLibrary",
    summary: "Add the tools of a Fusion 360 tool library file to an equipment library",
    description:
      "multipart/form-data with one part `file`: the JSON of a Fusion 360 tool library (.json, or a .tools " +
      'library\'s tools.json: {"data": [...]}). Inches become mm; each usable tool becomes an assembly (a holder ' +
      "and the tool, appended in file order) with the ids the catalogue import gives it, so importing the same file " +
      "again adds nothing; its post-process number becomes pocket_number unless another assembly has that number. " +
      "Each component is also saved in the user's holder or tool library (upsert by uuid). Tools of an unmodelled " +
      "type or that break a rule are skipped with the reason. A file that is not JSON or not a Fusion library: " +
      "400 fusion_library_invalid, nothing stored.",
    tag: "Equipment libraries",
    scopes: ["equipment:write"],
    params: idParams("library_id"),
    query: ImportQuery,
    upload: { field: "file", description: "a Fusion 360 tool library (JSON)" },
    responses: { 200: { description: "what was added and what skipped", schema: FusionImportResult } },
    errors: [404, 413, 415],
    errorCodes: {
      400: "fusion_library_invalid: the file is not JSON or not a Fusion 360 tool library; file_missing, malformed_multipart",
    },
    async handler({ db, params, query, file }) {
      let parsed;
      try {
        parsed = parseFusionLibrary(fileText(file), {
          manufacturer: query.manufacturer ?? DEFAULT_IMPORT_MANUFACTURER,
        });
      } catch (error) {
        if (!(error instanceof FusionLibraryError)) throw error;
        throw new HttpError(400, "fusion_library_invalid", `the file is ${error.message}`, {
          filename: file?.filename ?? null,
        });
      }
      await lockEquipment(db);
      const library = await getLibrary(db, params.library_id, { lock: true });
      if (!library) throw notFound("equipment library", params.library_id);
      const skipped = [...parsed.skipped];
      // every tool of the file is an entry or skipped, in file order: the entries' own indexes
      const skippedIndexes = new Set(parsed.skipped.map((s) => s.index));
      const fileIndexes = Array.from({ length: parsed.entries.length + parsed.skipped.length }, (_, i) => i).filter(
        (i) => !skippedIndexes.has(i),
      );
      let imported = 0;
      for (const [position, entry] of parsed.entries.entries()) {
        let assembly = entry.assembly;
        const pocket = assembly.pocket_number;
        if (pocket !== undefined && (await assemblyInPocket(db, library.id, pocket, assembly.uuid))) {
          const { pocket_number: _taken, ...rest } = assembly;
          assembly = rest;
        }
        const row = await insertAssembly(db, library.id, assembly);
        if (!row) {
          skipped.push({
            index: fileIndexes[position] ?? position,
            reason: `${entry.article_number} is in the library already`,
          });
          continue;
        }
        await saveComponents(db, row.body.components);
        imported++;
      }
      skipped.sort((a, b) => a.index - b.index);
      const assemblyCount = (await listAssemblies(db, library.id)).length;
      return json(200, { imported, skipped, assembly_count: assemblyCount });
    },
  }),
];
