/**
 * Overlapping pagination: a few workers take page numbers in order and fetch them at
 * once (the HTTP client still enforces the concurrency and rate limits), so a crawl of
 * 21 pages costs a few round trips, not 21. With `stopAtShortPage` the first page with
 * fewer than `pageSize` items marks the end: pages after it are not started, and those
 * already in flight are cancelled and their results ignored. The first real failure
 * cancels everything else and is rethrown. Bounded by `lastPage`.
 */

/** The listing URL with its page-size parameter (named per platform) and page number set. */
export function buildPageUrl(listing: URL, sizeParam: string, pageSize: number, page: number): string {
  const url = new URL(listing.href);
  url.searchParams.set(sizeParam, String(pageSize));
  url.searchParams.set('page', String(page));
  return url.href;
}

export interface PaginateOptions<T> {
  firstPage: number;
  /** The last page that may be requested at all. */
  lastPage: number;
  pageSize: number;
  workers: number;
  stopAtShortPage: boolean;
  fetchPage(page: number, signal: AbortSignal): Promise<T[]>;
}

export interface PaginateResult<T> {
  /** Items of every page up to the end, in page order. */
  items: T[];
  /** The short page that ended the crawl, or undefined when every page up to lastPage was full. */
  shortPage: number | undefined;
}

export async function fetchPagesInParallel<T>(options: PaginateOptions<T>): Promise<PaginateResult<T>> {
  const pages = new Map<number, T[]>();
  const controllers = new Map<number, AbortController>();
  let next = options.firstPage;
  let end = Number.POSITIVE_INFINITY;
  let failure: { error: unknown } | undefined;

  function markEnd(page: number): void {
    end = page;
    for (const [other, controller] of controllers)
      if (other > end) controller.abort(new Error('past the last page'));
  }

  async function work(): Promise<void> {
    while (failure === undefined && next <= options.lastPage && next <= end) {
      const page = next;
      next += 1;
      const controller = new AbortController();
      controllers.set(page, controller);
      try {
        const items = await options.fetchPage(page, controller.signal);
        if (page > end) continue;
        pages.set(page, items);
        if (options.stopAtShortPage && items.length < options.pageSize) markEnd(page);
      } catch (error) {
        if (page > end) continue;
        failure ??= { error };
        for (const other of controllers.values()) other.abort(new Error('another page failed'));
      } finally {
        controllers.delete(page);
      }
    }
  }

  const workerCount = Math.max(1, Math.min(options.workers, options.lastPage - options.firstPage + 1));
  await Promise.all(Array.from({ length: workerCount }, () => work()));
  if (failure !== undefined) throw failure.error;
  const items: T[] = [];
  const last = Math.min(end, options.lastPage);
  for (let page = options.firstPage; page <= last; page++) items.push(...(pages.get(page) ?? []));
  return { items, shortPage: Number.isFinite(end) ? end : undefined };
}
