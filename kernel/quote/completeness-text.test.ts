import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { INCOMPLETE } from "../../test/support/completeness.ts";
import { incompletePlanBanner, incompletenessFigures, planIncompleteMessage } from "./completeness-text.ts";

describe("an incomplete plan in words", () => {
  it("states each reason in figures, in English and in German", () => {
    assert.deepEqual(incompletenessFigures(INCOMPLETE, "en"), [
      "2 holes not made",
      "3.1 % of the part's surface under material left (limit 0.5 %; 1,235 mm³, 2.3 % of the removable volume)",
    ]);
    assert.deepEqual(incompletenessFigures(INCOMPLETE, "de"), [
      "2 Bohrungen nicht gefertigt",
      "3,1 % der Teiloberfläche unter Restmaterial (Grenze 0,5 %; 1.235 mm³, 2,3 % des zu zerspanenden Volumens)",
    ]);
  });

  it("counts one hole and unreachable faces in the singular and the plural", () => {
    const one = {
      ...INCOMPLETE,
      reasons: [INCOMPLETE.reasons[0]!, { code: "face_unreachable" as const, message: "" }],
      holes_not_made: [3],
      faces_unreachable: [1, 2, 7],
    };
    assert.deepEqual(incompletenessFigures(one, "en"), ["1 hole not made", "3 faces unreachable"]);
    assert.deepEqual(incompletenessFigures({ ...one, faces_unreachable: [4] }, "de"), [
      "1 Bohrung nicht gefertigt",
      "1 Fläche nicht erreichbar",
    ]);
  });

  it("leads the breakdown's warning and the export's banner with what it means", () => {
    assert.match(planIncompleteMessage(INCOMPLETE)!, /^the plan is incomplete: 2 holes not made, 3\.1 % /);
    assert.match(
      incompletePlanBanner(INCOMPLETE, "en")!,
      /^INCOMPLETE PLAN: this quote prices a plan that does not finish the part: 2 holes not made, /,
    );
    assert.match(
      incompletePlanBanner(INCOMPLETE, "de")!,
      /^UNVOLLSTÄNDIGER PLAN: dieses Angebot kalkuliert einen Plan, der das Teil nicht fertigstellt: 2 Bohrungen /,
    );
  });

  it("says nothing of a complete plan, or of a plan without completeness figures", () => {
    const complete = { ...INCOMPLETE, status: "complete" as const, reasons: [] };
    assert.equal(planIncompleteMessage(complete), null);
    assert.equal(planIncompleteMessage(null), null);
    assert.equal(incompletePlanBanner(complete, "de"), null);
    assert.equal(incompletePlanBanner(null, "en"), null);
  });
});
