import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BROWSER,
  BROWSER_SKIP_REASON,
  launchBrowser,
  noBrowser,
  type TestBrowser,
} from '../helpers/browser.js';
import { requires } from '../helpers/requirements.js';
import { startTestIssuer, type TestIssuer } from './helpers/issuer.js';
import {
  buildAuthorizationUrl,
  discover,
  exchangeCode,
  refreshStatus,
  registerClient,
} from './helpers/oauth-client.js';

describe(
  `sign-in and consent in headless Chromium${noBrowser ? ` (${BROWSER_SKIP_REASON})` : ''}`,
  requires(BROWSER),
  () => {
    let issuer: TestIssuer;
    let browser: TestBrowser;
    let callbackServer: Server;
    let callbackBase: string;

    beforeAll(async () => {
      issuer = await startTestIssuer();
      // The client's redirect URI: a loopback listener that just says the app got the code.
      callbackServer = createServer((_req, res) =>
        res.writeHead(200, { 'content-type': 'text/plain' }).end('app received the code'),
      );
      await new Promise<void>((resolve) => callbackServer.listen(0, '127.0.0.1', resolve));
      callbackBase = `http://127.0.0.1:${(callbackServer.address() as AddressInfo).port}`;
      browser = await launchBrowser({ viewport: { width: 390, height: 844 } });
    });

    afterAll(async () => {
      await browser?.close();
      await new Promise((resolve) => callbackServer?.close(resolve));
      await issuer?.close();
    });

    it('a person signs in and allows on a phone-sized screen, and the client gets working tokens', async () => {
      const as = await discover(issuer.issuer);
      const registered = await registerClient(as, 'none', {
        redirect_uris: [`${callbackBase}/callback`],
        client_name: 'Browser Agent',
      });
      registered.redirectUri = `${callbackBase}/callback`;
      const { url, verifier, state, nonce } = await buildAuthorizationUrl(
        as,
        registered,
        'openid email offline_access',
      );

      const page = await browser.context.newPage();
      await page.goto(url.href);
      const fitsWidth = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
      expect(await fitsWidth()).toBe(true);
      await page.getByLabel('Email').fill(issuer.customer.email);
      await page.getByLabel('Password').fill(issuer.customer.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('button', { name: 'Allow' }).waitFor();
      expect(await page.getByRole('button', { name: 'Deny' }).count()).toBe(1);
      expect(await fitsWidth()).toBe(true);
      await page.getByRole('button', { name: 'Allow' }).click();
      await page.waitForURL(`${callbackBase}/callback?**`);

      const tokens = await exchangeCode(as, registered, new URL(page.url()), {
        verifier,
        state,
        nonce,
        openid: true,
      });
      expect(tokens.refresh_token).toBeTruthy();
      expect(browser.blockedRequests).toEqual([]);

      await page.goto(`${issuer.issuer}/account`);
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByRole('heading', { name: 'You are signed out' }).waitFor();
      expect(await refreshStatus(as, registered, tokens.refresh_token ?? '')).toBe(400);
      await page.close();
    });
  },
);
