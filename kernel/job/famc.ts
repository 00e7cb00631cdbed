/**
 * The .famc job file: a project's CAM job as one self-contained, versioned binary that a user
 * downloads (GET /projects/{id}/job) and may upload back (POST /projects/{id}/job) to roll a
 * project back. docs/famc-format.md describes the layout; this module writes and reads it.
 *
 *   magic "\x89FAMC\r\n\x1a" | version u16 | flags u16 | owner uuid (16 bytes) | section count u16
 *   sections: name length u8 | name | flags u8 | length u64 | bytes
 *   MAC: HMAC-SHA256 (32 bytes) over "swarf.famc.v1\n<owner>\n<hex SHA-256 of all bytes before it>"
 *
 * Integers are big-endian. The MAC's key is a server secret the caller holds (the database, in
 * the service: db/queries/jobs.ts), so this module takes the signing and the checking as
 * functions and stays pure. The owner inside the MAC binds a file to one user.
 */
import { createHash, createHmac } from "node:crypto";
import { z } from "zod";
import { decodeCamPlan, PlanFormatError, type CamPlan } from "./plan.ts";
import { BoundingBoxStock } from "./stock.ts";
import { MachineSnapshot } from "../machines/snapshot.ts";
import { JobSource, WorkpieceMeta } from "./types.ts";

export const FAMC_MAGIC = Buffer.from([0x89, 0x46, 0x41, 0x4d, 0x43, 0x0d, 0x0a, 0x1a]);
/** 2: the CAM plan (section cam.plan). A server reads every supported version and writes the newest. */
export const FAMC_VERSION = 2;
export const FAMC_SUPPORTED_VERSIONS: readonly number[] = [1, 2];
export const FAMC_MEDIA_TYPE = "application/octet-stream";

const MAC_BYTES = 32;
/** magic, version, flags, owner, section count */
const HEADER_BYTES = 8 + 2 + 2 + 16 + 2;
const MAX_SECTIONS = 64;
const SECTION_NAME = /^[a-z][a-z0-9._-]{0,63}$/;

/** The job's own record, as it was in the project the file came from. */
export const FamcJobInfo = z.object({
  job_id: z.uuid(),
  project_id: z.uuid(),
  parent_job_id: z.uuid().nullable(),
  source: JobSource,
  created_at: z.iso.datetime({ offset: true }),
});
export type FamcJobInfo = z.infer<typeof FamcJobInfo>;

export interface FamcWorkpiece {
  meta: WorkpieceMeta;
  /** the uploaded file, as uploaded */
  original: Uint8Array;
  /** OCCT BREP in mm; null for STL */
  brep: Uint8Array | null;
  /** binary glTF; null (with thumbnail) in a file written without them: the importer re-meshes */
  mesh: Uint8Array | null;
  /** PNG */
  thumbnail: Uint8Array | null;
}

export interface FamcContents {
  /** the user the file is bound to */
  owner: string;
  job: FamcJobInfo;
  machine: MachineSnapshot;
  stock: BoundingBoxStock | null;
  workpiece: FamcWorkpiece | null;
  /** the CAM plan as the job stores it (gzip JSON, kernel/job/plan.ts); needs stock. null: none */
  plan: Uint8Array | null;
}

/** A plan read from a file: its bytes as they were (stored again as they are) and what they say. */
export interface FamcPlan {
  bytes: Buffer;
  document: CamPlan;
}

/** What a file holds, read back (version 1 files have no plan). */
export type DecodedFamc = Omit<FamcContents, "plan"> & { version: number; plan: FamcPlan | null };

export type FamcErrorCode = "job_blob_invalid" | "job_version_unsupported" | "job_owner_mismatch";

/** A file this module refuses, with the code the API answers. */
export class FamcError extends Error {
  readonly code: FamcErrorCode;
  readonly details: Record<string, unknown>;
  constructor(code: FamcErrorCode, message: string, details: Record<string, unknown> = {}) {
    super(message);
    this.name = "FamcError";
    this.code = code;
    this.details = details;
  }
}

/** Computes the MAC for (owner, digest) with the server's secret. */
export type FamcSign = (owner: string, digest: Buffer) => Promise<Buffer>;
/** Whether mac is the server's MAC for (owner, digest). */
export type FamcVerify = (owner: string, digest: Buffer, mac: Buffer) => Promise<boolean>;

/** What the MAC is computed over (sql: app_private.famc_message builds the same bytes). */
export function famcMacMessage(owner: string, digest: Buffer): Buffer {
  return Buffer.from(`swarf.famc.v1\n${owner}\n${digest.toString("hex")}`, "utf8");
}

