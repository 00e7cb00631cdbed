/**
 * OCCT reads and writes files; in WASM they live in Emscripten's in-memory file system. These
 * helpers hand a call a path and remove the file afterwards, however the call ends.
 *
 * Paths are reused, not unique: OCCT's STEP reader keeps about 8 KB of WASM memory for every
 * distinct file name it has read (measured: 12.8 KB per read with a fresh name, 4.8 KB with the
 * same one). Calls are synchronous and each thread has its own file system, so one name per
 * nesting level cannot collide.
 */
import type { OpenCascadeInstance } from "opencascade.js/dist/node.js";

let depth = 0;

function withPath<T>(kind: "in" | "out", extension: string, body: (path: string) => T): T {
  const path = `/swarf-${kind}-${depth}.${extension}`;
  depth += 1;
  try {
    return body(path);
  } finally {
    depth -= 1;
  }
}

function removeQuietly(oc: OpenCascadeInstance, path: string): void {
  if (oc.FS.analyzePath(path).exists) oc.FS.unlink(path);
}

/** Writes `bytes` to a path, runs `body` with it, then deletes the file. */
export function withInputFile<T>(
  oc: OpenCascadeInstance,
  bytes: Uint8Array,
  extension: string,
  body: (path: string) => T,
): T {
  return withPath("in", extension, (path) => {
    oc.FS.writeFile(path, bytes);
    try {
      return body(path);
    } finally {
      removeQuietly(oc, path);
    }
  });
}

/** Gives `write` a path and returns what it wrote there; the file is deleted. */
export function readBackOutputFile(
  oc: OpenCascadeInstance,
  extension: string,
  write: (path: string) => void,
): Uint8Array {
  return withPath("out", extension, (path) => {
    removeQuietly(oc, path);
    try {
      write(path);
      if (!oc.FS.analyzePath(path).exists) throw new Error(`OCCT wrote nothing to ${path}`);
      return oc.FS.readFile(path).slice();
    } finally {
      removeQuietly(oc, path);
    }
  });
}
