import assert from "node:assert/strict";
import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import { before, describe, it } from "node:test";
import { gzipSync } from "node:zlib";
import { fakePlanResult } from "../../test/support/fake-plan.ts";
import { partC, type FixtureWorkpiece } from "../../test/support/fixture-workpiece.ts";
import {
  decodeFamc,
  encodeFamc,
  FAMC_MAGIC,
  famcMac,
  FamcError,
  type FamcContents,
  type FamcSign,
  type FamcVerify,
} from "./famc.ts";
import { findMachineArchetype } from "../machines/archetypes.ts";
import { camPlanOf, encodeCamPlan } from "./plan.ts";
import { boundingBoxStock } from "./stock.ts";

const KEY = randomBytes(32);
const sign: FamcSign = async (owner, digest) => famcMac(KEY, owner, digest);
const verify: FamcVerify = async (owner, digest, mac) =>
  mac.length === 32 && timingSafeEqual(famcMac(KEY, owner, digest), mac);

const OWNER = randomUUID();
let part: FixtureWorkpiece;
let contents: FamcContents;

before(async () => {
  part = await partC();
  const w = part.ingested;
  contents = {
    owner: OWNER,
    job: {
      job_id: randomUUID(),
      project_id: randomUUID(),
      parent_job_id: randomUUID(),
      source: "stock",
      created_at: new Date().toISOString(),
    },
    machine: {
      product_id: "linuxcnc-3axis",
      name: "LinuxCNC 3-axis mill",
      control: "linuxcnc",
      travel_mm: [600, 400, 300],
      max_spindle_rpm: 12000,
      max_feed_mm_min: 6000,
      tool_slots: 10,
    },
    stock: boundingBoxStock(w.bbox, { minus_x: 1, plus_x: 1, minus_y: 2, plus_y: 2, minus_z: 0, plus_z: 3 }),
    workpiece: {
      meta: {
        format: w.format,
        original_filename: part.filename,
        units_read: w.unitsRead,
        bbox: w.bbox,
        volume_mm3: w.volumeMm3,
        face_count: w.faceCount,
        triangle_count: w.triangleCount,
        closed_solid: w.closedSolid,
        warnings: w.warnings,
      },
      original: part.original,
      brep: null,
      mesh: part.glb,
      thumbnail: part.png,
    },
    plan: null,
  };
});

const plan = () =>
  camPlanOf(
    fakePlanResult(),
    { include_face_milling: true, sort_by_height: false },
    findMachineArchetype("vmc-850-fanuc")!,
  );

/** gzip JSON of anything, as a buggy writer might have stored it */
function encodeCamPlanUnchecked(value: unknown): Buffer {
  return gzipSync(Buffer.from(JSON.stringify(value)));
}

async function refusal(bytes: Buffer, owner = OWNER): Promise<FamcError> {
  try {
    await decodeFamc(bytes, owner, verify);
  } catch (error) {
    if (error instanceof FamcError) return error;
    throw error;
  }
  assert.fail("decodeFamc accepted the file");
}

/** Re-signs a file after editing it, as only the holder of the key could. */
function resign(bytes: Buffer, owner = OWNER): Buffer {
  const body = bytes.subarray(0, bytes.length - 32);
  return Buffer.concat([body, famcMac(KEY, owner, createHash("sha256").update(body).digest())]);
}

