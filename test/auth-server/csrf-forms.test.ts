/**
 * Every form the issuer accepts checks its CSRF token (the double-submit cookie), the five
 * that issue 13 added among them: a post without the token, with a wrong one, or with the
 * token but without its cookie (what a cross-site form gets) is refused with 403 and
 * changes nothing, even from a signed-in browser.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FormAgent } from './helpers/form-agent.js';
import { startTestIssuer, type TestIssuer } from './helpers/issuer.js';

// Each form with fields that would act if the token were not checked.
const FORMS: readonly (readonly [string, Record<string, string>])[] = [
  ['/signin', { email: 'ann@example.com', password: 'correct horse battery' }],
  ['/consent', { interaction: 'x', decision: 'allow' }],
  ['/account/revoke', { client_id: 'x' }],
  ['/account/signout', {}],
  ['/oauth/logout', {}],
  ['/password/forgot', { email: 'ann@example.com' }],
  ['/password/set', { token: 'x', new_password: 'a brand new passphrase' }],
  ['/signup', { name: 'Mallory', email: 'mallory@example.com' }],
  ['/account/password', { current_password: 'correct horse battery', new_password: 'chosen by mallory 1' }],
  ['/account/delete', { password: 'correct horse battery' }],
];

describe('CSRF on every form', () => {
  let issuer: TestIssuer;
  let agent: FormAgent;
  let csrf: string;

  beforeAll(async () => {
    issuer = await startTestIssuer({ config: { allowSignup: true } });
    agent = new FormAgent(new URL(issuer.issuer).origin);
    const signedIn = await agent.submit(await agent.get('/account'), 'Sign in', {
      Email: issuer.customer.email,
      Password: issuer.customer.password,
    });
    csrf = /name="csrf" value="([^"]+)"/.exec((await agent.follow(signedIn)).html)?.[1] ?? '';
  });
  afterAll(() => issuer.close());

  const post = (on: FormAgent, path: string, fields: Record<string, string>) =>
    on.request(path, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });

  it('refuses a missing or wrong token, and a token without its cookie, with 403', async () => {
    expect(csrf).not.toBe('');
    const cookieless = new FormAgent(agent.origin);
    for (const [name, value] of agent.cookies)
      if (!name.includes('csrf')) cookieless.cookies.set(name, value);
    const outcomes: string[] = [];
    for (const [path, fields] of FORMS) {
      const attempts: [string, FormAgent, Record<string, string>][] = [
        ['no token', agent, fields],
        ['wrong token', agent, { ...fields, csrf: `${csrf.slice(1)}x` }],
        ['token without its cookie', cookieless, { ...fields, csrf }],
      ];
      for (const [how, on, body] of attempts)
        outcomes.push(`${path} ${how}: ${(await post(on, path, body)).status}`);
    }
    expect(outcomes.filter((line) => !line.endsWith(': 403'))).toEqual([]);
  });

  it('and nothing changed: still signed in, same password, no account for the forged sign-up', async () => {
    expect((await agent.get('/account')).html).toContain('action="/account/signout"');
    expect(await issuer.store.findCustomerByEmail('mallory@example.com')).toBeUndefined();
    const fresh = new FormAgent(agent.origin);
    const signedIn = await fresh.submit(await fresh.get('/account'), 'Sign in', {
      Email: issuer.customer.email,
      Password: issuer.customer.password,
    });
    expect((await fresh.follow(signedIn)).html).toContain('action="/account/signout"');
  });
});
