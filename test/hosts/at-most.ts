/**
 * Asks a list of questions a few at a time. The engine tests ask hundreds of questions of
 * three servers, and `netlify dev` answers each on a fresh Node worker that loads the
 * function and reads the catalog again (about 0.4 s of CPU): asked one by one, a 2-core CI
 * machine idles a core while the test waits. Every item is still asked and its assertions
 * run; only the order in which answers arrive changes.
 */

/**
 * Calls `each` on every item with at most `limit` calls in flight. After the first failure
 * no new call starts; the calls in flight are awaited (so none outlives the test and its
 * servers), then that first failure is thrown.
 */
export async function forEachAtMost<T>(
  items: readonly T[],
  limit: number,
  each: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const lane = async (): Promise<void> => {
    while (failure === undefined && next < items.length) {
      const item = items[next] as T;
      next += 1;
      try {
        await each(item);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));
  if (failure !== undefined) throw failure.error;
}
