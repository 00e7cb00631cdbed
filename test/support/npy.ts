/** A 2-D float64 array as numpy's np.save writes it (version 1 or 2, little-endian, C order): what simcheck --dump leaves. */
import fs from "node:fs";

export interface Npy2d {
  shape: [number, number];
  /** element [i][j] at i * shape[1] + j */
  data: Float64Array;
}

export function readNpy2d(file: string): Npy2d {
  const bytes = fs.readFileSync(file);
  if (bytes.toString("latin1", 1, 6) !== "NUMPY") throw new Error(`${file} is not a .npy file`);
  const major = bytes[6] as number;
  const headerLength = major === 1 ? bytes.readUInt16LE(8) : bytes.readUInt32LE(8);
  const start = major === 1 ? 10 : 12;
  const header = bytes.toString("latin1", start, start + headerLength);
  if (!/'descr':\s*'<f8'/.test(header) || /'fortran_order':\s*True/.test(header))
    throw new Error(`${file}: not a C-ordered little-endian float64 array: ${header}`);
  const shape = /'shape':\s*\((\d+),\s*(\d+)\)/.exec(header);
  if (!shape) throw new Error(`${file}: not 2-D: ${header}`);
  const offset = start + headerLength;
  const data = new Float64Array(bytes.buffer.slice(bytes.byteOffset + offset, bytes.byteOffset + bytes.length));
  return { shape: [Number(shape[1]), Number(shape[2])], data };
}
