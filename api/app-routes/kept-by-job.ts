/**
 * What the viewer's routes made of a job, kept for its next request: a browser asks for every
 * setup's toolpaths and the stock after operation after operation of the same job, and a job's
 * plan and part never change (a new plan is a new job), so nothing kept goes stale. Bounded by
 * count, the least recently used dropped first. Only what a request already read with the
 * caller's session is kept, and it is served only after the next request's own lookup has found
 * the same job: the cache never decides who sees what.
 */
export class KeptByJob<T> {
  private readonly kept = new Map<string, T>();

  constructor(private readonly limit: number) {}

  /** the kept value for `jobId`, else `make()`'s, kept */
  async get(jobId: string, make: () => Promise<T>): Promise<T> {
    const known = this.kept.get(jobId);
    if (known !== undefined) {
      // most recently used last
      this.kept.delete(jobId);
      this.kept.set(jobId, known);
      return known;
    }
    const made = await make();
    this.kept.set(jobId, made);
    for (const oldest of this.kept.keys()) {
      if (this.kept.size <= this.limit) break;
      this.kept.delete(oldest);
    }
    return made;
  }

  get size(): number {
    return this.kept.size;
  }
}
