/**
 * The STEP text reader on instances written the ways AP242 files write them: simple and complex
 * instances, typed values, enumerations, quotes inside strings, semicolons inside strings and
 * comments.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parsePart21, Part21Error } from "./part21.ts";

const file = (data: string) =>
  `ISO-10303-21;\nHEADER;\nFILE_NAME('a;b','',(''),(''),'','','');\nENDSEC;\nDATA;\n${data}\nENDSEC;\nEND-ISO-10303-21;\n`;

describe("parsePart21", () => {
  it("reads a simple instance's arguments: strings, references, null, enumerations, lists", () => {
    const model = parsePart21(file("#7=GEOMETRIC_ITEM_SPECIFIC_USAGE('it''s; here',$,#12,#13,(#14,#15),.T.,*);"));
    assert.deepEqual(model.get(7), {
      id: 7,
      parts: [
        {
          type: "GEOMETRIC_ITEM_SPECIFIC_USAGE",
          args: ["it's; here", null, { ref: 12 }, { ref: 13 }, [{ ref: 14 }, { ref: 15 }], { enum: "T" }, null],
        },
      ],
    });
  });

  it("reads a complex instance as its parts, with typed values and numbers in every notation", () => {
    const model = parsePart21(
      file(
        "/* a comment; with a semicolon */\n#84=(\nLENGTH_MEASURE_WITH_UNIT()\nMEASURE_REPRESENTATION_ITEM()\nMEASURE_WITH_UNIT(LENGTH_MEASURE(35.),#4361)\nREPRESENTATION_ITEM('nominal value')\n);\n#85 = DIRECTION('',(-1.E-2,2.5E+1,0.));",
      ),
    );
    assert.deepEqual(
      model.get(84)?.parts.map((part) => part.type),
      ["LENGTH_MEASURE_WITH_UNIT", "MEASURE_REPRESENTATION_ITEM", "MEASURE_WITH_UNIT", "REPRESENTATION_ITEM"],
    );
    assert.deepEqual(model.get(84)?.parts[2]?.args, [{ type: "LENGTH_MEASURE", args: [35] }, { ref: 4361 }]);
    assert.deepEqual(model.get(85)?.parts[0]?.args, ["", [-0.01, 25, 0]]);
  });

  it("refuses text without a DATA section and a malformed instance", () => {
    assert.throws(() => parsePart21("ISO-10303-21;\nHEADER;\nENDSEC;\n"), Part21Error);
    assert.throws(() => parsePart21(file("#1=PLANE('',#2;")), Part21Error);
  });
});
