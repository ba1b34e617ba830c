/**
 * The customer's own controls on /account: changing the password needs the current one and
 * signs out the other devices (and their apps) but not this one; deleting the account needs
 * the password, and a wrong one deletes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FormAgent, type Page } from './helpers/form-agent.js';
import { startTestIssuer, type TestIssuer } from './helpers/issuer.js';

describe('the account page controls', () => {
  let issuer: TestIssuer;
  let origin: string;
  beforeAll(async () => {
    issuer = await startTestIssuer();
    origin = new URL(issuer.issuer).origin;
  });
  afterAll(() => issuer.close());

  async function signedIn(password = issuer.customer.password): Promise<{ agent: FormAgent; account: Page }> {
    const agent = new FormAgent(origin);
    const form = await agent.get('/account');
    await agent.follow(
      await agent.submit(form, 'Sign in', { Email: issuer.customer.email, Password: password }),
    );
    return { agent, account: await agent.get('/account') };
  }

  const isSignedIn = async (agent: FormAgent) =>
    (await agent.get('/account')).html.includes('<button class="primary" type="submit">Sign out</button>');

  it('a wrong current password changes nothing; the right one changes it and signs out the other devices', async () => {
    const phone = await signedIn();
    const laptop = await signedIn();
    const wrong = await laptop.agent.submit(laptop.account, 'Save change', {
      Password: 'not my password',
      'New password': 'a fresh and long passphrase',
    });
    expect(wrong.status).toBe(400);
    const common = await laptop.agent.submit(laptop.account, 'Save change', {
      Password: issuer.customer.password,
      'New password': 'password1',
    });
    expect(common.status).toBe(400);
    expect(await isSignedIn(phone.agent)).toBe(true);
    const changed = await laptop.agent.submit(laptop.account, 'Save change', {
      Password: issuer.customer.password,
      'New password': 'a fresh and long passphrase',
    });
    expect(changed.status).toBe(200);
    expect(await isSignedIn(laptop.agent)).toBe(true);
    expect(await isSignedIn(phone.agent)).toBe(false);
    issuer.customer.password = 'a fresh and long passphrase';
    expect(await isSignedIn((await signedIn()).agent)).toBe(true);
  });

  it('deleting needs the password: a wrong one keeps the account, the right one erases it', async () => {
    const { agent, account } = await signedIn();
    const wrong = await agent.submit(account, 'Delete account', {
      Password: 'nope nope nope',
    });
    expect(wrong.status).toBe(400);
    expect(await issuer.store.findCustomerById(issuer.customer.id)).toBeDefined();
    const deleted = await agent.submit(account, 'Delete account', {
      Password: issuer.customer.password,
    });
    expect(deleted.status).toBe(200);
    expect(await issuer.store.findCustomerById(issuer.customer.id)).toBeUndefined();
    expect(await isSignedIn(agent)).toBe(false);
  });
});