/** The MAC with a known key: the reference the SQL implementation is tested against. */
export function famcMac(key: Buffer, owner: string, digest: Buffer): Buffer {
  return createHmac("sha256", key).update(famcMacMessage(owner, digest)).digest();
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function uuidBytes(id: string): Buffer {
  if (!UUID.test(id)) throw new Error(`not a lower-case UUID: ${id}`);
  return Buffer.from(id.replaceAll("-", ""), "hex");
}

function uuidText(bytes: Buffer): string {
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function json(value: unknown): Buffer {
  return Buffer.from(JSON.stringify(value), "utf8");
}

function sectionsOf(contents: FamcContents): [string, Uint8Array][] {
  const sections: [string, Uint8Array][] = [
    ["job", json(FamcJobInfo.parse(contents.job))],
    ["machine", json(MachineSnapshot.parse(contents.machine))],
  ];
  if (contents.stock) {
    if (!contents.workpiece) throw new Error("encodeFamc: stock needs a workpiece");
    sections.push(["stock", json(BoundingBoxStock.parse(contents.stock))]);
  }
  const workpiece = contents.workpiece;
  if (workpiece) {
    sections.push(["workpiece", json(WorkpieceMeta.parse(workpiece.meta))], ["workpiece.original", workpiece.original]);
    if (workpiece.brep) sections.push(["workpiece.brep", workpiece.brep]);
    if ((workpiece.mesh === null) !== (workpiece.thumbnail === null))
      throw new Error("encodeFamc: a mesh goes with a thumbnail");
    if (workpiece.mesh && workpiece.thumbnail) {
      sections.push(["workpiece.mesh", workpiece.mesh], ["workpiece.thumbnail", workpiece.thumbnail]);
    }
  }
  if (contents.plan) {
    if (!contents.stock) throw new Error("encodeFamc: a plan needs stock");
    sections.push(["cam.plan", contents.plan]);
  }
  return sections;
}

/** Writes a job file and signs it for contents.owner. */
export async function encodeFamc(contents: FamcContents, sign: FamcSign): Promise<Buffer> {
  const sections = sectionsOf(contents);
  const length =
    HEADER_BYTES +
    sections.reduce((sum, [name, data]) => sum + 1 + Buffer.byteLength(name) + 1 + 8 + data.byteLength, 0) +
    MAC_BYTES;
  const out = Buffer.alloc(length);
  FAMC_MAGIC.copy(out, 0);
  out.writeUInt16BE(FAMC_VERSION, 8);
  out.writeUInt16BE(0, 10);
  uuidBytes(contents.owner).copy(out, 12);
  out.writeUInt16BE(sections.length, 28);
  let at = HEADER_BYTES;
  for (const [name, data] of sections) {
    at = out.writeUInt8(name.length, at);
    at += out.write(name, at, "ascii");
    at = out.writeUInt8(0, at);
    at = out.writeBigUInt64BE(BigInt(data.byteLength), at);
    out.set(data, at);
    at += data.byteLength;
  }
  const digest = createHash("sha256").update(out.subarray(0, at)).digest();
  const mac = await sign(contents.owner, digest);
  if (mac.length !== MAC_BYTES) throw new Error(`encodeFamc: a MAC is ${MAC_BYTES} bytes, got ${mac.length}`);
  mac.copy(out, at);
  return out;
}

const invalid = (message: string, details: Record<string, unknown> = {}) =>
  new FamcError("job_blob_invalid", message, details);

/** The sections of a file whose MAC was checked: structure errors here mean a bug of ours. */
function readSections(bytes: Buffer): Map<string, Buffer> {
  const end = bytes.length - MAC_BYTES;
  if (bytes.readUInt16BE(10) !== 0) throw invalid("the file's header flags are not known to this version");
  const count = bytes.readUInt16BE(28);
  if (count > MAX_SECTIONS) throw invalid(`the file declares ${count} sections`);
  const sections = new Map<string, Buffer>();
  let at = HEADER_BYTES;
  for (let i = 0; i < count; i += 1) {
    if (at + 1 > end) throw invalid("the file ends inside its section table");
    const nameLength = bytes.readUInt8(at);
    at += 1;
    if (at + nameLength + 1 + 8 > end) throw invalid("the file ends inside a section header");
    const name = bytes.toString("latin1", at, at + nameLength);
    at += nameLength;
    if (!SECTION_NAME.test(name)) throw invalid("a section name is malformed");
    if (sections.has(name)) throw invalid(`section ${name} appears twice`, { section: name });
    if (bytes.readUInt8(at) !== 0)
      throw invalid(`section ${name} has flags this version does not know`, { section: name });
    at += 1;
    const length = bytes.readBigUInt64BE(at);
    at += 8;
    if (length > BigInt(end - at)) throw invalid(`section ${name} runs past the end of the file`, { section: name });
    sections.set(name, bytes.subarray(at, at + Number(length)));
    at += Number(length);
  }
  if (at !== end) throw invalid("the file has bytes after its last section");
  return sections;
}

const VERSION_1_SECTIONS = [
  "job",
  "machine",
  "stock",
  "workpiece",
  "workpiece.original",
  "workpiece.brep",
  "workpiece.mesh",
  "workpiece.thumbnail",
];
/** the sections each version may hold */
const KNOWN_SECTIONS = new Map<number, ReadonlySet<string>>([
  [1, new Set(VERSION_1_SECTIONS)],
  [2, new Set([...VERSION_1_SECTIONS, "cam.plan"])],
]);

function jsonSection<T>(sections: Map<string, Buffer>, name: string, schema: z.ZodType<T>): T {
  const data = sections.get(name);
  if (!data) throw invalid(`the file has no ${name} section`, { section: name });
  let value: unknown;
  try {
    value = JSON.parse(data.toString("utf8"));
  } catch {
    throw invalid(`section ${name} is not JSON`, { section: name });
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw invalid(`section ${name} does not have the expected fields`, { section: name });
  return parsed.data;
}

function bytesSection(sections: Map<string, Buffer>, name: string): Buffer {
  const data = sections.get(name);
  if (!data) throw invalid(`the file has no ${name} section`, { section: name });
  return data;
}

/**
 * Reads a job file for expectedOwner. Checks, in order: the magic (job_blob_invalid), the
 * version (job_version_unsupported), the MAC over everything (job_blob_invalid: truncated,
 * tampered, or not from this server), the owner (job_owner_mismatch), then the structure.
 * Nothing is parsed before the MAC has been checked.
 */
export async function decodeFamc(bytes: Buffer, expectedOwner: string, verify: FamcVerify): Promise<DecodedFamc> {
  if (bytes.length < 12 || !bytes.subarray(0, 8).equals(FAMC_MAGIC)) {
    throw invalid("this is not a .famc job file");
  }
  const version = bytes.readUInt16BE(8);
  if (!FAMC_SUPPORTED_VERSIONS.includes(version)) {
    throw new FamcError(
      "job_version_unsupported",
      `job file version ${version} is not supported; this server reads version ${FAMC_SUPPORTED_VERSIONS.join(", ")}`,
      {
        version,
        supported_versions: FAMC_SUPPORTED_VERSIONS,
      },
    );
  }
  if (bytes.length < HEADER_BYTES + MAC_BYTES) throw invalid("the job file is truncated");
  const owner = uuidText(bytes.subarray(12, 28));
  const end = bytes.length - MAC_BYTES;
  const digest = createHash("sha256").update(bytes.subarray(0, end)).digest();
  if (!(await verify(owner, digest, bytes.subarray(end)))) {
    throw invalid("the job file is truncated, was changed, or was not written by this server");
  }
  if (owner !== expectedOwner) {
    throw new FamcError("job_owner_mismatch", "this job file belongs to another user; only its owner may upload it");
  }

  const sections = readSections(bytes);
  const known = KNOWN_SECTIONS.get(version)!;
  for (const name of sections.keys()) {
    if (!known.has(name)) throw invalid(`section ${name} is not part of version ${version}`, { section: name });
  }
  const job = jsonSection(sections, "job", FamcJobInfo);
  const machine = jsonSection(sections, "machine", MachineSnapshot);
  let workpiece: FamcWorkpiece | null = null;
  if (sections.has("workpiece")) {
    workpiece = {
      meta: jsonSection(sections, "workpiece", WorkpieceMeta),
      original: bytesSection(sections, "workpiece.original"),
      brep: sections.get("workpiece.brep") ?? null,
      mesh: sections.get("workpiece.mesh") ?? null,
      thumbnail: sections.get("workpiece.thumbnail") ?? null,
    };
    if ((workpiece.mesh === null) !== (workpiece.thumbnail === null)) {
      throw invalid("the file has a workpiece mesh without its thumbnail, or a thumbnail without a mesh");
    }
  } else if ([...sections.keys()].some((name) => name.startsWith("workpiece."))) {
    throw invalid("the file has workpiece data but no workpiece section");
  }
  const stock = sections.has("stock") ? jsonSection(sections, "stock", BoundingBoxStock) : null;
  if (stock && !workpiece) throw invalid("the file has stock but no workpiece");
  const planBytes = sections.get("cam.plan");
  let plan: FamcPlan | null = null;
  if (planBytes) {
    if (!stock) throw invalid("the file has a CAM plan but no stock");
    try {
      plan = { bytes: planBytes, document: decodeCamPlan(planBytes) };
    } catch (error) {
      if (error instanceof PlanFormatError)
        throw invalid(`section cam.plan: ${error.message}`, { section: "cam.plan" });
      throw error;
    }
  }
  return { version, owner, job, machine, stock, workpiece, plan };
}
