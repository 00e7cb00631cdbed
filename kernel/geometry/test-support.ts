/**
 * Inputs for the geometry tests, built in code or read from ../shared/fixtures (never copied into
 * the repository). Not used in production.
 */
import fs from "node:fs";
import path from "node:path";
import type { OpenCascadeInstance, TopoDS_Shape } from "opencascade.js/dist/node.js";
import { readBackOutputFile } from "./emscripten-file.ts";
import { withOcctScope, type OcctScope } from "./occt-scope.ts";

export const FIXTURE_PARTS = process.env.SWARF_FIXTURES_DIR
  ? path.join(process.env.SWARF_FIXTURES_DIR, "parts")
  : path.resolve(import.meta.dirname, "..", "..", "..", "shared", "fixtures", "parts");

export function fixture(name: string): Uint8Array {
  return new Uint8Array(fs.readFileSync(path.join(FIXTURE_PARTS, name)));
}

export function text(bytes: Uint8Array): string {
  return new TextDecoder("latin1").decode(bytes);
}

export function bytesOf(value: string): Uint8Array {
  return new Uint8Array(Buffer.from(value, "latin1"));
}

/**
 * The twelve triangles of the cube [origin, origin + size]^3, counter-clockwise seen from
 * outside, as 108 numbers (three corners of three coordinates per triangle). The last two
 * triangles are the +X face.
 */
export function cubeCorners(size = 10, origin: [number, number, number] = [0, 0, 0]): number[] {
  const s = size;
  const unit: number[][][] = [
    [
      [0, 0, 0],
      [0, 1, 0],
      [1, 1, 0],
    ],
    [
      [0, 0, 0],
      [1, 1, 0],
      [1, 0, 0],
    ], // -Z
    [
      [0, 0, 1],
      [1, 0, 1],
      [1, 1, 1],
    ],
    [
      [0, 0, 1],
      [1, 1, 1],
      [0, 1, 1],
    ], // +Z
    [
      [0, 0, 0],
      [1, 0, 0],
      [1, 0, 1],
    ],
    [
      [0, 0, 0],
      [1, 0, 1],
      [0, 0, 1],
    ], // -Y
    [
      [0, 1, 0],
      [0, 1, 1],
      [1, 1, 1],
    ],
    [
      [0, 1, 0],
      [1, 1, 1],
      [1, 1, 0],
    ], // +Y
    [
      [0, 0, 0],
      [0, 0, 1],
      [0, 1, 1],
    ],
    [
      [0, 0, 0],
      [0, 1, 1],
      [0, 1, 0],
    ], // -X
    [
      [1, 0, 0],
      [1, 1, 0],
      [1, 1, 1],
    ],
    [
      [1, 0, 0],
      [1, 1, 1],
      [1, 0, 1],
    ], // +X
  ];
  return unit.flatMap((triangle) =>
    triangle.flatMap((corner) => corner.map((c, axis) => (origin[axis] as number) + c * s)),
  );
}

/** A binary STL of `corners` (9 numbers per triangle); the stored normals are zero. */
export function binaryStl(corners: number[], header = "binary STL written by the Swarf tests"): Uint8Array {
  const count = corners.length / 9;
  const bytes = new Uint8Array(84 + 50 * count);
  bytes.set(new TextEncoder().encode(header.slice(0, 80)));
  const view = new DataView(bytes.buffer);
  view.setUint32(80, count, true);
  for (let t = 0; t < count; t++) {
    for (let k = 0; k < 9; k++) view.setFloat32(84 + 50 * t + 12 + 4 * k, corners[9 * t + k] as number, true);
  }
  return bytes;
}

/** An ASCII STL of `corners`; coordinates written with `format` (default: shortest exact). */
export function asciiStl(
  corners: number[],
  format: (value: number) => string = (value) => String(Math.fround(value)),
): Uint8Array {
  const lines = ["solid swarf test"];
  for (let t = 0; t < corners.length / 9; t++) {
    lines.push("  facet normal 0 0 0", "    outer loop");
    for (let v = 0; v < 3; v++) {
      const [x, y, z] = corners.slice(9 * t + 3 * v, 9 * t + 3 * v + 3) as [number, number, number];
      lines.push(`      vertex ${format(x)} ${format(y)} ${format(z)}`);
    }
    lines.push("    endloop", "  endfacet");
  }
  lines.push("endsolid swarf test", "");
  return bytesOf(lines.join("\n"));
}

/** `count` bytes from a fixed-seed generator: the same "random" file on every run. */
export function pseudoRandomBytes(count: number, seed = 12345): Uint8Array {
  const bytes = new Uint8Array(count);
  let state = seed >>> 0;
  for (let i = 0; i < count; i++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    bytes[i] = state >>> 24;
  }
  return bytes;
}

