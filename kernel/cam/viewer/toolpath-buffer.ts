/**
 * A setup's toolpaths in the compact binary form the web app's viewer reads (web/src/api/
 * toolpaths.ts decodes it): typed arrays a browser hands to WebGL as they are, one set per
 * operation, and the setup's program, so the viewer can show the G-code line at the tool.
 *
 * Layout, little-endian, every array starting on a multiple of 4 bytes:
 *   0   "SWTP"            magic
 *   4   u32               version (TOOLPATH_BUFFER_VERSION)
 *   8   u32 K             operations, in the setup's order
 *   12  u32 P             bytes of the program text
 *   16  u32 x K           points of each operation (n)
 *   then per operation:   f32 x 3n positions (setup frame, mm), u32 x n program line (0-based)
 *                         of the move that reached the point, u8 x n MOVE_CLASS, zero padding to 4
 *   then                  the program, UTF-8, lines separated by "\n"
 */
import type { Polyline } from "./toolpath-polyline.ts";

export const TOOLPATH_BUFFER_MAGIC = "SWTP";
export const TOOLPATH_BUFFER_VERSION = 1;

export interface OperationToolpath {
  polyline: Polyline;
  /** per move of the operation: its program line (program-lines.ts) */
  moveLines: Uint32Array;
}

const padded = (bytes: number): number => Math.ceil(bytes / 4) * 4;

export function encodeToolpathBuffer(operations: readonly OperationToolpath[], program: readonly string[]): Buffer {
  const text = Buffer.from(program.join("\n"), "utf8");
  const headerBytes = 16 + 4 * operations.length;
  const bodyBytes = operations.reduce((sum, { polyline }) => {
    const n = polyline.classes.length;
    return sum + 12 * n + 4 * n + padded(n);
  }, 0);
  const out = Buffer.alloc(headerBytes + bodyBytes + text.length);
  out.write(TOOLPATH_BUFFER_MAGIC, 0, "latin1");
  out.writeUInt32LE(TOOLPATH_BUFFER_VERSION, 4);
  out.writeUInt32LE(operations.length, 8);
  out.writeUInt32LE(text.length, 12);
  operations.forEach(({ polyline }, k) => {
    out.writeUInt32LE(polyline.classes.length, 16 + 4 * k);
  });
  let at = headerBytes;
  for (const { polyline, moveLines } of operations) {
    const n = polyline.classes.length;
    out.set(new Uint8Array(polyline.positions.buffer, polyline.positions.byteOffset, 12 * n), at);
    at += 12 * n;
    const lines = new Uint32Array(n);
    for (let i = 0; i < n; i += 1) lines[i] = moveLines[polyline.moves[i] as number] ?? 0;
    out.set(new Uint8Array(lines.buffer), at);
    at += 4 * n;
    out.set(polyline.classes, at);
    at += padded(n);
  }
  out.set(text, at);
  return out;
}
