/**
 * How the V8 heap of a long batch command (`build`, `check`) grows. By default V8 lets the
 * old generation grow up to four times what a collection kept before it collects again, as
 * it does for a short-lived script. A build makes garbage far faster than it keeps data:
 * at 10,000 products the live heap never passes about 80 MB while the process peaked at
 * 550–590 MB. Growing by half at a time kept the peak at about 375 MB for about 10% more
 * CPU (BENCHMARKS.md, "the heap's growth").
 *
 * Set at run time: `--heap-growing-percent` is read at each collection, so it takes effect
 * however the command was started (`npm run build`, `npx agent-catalog`, `node
 * lib/generator/cli.js`). The young generation's size cannot be changed once the heap
 * exists, so `--max-semi-space-size` is left to whoever starts Node.
 */
import { setFlagsFromString } from 'node:v8';

/** The old generation grows by at most this share of what survived the last collection. */
export const BATCH_HEAP_GROWING_PERCENT = 50;

export function growHeapSlowly(): void {
  setFlagsFromString(`--heap-growing-percent=${BATCH_HEAP_GROWING_PERCENT}`);
}
