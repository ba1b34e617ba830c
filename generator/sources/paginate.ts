/**
 * Overlapping pagination: a few workers take page numbers in order and fetch them at
 * once (the HTTP client still enforces the concurrency and rate limits), so a crawl of
 * 21 pages costs a few round trips, not 21. Pages are handed on in page order as soon as
 * every earlier one is in, so the caller maps a page while later ones download and no more
 * than a window of pages is held (a worker waits before starting a page more than `window`
 * ahead of the one the caller is on). With `stopAtShortPage` the first page with fewer
 * than `pageSize` items marks the end: pages after it are not started, and those already
 * in flight are cancelled and their results ignored. The first real failure cancels
 * everything else and is rethrown. Bounded by `lastPage`.
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

/** Pages fetched ahead of the one being handed on, per worker: enough to keep them busy. */
const WINDOW_PER_WORKER = 2;

/** Yields the items of each page up to the end, in page order. */
export async function* fetchPagesInOrder<T>(options: PaginateOptions<T>): AsyncGenerator<T[]> {
  const crawl = new OrderedCrawl(options);
  const workers = crawl.start();
  try {
    for (let page = options.firstPage; page <= Math.min(crawl.end, options.lastPage); page++) {
      yield await crawl.take(page);
    }
  } finally {
    // The caller may stop early (an error of its own): nothing keeps running behind it.
    crawl.stop();
    await workers;
  }
}

class OrderedCrawl<T> {
  end = Number.POSITIVE_INFINITY;
  private next: number;
  /** The page the caller waits for or maps now; workers stay within the window past it. */
  private current: number;
  private readonly window: number;
  private readonly pages = new Map<number, T[]>();
  private readonly controllers = new Map<number, AbortController>();
  private failure: { error: unknown } | undefined;
  private stopped = false;
  private waiters: (() => void)[] = [];

  constructor(private readonly options: PaginateOptions<T>) {
    this.next = options.firstPage;
    this.current = options.firstPage;
    this.window = Math.max(1, options.workers) * WINDOW_PER_WORKER;
  }

  start(): Promise<void> {
    const { firstPage, lastPage, workers } = this.options;
    const count = Math.max(1, Math.min(workers, lastPage - firstPage + 1));
    return Promise.all(Array.from({ length: count }, () => this.work())).then(() => undefined);
  }

  async take(page: number): Promise<T[]> {
    this.current = page;
    this.wake();
    for (;;) {
      if (this.failure !== undefined) throw this.failure.error;
      const items = this.pages.get(page);
      if (items !== undefined) {
        this.pages.delete(page);
        return items;
      }
      await this.sleep();
    }
  }

  stop(): void {
    this.stopped = true;
    for (const controller of this.controllers.values()) controller.abort(new Error('the crawl stopped'));
    this.wake();
  }

  private async work(): Promise<void> {
    while (this.running() && this.next <= this.options.lastPage && this.next <= this.end) {
      if (this.next >= this.current + this.window) {
        await this.sleep();
        continue;
      }
      await this.fetch(this.next++);
    }
  }

  private running(): boolean {
    return this.failure === undefined && !this.stopped;
  }

  private async fetch(page: number): Promise<void> {
    const controller = new AbortController();
    this.controllers.set(page, controller);
    try {
      const items = await this.options.fetchPage(page, controller.signal);
      if (page > this.end || this.stopped) return;
      this.pages.set(page, items);
      if (this.options.stopAtShortPage && items.length < this.options.pageSize) this.markEnd(page);
    } catch (error) {
      if (page > this.end || this.stopped) return;
      this.failure ??= { error };
      for (const other of this.controllers.values()) other.abort(new Error('another page failed'));
    } finally {
      this.controllers.delete(page);
      this.wake();
    }
  }

  private markEnd(page: number): void {
    this.end = page;
    for (const [other, controller] of this.controllers)
      if (other > page) controller.abort(new Error('past the last page'));
  }

  private sleep(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }
}
