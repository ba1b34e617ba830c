/**
 * The proof with parts nobody here wrote: the official MCP SDK client, with its own OAuth
 * support (`OAuthClientProvider`, discovery from the 401, RFC 9728 and RFC 8414 metadata,
 * PKCE, `resource`), against the issuer and the bundle's real live handler served by
 * `npm run preview`'s app, whose `get_customer_profile` is behind the shared verifier.
 * Registration both ways: dynamic
 * registration, and a Client ID Metadata Document served from a loopback stand-in (the
 * issuer runs with its development flag, which allows loopback and http there). Sign-in
 * and consent go through the issuer's HTML forms.
 */

import { type OAuthClientProvider, UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { decodeJwt, generateKeyPair, SignJWT } from 'jose';
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDatabase } from '../auth-server/helpers/databases.js';
import { type DocumentServer, startDocumentServer } from '../auth-server/helpers/document-server.js';
import { authorizeInBrowser, FormAgent } from '../auth-server/helpers/form-agent.js';
import { createMovableClock, startTestIssuer, type TestIssuer } from '../auth-server/helpers/issuer.js';
import { authorize, discover } from '../auth-server/helpers/oauth-client.js';
import {
  BROWSER,
  BROWSER_SKIP_REASON,
  launchBrowser,
  noBrowser,
  type TestBrowser,
} from '../helpers/browser.js';
import { requires } from '../helpers/requirements.js';
import { type PreviewMcp, startPreviewMcp } from './helpers/preview-mcp.js';

const REDIRECT = 'http://127.0.0.1:9/callback';
const CLIENT_METADATA: OAuthClientMetadata = {
  client_name: 'SDK Agent',
  redirect_uris: [REDIRECT],
  grant_types: ['authorization_code', 'refresh_token'],
  response_types: ['code'],
  token_endpoint_auth_method: 'none',
};

/** The SDK's provider interface, with the browser step done by the issuer's own forms. */
class TestProvider implements OAuthClientProvider {
  code: string | undefined;
  authorizationUrl: URL | undefined;
  private information: OAuthClientInformationMixed | undefined;
  private saved: OAuthTokens | undefined;
  private verifier = '';

