import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { detectFormat, formatNamedBy } from "./detect-format.ts";
import { asciiStl, binaryStl, bytesOf, cubeCorners, fixture, pseudoRandomBytes } from "./test-support.ts";
import { GeometryError } from "../geometry-error.ts";

function refusal(code: string) {
  return (error: unknown) => error instanceof GeometryError && error.code === code;
}

describe("detectFormat", () => {
  it("recognises the STEP fixtures (AP214 and AP242) by their ISO-10303-21 header", () => {
    for (const name of ["partC.step", "nist_ctc_01_asme1_ap242-e1.stp", "nist_stc_06_asme1_ap242-e3.stp"]) {
      assert.equal(detectFormat(fixture(name)), "step", name);
    }
  });

  it("recognises STEP after a byte-order mark and blank lines", () => {
    const withBom = new Uint8Array([0xef, 0xbb, 0xbf, ...bytesOf("\r\n\n  ISO-10303-21;\nHEADER;")]);
    assert.equal(detectFormat(withBom), "step");
  });

  it("recognises OCCT's text BREP with and without the DBRep_DrawableShape line", () => {
    assert.equal(
      detectFormat(bytesOf("DBRep_DrawableShape\n\nCASCADE Topology V3, (c) Open Cascade\nLocations 0\n")),
      "brep",
    );
    assert.equal(detectFormat(bytesOf("CASCADE Topology V1, (c) Matra-Datavision\nLocations 0\n")), "brep");
  });

  it("recognises partC.stl as ASCII STL", () => {
    assert.equal(detectFormat(fixture("partC.stl")), "stl-ascii");
  });

  it("recognises binary STL by its length, even when the header starts with 'solid'", () => {
    assert.equal(detectFormat(binaryStl(cubeCorners())), "stl-binary");
    assert.equal(detectFormat(binaryStl(cubeCorners(), "solid cube exported by a CAD system")), "stl-binary");
  });

  it("recognises a binary STL of zero triangles (84 bytes) as binary STL", () => {
    assert.equal(detectFormat(binaryStl([])), "stl-binary");
  });

  it("recognises ASCII STL whether or not it has facets", () => {
    assert.equal(detectFormat(asciiStl(cubeCorners())), "stl-ascii");
    assert.equal(detectFormat(bytesOf("solid nothing\nendsolid nothing\n")), "stl-ascii");
  });

  it("refuses a binary STL whose length disagrees with its triangle count", () => {
    const bytes = binaryStl(cubeCorners());
    assert.throws(() => detectFormat(bytes.subarray(0, bytes.length - 7)), refusal("unsupported_format"));
  });

  it("refuses an empty or blank file with empty_file", () => {
    assert.throws(() => detectFormat(new Uint8Array()), refusal("empty_file"));
    assert.throws(() => detectFormat(bytesOf(" \r\n\t\n")), refusal("empty_file"));
  });

  it("refuses random bytes, plain text and 'solid' prose with unsupported_format", () => {
    assert.throws(() => detectFormat(pseudoRandomBytes(5000)), refusal("unsupported_format"));
    assert.throws(() => detectFormat(bytesOf("hello, this is a text file\n")), refusal("unsupported_format"));
    assert.throws(() => detectFormat(bytesOf("solid reasons to refuse this file\n")), refusal("unsupported_format"));
  });

  it("names STEP-XML when it refuses it", () => {
    assert.throws(
      () => detectFormat(bytesOf('<?xml version="1.0"?>\n<iso_10303_28 version="2.0">')),
      (error: unknown) =>
        error instanceof GeometryError && error.code === "unsupported_format" && error.details.detected === "step-xml",
    );
  });
});

describe("formatNamedBy", () => {
  it("reads the format a file name claims, ignoring case", () => {
    assert.equal(formatNamedBy("bracket.STP"), "step");
    assert.equal(formatNamedBy("bracket.step"), "step");
    assert.equal(formatNamedBy("mesh.Stl"), "stl");
    assert.equal(formatNamedBy("shape.brep"), "brep");
    assert.equal(formatNamedBy("drawing.pdf"), undefined);
    assert.equal(formatNamedBy("no-extension"), undefined);
  });
});
