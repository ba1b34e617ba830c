/**
 * Remembers access tokens whose signature and claims were verified, until they expire. An
 * agent sends the same bearer token with every call for the token's ten minutes, and an
 * ES256 verification through WebCrypto is the largest CPU cost of a userinfo request
 * (BENCHMARKS.md), so only the first call pays it. What the signature proves cannot change
 * while the token lives: a key retires only after every token it signed has expired
 * (keys.ts). Revocation is not cached; userinfo still asks the store on every request
 * (RFC 7009 §2: a revoked token must stop working). Bounded: the oldest entry goes first.
 */
import { type Clock, unixSeconds, type VerifiedAccessToken } from './key-ring.js';

const MAX_ENTRIES = 10_000;

export interface VerifiedTokenCache {
  /** The verified claims of `token` while it is unexpired, else undefined. */
  get(token: string): VerifiedAccessToken | undefined;
  set(token: string, claims: VerifiedAccessToken): void;
}

export function createVerifiedTokenCache(clock: Clock, maxEntries = MAX_ENTRIES): VerifiedTokenCache {
  const entries = new Map<string, VerifiedAccessToken>();
  return {
    get(token) {
      const claims = entries.get(token);
      if (claims === undefined) return undefined;
      // jose refuses a token once `exp` <= now (RFC 7519 §4.1.4); so does the cache.
      if (claims.exp > unixSeconds(clock)) return claims;
      entries.delete(token);
      return undefined;
    },
    set(token, claims) {
      if (entries.size >= maxEntries) {
        const oldest = entries.keys().next();
        if (!oldest.done) entries.delete(oldest.value);
      }
      entries.set(token, claims);
    },
  };
}
