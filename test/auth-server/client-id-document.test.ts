import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isLoopbackAddress, isPublicAddress } from '../../auth-server/client-id-document/address-policy.js';
import {
  ClientDocumentError,
  createGuardedAgent,
  fetchClientDocument,
} from '../../auth-server/client-id-document/fetch-document.js';
import {
  cacheLifetime,
  clientFromDocument,
  createClientDocumentResolver,
  MAX_CACHE_SECONDS,
  parseClientIdUrl,
} from '../../auth-server/client-id-document/resolve-client.js';
import type { ClientRow } from '../../auth-server/store/rows.js';
import { catchError } from '../helpers/catch-error.js';
import { type DocumentServer, startDocumentServer } from './helpers/document-server.js';
import { authorizeInBrowser, FormAgent } from './helpers/form-agent.js';
import { startTestIssuer, type TestIssuer } from './helpers/issuer.js';
import { buildAuthorizationUrl, discover, postForm, type RegisteredClient } from './helpers/oauth-client.js';

const REDIRECT = 'http://127.0.0.1:9/callback';

function documentFor(clientId: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    client_id: clientId,
    client_name: 'Loopback Agent',
    redirect_uris: [REDIRECT],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
    ...extra,
  });
}

describe('the addresses a client metadata document may be fetched from', () => {
  it.each([
    '127.0.0.1',
    '127.1.2.3',
    '10.0.0.1',
    '172.16.5.4',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '[::1]',
    '::',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '::ffff:169.254.169.254',
    'fe80::1',
    'fc00::1',
    'fd12:3456::1',
    'ff02::1',
    '64:ff9b::a00:1',
    '2002:a00:1::1',
    'not-an-address',
  ])('when the address is %s then it is refused', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['8.8.8.8', '93.184.216.34', '2606:4700:4700::1111'])(
    'when the address is %s then it passes',
    (a) => {
      expect(isPublicAddress(a)).toBe(true);
    },
  );

  it('when loopback is allowed (development) then only loopback is added', () => {
    for (const loopback of ['127.0.0.1', '::1', '::ffff:127.0.0.1'])
      expect(isPublicAddress(loopback, { allowLoopback: true })).toBe(true);
    for (const other of ['10.0.0.1', '169.254.169.254', 'fe80::1', '::ffff:10.0.0.1', '0.0.0.0'])
      expect(isPublicAddress(other, { allowLoopback: true })).toBe(false);
    expect(isLoopbackAddress('::ffff:7f00:1')).toBe(true);
  });
});

describe('the client_id URL rules', () => {
  it.each([
    ['http://app.example/client.json', 'https'],
    ['https://app.example', 'path'],
    ['https://app.example/', 'path'],
    ['https://app.example/a#b', 'fragment'],
    ['https://user:pw@app.example/client.json', 'credentials'],
    ['https://app.example/a/../client.json', 'normal form'],
    ['https://APP.example/client.json', 'normal form'],
    ['https://127.0.0.1/client.json', 'public'],
    ['https://10.1.2.3/client.json', 'public'],
    ['https://169.254.169.254/latest/meta-data', 'public'],
    ['https://[::1]/client.json', 'public'],
    ['https://[::ffff:127.0.0.1]/client.json', 'normal form'],
    ['https://[::ffff:7f00:1]/client.json', 'public'],
    ['https://2130706433/client.json', 'normal form'],
  ])('when the client_id is %s then it is refused (%s)', (clientId, reason) => {
    const error = catchError(() => parseClientIdUrl(clientId, false));
    expect(error).toBeInstanceOf(ClientDocumentError);
    expect(String((error as Error).message)).toContain(reason);
  });

  it('when loopback is allowed then http on a loopback IP passes, and http elsewhere still does not', () => {
    expect(parseClientIdUrl('http://127.0.0.1:8000/client.json', true).port).toBe('8000');
    expect(parseClientIdUrl('http://[::1]:8000/client.json', true).hostname).toBe('[::1]');
    expect(catchError(() => parseClientIdUrl('http://app.example/client.json', true))).toBeInstanceOf(
      ClientDocumentError,
    );
    expect(catchError(() => parseClientIdUrl('http://10.0.0.1/client.json', true))).toBeInstanceOf(
      ClientDocumentError,
    );
  });
});

