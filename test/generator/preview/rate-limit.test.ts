/**
 * `--rate-limit N`: N requests a minute per client are answered, the next gets 429 with
 * `Retry-After` and the draft's `RateLimit` field; without the flag nobody is throttled.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  createRateLimiter,
  formatRateLimitField,
  policyNameOf,
} from '../../../generator/preview/rate-limit.js';
import { makeFixtureBundle, RATE_POLICY } from './fixture-bundle.js';
import { header, rawRequest } from './http-client.js';
import { type ServedBundle, serveTempBundle } from './served-bundle.js';

let served: ServedBundle | undefined;

afterEach(async () => {
  await served?.close();
  served = undefined;
});

async function serve(rateLimit?: number): Promise<string> {
  served = await serveTempBundle(makeFixtureBundle(), { rateLimit });
  return served.url;
}

describe('preview rate limit', () => {
  it('when a client exceeds N requests a minute then it gets 429 with Retry-After and RateLimit', async () => {
    const url = await serve(3);
    const remaining: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await rawRequest(url, '/agent-catalog');
      expect(res.status).toBe(200);
      remaining.push(header(res, 'ratelimit') ?? '');
    }
    expect(remaining.map((v) => /;r=(\d+)/.exec(v)?.[1])).toEqual(['2', '1', '0']);
    const refused = await rawRequest(url, '/agent-catalog');
    expect(refused.status).toBe(429);
    const retryAfter = Number(header(refused, 'retry-after'));
    expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60).toBe(true);
    expect(header(refused, 'ratelimit')).toMatch(/^"default";r=0;t=\d+$/);
    expect(header(refused, 'ratelimit-policy')).toBe(RATE_POLICY);
    expect(JSON.parse(refused.body)).toHaveProperty('error');
    expect(header(refused, 'access-control-allow-origin')).toBe('*');
  });

  it('when no limit is set then many requests are all answered and carry no RateLimit field', async () => {
    const url = await serve();
    for (let i = 0; i < 80; i++) {
      const res = await rawRequest(url, '/llms.txt');
      expect(res.status).toBe(200);
      expect(header(res, 'ratelimit')).toBeUndefined();
    }
  });

  it('when a window has passed then the client is answered again', () => {
    let now = 0;
    const limiter = createRateLimiter(1, () => now);
    expect(limiter.take('a').allowed).toBe(true);
    expect(limiter.take('a').allowed).toBe(false);
    expect(limiter.take('b').allowed).toBe(true);
    now = 60_000;
    expect(limiter.take('a').allowed).toBe(true);
  });

  it('when the policy field names a policy then RateLimit refers to the same name', () => {
    expect(policyNameOf('"peak";q=60;w=60, "day";q=1000;w=86400')).toBe('peak');
    expect(policyNameOf(undefined)).toBeUndefined();
    expect(formatRateLimitField('peak', { allowed: false, remaining: 0, resetSeconds: 30 })).toBe(
      '"peak";r=0;t=30',
    );
  });
});
