/**
 * The fixed documents' ETag and If-None-Match, judged three ways: against the rules and
 * examples of RFC 9110 (§8.8.3.2's weak comparison table, §5.6.1's lists, §13.1.2's `*`),
 * against jshttp's `fresh` (the comparison Express itself uses) for well-formed fields, and
 * by Chromium's HTTP cache, which revalidates a cached JWKS on its own and must get a 304
 * it can use in place of the body.
 */
import { createRequire } from 'node:module';
import type { Response as PlaywrightResponse } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ifNoneMatchHits, parseIfNoneMatch, strongEtag } from '../../../auth-server/conditional.js';
import { createJsonLogger } from '../../../auth-server/logger.js';
import { BROWSER, launchBrowser } from '../../helpers/browser.js';
import { requires } from '../../helpers/requirements.js';
import { startTestIssuer, type TestIssuer } from '../helpers/issuer.js';

type Fresh = (req: Record<string, string>, res: Record<string, string>) => boolean;
const fresh = createRequire(import.meta.url)('fresh') as Fresh;

describe('If-None-Match by RFC 9110', () => {
  it("follows §8.8.3.2's weak comparison table", () => {
    // Tag sent by the server, tag in If-None-Match, weak comparison result.
    const table: [string, string, boolean][] = [
      ['W/"1"', 'W/"1"', true],
      ['W/"1"', 'W/"2"', false],
      ['W/"1"', '"1"', true],
      ['"1"', '"1"', true],
    ];
    for (const [etag, field, hit] of table)
      expect({ etag, field, hit: ifNoneMatchHits(field, etag) }).toEqual({ etag, field, hit });
  });

  it('reads lists with spaces, tabs and empty members, and * (§5.6.1, §13.1.2)', () => {
    expect(parseIfNoneMatch('"a", W/"b",\t"c"')).toEqual(['a', 'b', 'c']);
    expect(parseIfNoneMatch(', "a" ,, "b",')).toEqual(['a', 'b']);
    expect(parseIfNoneMatch('"a,b"')).toEqual(['a,b']);
    expect(parseIfNoneMatch(' * ')).toBe('*');
    expect(ifNoneMatchHits('*', '"x"')).toBe(true);
    expect(ifNoneMatchHits(['"y"', '"x"'], '"x"')).toBe(true);
  });

  it('ignores a malformed field as a whole, so it never earns a 304', () => {
    for (const field of [
      'x',
      '"x',
      'x"',
      '"x" "y"',
      '"x", y',
      'w/"x"',
      '"x\u0001"',
      '"a"b"',
      '*, "x"',
      '',
      ' , ',
    ]) {
      expect({ field, hit: ifNoneMatchHits(field, '"x"') }).toEqual({ field, hit: false });
    }
  });

  it('makes a strong tag that follows every byte of the body', () => {
    const tag = strongEtag('{"keys":[]}');
    expect(tag).toMatch(/^"[\x21\x23-\x7e]+"$/);
    expect(tag).not.toMatch(/^W\//);
    expect(strongEtag('{"keys":[] }')).not.toBe(tag);
    expect(strongEtag('{"keys":[]}')).toBe(tag);
  });

  it('agrees with jshttp fresh (what Express uses) on well-formed fields', () => {
    const etag = strongEtag('document');
    const fields = [
      etag,
      `W/${etag}`,
      `"a", ${etag}`,
      `"a",${etag} , "b"`,
      '"a"',
      '"a", "b"',
      '*',
      `W/"${etag}"`,
    ];
    for (const field of fields) {
      expect({ field, hit: ifNoneMatchHits(field, etag) }).toEqual({
        field,
        hit: fresh({ 'if-none-match': field }, { etag }),
      });
    }
  });
});

describe("Chromium's HTTP cache revalidates the JWKS and discovery", requires(BROWSER), () => {
  let issuer: TestIssuer;
  const accessLog: { path?: string; status?: number }[] = [];
  beforeAll(async () => {
    const logger = createJsonLogger((line) => accessLog.push(JSON.parse(line)), 'info');
    issuer = await startTestIssuer({ logger });
  });
  afterAll(() => issuer?.close());

  it('gets a 304 on revalidation and serves the same document from its cache', async () => {
    // No request routing: Playwright's routing turns Chromium's HTTP cache off. The page and
    // everything it asks for are on the loopback issuer.
    const browser = await launchBrowser({ bypassCSP: true, loopbackOnly: false });
    try {
      const page = await browser.context.newPage();
      const seen: PlaywrightResponse[] = [];
      page.on('response', (response) => seen.push(response));
      await page.goto(`${issuer.issuer}/docs`);
      for (const path of ['/.well-known/jwks.json', '/.well-known/openid-configuration']) {
        seen.length = 0;
        // `no-cache`: use the cached copy only after the server confirms it (a conditional GET).
        const bodies = await page.evaluate(async (url) => {
          const first = await fetch(url, { cache: 'no-cache' });
          const second = await fetch(url, { cache: 'no-cache' });
          return [first.status, await first.text(), second.status, await second.text()];
        }, `${issuer.issuer}${path}`);
        expect(bodies[0]).toBe(200);
        expect(bodies[2]).toBe(200);
        expect(bodies[3]).toBe(bodies[1]);
        expect(String(bodies[1])).toContain(path.includes('jwks') ? '"keys"' : '"issuer"');
        // Chromium sent the tag it cached, and the issuer answered the revalidation 304.
        expect(await seen.at(-1)?.request().headerValue('if-none-match')).toBe(
          await seen.at(0)?.headerValue('etag'),
        );
        const statuses = accessLog.filter((line) => line.path === path).map((line) => line.status);
        expect(statuses.slice(-2)).toEqual([200, 304]);
      }
    } finally {
      await browser.close();
    }
  });
});
