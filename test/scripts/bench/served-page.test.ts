/**
 * The hooks bench's poll (scripts/bench/served-page.ts): it ends only when the served page
 * holds the new text, and a page that stays stale past the give-up time is a failure.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { waitUntilServed } from '../../../scripts/bench/served-page.js';

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

/** Serves `pages[n]` to the n-th request (the last one from then on). */
async function serveInTurn(pages: readonly { status: number; text: string }[]): Promise<string> {
  let served = 0;
  const server = createServer((_request, response) => {
    const page = pages[Math.min(served, pages.length - 1)] ?? { status: 500, text: '' };
    served += 1;
    response.writeHead(page.status, { 'content-type': 'text/markdown' }).end(page.text);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/kb/products/a.md`;
}

describe('waitUntilServed', () => {
  it('when the old page, then a 503, then the new page are served then it ends at the new page', async () => {
    const url = await serveInTurn([
      { status: 200, text: 'Price: 45.78 USD' },
      { status: 503, text: '46.78 in an error body does not count' },
      { status: 200, text: 'Price: 46.78 USD' },
    ]);
    const served = await waitUntilServed(url, '46.78', { intervalMs: 1, giveUpAt: () => Infinity });
    expect(served.polls).toBe(3);
  });

  it('when the page stays stale past the give-up time then it fails naming the page', async () => {
    const url = await serveInTurn([{ status: 200, text: 'Price: 45.78 USD' }]);
    let polls = 0;
    const giveUpAt = () => (++polls >= 3 ? 0 : Infinity);
    await expect(waitUntilServed(url, '46.78', { intervalMs: 1, giveUpAt })).rejects.toThrow(
      /a\.md still did not show 46\.78/,
    );
    expect(polls).toBe(3);
  });
});
