import { afterAll, beforeAll, expect, it } from 'vitest';
import { SIGN_IN_RULES } from '../../../auth-server/throttle/sign-in.js';
import { describeEachDatabase, POSTGRES_SKIP_REASON, POSTGRES_URL } from '../helpers/databases.js';
import { FormAgent, type Page } from '../helpers/form-agent.js';
import { frozenClock } from './helpers/clock.js';
import { CUSTOMER, type ProductionIssuer, startProductionIssuer } from './helpers/issuer.js';

async function signIn(issuer: ProductionIssuer, email: string, password: string): Promise<Page> {
  const agent = new FormAgent(issuer.url);
  return agent.submit(await agent.get('/account'), 'Sign in', { Email: email, Password: password });
}

describeEachDatabase('sign-in throttling across two instances on %s', (kind) => {
  const skip = kind === 'postgres' && !POSTGRES_URL;
  const title = (name: string) => `${name}${skip ? ` (${POSTGRES_SKIP_REASON})` : ''}`;
  let first: ProductionIssuer;
  let second: ProductionIssuer;

  beforeAll(async () => {
    if (skip) return;
    // Both instances on one clock inside one of the throttle's 15-minute windows.
    const clock = frozenClock(15 * 60).now;
    first = await startProductionIssuer({ kind, config: { rateLimit: 0 }, clock });
    second = await startProductionIssuer({ database: first.database, config: { rateLimit: 0 }, clock });
  });
  afterAll(async () => {
    if (skip) return;
    await second.close();
    await first.close();
  });

  it.skipIf(skip)(
    title('a good sign-in clears the count, so a customer who mistypes now and then is never locked'),
    async () => {
      for (let round = 0; round < 3; round++) {
        for (let i = 0; i < 4; i++)
          expect((await signIn(i % 2 ? first : second, CUSTOMER.email, 'typo')).status).toBe(401);
        expect((await signIn(first, CUSTOMER.email, CUSTOMER.password)).status).toBe(303);
      }
    },
  );

  it.skipIf(skip)(
    title('after 5 failures on either instance the account is locked on both, even for the right password'),
    async () => {
      for (let i = 0; i < 5; i++)
        expect((await signIn(i % 2 ? first : second, CUSTOMER.email, 'guess')).status).toBe(401);
      for (const instance of [first, second]) {
        const locked = await signIn(instance, CUSTOMER.email, CUSTOMER.password);
        expect(locked.status).toBe(429);
        expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(locked.headers.get('cache-control')).toBe('no-store');
        expect(locked.html).toContain('Too many sign-in attempts');
      }
    },
  );

  it.skipIf(skip)(
    title('an email without an account locks after the same 5 failures, with the same page'),
    async () => {
      for (let i = 0; i < 5; i++)
        expect((await signIn(i % 2 ? first : second, 'ghost@example.com', 'guess')).status).toBe(401);
      const locked = await signIn(first, 'ghost@example.com', 'guess');
      expect(locked.status).toBe(429);
      expect(locked.html).toContain('Too many sign-in attempts');
    },
  );

  it.skipIf(skip)(title('one address failing across many accounts is stopped too'), async () => {
    const ipRule = SIGN_IN_RULES.find((r) => r.scope === 'ip');
    const limit = ipRule?.limit ?? 0;
    // The lock tests above already spent 10 failures from this address; spray new emails past the limit.
    const statuses: number[] = [];
    for (let i = 0; i < limit; i++)
      statuses.push((await signIn(i % 2 ? first : second, `spray${i}@example.com`, 'guess')).status);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    expect((await signIn(second, 'fresh@example.com', 'guess')).status).toBe(429);
  });
});
