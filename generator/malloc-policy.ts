/**
 * How glibc's malloc hands memory back during a long batch command (`build`, `check`).
 *
 * Node keeps every Buffer's bytes in malloc's memory. glibc serves a large block with its
 * own mmap and returns it on free, but it then raises that threshold to the freed block's
 * size (up to 32 MiB) and its trim threshold to twice that: once the build lets go of its
 * first large document, every buffer below that size comes from the heap, and what they
 * leave there when freed is kept. Each thread that allocates may also get its own arena.
 * At 10,000 products that was 20 to 30 MB of the peak (BENCHMARKS.md, "malloc's
 * thresholds"), for no gain in time.
 *
 * glibc reads `MALLOC_MMAP_THRESHOLD_` and `MALLOC_ARENA_MAX` only when the process starts,
 * and `node lib/generator/cli.js build` cannot set them for itself, so the command calls
 * mallopt(3) through koffi's FFI. Setting the threshold also turns its raising off (the
 * glibc manual, "Malloc Tunable Parameters": "If the parameter is set, the dynamic
 * adjustment is disabled"). The manual marks mallopt MT-unsafe against other threads'
 * allocations, so it is called as the command starts, before its work runs any. Only on
 * Linux with glibc: elsewhere, or where koffi cannot load, the command runs as before.
 */

/** mallopt(3)'s parameter numbers, from glibc's malloc.h. */
const M_MMAP_THRESHOLD = -3;
const M_ARENA_MAX = -8;

/** Blocks at least this large get their own mapping, returned on free: glibc's default start. */
export const MMAP_THRESHOLD_BYTES = 128 * 1024;
/** Threads share this many arenas; a build has one busy thread, its helpers allocate little. */
export const ARENA_MAX = 2;

type Mallopt = (param: number, value: number) => number;

/** libc's mallopt, or undefined where there is no glibc to call it on. */
async function loadMallopt(): Promise<Mallopt | undefined> {
  if (process.platform !== 'linux') return undefined;
  try {
    const { default: koffi } = await import('koffi');
    // musl names its library otherwise, so this fails there: its malloc has no such knobs.
    const libc = koffi.load('libc.so.6');
    const call = libc.func('int mallopt(int param, int value)');
    return (param, value) => Number(call(param, value));
  } catch {
    return undefined;
  }
}

/**
 * Fixes glibc's mmap threshold and its number of arenas for the rest of the process; true
 * when glibc took both.
 */
export async function keepMallocLean(): Promise<boolean> {
  const mallopt = await loadMallopt();
  if (mallopt === undefined) return false;
  // mallopt returns 1 on success and 0 on error.
  const threshold = mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD_BYTES);
  const arenas = mallopt(M_ARENA_MAX, ARENA_MAX);
  return threshold === 1 && arenas === 1;
}
