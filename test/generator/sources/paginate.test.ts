/**
 * The ordered crawl hands pages on in page order while later ones download, and holds no
 * more than its window: a slow consumer (the normaliser) never has the whole store waiting
 * in memory. Pages finish out of order on purpose (each waits on its own promise, released
 * by the test), so no timing is involved.
 */
import { describe, expect, test } from 'vitest';
import { fetchPagesInOrder } from '../../../generator/sources/paginate.js';

describe('fetchPagesInOrder', () => {
  test('when pages finish in reverse order then they come out in page order, with no more than the window held', async () => {
    const started: number[] = [];
    const releases = new Map<number, () => void>();
    const pages = fetchPagesInOrder<number>({
      firstPage: 1,
      lastPage: 40,
      pageSize: 2,
      workers: 3,
      stopAtShortPage: true,
      fetchPage: (page) =>
        new Promise((resolve) => {
          started.push(page);
          releases.set(page, () => resolve(page === 30 ? [page] : [page, page]));
        }),
    });
    const seen: number[] = [];
    let mostAhead = 0;
    let finished = false;
    const consume = (async () => {
      for await (const items of pages) {
        seen.push(items[0] ?? -1);
        mostAhead = Math.max(mostAhead, Math.max(...started) - (items[0] ?? 0));
        // A slow consumer: the downloads would run far ahead of it without the window.
        for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
      }
      finished = true;
    })();
    // Release whatever has started, newest first, until the crawl has ended (at the short
    // page 30) and let go of the pages past it.
    for (let round = 0; round < 2_000 && !finished; round++) {
      await new Promise((resolve) => setImmediate(resolve));
      for (const page of [...releases.keys()].sort((a, b) => b - a)) {
        releases.get(page)?.();
        releases.delete(page);
      }
    }
    await consume;
    expect(seen).toEqual(Array.from({ length: 30 }, (_, index) => index + 1));
    // Three workers, two pages each ahead of the one being handed on.
    expect(mostAhead).toBeLessThanOrEqual(6);
    expect(Math.max(...started)).toBeLessThan(30 + 6);
  });

  test('when a page fails then the error comes out and nothing keeps running', async () => {
    let inFlight = 0;
    const pages = fetchPagesInOrder<number>({
      firstPage: 1,
      lastPage: 10,
      pageSize: 1,
      workers: 2,
      stopAtShortPage: false,
      fetchPage: async (page, signal) => {
        inFlight += 1;
        try {
          if (page === 3) throw new Error('page 3 failed');
          await new Promise((resolve) => setImmediate(resolve));
          signal.throwIfAborted();
          return [page];
        } finally {
          inFlight -= 1;
        }
      },
    });
    const seen: number[] = [];
    const error = await (async () => {
      for await (const items of pages) seen.push(...items);
    })().then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe('page 3 failed');
    expect(seen.every((page) => page < 3)).toBe(true);
    expect(inFlight).toBe(0);
  });
});
