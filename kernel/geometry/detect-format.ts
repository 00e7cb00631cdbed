/**
 * Recognises a workpiece file by its content; the file name is never trusted.
 *
 * - STEP (ISO 10303-21, any AP): starts with "ISO-10303-21;".
 * - OCCT BREP (text): "DBRep_DrawableShape" and/or "CASCADE Topology" in its first lines.
 * - Binary STL: an 80-byte header, a little-endian triangle count, 50 bytes per triangle, and a
 *   length that matches exactly. Checked before ASCII, because many binary writers start the
 *   header with "solid" too.
 * - ASCII STL: "solid" followed by "facet" or "endsolid".
 */
import { GeometryError } from "../geometry-error.ts";

export type DetectedFormat = "step" | "brep" | "stl-binary" | "stl-ascii";

const SNIFF_BYTES = 4096;
const STL_HEADER_BYTES = 80;
const STL_TRIANGLE_BYTES = 50;

export function detectFormat(bytes: Uint8Array): DetectedFormat {
  if (bytes.length === 0 || isAllWhitespace(bytes)) {
    throw new GeometryError("empty_file", "The file is empty.");
  }
  const head = latin1(bytes.subarray(0, SNIFF_BYTES));
  const start = head.replace(/^\xEF\xBB\xBF/, "").trimStart(); // a UTF-8 byte-order mark, read as latin1

  if (/^ISO-10303-21\s*;/.test(start)) return "step";
  if (/^ISO-10303-28|^<\?xml[^>]*>\s*<(\w+:)?iso_10303_28/i.test(start)) {
    throw new GeometryError(
      "unsupported_format",
      "STEP-XML (ISO 10303-28) is not supported; export the part as a STEP (.step/.stp) file.",
      {
        detected: "step-xml",
      },
    );
  }
  if (/^(DBRep_DrawableShape\s+)?CASCADE Topology V\d/.test(start)) return "brep";
  if (isBinaryStl(bytes)) return "stl-binary";
  if (/^solid\b/i.test(start) && /\bfacet\b|\bendsolid\b/i.test(head)) return "stl-ascii";
  if (/^Open CASCADE Topology V\d/.test(start)) {
    throw new GeometryError(
      "unsupported_format",
      "Binary OCCT BREP is not supported; write the shape as a text BREP (BRepTools::Write).",
      {
        detected: "brep-binary",
      },
    );
  }
  throw new GeometryError("unsupported_format", "The file is not a STEP, STL or OCCT BREP file.", {
    detected: "unknown",
  });
}

function isBinaryStl(bytes: Uint8Array): boolean {
  if (bytes.length < STL_HEADER_BYTES + 4) return false;
  const count = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(STL_HEADER_BYTES, true);
  return bytes.length === STL_HEADER_BYTES + 4 + count * STL_TRIANGLE_BYTES;
}

function isAllWhitespace(bytes: Uint8Array): boolean {
  for (const byte of bytes) {
    if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d) return false;
  }
  return true;
}

function latin1(bytes: Uint8Array): string {
  return new TextDecoder("latin1").decode(bytes);
}

const EXTENSIONS: Record<string, "step" | "stl" | "brep"> = {
  step: "step",
  stp: "step",
  p21: "step",
  stl: "stl",
  brep: "brep",
  brp: "brep",
};

/** The format a file name's extension claims, if it is one of ours. */
export function formatNamedBy(filename: string): "step" | "stl" | "brep" | undefined {
  const match = /\.([a-z0-9]+)$/i.exec(filename.trim());
  return match ? EXTENSIONS[(match[1] as string).toLowerCase()] : undefined;
}
