/**
 * A real workpiece for tests: partC.stl from ../shared/fixtures through the kernel's ingest,
 * glTF writer and thumbnail renderer (the STL path, no OCCT). Computed once per process.
 */
import fs from "node:fs";
import path from "node:path";
import { repoRoot } from "../../config/env.ts";
import { ingestWorkpiece } from "../../kernel/geometry/ingest.ts";
import type { IngestedWorkpiece } from "../../kernel/geometry/types.ts";
import { meshToGlb } from "../../kernel/mesh/glb.ts";
import { renderThumbnail } from "../../kernel/mesh/thumbnail.ts";

export interface FixtureWorkpiece {
  filename: string;
  original: Buffer;
  ingested: IngestedWorkpiece;
  glb: Buffer;
  png: Buffer;
}

export const PART_C_STL = path.resolve(repoRoot, "..", "shared", "fixtures", "parts", "partC.stl");

let cached: Promise<FixtureWorkpiece> | undefined;

export function partC(): Promise<FixtureWorkpiece> {
  cached ??= (async () => {
    const original = fs.readFileSync(PART_C_STL);
    const ingested = ingestWorkpiece(undefined, original, { filename: "partC.stl" });
    return {
      filename: "partC.stl",
      original,
      ingested,
      glb: Buffer.from(meshToGlb(ingested.mesh)),
      png: Buffer.from(await renderThumbnail(ingested.mesh, { size: 64 })),
    };
  })();
  return cached;
}
