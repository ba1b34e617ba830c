/**
 * Every page the issuer can render, visited in headless Chromium: sign-in, consent,
 * account, sign-out confirmation, signed out (with and without a way back to the app), the
 * forgot-password, sign-up and set-password forms and their answers, the docs page, and the
 * error pages (an unknown or expired interaction, a bad link, an unknown path, and the 400
 * pages for an unverified client's bad request). On each, the title and the one main
 * heading name the merchant, no form control breaks the CONTRACT's label rules, and
 * axe-core finds no WCAG 2.1 AA violation.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER, launchBrowser, type TestBrowser } from '../helpers/browser.js';
import { requires } from '../helpers/requirements.js';
import { axeViolations } from './helpers/axe.js';
import { startTestIssuer, type TestIssuer } from './helpers/issuer.js';
import { labelRuleBreaches, pageFacts } from './helpers/page-rules.js';
import { linkIn, type SmtpSink, startSmtpSink } from './helpers/smtp-sink.js';

const MERCHANT = 'Pomona Juice Co.';
// Nothing listens there: the tests never let the browser follow a redirect to the app.
const APP_URI = 'http://127.0.0.1:9/callback';

/** What each page must show: `name` is only the test's own label for the page. */
async function expectMerchantPage(page: Page, name: string): Promise<void> {
  const facts = await pageFacts(page);
  expect({ name, title: facts.title.includes(MERCHANT) }).toEqual({ name, title: true });
  expect({ name, h1: facts.h1.length, names: facts.h1[0]?.includes(MERCHANT) }).toEqual({
    name,
    h1: 1,
    names: true,
  });
  expect({ name, breaches: facts.breaches }).toEqual({ name, breaches: [] });
  expect({ name, violations: await axeViolations(page) }).toEqual({ name, violations: [] });
}

describe('the label rules checker', requires(BROWSER), () => {
  it('finds a control whose name borrows a reserved word, and passes the reserved names themselves', async () => {
    const browser = await launchBrowser();
    try {
      const page = await browser.context.newPage();
      await page.setContent(
        '<title>t</title><label for="a">Password</label><input id="a" type="password">' +
          '<label for="b">Your password again</label><input id="b" type="password">' +
          '<button>Sign in</button><button>Sign in later</button><details><summary>Deny all</summary></details>',
      );
      const facts = await pageFacts(page);
      expect(facts.breaches).toHaveLength(3);
      expect(labelRuleBreaches([{ kind: 'input', name: 'Sign in' }])).toHaveLength(1);
    } finally {
      await browser.close();
    }
  });
});

