/**
 * Reference data from kernel/ into the database: machines, materials (with cutting data), the
 * standard range of the tool catalogue and the starter library new users get from it. Runs
 * after every migration run, under the migration lock (db/migrate.ts). Each data set is written
 * only when its digest differs from the one recorded in app_private.seed_versions, so a start
 * with unchanged data costs a generator run and one query per set; a changed data set replaces
 * its rows in one transaction.
 */
import { createHash } from "node:crypto";
import { generateStandardRange } from "../../kernel/tools/catalogue/standard-range.ts";
import { starterLibrary } from "../../kernel/tools/catalogue/starter-library.ts";
import { withTransaction, type Queryable } from "../request-transaction.ts";
import { replaceCatalogueSource } from "./catalogue.ts";
import { machineSeed, materialSeed, writeMachines, writeMaterials } from "./machines-materials.ts";
import { writeStarterLibrary } from "./starter-library.ts";

interface DataSet {
  name: string;
  data: () => unknown[];
  write: (db: Queryable, data: unknown[]) => Promise<unknown>;
}

/** The data sets, the standard range generated once for the catalogue and the starter library (about a second). */
function dataSets(): DataSet[] {
  let range: ReturnType<typeof generateStandardRange> | undefined;
  const standardRange = () => (range ??= generateStandardRange());
  return [
    { name: "machines", data: machineSeed, write: writeMachines },
    { name: "materials", data: materialSeed, write: writeMaterials },
    {
      name: "catalogue.standard",
      data: standardRange,
      write: (db, entries) =>
        replaceCatalogueSource(db, "standard", entries as ReturnType<typeof generateStandardRange>),
    },
    {
      name: "starter.library",
      data: () => starterLibrary(standardRange()),
      write: (db, assemblies) => writeStarterLibrary(db, assemblies as ReturnType<typeof starterLibrary>),
    },
  ];
}

/** Writes the data sets that changed; returns their names. `db` must not be in a transaction. */
export async function seedReferenceData(db: Queryable): Promise<string[]> {
  const written: string[] = [];
  for (const set of dataSets()) {
    const data = set.data();
    const digest = createHash("sha256").update(JSON.stringify(data)).digest("hex");
    const seen = await db.query<{ digest: string }>(
      "select digest from app_private.seed_versions where data_set = $1",
      [set.name],
    );
    if (seen.rows[0]?.digest === digest) continue;
    await withTransaction(db, async () => {
      await set.write(db, data);
      await db.query(
        `insert into app_private.seed_versions (data_set, digest) values ($1, $2)
         on conflict (data_set) do update set digest = excluded.digest, seeded_at = now()`,
        [set.name, digest],
      );
    });
    written.push(set.name);
  }
  return written;
}
