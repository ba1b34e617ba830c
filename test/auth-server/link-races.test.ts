/**
 * Finding 4 of issue 23: two links of one account spent at the same moment. An invitation
 * and a password-reset link of the same customer are posted at once, round after round;
 * every path that spends a token or changes a password takes its locks in one order (the
 * customer first), so neither request may fail with a 5xx (a deadlock turned into a 500
 * before), and exactly one of the two sets the password. Run on PostgreSQL, where the
 * deadlock happened, and on SQLite alike.
 */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createErrorMiddleware } from '../../auth-server/errors.js';
import { silentLogger } from '../../auth-server/logger.js';
import { SET_PASSWORD_PATH } from '../../auth-server/mail/account-mail.js';
import { generateSecret, hashSecret } from '../../auth-server/secrets.js';
import { retryOnConflict, StoreConflictError } from '../../auth-server/store/conflicts.js';
import type { EmailTokenPurpose } from '../../auth-server/store/email-link-queries.js';
import { describeEachDatabase, POSTGRES_SKIP_REASON, POSTGRES_URL } from './helpers/databases.js';
import { FormAgent, type Page } from './helpers/form-agent.js';
import { startTestIssuer, type TestIssuer } from './helpers/issuer.js';

const ROUNDS = 25;

describeEachDatabase('spending two links of one account at once on %s', (kind) => {
  const skip = kind === 'postgres' && !POSTGRES_URL;
  const note = skip ? ` (${POSTGRES_SKIP_REASON})` : '';
  let issuer: TestIssuer;
  let origin: string;
  const errors: string[] = [];
  beforeAll(async () => {
    if (skip) return;
    const logger = { ...silentLogger, error: (message: string) => void errors.push(message) };
    issuer = await startTestIssuer({ kind, logger });
    origin = new URL(issuer.issuer).origin;
  });
  afterAll(async () => {
    if (!skip) await issuer.close();
  });

  /** A live link of `purpose` for the test customer, as the mail would carry it. */
  async function link(purpose: EmailTokenPurpose): Promise<string> {
    const token = generateSecret();
    const now = Math.floor(Date.now() / 1000);
    await issuer.store.emailLinks.createToken({
      tokenHash: hashSecret(token),
      customerId: issuer.customer.id,
      purpose,
      createdAt: now,
      expiresAt: now + 600,
      usedAt: null,
    });
    return `${issuer.issuer}${SET_PASSWORD_PATH}?token=${token}`;
  }

  /** Opens the link's page; the returned function posts its form. */
  async function opened(url: string): Promise<() => Promise<Page>> {
    const agent = new FormAgent(origin);
    const page = await agent.get(url);
    expect(page.status).toBe(200);
    return () =>
      agent.submit(page, 'Set password', { 'New password': `a new passphrase ${generateSecret()}` });
  }

  it.skipIf(skip)(
    `never a 5xx, and exactly one link wins, in ${ROUNDS} rounds${note}`,
    async () => {
      const outcomes: number[][] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const posts = [await opened(await link('invite')), await opened(await link('reset'))];
        const pages = await Promise.all(posts.map((post) => post()));
        outcomes.push(pages.map((page) => page.status).sort());
      }
      expect(outcomes.flat().filter((status) => status >= 500)).toEqual([]);
      // Nor an error-level line (the deadlock's stack was logged with its 500).
      expect(errors).toEqual([]);
      for (const statuses of outcomes) {
        expect(statuses.filter((status) => status === 200)).toHaveLength(1);
        // The loser's link died with the winner's: the dead-link page, or 409 if it met the lock.
        expect([400, 409]).toContain(statuses.find((status) => status !== 200));
      }
    },
    120_000,
  );
});

describe('a conflict the store cannot resolve', () => {
  const deadlock = () => Object.assign(new Error('deadlock detected'), { code: '40P01' });

  it('is retried, a bounded number of times, then reported as a conflict', async () => {
    let calls = 0;
    expect(await retryOnConflict(async () => (++calls < 3 ? Promise.reject(deadlock()) : 'done'))).toBe(
      'done',
    );
    expect(calls).toBe(3);
    calls = 0;
    const alwaysDeadlocked = () => {
      calls += 1;
      return Promise.reject(deadlock());
    };
    await expect(retryOnConflict(alwaysDeadlocked)).rejects.toBeInstanceOf(StoreConflictError);
    expect(calls).toBe(4);
    await expect(retryOnConflict(() => Promise.reject(new Error('other')))).rejects.toThrow('other');
  });

  it('is answered 409, never 500, by the error middleware', async () => {
    const app = express();
    app.get('/', () => {
      throw new StoreConflictError('another change');
    });
    app.use(
      createErrorMiddleware(silentLogger, (res, input) => void res.status(input.status).send(input.error)),
    );
    const server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const { port } = server.address() as AddressInfo;
      const response = await fetch(`http://127.0.0.1:${port}/`);
      expect(response.status).toBe(409);
      expect(await response.json()).toMatchObject({ error: 'conflict' });
    } finally {
      server.close();
    }
  });
});