  constructor(
    private readonly signIn: (url: URL) => Promise<URL>,
    knownClientId?: string,
  ) {
    if (knownClientId) this.information = { client_id: knownClientId };
  }
  get redirectUrl() {
    return REDIRECT;
  }
  get clientMetadata() {
    return CLIENT_METADATA;
  }
  clientInformation() {
    return this.information;
  }
  saveClientInformation(information: OAuthClientInformationMixed) {
    this.information = information;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  async redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
    const callback = await this.signIn(url);
    this.code = callback.searchParams.get('code') ?? undefined;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

describeEachDatabase('the MCP SDK client against the issuer and the preview live handler on %s', (kind) => {
  const clock = createMovableClock();
  let mcp: PreviewMcp;
  let documents: DocumentServer;
  let issuer: TestIssuer;

  beforeAll(async () => {
    mcp = await startPreviewMcp();
    documents = await startDocumentServer();
    issuer = await startTestIssuer({
      kind,
      clock: clock.now,
      config: { resources: [mcp.endpoint], allowLoopbackClientMetadata: true },
    });
    await mcp.serveFor(issuer.issuer, clock.now);
  });
  afterAll(async () => {
    await issuer?.close();
    await documents?.close();
    await mcp?.close();
  });

  const signIn = (url: URL) =>
    authorizeInBrowser(new FormAgent(new URL(issuer.issuer).origin), url.href, issuer.customer);

  async function connectAndAuthorize(provider: TestProvider) {
    const transport = new StreamableHTTPClientTransport(new URL(mcp.endpoint), { authProvider: provider });
    const client = new Client({ name: 'e2e', version: '1.0.0' });
    await client.connect(transport);
    // The catalog tools need nothing; the protected one answers 401, which starts the OAuth flow.
    const tools = await client.listTools();
    expect(tools.tools.map((t) => t.name).sort()).toEqual([
      'get_customer_profile',
      'get_product',
      'lookup_catalog',
      'search_catalog',
    ]);
    const search = await client.callTool({
      name: 'search_catalog',
      arguments: { catalog: { query: 'juice' } },
    });
    expect(search.isError).toBeFalsy();
    await expect(client.callTool({ name: 'get_customer_profile', arguments: {} })).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
    await transport.finishAuth(provider.code ?? '');
    return client;
  }

  function expectProfile(result: Awaited<ReturnType<Client['callTool']>>) {
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({
      name: issuer.customer.name,
      email: issuer.customer.email,
      email_verified: false,
    });
  }

  it('publishes the MCP endpoint as a protected resource at the path-inserted well-known URL', async () => {
    const response = await fetch(`${mcp.origin}/.well-known/oauth-protected-resource/mcp`);
    expect(response.status).toBe(200);
    const metadata = (await response.json()) as { resource: string; authorization_servers: string[] };
    expect(metadata.resource).toBe(mcp.endpoint);
    expect(metadata.authorization_servers).toEqual([issuer.issuer]);
    const challenge = await fetch(mcp.endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'get_customer_profile', arguments: {} },
      }),
    });
    expect(challenge.status).toBe(401);
    expect(challenge.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${mcp.origin}/.well-known/oauth-protected-resource/mcp", scope="openid profile email"`,
    );
  });

  it('with dynamic registration the client discovers, registers, authorizes with PKCE and resource, and calls the tool', async () => {
    const provider = new TestProvider(signIn);
    const client = await connectAndAuthorize(provider);
    const url = provider.authorizationUrl ?? new URL('about:blank');
    expect(url.origin).toBe(new URL(issuer.issuer).origin);
    expect(url.searchParams.get('resource')).toBe(mcp.endpoint);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('scope')).toBe('openid profile email');
    expect(decodeJwt(provider.tokens()?.access_token ?? '').aud).toBe(mcp.endpoint);
    expectProfile(await client.callTool({ name: 'get_customer_profile', arguments: {} }));
    await client.close();
  });

  it('with a Client ID Metadata Document the same flow works without any registration', async () => {
    const clientId = `${documents.origin}/sdk-agent.json`;
    documents.routes.set('/sdk-agent.json', {
      body: JSON.stringify({ ...CLIENT_METADATA, client_id: clientId }),
    });
    const provider = new TestProvider(signIn, clientId);
    const client = await connectAndAuthorize(provider);
    expect(provider.authorizationUrl?.searchParams.get('client_id')).toBe(clientId);
    expect(documents.requests).toContain('/sdk-agent.json');
    expect(decodeJwt(provider.tokens()?.access_token ?? '').client_id).toBe(clientId);
    expectProfile(await client.callTool({ name: 'get_customer_profile', arguments: {} }));
    await client.close();
  });

  async function callProfileWith(token: string) {
    const response = await fetch(mcp.endpoint, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'get_customer_profile', arguments: {} },
      }),
    });
    return { status: response.status, challenge: response.headers.get('www-authenticate') ?? '' };
  }

  async function tokenFor(resource: string | undefined): Promise<string> {
    const provider = new TestProvider(signIn);
    const client = await connectAndAuthorize(provider);
    await client.close();
    if (resource === mcp.endpoint) return provider.tokens()?.access_token ?? '';
    // The same customer and app, asking for the issuer's own audience instead.
    const as = await discover(issuer.issuer);
    const info = provider.clientInformation() ?? { client_id: '' };
    const { tokens } = await authorize(
      as,
      {
        client: { client_id: info.client_id, token_endpoint_auth_method: 'none' },
        auth: oauth.None(),
        redirectUri: REDIRECT,
      },
      {
        credentials: issuer.customer,
        scope: 'openid profile email',
        extraParams: resource ? { resource } : {},
      },
    );
    return tokens.access_token;
  }

  it('a token minted for another resource gets 401 invalid_token', async () => {
    const token = await tokenFor(undefined);
    expect(decodeJwt(token).aud).toBe(issuer.issuer);
    const answer = await callProfileWith(token);
    expect(answer.status).toBe(401);
    expect(answer.challenge).toContain('error="invalid_token"');
    expect(answer.challenge).toContain('resource_metadata=');
  });

  it('a forged token (right claims, wrong key) gets 401', async () => {
    const real = await tokenFor(mcp.endpoint);
    const [header, payload] = real
      .split('.')
      .slice(0, 2)
      .map((part) => JSON.parse(Buffer.from(part, 'base64url').toString()));
    const { privateKey } = await generateKeyPair('ES256');
    expect(
      (await callProfileWith(await new SignJWT(payload).setProtectedHeader(header).sign(privateKey))).status,
    ).toBe(401);
  });

  it('an expired token gets 401', async () => {
    const token = await tokenFor(mcp.endpoint);
    expect((await callProfileWith(token)).status).toBe(200);
    // Access tokens live ten minutes; the preview's handler shares the test's clock.
    clock.advance(11 * 60);
    const answer = await callProfileWith(token);
    expect(answer.status).toBe(401);
    expect(answer.challenge).toContain('error="invalid_token"');
  });

  describe(
    `with sign-in and consent in headless Chromium${noBrowser ? ` (${BROWSER_SKIP_REASON})` : ''}`,
    requires(BROWSER),
    () => {
      let browser: TestBrowser;
      beforeAll(async () => {
        browser = await launchBrowser();
      });
      afterAll(async () => {
        await browser?.close();
      });

      /** The customer signs in and allows on the issuer's pages; the client's callback is answered in the browser. */
      async function signInWithChromium(url: URL): Promise<URL> {
        const page = await browser.context.newPage();
        await page.route(`${REDIRECT}?**`, (route) => route.fulfill({ status: 200, body: 'signed in' }));
        await page.goto(url.href);
        await page.getByLabel('Email').fill(issuer.customer.email);
        await page.getByLabel('Password').fill(issuer.customer.password);
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.getByRole('button', { name: 'Allow' }).waitFor();
        expect(await page.getByText(CLIENT_METADATA.client_name ?? '').count()).toBeGreaterThan(0);
        await page.getByRole('button', { name: 'Allow' }).click();
        await page.waitForURL(`${REDIRECT}?**`);
        const callback = new URL(page.url());
        await page.close();
        return callback;
      }

      it('the SDK client registers, the customer consents in the browser, and the tool answers', async () => {
        const provider = new TestProvider(signInWithChromium);
        const client = await connectAndAuthorize(provider);
        expect(decodeJwt(provider.tokens()?.access_token ?? '').aud).toBe(mcp.endpoint);
        expectProfile(await client.callTool({ name: 'get_customer_profile', arguments: {} }));
        await client.close();
        expect(browser.blockedRequests).toEqual([]);
      });
    },
  );
});