describe('what a fetched document must say', () => {
  const id = 'https://app.example/client.json';
  it('when the document names another client_id then it is refused', () => {
    const doc = JSON.parse(documentFor('https://app.example/other.json'));
    expect(catchError(() => clientFromDocument(id, doc, 0))).toBeInstanceOf(ClientDocumentError);
  });
  it('when the document asks for a shared secret then it is refused', () => {
    for (const method of ['client_secret_basic', 'client_secret_post', 'client_secret_jwt']) {
      const doc = JSON.parse(documentFor(id, { token_endpoint_auth_method: method }));
      expect(catchError(() => clientFromDocument(id, doc, 0))).toBeInstanceOf(ClientDocumentError);
    }
    const withSecret = JSON.parse(documentFor(id, { client_secret: 'x' }));
    expect(catchError(() => clientFromDocument(id, withSecret, 0))).toBeInstanceOf(ClientDocumentError);
  });
  it('when the document lists no redirect_uris then it is refused', () => {
    const doc = JSON.parse(documentFor(id, { redirect_uris: undefined }));
    expect(catchError(() => clientFromDocument(id, doc, 0))).toBeInstanceOf(ClientDocumentError);
  });
  it('when the document leaves the auth method out then the client is public (none)', () => {
    const doc = JSON.parse(documentFor(id, { token_endpoint_auth_method: undefined }));
    const row: ClientRow = clientFromDocument(id, doc, 0);
    expect(row).toMatchObject({ clientId: id, tokenEndpointAuthMethod: 'none', secretHash: null });
  });
  it('when Cache-Control gives a lifetime then it is honoured up to the bound', () => {
    expect(cacheLifetime('public, max-age=60')).toBe(60);
    expect(cacheLifetime('max-age=999999')).toBe(MAX_CACHE_SECONDS);
    expect(cacheLifetime('no-store, max-age=60')).toBe(0);
    expect(cacheLifetime('no-cache')).toBe(0);
    expect(cacheLifetime(null)).toBe(0);
  });
});

