import { describe, expect, it } from 'vitest';
import { ConfigError, resolveConfig } from '../../../auth-server/config.js';
import { createJsonLogger, redactLogValue, withRequestId } from '../../../auth-server/logger.js';
import { chooseRequestId } from '../../../auth-server/middleware/request-id.js';
import { parseTrustProxy, toExpressTrustProxy } from '../../../auth-server/middleware/trust-proxy.js';
import { formatRateLimit, formatRateLimitPolicy, windowOf } from '../../../auth-server/rate-limit/limiter.js';

describe('the logger', () => {
  it('redacts credential-named fields and credential-shaped values at any depth', () => {
    const redacted = redactLogValue({
      password: 'hunter2',
      client_secret: 's',
      nested: { refresh_token: 'r', note: 'sent Bearer abc.def' },
      list: ['eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0.sig'],
      count: 3,
      refreshTokens: 7,
      error: 'invalid_token',
    });
    expect(redacted).toEqual({
      password: '[redacted]',
      client_secret: '[redacted]',
      nested: { refresh_token: '[redacted]', note: 'sent [redacted]' },
      list: ['[redacted]'],
      count: 3,
      refreshTokens: 7,
      error: 'invalid_token',
    });
  });

  it('stamps the request id on every line logged inside a request', async () => {
    const lines: string[] = [];
    const logger = createJsonLogger((line) => lines.push(line));
    await withRequestId('req-1', async () => {
      await Promise.resolve();
      logger.info('inside');
    });
    logger.info('outside');
    expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({ msg: 'inside', requestId: 'req-1' });
    expect(JSON.parse(lines[1] ?? '{}')).not.toHaveProperty('requestId');
  });
});

describe('request ids', () => {
  it('keeps sane ids and replaces hostile or oversized ones', () => {
    expect(chooseRequestId('abc-123_x.y:z')).toBe('abc-123_x.y:z');
    for (const bad of ['', 'a b', 'x\ny', 'x'.repeat(129), '"}{', undefined]) {
      expect(chooseRequestId(bad)).toMatch(/^[0-9a-f-]{36}$/);
    }
    expect(chooseRequestId(['a', 'b'])).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('trusted proxies', () => {
  it('none by default, and a list of addresses, ranges and named ranges otherwise', () => {
    expect(toExpressTrustProxy(resolveConfig({}).trustProxy)).toBe(false);
    expect(parseTrustProxy('none')).toEqual([]);
    expect(resolveConfig({ trustProxy: '10.0.0.0/8, loopback,2001:db8::1' }).trustProxy).toEqual([
      '10.0.0.0/8',
      'loopback',
      '2001:db8::1',
    ]);
  });

  it.each(['true', '*', '1', '10.0.0.0/33', 'proxy.example', '10.0.0.1/8/9'])(
    'refuses %s, naming the flag',
    (value) => {
      expect(() => resolveConfig({ trustProxy: value })).toThrow(ConfigError);
      expect(() => resolveConfig({ trustProxy: value })).toThrow(/--trust-proxy \(AUTH_TRUST_PROXY\)/);
    },
  );
});

describe('the RateLimit header fields', () => {
  it('are formatted as draft-ietf-httpapi-ratelimit-headers structured fields', () => {
    const policy = { name: 'default', limit: 60, windowSeconds: 60 };
    expect(formatRateLimitPolicy(policy)).toBe('"default";q=60;w=60');
    expect(formatRateLimit(policy, 12, 30)).toBe('"default";r=12;t=30');
  });

  it('fixed windows start on multiples of their length', () => {
    expect(windowOf(1_800_000_059, 60)).toEqual({ start: 1_800_000_000, end: 1_800_000_060 });
    expect(windowOf(1_800_000_060, 60)).toEqual({ start: 1_800_000_060, end: 1_800_000_120 });
  });
});
