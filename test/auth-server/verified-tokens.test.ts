import { describe, expect, it } from 'vitest';
import type { VerifiedAccessToken } from '../../auth-server/key-ring.js';
import { createVerifiedTokenCache } from '../../auth-server/verified-tokens.js';

const NOW = 1_800_000_000;

function claims(exp: number): VerifiedAccessToken {
  return {
    sub: 'c',
    clientId: 'a',
    scope: 'openid',
    authTime: NOW,
    jti: 'j',
    grantId: 'g',
    audience: [],
    exp,
  };
}

describe('the verified access token cache', () => {
  it('when a remembered token reaches its exp then it is forgotten', () => {
    let now = NOW * 1000;
    const cache = createVerifiedTokenCache(() => now);
    cache.set('t', claims(NOW + 10));
    expect(cache.get('t')?.exp).toBe(NOW + 10);
    now = (NOW + 10) * 1000;
    expect(cache.get('t')).toBeUndefined();
    now = NOW * 1000;
    expect(cache.get('t')).toBeUndefined();
  });

  it('when full then the oldest entry makes room', () => {
    const cache = createVerifiedTokenCache(() => NOW * 1000, 2);
    cache.set('a', claims(NOW + 60));
    cache.set('b', claims(NOW + 60));
    cache.set('c', claims(NOW + 60));
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')).toBeDefined();
    expect(cache.get('c')).toBeDefined();
  });
});
