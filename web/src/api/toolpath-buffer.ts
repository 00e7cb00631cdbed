/**
 * Reads a setup's toolpaths as the app route sends them (GET .../setups/{i}/toolpaths; the
 * layout is kernel/cam/viewer/toolpath-buffer.ts's): typed arrays over the answer's own bytes,
 * nothing copied, so a plan of a hundred thousand moves is ready as soon as it arrives.
 */

/** The class of the move that reached a point (the kernel's MOVE_CLASS). */
export const MOVE_CLASS = { start: 0, rapid: 1, feed: 2, plunge: 3, ramp: 4, arc: 5, drill: 6 } as const;

export interface OperationPath {
  /** x, y, z per point, in the setup's frame (mm) */
  positions: Float32Array;
  /** per point: the 0-based program line of the move that reached it */
  lines: Uint32Array;
  /** per point: MOVE_CLASS */
  classes: Uint8Array;
}

export interface SetupToolpaths {
  operations: OperationPath[];
  /** the setup's program, one block a line */
  program: string[];
}

export class ToolpathFormatError extends Error {}

const VERSION = 1;

export function decodeToolpaths(buffer: ArrayBuffer): SetupToolpaths {
  if (buffer.byteLength < 16) throw new ToolpathFormatError("too short for the header");
  const view = new DataView(buffer);
  const magic = String.fromCharCode(...new Uint8Array(buffer, 0, 4));
  if (magic !== "SWTP") throw new ToolpathFormatError(`not toolpaths (magic ${JSON.stringify(magic)})`);
  const version = view.getUint32(4, true);
  if (version !== VERSION) throw new ToolpathFormatError(`version ${version}; this app reads ${VERSION}`);
  const count = view.getUint32(8, true);
  const programBytes = view.getUint32(12, true);
  let at = 16 + 4 * count;
  if (at > buffer.byteLength) throw new ToolpathFormatError("the header lists more operations than the body holds");
  const operations: OperationPath[] = [];
  for (let k = 0; k < count; k += 1) {
    const n = view.getUint32(16 + 4 * k, true);
    const need = 16 * n + Math.ceil(n / 4) * 4;
    if (at + need > buffer.byteLength) throw new ToolpathFormatError(`operation ${k} runs past the end`);
    const positions = new Float32Array(buffer, at, 3 * n);
    at += 12 * n;
    const lines = new Uint32Array(buffer, at, n);
    at += 4 * n;
    const classes = new Uint8Array(buffer, at, n);
    at += Math.ceil(n / 4) * 4;
    operations.push({ positions, lines, classes });
  }
  if (at + programBytes !== buffer.byteLength) throw new ToolpathFormatError("the program's length does not match");
  const text = new TextDecoder().decode(new Uint8Array(buffer, at, programBytes));
  return { operations, program: text === "" ? [] : text.split("\n") };
}
