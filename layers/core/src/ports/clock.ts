/** The time source; injected so domain code never calls Date.now() and tests can move time. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /**
   * Waits `ms` milliseconds. A clock without it (a test's fixed clock) does not wait: the code
   * goes on as if the time had come.
   */
  sleep?(ms: number): Promise<void>;
}

/** The system clock. */
export const systemClock: Clock = { now: () => Date.now(), sleep: (ms) => new Promise((r) => setTimeout(r, ms)) };

/** Waits until `at` (epoch ms) on `clock`; at once when it has passed or the clock cannot wait. */
export const sleepUntil = async (clock: Clock, at: number): Promise<void> => {
  const ms = at - clock.now();
  if (ms > 0 && clock.sleep) await clock.sleep(ms);
};