/** A box solid owned by `scope`. */
export function box(
  oc: OpenCascadeInstance,
  scope: OcctScope,
  dx: number,
  dy: number,
  dz: number,
  corner: [number, number, number] = [0, 0, 0],
): TopoDS_Shape {
  const maker = scope.own(new oc.BRepPrimAPI_MakeBox_3(scope.own(new oc.gp_Pnt_3(...corner)), dx, dy, dz));
  return scope.own(maker.Solid());
}

/** A compound of `shapes`, owned by `scope`. */
export function compound(oc: OpenCascadeInstance, scope: OcctScope, shapes: TopoDS_Shape[]): TopoDS_Shape {
  const builder = scope.own(new oc.BRep_Builder());
  const result = scope.own(new oc.TopoDS_Compound());
  builder.MakeCompound(result);
  for (const shape of shapes) builder.Add(result, shape);
  return result;
}

/** `shape` as a STEP file (AP214, millimetres) written by OCCT's STEPControl_Writer. */
export function stepOf(oc: OpenCascadeInstance, shape: TopoDS_Shape): Uint8Array {
  return withOcctScope((scope) => {
    const writer = scope.own(new oc.STEPControl_Writer_1());
    const done = oc.IFSelect_ReturnStatus.IFSelect_RetDone;
    const transferred = writer.Transfer(
      shape,
      oc.STEPControl_StepModelType.STEPControl_AsIs,
      true,
      scope.own(new oc.Message_ProgressRange_1()),
    );
    if (transferred !== done) throw new Error("STEPControl_Writer could not transfer the shape");
    return readBackOutputFile(oc, "step", (file) => {
      if (writer.Write(file) !== done) throw new Error("STEPControl_Writer could not write the file");
    });
  });
}

/**
 * partC.step with its length unit replaced: the same numbers now mean inches or metres, so the
 * part must come out 25.4 or 1000 times larger.
 */
export function partCDeclaring(unit: "inch" | "metre"): Uint8Array {
  const original = text(fixture("partC.step"));
  const line = "#7044 = ( LENGTH_UNIT() NAMED_UNIT(*) SI_UNIT(.MILLI.,.METRE.) );";
  if (!original.includes(line)) throw new Error("partC.step no longer declares its unit as expected");
  const replacement =
    unit === "metre"
      ? "#7044 = ( LENGTH_UNIT() NAMED_UNIT(*) SI_UNIT($,.METRE.) );"
      : [
          "#7044 = ( CONVERSION_BASED_UNIT('INCH',#900001) LENGTH_UNIT() NAMED_UNIT(#900002) );",
          "#900001 = LENGTH_MEASURE_WITH_UNIT(LENGTH_MEASURE(25.4),#900003);",
          "#900002 = DIMENSIONAL_EXPONENTS(1.,0.,0.,0.,0.,0.,0.);",
          "#900003 = ( LENGTH_UNIT() NAMED_UNIT(*) SI_UNIT(.MILLI.,.METRE.) );",
        ].join("\n");
  return bytesOf(original.replace(line, replacement));
}

/** partC.step cut after `fraction` of its lines, with a proper ending added back. */
export function partCCutAtLine(fraction: number): Uint8Array {
  const lines = text(fixture("partC.step")).split("\n");
  return bytesOf(`${lines.slice(0, Math.floor(lines.length * fraction)).join("\n")}\nENDSEC;\nEND-ISO-10303-21;\n`);
}

/**
 * Bytes of the WASM heap in use, to within `blockBytes`: allocates blocks until the heap has to
 * grow, so the blocks that fitted are the free space. HEAPU8.length alone cannot show a leak (the
 * heap grows in large steps and never shrinks); this can. Each call grows the heap once.
 */
export function wasmBytesInUse(oc: OpenCascadeInstance, blockBytes = 64 * 1024): number {
  const size = oc.HEAPU8.length;
  const blocks: number[] = [];
  try {
    while (oc.HEAPU8.length === size) {
      const pointer = oc._malloc(blockBytes);
      if (pointer === 0) break;
      blocks.push(pointer);
    }
  } finally {
    for (const pointer of blocks) oc._free(pointer);
  }
  // the last block did not fit: it made the heap grow
  return size - Math.max(0, blocks.length - 1) * blockBytes;
}

export function sizeOf(bbox: {
  min: [number, number, number];
  max: [number, number, number];
}): [number, number, number] {
  return [bbox.max[0] - bbox.min[0], bbox.max[1] - bbox.min[1], bbox.max[2] - bbox.min[2]];
}
