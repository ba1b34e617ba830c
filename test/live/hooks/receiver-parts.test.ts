/**
 * The receiver's pure parts on their own: which rebuild URLs are accepted, how long a
 * delivery id is remembered, when a Shopify delivery is stale, what a signature header
 * must look like, and that the scheduler's ceiling holds a second burst back.
 */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { judgeDelivery, MAX_DELIVERY_AGE_MS } from '../../../live/hooks/deliveries.js';
import { parseRebuildTarget, readHookSettings } from '../../../live/hooks/hook-settings.js';
import { createSeenDeliveries } from '../../../live/hooks/seen-deliveries.js';
import { createTriggerScheduler } from '../../../live/hooks/trigger-scheduler.js';
import { verifyHmacSignature } from '../../../live/hooks/verify-signature.js';

describe('the rebuild URL', () => {
  it.each([
    ['https://api.github.com/repos/o/r/dispatches', true],
    ['http://127.0.0.1:9000/build_hooks/x', true],
    ['http://localhost:9000/x', true],
    ['http://[::1]:9000/x', true],
    ['http://api.netlify.com/build_hooks/x', false],
    ['ftp://127.0.0.1/x', false],
    ['https://user:pass@api.netlify.com/build_hooks/x', false],
    ['not a url', false],
    ['  ', false],
  ])('when it is %s then it is accepted: %s', (url, accepted) => {
    expect(parseRebuildTarget(url, undefined).ok).toBe(accepted);
  });

  it('when a refused URL is explained then the explanation does not repeat it', () => {
    const target = parseRebuildTarget('http://api.netlify.com/build_hooks/5f0c0ffee', undefined);
    expect(target.ok).toBe(false);
    expect(JSON.stringify(target)).not.toContain('5f0c0ffee');
  });

  it('when only blank secrets are set then no receiver is on', () => {
    const settings = readHookSettings((name) => (name.endsWith('_SECRET') ? '   ' : undefined));
    expect(settings.secrets).toEqual({});
  });
});

describe('the delivery ids seen', () => {
  it('when an id comes again within the window then it is a replay, and after the window it is not', () => {
    const seen = createSeenDeliveries(1_000);
    expect(seen.checkAndRecord('a', 0)).toBe(false);
    expect(seen.checkAndRecord('a', 999)).toBe(true);
    expect(seen.checkAndRecord('a', 1_000)).toBe(false);
  });

  it('when more ids come than it holds then the oldest are forgotten first', () => {
    const seen = createSeenDeliveries(60_000, 3);
    for (const id of ['a', 'b', 'c', 'd']) seen.checkAndRecord(id, 0);
    expect(seen.checkAndRecord('d', 1)).toBe(true);
    expect(seen.checkAndRecord('a', 1)).toBe(false);
  });
});

describe('a Shopify delivery time', () => {
  const now = Date.parse('2026-11-26T12:00:00.000Z');
  const at = (offsetMs: number) =>
    new Headers({ 'x-shopify-triggered-at': new Date(now + offsetMs).toISOString() });

  it('when it is within 15 minutes either way then the delivery is accepted', () => {
    expect(judgeDelivery('shopify', at(-MAX_DELIVERY_AGE_MS + 1_000), now).kind).toBe('accept');
    expect(judgeDelivery('shopify', at(MAX_DELIVERY_AGE_MS - 1_000), now).kind).toBe('accept');
  });

  it('when it is further than 15 minutes in the past or the future, or not a time, then it is refused with 400', () => {
    expect(judgeDelivery('shopify', at(-MAX_DELIVERY_AGE_MS - 1_000), now)).toMatchObject({ status: 400 });
    expect(judgeDelivery('shopify', at(MAX_DELIVERY_AGE_MS + 1_000), now)).toMatchObject({ status: 400 });
    const garbage = new Headers({ 'x-shopify-triggered-at': 'yesterday' });
    expect(judgeDelivery('shopify', garbage, now)).toMatchObject({ status: 400 });
  });
});

describe('a signature header', () => {
  const body = new TextEncoder().encode('{"id":1}');
  const good = createHmac('sha256', 'k').update(body).digest('base64');

  it('when it is the base64 HMAC then it verifies, with spaces around it too', async () => {
    expect(await verifyHmacSignature('k', body, good)).toBe(true);
    expect(await verifyHmacSignature('k', body, ` ${good} `)).toBe(true);
  });

  it('when it is hex, unpadded, truncated or under another key then it does not verify', async () => {
    const hex = createHmac('sha256', 'k').update(body).digest('hex');
    for (const header of [hex, good.replace(/=$/, ''), good.slice(0, 20), '', null]) {
      expect(await verifyHmacSignature('k', body, header)).toBe(false);
    }
    expect(await verifyHmacSignature('other', body, good)).toBe(false);
  });
});

describe('the trigger scheduler', () => {
  it('when a second burst comes right after a trigger then it waits for the ceiling and is one more trigger', async () => {
    let fired = 0;
    const scheduler = createTriggerScheduler(
      async () => {
        fired += 1;
      },
      { quietMs: 10, minIntervalMs: 2_000, maxDelayMs: 2_000 },
    );
    await Promise.all([scheduler.notify(), scheduler.notify(), scheduler.notify()]);
    expect(fired).toBe(1);
    const second = Promise.all([scheduler.notify(), scheduler.notify()]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    // The quiet period has passed, but the ceiling has not: nothing yet.
    expect(fired).toBe(1);
    await second;
    expect(fired).toBe(2);
  });
});
