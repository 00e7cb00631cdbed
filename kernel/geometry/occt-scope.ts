/**
 * Ownership of OCCT objects. WASM memory is not garbage collected: every object made from
 * JavaScript, and every object a binding returns (embind hands out copies), must be freed.
 * Code that touches OCCT does so inside `withOcctScope`, passing each new object through
 * `scope.own(...)`; the scope frees them all, newest first, however the block ends (with
 * `releaseOcctObject`, which works around this build's no-op destructors). An object that
 * outlives the block is handed to the caller with `scope.release(object)`.
 *
 * Never own what `Handle_X.get()` returns: it is borrowed from the handle.
 */
import { releaseOcctObject, type Releasable } from "./occt-release.ts";

type Deletable = Releasable;

export class OcctScope {
  #owned: Deletable[] = [];

  /** Takes `object` into the scope and returns it. */
  own<T extends Deletable>(object: T): T {
    this.#owned.push(object);
    return object;
  }

  /** Gives `object` up: the caller deletes it (usually by owning it in an outer scope). */
  release<T extends Deletable>(object: T): T {
    const index = this.#owned.lastIndexOf(object);
    if (index < 0) throw new Error("release: the object is not owned by this scope");
    this.#owned.splice(index, 1);
    return object;
  }

  /** Frees `object` now instead of at the end of the scope. */
  drop(object: Deletable): void {
    releaseOcctObject(this.release(object));
  }

  get size(): number {
    return this.#owned.length;
  }

  /** Frees everything owned, newest first. Throws the first failure after trying them all. */
  dispose(): void {
    let failure: unknown;
    while (this.#owned.length > 0) {
      const object = this.#owned.pop() as Deletable;
      try {
        releaseOcctObject(object);
      } catch (error) {
        failure ??= error;
      }
    }
    if (failure !== undefined) throw failure;
  }
}

/**
 * Runs `body` with a fresh scope and deletes what it owns afterwards. If `body` throws, that
 * error wins over any failure to delete.
 */
export function withOcctScope<T>(body: (scope: OcctScope) => T): T {
  const scope = new OcctScope();
  let result: T;
  try {
    result = body(scope);
  } catch (error) {
    try {
      scope.dispose();
    } catch {
      // the body's error is the one worth reporting
    }
    throw error;
  }
  scope.dispose();
  return result;
}
