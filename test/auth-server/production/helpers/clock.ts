/**
 * Clocks for the suites that count in fixed windows (rate limits, sign-in throttling): a
 * suite that ran across a window's end would start counting afresh half-way and miss the
 * limit it tests. The clock stands still one second into the next window until a test
 * moves it.
 */
export interface FrozenClock {
  now: () => number;
  advance: (seconds: number) => void;
}

export function frozenClock(windowSeconds = 60): FrozenClock {
  const window = windowSeconds * 1000;
  let now = (Math.floor(Date.now() / window) + 1) * window + 1000;
  return {
    now: () => now,
    advance: (seconds) => {
      now += seconds * 1000;
    },
  };
}