describe('every issuer page names the merchant and keeps the label rules', requires(BROWSER), () => {
  let sink: SmtpSink;
  let issuer: TestIssuer;
  let browser: TestBrowser;
  let page: Page;
  let clientId: string;

  beforeAll(async () => {
    sink = await startSmtpSink();
    issuer = await startTestIssuer({ config: { smtpUrl: sink.url, allowSignup: true } });
    browser = await launchBrowser();
    page = await browser.context.newPage();
    const registered = await fetch(`${issuer.issuer}/oauth/clients/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: 'Page Tour Agent',
        redirect_uris: [APP_URI],
        post_logout_redirect_uris: [APP_URI],
        token_endpoint_auth_method: 'none',
      }),
    });
    expect(registered.status).toBe(201);
    clientId = ((await registered.json()) as { client_id: string }).client_id;
  });

  afterAll(async () => {
    await browser?.close();
    await issuer?.close();
    await sink?.close();
  });

  const go = async (path: string, status: number): Promise<void> => {
    const response = await page.goto(`${issuer.issuer}${path}`);
    expect({ path, status: response?.status() }).toEqual({ path, status });
  };

  function authorizePath(params: Record<string, string>): string {
    const challenge = createHash('sha256').update(randomBytes(32).toString('base64url')).digest('base64url');
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: APP_URI,
      scope: 'openid email',
      state: 'st',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      ...params,
    });
    return `/oauth/authorize?${query}`;
  }

  async function signIn(password: string): Promise<void> {
    await go('/account', 200);
    await page.getByLabel('Email', { exact: true }).fill(issuer.customer.email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: `Your ${MERCHANT} account` }).waitFor();
  }

  it('the forms a signed-out person sees, and their answers', async () => {
    await go('/account', 200);
    await expectMerchantPage(page, 'sign-in');
    await go('/password/forgot', 200);
    await expectMerchantPage(page, 'forgot password');
    await page.getByLabel('Email', { exact: true }).fill(issuer.customer.email);
    await page.getByRole('button', { name: 'Send link', exact: true }).click();
    await page.getByRole('status').waitFor();
    await expectMerchantPage(page, 'forgot password, sent');
    await go('/signup', 200);
    await expectMerchantPage(page, 'sign-up');
    await page.getByLabel('Your name').fill('Sam Signup');
    await page.getByLabel('Email', { exact: true }).fill('sam.signup@example.com');
    await page.getByRole('button', { name: 'Send link', exact: true }).click();
    await page.getByRole('status').waitFor();
    await expectMerchantPage(page, 'sign-up, sent');
  });

  it('the set-password form, refused and accepted', async () => {
    const mail = await sink.waitForMail(issuer.customer.email);
    await page.goto(linkIn(mail, `${issuer.issuer}/password/set?`));
    await expectMerchantPage(page, 'set password');
    await page.getByLabel('New password', { exact: true }).fill('short');
    // The browser's own minlength check would stop the form; the server's answer is the page under test.
    await page.locator('#new-password').evaluate((input) => input.removeAttribute('minlength'));
    await page.getByRole('button', { name: 'Set password', exact: true }).click();
    await page.getByRole('alert').waitFor();
    await expectMerchantPage(page, 'set password, refused');
    await page.getByLabel('New password', { exact: true }).fill('a whole new passphrase');
    await page.getByRole('button', { name: 'Set password', exact: true }).click();
    await page.getByRole('status').waitFor();
    await expectMerchantPage(page, 'sign-in after a new password');
    await go('/password/set?token=not-a-real-token', 400);
    await expectMerchantPage(page, 'a bad mailed link');
  });

  it('the pages of a signed-in customer: account, consent, sign-out, signed out', async () => {
    await signIn('a whole new passphrase');
    await expectMerchantPage(page, 'account');
    await page.locator('#current-password').fill('not the password');
    await page.getByLabel('New password', { exact: true }).fill('another long passphrase');
    await page.getByRole('button', { name: 'Save change' }).click();
    await page.getByRole('alert').waitFor();
    await expectMerchantPage(page, 'account, refused change');
    await go(authorizePath({}), 200);
    await page.getByRole('button', { name: 'Allow', exact: true }).waitFor();
    await expectMerchantPage(page, 'consent');
    await go('/oauth/logout', 200);
    await expectMerchantPage(page, 'sign-out confirmation');
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.getByRole('heading', { name: 'signed out' }).waitFor();
    await expectMerchantPage(page, 'signed out');
    const back = new URLSearchParams({ client_id: clientId, post_logout_redirect_uri: APP_URI });
    await go(`/oauth/logout?${back}`, 200);
    await page.getByRole('link', { name: 'Return to Page Tour Agent' }).waitFor();
    await expectMerchantPage(page, 'signed out, with a link back to the app');
  });

  it('error and message pages, the unverified client bad requests among them', async () => {
    const cases: [string, string, number][] = [
      ['unknown client', authorizePath({ client_id: 'no-such-client' }), 400],
      ['unregistered redirect', authorizePath({ redirect_uri: 'http://127.0.0.1:9/elsewhere' }), 400],
      ['unverified client, bad response_type', authorizePath({ response_type: 'token' }), 400],
      ['unverified client, no PKCE', authorizePath({ code_challenge: '' }), 400],
      ['unknown interaction', '/interaction/unknown', 400],
      ['unknown path', '/no-such-page', 404],
      ['docs', '/docs', 200],
    ];
    for (const [name, path, status] of cases) {
      await go(path, status);
      await expectMerchantPage(page, name);
    }
  });

  it('the account deletion and its answer', async () => {
    await signIn('a whole new passphrase');
    await page.getByText('Delete your account').click();
    await page.locator('#delete-password').fill('a whole new passphrase');
    await page.getByRole('button', { name: 'Delete account' }).click();
    await page.getByRole('heading', { name: 'deleted' }).waitFor();
    await expectMerchantPage(page, 'account deleted');
  });
});
