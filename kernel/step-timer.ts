/**
 * The per-step timings ingest and face analysis report: `time(step, work)` runs `work` and adds
 * its milliseconds to `timings[step]`, whether it returns or throws, so a step run several times
 * (or cut short by a time budget) still counts.
 */
export type TimeStep = <T>(step: string, work: () => T) => T;

export function stepTimer(timings: Record<string, number>): TimeStep {
  return (step, work) => {
    const started = performance.now();
    try {
      return work();
    } finally {
      timings[step] = (timings[step] ?? 0) + (performance.now() - started);
    }
  };
}
