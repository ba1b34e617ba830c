/**
 * Polls a served page until its text holds what a re-published bundle should show, for the
 * hooks bench: the measurement ends only when the new bytes are really served, so a server
 * that kept the old bundle (a cache across publishes) shows as a failure, never as a fast
 * publish. `giveUpAt` is read on every round, so the caller can shorten it once the
 * rebuild has ended (a short grace, then the page is stale for good).
 */

export interface ServedPage {
  /** `performance.now()` when a response holding the text had fully arrived. */
  servedAt: number;
  polls: number;
}

export interface PollOptions {
  intervalMs: number;
  /** A `performance.now()` time; past it the poll rejects. */
  giveUpAt: () => number;
}

async function readPage(url: string): Promise<{ status: number; text: string }> {
  try {
    const response = await fetch(url);
    return { status: response.status, text: await response.text() };
  } catch (error) {
    return { status: 0, text: error instanceof Error ? error.message : String(error) };
  }
}

export async function waitUntilServed(
  url: string,
  expected: string,
  options: PollOptions,
): Promise<ServedPage> {
  for (let polls = 1; ; polls++) {
    const page = await readPage(url);
    if (page.status === 200 && page.text.includes(expected)) return { servedAt: performance.now(), polls };
    if (performance.now() >= options.giveUpAt()) {
      throw new Error(
        `${url} still did not show ${expected} after ${polls} polls (last answer ${page.status}: ${page.text.slice(0, 200)})`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs));
  }
}
