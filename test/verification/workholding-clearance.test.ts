/**
 * Every fixture part, and the MFCAD models the planner's tests plan, planned on the vmc-850
 * (issue 35, "Done when"): every setup is held, in the vise or, where it opens too little (NIST
 * CTC-01, STC-06), on the machine's table; its LinuxCNC program, read back by rs274, keeps every
 * tool 1 mm clear of every jaw, support and clamp (test/support/workholding-clearance.ts says how it is measured, under two
 * readings); and the jaws close on what they grip, at least 3 mm deep. The stock is the
 * verification tests' (2 mm round the part, 5 mm on top) with 8 mm below the part to grip.
 *
 * The tests assert the tool's-solid reading: the cylinder of the tool's radius from its tip up
 * stays 1 mm from every box. The stricter literal reading, the tool's tip point at least its
 * radius + 1 mm from every box in space, does not hold wherever a tool passes less than its
 * radius + 1 mm over a jaw's top; each setup's least margin under both is reported
 * (t.diagnostic), and a reading that breaks says by which motion.
 *
 * Heavy: each part is planned once (the NIST parts take 20 to 60 s each).
 */
import assert from "node:assert/strict";
import type { OpenCascadeInstance } from "opencascade.js/dist/node.js";
import { before, describe, it } from "node:test";
import { planCam } from "../../kernel/cam/plan.ts";
import type { PlanResult } from "../../kernel/cam/plan-types.ts";
import type { Box3 } from "../../kernel/cam/types.ts";
import { withOcctScope } from "../../kernel/geometry/occt-scope.ts";
import { loadOpenCascade } from "../../kernel/geometry/opencascade.ts";
import { tessellate } from "../../kernel/geometry/tessellate.ts";
import { camPlanOf, type CamPlan } from "../../kernel/job/plan.ts";
import { findMachineArchetype, type MachineArchetype } from "../../kernel/machines/archetypes.ts";
import { meshBounds } from "../../kernel/mesh/bounds.ts";
import { starterLibrary } from "../../kernel/tools/catalogue/starter-library.ts";
import { defaultWorkholding } from "../../kernel/workholding/defaults.ts";
import { rs274Missing } from "../support/rs274.ts";
import { fixtureStep, type PartSource } from "../support/simchecked-part.ts";
import { mfcadStep } from "../../kernel/features/test-support.ts";
import { readBrep, writeBrep } from "../../kernel/geometry/brep.ts";
import { readStep } from "../../kernel/geometry/step.ts";
import {
  type FacedMesh,
  faceContacts,
  type JawContact,
  type Nearest,
  type ProgramClearance,
  programClearance,
  stockContacts,
} from "../support/workholding-clearance.ts";

/** the fixture parts, and the MFCAD models the planner's own tests plan (kernel/cam/plan.test.ts) */
const PARTS: [string, PartSource][] = [
  ...[
    "partC.step",
    "nist_ctc_01_asme1_ap242-e1.stp",
    "nist_ftc_10_asme1_ap242-e2.stp",
    "nist_stc_06_asme1_ap242-e3.stp",
  ].map((name): [string, PartSource] => [name, fixtureStep(name)]),
  ...["0-5-19", "0-1-5-7-11-23"].map((model): [string, PartSource] => [
    `MFCAD ${model}`,
    (oc) => withOcctScope((scope) => writeBrep(oc, readStep(oc, mfcadStep(model), scope).solid)),
  ]),
];
const OPTIONS = { include_face_milling: true, sort_by_height: false };
/** stock below the part for the first setup's jaws: 5 mm of grip, 1.5 mm kept clear of the part */
const BELOW_MM = 8;
/** how near a jaw's face must be to what it grips, mm */
const CONTACT_MM = 0.1;
const MIN_GRIP_MM = 3;
/** the planner's own chordal error (planner/read-part.ts): planar faces are meshed exactly anyway */
const MESH_DEFLECTION_MM = 0.01;

interface Held {
  plan: CamPlan;
  result: PlanResult;
  mesh: FacedMesh;
  seconds: number;
}

function planHeld(oc: OpenCascadeInstance, source: PartSource): Held {
  const brep = source(oc);
  const mesh = withOcctScope((scope) => {
    const { solid } = readBrep(oc, brep, scope);
    return tessellate(oc, solid, 0, { linearDeflectionMm: MESH_DEFLECTION_MM }).mesh;
  });
  const part = meshBounds(mesh);
  const stock: Box3 = {
    min: [part.min[0] - 2, part.min[1] - 2, part.min[2] - BELOW_MM],
    max: [part.max[0] + 2, part.max[1] + 2, part.max[2] + 5],
  };
  const machine = findMachineArchetype("vmc-850-fanuc") as MachineArchetype;
  const started = performance.now();
  const result = planCam(
    oc,
    {
      workpiece: { format: "step", bytes: brep, bytes_format: "brep" },
      stock,
      machine,
      material_id: "aluminium-6061",
      library: starterLibrary(),
      options: OPTIONS,
      workholding: defaultWorkholding(machine.product_id),
    },
    { progress: () => {}, cancelled: () => false },
  );
  return {
    plan: camPlanOf(result, OPTIONS, machine),
    result,
    mesh: { positions: mesh.positions, faceIds: mesh.faceIds },
    seconds: (performance.now() - started) / 1000,
  };
}

const mm = (v: number): string => v.toFixed(3);

