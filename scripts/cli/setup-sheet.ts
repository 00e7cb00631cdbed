/**
 * `cli setup-sheet <project_id> [--pdf] [--paper a4|letter] [--out FILE]`: the project's setup
 * sheet as the API gives it (GET /projects/{project_id}/setup-sheet), read as the project's owner
 * on the operator's connection, so the blob store's checks see whose files they are.
 */
import fs from "node:fs/promises";
import type pg from "pg";
import { withUserTransaction } from "../../db/request-transaction.ts";
import { setupSheetFile, type SheetFormat } from "../../api/routes/shared/setup-sheet-file.ts";
import type { Paper } from "../../kernel/setup-sheet/pdf.ts";

export interface SetupSheetCommand {
  projectId: string;
  /** the project's owner */
  userId: string;
  format: SheetFormat;
  paper: Paper;
  /** a file to write; null: stdout */
  out: string | null;
}

/** Writes the sheet; resolves to a line saying where it went, or null when it went to stdout. */
export async function writeSetupSheet(db: pg.Client, command: SetupSheetCommand): Promise<string | null> {
  const sheet = await withUserTransaction(db, command.userId, () =>
    setupSheetFile(db, command.projectId, { format: command.format, paper: command.paper }),
  );
  if (command.out === null) {
    await new Promise<void>((resolve, reject) =>
      process.stdout.write(sheet.bytes, (error) => (error ? reject(error) : resolve())),
    );
    return null;
  }
  await fs.writeFile(command.out, sheet.bytes);
  return `wrote ${command.out} (${sheet.bytes.length} bytes, job ${sheet.jobId})`;
}
