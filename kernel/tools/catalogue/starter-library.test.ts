import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { validateAssembly } from "../assembly.ts";
import { starterLibrary } from "./starter-library.ts";

describe("the starter library", () => {
  it("holds ten end mills, the drills from 1 to 13 mm in 0.1 mm steps, two spot drills, two chamfer mills and a face mill, all valid", () => {
    const library = starterLibrary();
    const count = (type: string) => library.filter((a) => a.components.some((c) => c.component_type === "parametric_cutting_tool" && c.parametric_cutting_tool.tool_type === type)).length;
    assert.deepEqual([count("CentreCuttingEndMill"), count("Drill"), count("SpotDrill"), count("ChamferMill"), count("FaceMill")], [10, 121, 2, 2, 1]);
    assert.equal(new Set(library.map((a) => a.uuid)).size, library.length);
    for (const assembly of library) assert.ok(validateAssembly(assembly).ok, assembly.name);
  });
});