describe("the .famc job file", () => {
  it("round-trips a job with its workpiece, stock and machine, byte for byte", async () => {
    const file = await encodeFamc(contents, sign);
    assert.ok(file.subarray(0, 8).equals(FAMC_MAGIC));
    assert.equal(file.readUInt16BE(8), 2, "version 2");
    const back = await decodeFamc(file, OWNER, verify);
    assert.equal(back.owner, OWNER);
    assert.deepEqual(back.job, contents.job);
    assert.deepEqual(back.machine, contents.machine);
    assert.deepEqual(back.stock, contents.stock);
    assert.deepEqual(back.workpiece?.meta, contents.workpiece?.meta);
    assert.ok(Buffer.from(back.workpiece!.original).equals(part.original));
    assert.ok(Buffer.from(back.workpiece!.mesh!).equals(part.glb));
    assert.ok(Buffer.from(back.workpiece!.thumbnail!).equals(part.png));
    assert.equal(back.workpiece?.brep, null);
    assert.equal(back.plan, null);
    assert.ok((await encodeFamc(contents, sign)).equals(file), "the same job writes the same bytes");
  });

  it("round-trips a CAM plan: the same bytes come back, and what they say", async () => {
    const planned = plan();
    const bytes = encodeCamPlan(planned);
    const file = await encodeFamc({ ...contents, job: { ...contents.job, source: "plan" }, plan: bytes }, sign);
    const back = await decodeFamc(file, OWNER, verify);
    assert.equal(back.version, 2);
    assert.equal(back.job.source, "plan");
    assert.ok(back.plan?.bytes.equals(bytes), "the plan's bytes as they were stored");
    assert.deepEqual(back.plan?.document, planned);
    await assert.rejects(
      encodeFamc({ ...contents, stock: null, workpiece: null, plan: bytes }, sign),
      /a plan needs stock/,
    );
  });

  it("reads a plan stored before blocks (plan document version 1) with its blocks derived and no completeness, keeping its bytes as they were", async () => {
    const { completeness: _completeness, ...planned } = plan();
    const setups = planned.setups.map(({ blocks: _blocks, ...setup }) => setup);
    const bytes = encodeCamPlanUnchecked({ ...planned, version: 1, setups });
    const file = await encodeFamc({ ...contents, job: { ...contents.job, source: "plan" }, plan: bytes }, sign);
    const back = await decodeFamc(file, OWNER, verify);
    assert.ok(back.plan?.bytes.equals(bytes), "an import stores the old document's bytes, not an upgraded copy");
    assert.equal(back.plan?.document.version, 3);
    assert.deepEqual(back.plan?.document, { ...planned, completeness: null }, "completeness was not measured then");
    assert.deepEqual(
      back.plan?.document.setups[0]?.blocks.map((b) => b.kind),
      ["facing", "roughing", "holes"],
    );
  });

  it("reads a version 1 file (no plan), and refuses a plan in one", async () => {
    const file = Buffer.from(await encodeFamc(contents, sign));
    file.writeUInt16BE(1, 8);
    const back = await decodeFamc(resign(file), OWNER, verify);
    assert.equal(back.version, 1);
    assert.deepEqual(back.stock, contents.stock);
    assert.equal(back.plan, null);
    const planned = Buffer.from(await encodeFamc({ ...contents, plan: encodeCamPlan(plan()) }, sign));
    planned.writeUInt16BE(1, 8);
    const error = await refusal(resign(planned));
    assert.equal(error.code, "job_blob_invalid");
    assert.deepEqual(error.details, { section: "cam.plan" });
  });

  it("refuses a correctly signed plan section that is not a plan (a writer's bug) with job_blob_invalid", async () => {
    for (const bytes of [Buffer.from("not gzip"), encodeCamPlanUnchecked({ version: 1, setups: "none" })]) {
      const file = await encodeFamc({ ...contents, plan: bytes }, sign);
      const error = await refusal(file);
      assert.equal(error.code, "job_blob_invalid");
      assert.deepEqual(error.details, { section: "cam.plan" });
    }
  });

  it("carries a B-rep when there is one, and a job without workpiece or stock", async () => {
    const brep = Buffer.from("DBRep_DrawableShape\n\nCASCADE Topology V3, (c) Open Cascade\n");
    const withBrep = await decodeFamc(
      await encodeFamc({ ...contents, workpiece: { ...contents.workpiece!, brep } }, sign),
      OWNER,
      verify,
    );
    assert.ok(Buffer.from(withBrep.workpiece!.brep!).equals(brep));
    const bare = await decodeFamc(await encodeFamc({ ...contents, stock: null, workpiece: null }, sign), OWNER, verify);
    assert.equal(bare.workpiece, null);
    assert.equal(bare.stock, null);
    await assert.rejects(encodeFamc({ ...contents, workpiece: null }, sign), /stock needs a workpiece/);
  });

  it("refuses a file of another user with job_owner_mismatch", async () => {
    const file = await encodeFamc(contents, sign);
    const error = await refusal(file, randomUUID());
    assert.equal(error.code, "job_owner_mismatch");
  });

  it("refuses a changed byte anywhere (header, section, MAC) with job_blob_invalid", async () => {
    const file = await encodeFamc(contents, sign);
    for (const at of [13, 40, Math.floor(file.length / 2), file.length - 40, file.length - 1]) {
      const tampered = Buffer.from(file);
      tampered[at] = tampered[at]! ^ 0x01;
      const error = await refusal(tampered);
      assert.equal(error.code, "job_blob_invalid", `byte ${at}`);
    }
    // the owner rewritten to the uploader's own id: the MAC no longer matches
    const other = randomUUID();
    const stolen = Buffer.from(file);
    Buffer.from(other.replaceAll("-", ""), "hex").copy(stolen, 12);
    assert.equal((await refusal(stolen, other)).code, "job_blob_invalid");
  });

  it("refuses a truncated file, an empty one and one that is not a job file with job_blob_invalid", async () => {
    const file = await encodeFamc(contents, sign);
    for (const length of [0, 5, 11, 30, 61, 200, file.length - 33, file.length - 1]) {
      assert.equal((await refusal(file.subarray(0, length))).code, "job_blob_invalid", `first ${length} bytes`);
    }
    assert.equal((await refusal(Buffer.from("solid cube\nendsolid cube\n"))).code, "job_blob_invalid");
    assert.equal((await refusal(Buffer.concat([file, Buffer.from([0])]))).code, "job_blob_invalid", "a byte appended");
  });

  it("refuses an unknown version with job_version_unsupported, even when correctly signed", async () => {
    const file = Buffer.from(await encodeFamc(contents, sign));
    file.writeUInt16BE(3, 8);
    const error = await refusal(resign(file));
    assert.equal(error.code, "job_version_unsupported");
    assert.deepEqual(error.details, { version: 3, supported_versions: [1, 2] });
    file.writeUInt16BE(0, 8);
    assert.equal((await refusal(file)).code, "job_version_unsupported");
  });

  it("refuses a correctly signed file whose structure is wrong (a writer's bug) with job_blob_invalid", async () => {
    const file = Buffer.from(await encodeFamc({ ...contents, stock: null, workpiece: null }, sign));
    const flags = Buffer.from(file);
    flags.writeUInt16BE(1, 10);
    assert.equal((await refusal(resign(flags))).code, "job_blob_invalid");
    const count = Buffer.from(file);
    count.writeUInt16BE(3, 28);
    assert.match((await refusal(resign(count))).message, /ends inside/);
    // the job section's JSON broken: "job" is the first section, its JSON starts with {
    const json = Buffer.from(file);
    json[30 + 1 + 3 + 1 + 8] = 0x5b;
    const error = await refusal(resign(json));
    assert.equal(error.code, "job_blob_invalid");
    assert.deepEqual(error.details, { section: "job" });
  });

  it("may leave out the mesh and thumbnail together, and refuses a file with one of them only", async () => {
    const lean = await encodeFamc(
      { ...contents, workpiece: { ...contents.workpiece!, mesh: null, thumbnail: null } },
      sign,
    );
    const full = await encodeFamc(contents, sign);
    assert.equal(
      full.length - lean.length,
      2 * (1 + 1 + 8) + "workpiece.mesh".length + "workpiece.thumbnail".length + part.glb.length + part.png.length,
    );
    const back = await decodeFamc(lean, OWNER, verify);
    assert.equal(back.workpiece?.mesh, null);
    assert.equal(back.workpiece?.thumbnail, null);
    assert.deepEqual(back.workpiece?.meta, contents.workpiece?.meta);
    await assert.rejects(
      encodeFamc({ ...contents, workpiece: { ...contents.workpiece!, thumbnail: null } }, sign),
      /a mesh goes with a thumbnail/,
    );

    // the thumbnail is the last section: cut it off, count one section fewer, sign again
    const thumbnailSection = 1 + "workpiece.thumbnail".length + 1 + 8 + part.png.length;
    const meshOnly = Buffer.from(full.subarray(0, full.length - 32 - thumbnailSection));
    meshOnly.writeUInt16BE(meshOnly.readUInt16BE(28) - 1, 28);
    const error = await refusal(resign(Buffer.concat([meshOnly, Buffer.alloc(32)])));
    assert.equal(error.code, "job_blob_invalid");
    assert.match(error.message, /mesh without its thumbnail/);
  });

  it("hands the signer exactly the SHA-256 of the bytes before the MAC, and the MAC is HMAC-SHA256 of the documented message", async () => {
    let seen: Buffer | undefined;
    const file = await encodeFamc(contents, async (owner, digest) => {
      seen = digest;
      return famcMac(KEY, owner, digest);
    });
    const body = file.subarray(0, file.length - 32);
    assert.ok(seen?.equals(createHash("sha256").update(body).digest()));
    const message = `swarf.famc.v1\n${OWNER}\n${seen!.toString("hex")}`;
    assert.ok(file.subarray(file.length - 32).equals(createHmac("sha256", KEY).update(message).digest()));
  });
});
