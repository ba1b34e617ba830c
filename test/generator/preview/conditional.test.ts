/** Entity tags and If-None-Match matching (RFC 9110 sections 8.8.3 and 13.1.2). */
import { describe, expect, it } from 'vitest';
import { computeEtag, matchesIfNoneMatch } from '../../../generator/preview/conditional.js';

describe('ETag and If-None-Match', () => {
  const bytes = new TextEncoder().encode('{"products":[]}');
  const etag = computeEtag(bytes);

  it('when the bytes are equal then the tag is equal, and a changed byte changes it', () => {
    expect(computeEtag(new TextEncoder().encode('{"products":[]}'))).toBe(etag);
    expect(computeEtag(new TextEncoder().encode('{"products":[1]}'))).not.toBe(etag);
    expect(etag).toMatch(/^"[!#-~]+"$/);
  });

  it.each([
    [etag, true],
    [`W/${etag}`, true],
    [` "a", ${etag} , "b"`, true],
    [`"a,b", W/${etag}`, true],
    ['*', true],
    ['"a", "b"', false],
    [etag.slice(1, -1), false],
    ['', false],
  ])('when If-None-Match is %j then it matches: %s', (value, expected) => {
    expect(matchesIfNoneMatch(value, etag)).toBe(expected);
  });

  it('when there is no If-None-Match then nothing matches', () => {
    expect(matchesIfNoneMatch(undefined, etag)).toBe(false);
  });
});
