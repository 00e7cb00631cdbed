/**
 * A Fusion 360 tool library of any length, made from the sample's end mill, ball end mill and
 * drill (kernel/tools/catalogue/testdata/fusion-library-sample.json): each copy gets its own
 * guid, pocket and name ("Test tool 007 …"), so a library of 100 tools is one import away.
 */
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { repoRoot } from "../../config/env.ts";

type Entry = Record<string, unknown>;

const SAMPLE = JSON.parse(
  fs.readFileSync(path.join(repoRoot, "kernel/tools/catalogue/testdata/fusion-library-sample.json"), "utf8"),
) as { data: Entry[]; version: number };

/** the sample's flat end mill (with its holder), ball end mill and drill, which import as they are */
const TEMPLATES = [0, 1, 2].map((index) => SAMPLE.data[index] as Entry);

/** the name the n-th tool (from 1) gets; its template's description follows it */
export function longLibraryToolName(n: number, prefix = "Test tool"): string {
  return `${prefix} ${String(n).padStart(3, "0")}`;
}

export function longFusionLibrary(count: number, prefix?: string): Buffer {
  const data = Array.from({ length: count }, (_, index) => {
    const template = TEMPLATES[index % TEMPLATES.length] as Entry;
    const postProcess = (template["post-process"] ?? {}) as Entry;
    return {
      ...template,
      guid: randomUUID(),
      description: `${longLibraryToolName(index + 1, prefix)} ${String(template.description)}`,
      "product-id": `LL-${index + 1}`,
      "post-process": { ...postProcess, number: index + 1 },
    };
  });
  return Buffer.from(JSON.stringify({ data, version: SAMPLE.version }));
}