function told(setup: string, n: Nearest | null): string {
  if (n === null) return `${setup}: nothing measured`;
  const { kind, from, to, call } = n.motion;
  return (
    `${setup}, ${n.operation || "(no operation)"}: ${kind} ${from.map(mm).join(",")} -> ${to.map(mm).join(",")} ` +
    `(rs274 call ${call}), T${n.tool} r ${mm(n.radius_mm)} at ${n.at.map(mm).join(",")}, ${n.box}: margin ${mm(n.margin_mm)} mm`
  );
}

function contactsOf(held: Held, index: number): JawContact[] {
  const setup = held.plan.setups[index]!;
  const hold = setup.workholding!;
  const boxes = hold.type === "vise" ? hold.jaws : hold.clamps;
  const blank = stockContacts(boxes, hold.grip_axis, setup.stock);
  if (hold.clamped.grips === "stock") return blank;
  // a jaw on the blank's face beside part faces on the other side has no part face of its own
  return faceContacts(boxes, hold.grip_axis, setup.wcs, held.mesh, hold.clamped.faces).map((contact, i) =>
    contact.gap_mm === Infinity ? (blank[i] as JawContact) : contact,
  );
}

const missing = rs274Missing();

for (const [name, source] of PARTS) {
  describe(`${name} held on the vmc-850, its programs read back by rs274`, { skip: missing }, () => {
    let held: Held;
    const clearances = new Map<string, ProgramClearance>();
    before(async () => {
      held = planHeld(await loadOpenCascade(), source);
      console.log(
        `${name}: planned in ${held.seconds.toFixed(1)} s, setups ${held.plan.setups.map((s) => s.name).join(", ")}; ` +
          `warnings ${[...new Set(held.result.warnings.map((w) => w.code))].join(", ") || "none"}`,
      );
      for (const w of held.result.warnings) if (w.code === "stock_allowance_needed") console.log(`  ${w.message}`);
      for (const setup of held.plan.setups) {
        if (setup.workholding === undefined) continue;
        clearances.set(setup.name, programClearance(held.plan, setup.index));
      }
    });

    it("holds every setup in the vise, else on the machine's table", () => {
      assert.ok(held.plan.setups.length > 0);
      for (const setup of held.plan.setups) {
        const hold = setup.workholding;
        assert.ok(hold, `${setup.name} has no workholding`);
        assert.ok(hold.type === "vise" || hold.type === "machine_table", `${setup.name}: ${hold.type}`);
        if (hold.type === "vise") assert.equal(hold.jaws.length, 2, setup.name);
        else assert.ok(hold.clamps.length >= 2, setup.name);
      }
    });

    it("keeps every tool of every program 1 mm clear of every jaw, support and clamp", (t) => {
      for (const setup of held.plan.setups) {
        const c = clearances.get(setup.name);
        assert.ok(c, `${setup.name} was not read back`);
        assert.equal(c.status, 0, `${setup.name}: rs274 stopped: ${c.complaint}`);
        assert.ok(c.samples > 0, setup.name);
        t.diagnostic(
          `${name} ${setup.name}: ${c.motions} motions, ${c.samples} samples; least margin, tool's solid ${mm(c.solid?.margin_mm ?? Infinity)} mm, ` +
            `literal ${mm(c.literal?.margin_mm ?? Infinity)} mm`,
        );
        t.diagnostic(`  nearest (solid): ${told(setup.name, c.solid)}`);
        if ((c.literal?.margin_mm ?? 0) < 0) t.diagnostic(`  nearest (literal): ${told(setup.name, c.literal)}`);
      }
      const breaking = held.plan.setups.flatMap((setup) =>
        (clearances.get(setup.name)?.breaking ?? []).map((n) => told(setup.name, n)),
      );
      assert.deepEqual(breaking.slice(0, 20), [], `${breaking.length} motions come nearer than 1 mm`);
    });

    it("closes the jaws on what they grip, within 0.1 mm, at least 3 mm deep; the first setup on the stock", (t) => {
      const first = held.plan.setups[0]!;
      assert.equal(first.workholding?.clamped.grips, "stock", "the first setup grips the blank");
      for (const setup of held.plan.setups) {
        const hold = setup.workholding!;
        assert.ok(hold.grip_mm >= MIN_GRIP_MM, `${setup.name}: grip ${hold.grip_mm} mm`);
        const contacts = contactsOf(held, setup.index);
        t.diagnostic(
          `${name} ${setup.name}: grips ${hold.clamped.grips} ${hold.clamped.description} across ${hold.grip_axis}, ` +
            `${hold.grip_mm} mm${hold.soft_jaws ? " (soft jaws)" : ""}; ` +
            contacts.map((c) => `${c.jaw} gap ${mm(c.gap_mm)}, height ${mm(c.height_mm)}`).join("; "),
        );
        for (const c of contacts) {
          // soft jaws are machined to the faces' profile: only their outermost point is on the plane
          if (!hold.soft_jaws)
            assert.ok(c.gap_mm <= CONTACT_MM, `${setup.name} ${c.jaw}: ${mm(c.gap_mm)} mm from what it grips`);
          // to the part mesh's float32 precision, as the planner judges it (clamping.ts: GEOMETRY_SLACK_MM)
          assert.ok(c.height_mm >= MIN_GRIP_MM - 1e-3, `${setup.name} ${c.jaw}: holds ${mm(c.height_mm)} mm high`);
        }
      }
    });
  });
}