describe('fetching a document from a loopback stand-in', () => {
  let server: DocumentServer;
  beforeAll(async () => {
    server = await startDocumentServer();
  });
  afterAll(async () => {
    await server.close();
  });

  function resolverWith(options: { allowLoopback: boolean; timeoutMs?: number }) {
    const saved: ClientRow[] = [];
    const resolver = createClientDocumentResolver({
      store: { saveClient: async (row) => void saved.push(row) },
      clock: Date.now,
      allowLoopback: options.allowLoopback,
      policy: { timeoutMs: options.timeoutMs ?? 2000 },
    });
    return { resolver, saved };
  }

  it('when loopback is not allowed then a connection to it is cut before any request is sent', async () => {
    server.routes.set('/direct.json', { body: documentFor(`${server.origin}/direct.json`) });
    const before = server.requests.length;
    const policy = { allowLoopback: false, maxBytes: 16384, timeoutMs: 2000 };
    // Past the URL rules on purpose: the connector itself must refuse the peer.
    const error = await fetchClientDocument(
      new URL(`${server.origin}/direct.json`),
      createGuardedAgent(policy),
      policy,
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClientDocumentError);
    expect(server.requests.length).toBe(before);
  });

  it('when a name resolves to loopback and loopback is not allowed then nothing is fetched', async () => {
    const port = new URL(server.origin).port;
    const policy = { allowLoopback: false, maxBytes: 16384, timeoutMs: 2000 };
    const before = server.requests.length;
    const error = await fetchClientDocument(
      new URL(`http://localhost:${port}/direct.json`),
      createGuardedAgent(policy),
      policy,
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClientDocumentError);
    expect((error as Error).message).toContain('does not resolve to a public address');
    expect(server.requests.length).toBe(before);
  });

  it('when the document redirects then it is not followed', async () => {
    server.routes.set('/moved.json', { status: 302, headers: { location: `${server.origin}/direct.json` } });
    const { resolver } = resolverWith({ allowLoopback: true });
    const before = server.requests.length;
    await expect(resolver.resolve(`${server.origin}/moved.json`)).rejects.toBeInstanceOf(ClientDocumentError);
    expect(server.requests.slice(before)).toEqual(['/moved.json']);
  });

  it('when the document is larger than the limit then it is refused', async () => {
    const id = `${server.origin}/big.json`;
    server.routes.set('/big.json', { body: documentFor(id, { padding: 'x'.repeat(20_000) }) });
    const { resolver } = resolverWith({ allowLoopback: true });
    await expect(resolver.resolve(id)).rejects.toThrow(/larger than/);
  });

  it('when the document is larger than the limit and sent without a length then it is refused', async () => {
    const id = `${server.origin}/chunked.json`;
    server.routes.set('/chunked.json', {
      body: documentFor(id, { padding: 'x'.repeat(20_000) }),
      delayBodyMs: 1,
    });
    const { resolver } = resolverWith({ allowLoopback: true });
    await expect(resolver.resolve(id)).rejects.toThrow(/larger than/);
  });

  it('when the document is too slow then the fetch gives up', async () => {
    const id = `${server.origin}/slow.json`;
    server.routes.set('/slow.json', { body: documentFor(id), delayBodyMs: 3000 });
    const { resolver } = resolverWith({ allowLoopback: true, timeoutMs: 300 });
    const started = Date.now();
    await expect(resolver.resolve(id)).rejects.toThrow(/in time/);
    expect(Date.now() - started).toBeLessThan(2500);
  });

  it('when the document is not JSON then it is refused', async () => {
    server.routes.set('/page.html', { headers: { 'content-type': 'text/html' }, body: '<p>hi</p>' });
    const { resolver } = resolverWith({ allowLoopback: true });
    await expect(resolver.resolve(`${server.origin}/page.html`)).rejects.toThrow(/application\/json/);
  });

  it('when the document allows caching then the second use does not fetch it again', async () => {
    const id = `${server.origin}/cached.json`;
    server.routes.set('/cached.json', { headers: { 'cache-control': 'max-age=60' }, body: documentFor(id) });
    const { resolver, saved } = resolverWith({ allowLoopback: true });
    await resolver.resolve(id);
    await resolver.resolve(id);
    expect(server.requests.filter((r) => r === '/cached.json')).toHaveLength(1);
    expect(saved).toHaveLength(1);
  });

  it('when the document forbids caching then every use fetches it', async () => {
    const id = `${server.origin}/fresh.json`;
    server.routes.set('/fresh.json', { headers: { 'cache-control': 'no-store' }, body: documentFor(id) });
    const { resolver } = resolverWith({ allowLoopback: true });
    await resolver.resolve(id);
    await resolver.resolve(id);
    expect(server.requests.filter((r) => r === '/fresh.json')).toHaveLength(2);
  });
});

