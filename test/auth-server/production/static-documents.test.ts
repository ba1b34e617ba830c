/**
 * The fast path for the fixed documents (discovery metadata and JWKS) against the Express
 * route it stands in for: the same store and keys behind two real servers, one with the
 * fast path and one without, asked the same requests. Status, every header as sent (name
 * spelling and order included; only Date differs), body and access-log line must match.
 */
import { createServer, request as httpRequest, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../auth-server/app.js';
import { createClientDocumentResolver } from '../../../auth-server/client-id-document/resolve-client.js';
import { type IssuerConfigInput, resolveConfig } from '../../../auth-server/config.js';
import type { IssuerContext } from '../../../auth-server/context.js';
import type { KeyRing } from '../../../auth-server/key-ring.js';
import { createKeyRing, ensureSigningKeys, rotateSigningKeys } from '../../../auth-server/keys.js';
import { createJsonLogger, silentLogger } from '../../../auth-server/logger.js';
import { createAccountMail } from '../../../auth-server/mail/account-mail.js';
import { withStaticDocuments } from '../../../auth-server/static-documents.js';
import type { Store } from '../../../auth-server/store/store.js';
import { loadViews } from '../../../auth-server/views.js';
import { createSqliteDatabase, type TestDatabase } from '../helpers/databases.js';

interface Listening {
  url: string;
  close(): Promise<void>;
}

async function listen(listener: RequestListener): Promise<Listening> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

interface RawResponse {
  status: number;
  /** Header names and values as sent, in order, Date left out. */
  headers: string[];
  body: string;
}

function send(
  url: string,
  method: string,
  path: string,
  headers: Record<string, string>,
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${url}${path}`, { method, headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => {
        const pairs: string[] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          const name = res.rawHeaders[i] ?? '';
          if (name.toLowerCase() !== 'date') pairs.push(`${name}: ${res.rawHeaders[i + 1] ?? ''}`);
        }
        resolve({ status: res.statusCode ?? 0, headers: pairs, body });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** The value of one response header (the first of that name), or '' when absent. */
function headerOf(response: RawResponse, name: string): string {
  const prefix = `${name.toLowerCase()}: `;
  const line = response.headers.find((h) => h.toLowerCase().startsWith(prefix));
  return line ? line.slice(prefix.length) : '';
}

/** An access-log line without what differs between any two requests (its time and duration). */
function comparableLog(line: string | undefined): unknown {
  const { time: _time, ms: _ms, ...rest } = JSON.parse(line ?? '{}') as Record<string, unknown>;
  return rest;
}

interface Pair {
  fast: Listening & { logs: string[] };
  slow: Listening & { logs: string[] };
  keys: KeyRing;
}

async function startPair(store: Store, input: IssuerConfigInput): Promise<Pair> {
  const config = resolveConfig({ port: 0, db: 'unused.sqlite', ...input });
  const keys = createKeyRing(store, config);
  const mail = await createAccountMail(config, silentLogger);
  const start = async (staticDocuments: boolean) => {
    const logs: string[] = [];
    const logger = createJsonLogger((line) => logs.push(line), 'debug');
    const server = await listen(createApp({ config, store, keys, logger, mail, staticDocuments }));
    return { ...server, logs };
  };
  return { fast: await start(true), slow: await start(false), keys };
}

const DOCUMENTS = [
  '/.well-known/jwks.json',
  '/.well-known/openid-configuration',
  '/.well-known/oauth-authorization-server',
];

describe('the fixed documents sent from their prepared form', () => {
  let database: TestDatabase;
  let store: Store;

  beforeAll(async () => {
    database = await createSqliteDatabase();
    store = database.openStore();
    await store.migrate();
    await ensureSigningKeys(store, Date.now);
  });
  afterAll(async () => {
    await store.close();
    await database.drop();
  });

  const variants: { name: string; config: IssuerConfigInput; headers: Record<string, string> }[] = [
    { name: 'plain http issuer', config: { issuer: 'http://127.0.0.1:4000', rateLimit: 0 }, headers: {} },
    {
      name: 'https issuer (HSTS), from a browser origin',
      config: { issuer: 'https://auth.shop.test', rateLimit: 0, mail: 'outbox' },
      headers: { origin: 'https://spa.shop.test' },
    },
    {
      name: 'behind a trusted proxy',
      config: { issuer: 'https://auth.shop.test', rateLimit: 0, trustProxy: 'loopback', mail: 'outbox' },
      headers: { 'x-forwarded-for': '203.0.113.7' },
    },
  ];

  for (const variant of variants) {
    it(`sends exactly what the Express route sends: ${variant.name}`, async () => {
      const { fast, slow } = await startPair(store, variant.config);
      try {
        for (const path of [...DOCUMENTS, `${DOCUMENTS[0]}?cache=bust`]) {
          for (const method of ['GET', 'HEAD']) {
            const headers = { ...variant.headers, 'x-request-id': `equivalence-${method}` };
            const a = await send(fast.url, method, path, headers);
            const b = await send(slow.url, method, path, headers);
            expect(a, `${method} ${path}`).toEqual(b);
            expect(a.status).toBe(200);
            expect(comparableLog(fast.logs.at(-1))).toEqual(comparableLog(slow.logs.at(-1)));
          }
        }
        expect(fast.logs.length).toBe(slow.logs.length);
      } finally {
        await fast.close();
        await slow.close();
      }
    });
  }

  it('answers conditional requests exactly as the Express route does, 304 only for a match', async () => {
    const { fast, slow } = await startPair(store, { issuer: 'http://127.0.0.1:4000', rateLimit: 0 });
    try {
      for (const path of DOCUMENTS) {
        const etag = headerOf(await send(slow.url, 'GET', path, {}), 'ETag');
        const conditions: [string, number][] = [
          [etag, 304],
          [`W/${etag}`, 304],
          [`"other", ${etag}`, 304],
          ['*', 304],
          ['"other"', 200],
          [etag.slice(1, -1), 200],
          [`${etag}, garbage`, 200],
        ];
        for (const [condition, status] of conditions) {
          for (const method of ['GET', 'HEAD']) {
            const headers = { 'if-none-match': condition, 'x-request-id': 'conditional' };
            const a = await send(fast.url, method, path, headers);
            const b = await send(slow.url, method, path, headers);
            expect(a, `${method} ${path} If-None-Match: ${condition}`).toEqual(b);
            expect({ condition, status: a.status }).toEqual({ condition, status });
            expect(comparableLog(fast.logs.at(-1))).toEqual(comparableLog(slow.logs.at(-1)));
          }
        }
      }
    } finally {
      await fast.close();
      await slow.close();
    }
  });

  it('sends the rotated JWKS as soon as the key ring publishes another key', async () => {
    const input = { issuer: 'http://127.0.0.1:4000', rateLimit: 0 };
    const { fast, slow, keys } = await startPair(store, input);
    try {
      const before = await send(fast.url, 'GET', DOCUMENTS[0] ?? '', {});
      const added = await rotateSigningKeys(store, resolveConfig({ port: 0, db: 'unused.sqlite', ...input }));
      keys.reload();
      const after = await send(fast.url, 'GET', DOCUMENTS[0] ?? '', {});
      expect(added.length).toBeGreaterThan(0);
      for (const kid of added) {
        expect(before.body).not.toContain(kid);
        expect(after.body).toContain(kid);
      }
      const fromExpress = await send(slow.url, 'GET', DOCUMENTS[0] ?? '', {});
      expect(after.body).toBe(fromExpress.body);
      // The tag follows the keys: the old one no longer matches, the new one does.
      const oldTag = headerOf(before, 'ETag');
      const newTag = headerOf(after, 'ETag');
      expect(newTag).not.toBe(oldTag);
      for (const server of [fast, slow]) {
        expect((await send(server.url, 'GET', DOCUMENTS[0] ?? '', { 'if-none-match': oldTag })).status).toBe(
          200,
        );
        expect((await send(server.url, 'GET', DOCUMENTS[0] ?? '', { 'if-none-match': newTag })).status).toBe(
          304,
        );
      }
      expect(after.headers.filter((h) => !h.startsWith('X-Request-Id'))).toEqual(
        fromExpress.headers.filter((h) => !h.startsWith('X-Request-Id')),
      );
    } finally {
      await fast.close();
      await slow.close();
    }
  });
});

describe('which requests take the fast path', () => {
  let database: TestDatabase;
  let store: Store;
  let teapot: Listening;
  let limited: Listening;

  async function contextFor(input: IssuerConfigInput): Promise<IssuerContext> {
    const config = resolveConfig({ port: 0, db: 'unused.sqlite', issuer: 'http://127.0.0.1:4000', ...input });
    return {
      config,
      store,
      keys: createKeyRing(store, config),
      logger: silentLogger,
      views: loadViews(),
      clock: Date.now,
      mail: await createAccountMail(config, silentLogger),
      clientDocuments: createClientDocumentResolver({ store, clock: Date.now, allowLoopback: false }),
    };
  }

  // Everything the fast path hands on reaches this app, which answers 418.
  const fallback = () => express().use((_req, res) => void res.status(418).send('express'));

  beforeAll(async () => {
    database = await createSqliteDatabase();
    store = database.openStore();
    await store.migrate();
    await ensureSigningKeys(store, Date.now);
    teapot = await listen(withStaticDocuments(await contextFor({ rateLimit: 0 }), fallback()));
    limited = await listen(withStaticDocuments(await contextFor({ rateLimit: 60 }), fallback()));
  });
  afterAll(async () => {
    await teapot.close();
    await limited.close();
    await store.close();
    await database.drop();
  });

  it('a plain GET or HEAD of a fixed document is answered without the app', async () => {
    for (const path of DOCUMENTS) {
      expect((await send(teapot.url, 'GET', path, {})).status).toBe(200);
      expect((await send(teapot.url, 'HEAD', `${path}?x=1`, {})).status).toBe(200);
    }
  });

  it('a matching If-None-Match is answered 304 without the app, with no body and the caching headers kept', async () => {
    for (const path of DOCUMENTS) {
      const full = await send(teapot.url, 'GET', path, {});
      const etag = headerOf(full, 'ETag');
      expect(etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
      const revalidated = await send(teapot.url, 'GET', path, { 'if-none-match': etag });
      expect(revalidated.status).toBe(304);
      expect(revalidated.body).toBe('');
      // RFC 9110 §15.4.5: the 304 carries the Cache-Control and ETag a 200 would have.
      for (const name of ['Cache-Control', 'ETag', 'X-Content-Type-Options']) {
        expect({ name, value: headerOf(revalidated, name) }).toEqual({ name, value: headerOf(full, name) });
      }
      expect(headerOf(revalidated, 'Content-Type')).toBe('');
    }
  });

  const handedOn: [string, string, Record<string, string>][] = [
    ['POST', DOCUMENTS[0] ?? '', {}],
    ['OPTIONS', DOCUMENTS[0] ?? '', { origin: 'https://a.test', 'access-control-request-method': 'GET' }],
    ['GET', `${DOCUMENTS[0]}/`, {}],
    ['GET', '/.WELL-KNOWN/JWKS.JSON', {}],
    ['GET', DOCUMENTS[1] ?? '', { 'if-modified-since': 'Tue, 24 Nov 2026 00:00:00 GMT' }],
    ['GET', DOCUMENTS[1] ?? '', { 'content-length': '0' }],
    ['GET', DOCUMENTS[1] ?? '', { 'content-encoding': 'gzip' }],
    ['GET', '/healthz', {}],
  ];
  for (const [method, path, headers] of handedOn) {
    it(`hands ${method} ${path} ${JSON.stringify(headers)} to the app`, async () => {
      expect((await send(teapot.url, method, path, headers)).status).toBe(418);
    });
  }

  it('with a rate limit every request goes to the app, where the limiter counts it', async () => {
    expect((await send(limited.url, 'GET', DOCUMENTS[0] ?? '', {})).status).toBe(418);
  });
});
