/**
 * Runs `round` every `everyMs` on a timer that keeps no process alive, never two rounds at once; `stop`
 * waits for a round under way. The database upkeep of `pglite-upkeep.ts` and `postgres-statistics.ts`.
 */
export function keepUp(
  round: () => Promise<unknown>,
  onError: (error: unknown) => void,
  everyMs: number,
): { stop(): Promise<void> } {
  let running: Promise<unknown> | undefined;
  const timer = setInterval(() => {
    running ??= round()
      .catch(onError)
      .finally(() => {
        running = undefined;
      });
  }, everyMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