describe('an issuer and a client known by its metadata document', () => {
  let server: DocumentServer;
  let devIssuer: TestIssuer;
  let strictIssuer: TestIssuer;

  beforeAll(async () => {
    server = await startDocumentServer();
    devIssuer = await startTestIssuer({ config: { allowLoopbackClientMetadata: true } });
    strictIssuer = await startTestIssuer();
  });
  afterAll(async () => {
    await devIssuer?.close();
    await strictIssuer?.close();
    await server?.close();
  });

  function registered(clientId: string): RegisteredClient {
    return {
      client: { client_id: clientId, token_endpoint_auth_method: 'none' },
      auth: () => {},
      redirectUri: REDIRECT,
    };
  }

  it('the metadata says client_id_metadata_document_supported', async () => {
    const as = await discover(devIssuer.issuer);
    expect(as.client_id_metadata_document_supported).toBe(true);
  });

  it('when a client names its document URL then sign-in, consent and the token exchange work', async () => {
    const clientId = `${server.origin}/agent.json`;
    server.routes.set('/agent.json', { body: documentFor(clientId) });
    const as = await discover(devIssuer.issuer);
    const { url, verifier } = await buildAuthorizationUrl(as, registered(clientId), 'openid profile email');
    const agent = new FormAgent(new URL(devIssuer.issuer).origin);
    const signin = await agent.follow(await agent.get(url.href));
    const consent = await agent.follow(
      await agent.submit(signin, 'Sign in', {
        Email: devIssuer.customer.email,
        Password: devIssuer.customer.password,
      }),
    );
    const text = consent.html.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ');
    expect(text).toContain('Loopback Agent');
    expect(text).toContain(new URL(server.origin).host);
    expect(text).toContain('This app runs on your own computer');
    const callback = new URL((await agent.submit(consent, 'Allow')).location ?? '');
    const tokens = await postForm(String(as.token_endpoint), {
      grant_type: 'authorization_code',
      code: callback.searchParams.get('code') ?? '',
      redirect_uri: REDIRECT,
      code_verifier: verifier,
      client_id: clientId,
    });
    expect(tokens.status).toBe(200);
    expect(typeof tokens.body.access_token).toBe('string');
  });

  it('when the document names another client_id then the authorization is refused (invalid_client, 400)', async () => {
    const clientId = `${server.origin}/liar.json`;
    server.routes.set('/liar.json', { body: documentFor(`${server.origin}/agent.json`) });
    const as = await discover(devIssuer.issuer);
    const { url } = await buildAuthorizationUrl(as, registered(clientId), 'openid');
    const page = await new FormAgent(new URL(devIssuer.issuer).origin).get(url.href);
    expect(page.status).toBe(400);
    expect(page.html).toContain('invalid_client');
  });

  it.each([
    (origin: string) => `${origin}/agent.json`,
    () => 'https://127.0.0.1/agent.json',
    () => 'https://10.0.0.7/agent.json',
    () => 'https://169.254.169.254/latest/meta-data/agent.json',
    () => 'https://[::1]/agent.json',
    () => 'https://[::ffff:7f00:1]/agent.json',
    (origin: string) => `https://localhost:${new URL(origin).port}/agent.json`,
  ])('without the development flag a private client_id is never fetched (case %#)', async (make) => {
    const clientId = make(server.origin);
    server.routes.set('/agent.json', { body: documentFor(clientId) });
    const before = server.requests.length;
    const as = await discover(strictIssuer.issuer);
    const { url } = await buildAuthorizationUrl(as, registered(clientId), 'openid');
    const page = await new FormAgent(new URL(strictIssuer.issuer).origin).get(url.href);
    expect(page.status).toBe(400);
    expect(page.html).toContain('invalid_client');
    expect(server.requests.length).toBe(before);
  });

  it('when an app returns to an https site then the consent page has no loopback warning', async () => {
    const clientId = `${server.origin}/web-app.json`;
    const redirect = 'https://app.example/callback';
    server.routes.set('/web-app.json', { body: documentFor(clientId, { redirect_uris: [redirect] }) });
    const as = await discover(devIssuer.issuer);
    const client = { ...registered(clientId), redirectUri: redirect };
    const { url } = await buildAuthorizationUrl(as, client, 'openid');
    const agent = new FormAgent(new URL(devIssuer.issuer).origin);
    const signin = await agent.follow(await agent.get(url.href));
    const consent = await agent.follow(
      await agent.submit(signin, 'Sign in', {
        Email: devIssuer.customer.email,
        Password: devIssuer.customer.password,
      }),
    );
    const text = consent.html.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ');
    expect(text).toContain('Loopback Agent');
    expect(text).toContain('app.example');
    expect(text).not.toContain('This app runs on your own computer');
  });

  it('dynamic registration keeps working beside documents', async () => {
    const as = await discover(devIssuer.issuer);
    const response = await fetch(String(as.registration_endpoint), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        redirect_uris: [REDIRECT],
        token_endpoint_auth_method: 'none',
        client_name: 'DCR',
      }),
    });
    expect(response.status).toBe(201);
    const registeredClient = (await response.json()) as { client_id: string };
    const callback = await authorizeInBrowser(
      new FormAgent(new URL(devIssuer.issuer).origin),
      (await buildAuthorizationUrl(as, registered(registeredClient.client_id), 'openid')).url.href,
      devIssuer.customer,
    );
    expect(callback.searchParams.get('code')).toBeTruthy();
  });
});
