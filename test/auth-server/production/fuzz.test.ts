/**
 * Throws malformed requests at every endpoint of a real issuer process: broken
 * percent-encoding, invalid UTF-8, JSON where a form belongs and the reverse, deeply nested
 * JSON, huge and oversized values, repeated parameters, NUL bytes, prototype-polluting
 * names, wrong or lying content types and encodings, garbage credentials, seeded random
 * bytes and malformed HTTP. Nothing may answer 5xx, the process must still be healthy
 * afterwards, and the secret-looking values in the requests must not appear in its log.
 * Deterministic: a fixed seed and a fixed number of requests.
 */

import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, POSTGRES_SKIP_REASON, POSTGRES_URL } from '../helpers/databases.js';
import { FormAgent } from '../helpers/form-agent.js';
import { REDIRECT_URI, register } from './helpers/http.js';
import { CUSTOMER, type ProductionIssuer, startProductionIssuer } from './helpers/issuer.js';
import {
  compileIssuer,
  createFreshPostgres,
  type FreshPostgres,
  type IssuerProcess,
  spawnIssuer,
} from './helpers/processes.js';

const SEED = 20_261_121;
const MARKER = 'FuzzSecretMarker9f3b';
const RANDOM_REQUESTS = 300;
const CONCURRENCY = 8;

const ENDPOINTS: readonly (readonly [string, string])[] = [
  ['GET', '/oauth/authorize'],
  ['POST', '/oauth/authorize'],
  ['POST', '/oauth/token'],
  ['POST', '/oauth/revoke'],
  ['GET', '/oauth/userinfo'],
  ['POST', '/oauth/userinfo'],
  ['POST', '/oauth/clients/register'],
  ['GET', '/interaction/abc'],
  ['POST', '/signin'],
  ['POST', '/consent'],
  ['GET', '/account'],
  ['POST', '/account/revoke'],
  ['POST', '/account/signout'],
  ['GET', '/password/forgot'],
  ['POST', '/password/forgot'],
  ['GET', '/password/set'],
  ['POST', '/password/set'],
  ['GET', '/signup'],
  ['POST', '/signup'],
  ['POST', '/account/password'],
  ['POST', '/account/delete'],
  ['GET', '/oauth/logout'],
  ['POST', '/oauth/logout'],
  ['GET', '/.well-known/openid-configuration'],
  ['GET', '/.well-known/oauth-authorization-server'],
  ['GET', '/.well-known/jwks.json'],
  ['GET', '/healthz'],
  ['GET', '/docs'],
  ['PUT', '/oauth/token'],
  ['DELETE', '/account'],
  ['OPTIONS', '/oauth/token'],
  ['POST', '/no/such/endpoint'],
];

interface FuzzCase {
  name: string;
  body?: Buffer;
  query?: string;
  headers?: Record<string, string>;
}

function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const JSON_TYPE = { 'content-type': 'application/json' };
const b64 = (s: string) => Buffer.from(s, 'latin1').toString('base64');
const text = (s: string) => Buffer.from(s, 'utf8');

function fixedCases(clientId: string): FuzzCase[] {
  const secretForm = `client_id=${clientId}&client_secret=${MARKER}&password=${MARKER}&refresh_token=${MARKER}&code=${MARKER}`;
  return [
    {
      name: 'bad percent-encoding',
      body: text(`client_id=%ZZ&grant_type=%&code=%E0%A4%A&${secretForm}`),
      headers: FORM,
    },
    {
      name: 'invalid UTF-8',
      body: Buffer.concat([
        text('client_id='),
        Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xed, 0xa0, 0x80]),
        text(`&${secretForm}`),
      ]),
      headers: FORM,
    },
    {
      name: 'JSON where a form belongs',
      body: text(JSON.stringify({ grant_type: 'refresh_token', refresh_token: MARKER })),
      headers: JSON_TYPE,
    },
    {
      name: 'form where JSON belongs',
      body: text(`redirect_uris=https://a.example/cb&${secretForm}`),
      headers: FORM,
    },
    {
      name: 'deeply nested arrays',
      body: text(`${'['.repeat(7000)}${']'.repeat(7000)}`),
      headers: JSON_TYPE,
    },
    {
      name: 'deeply nested objects',
      body: text(`${'{"a":'.repeat(2500)}1${'}'.repeat(2500)}`),
      headers: JSON_TYPE,
    },
    {
      name: 'huge value under the limit',
      body: text(`grant_type=authorization_code&code=${'A'.repeat(15_000)}`),
      headers: FORM,
    },
    {
      name: 'value over the limit',
      body: text(`code=${'B'.repeat(40_000)}&password=${MARKER}`),
      headers: FORM,
    },
    {
      name: 'many parameters',
      body: text(Array.from({ length: 2000 }, (_, i) => `p${i}=1`).join('&')),
      headers: FORM,
    },
    {
      name: 'repeated parameters',
      body: text(
        `grant_type=authorization_code&grant_type=refresh_token&client_id=${clientId}&client_id=x&email=a&email=b&csrf=1&csrf=2`,
      ),
      headers: FORM,
    },
    {
      name: 'NUL bytes',
      body: text(`client_id=\u0000\u0000&email=a%00b&password=${MARKER}%00&interaction=%00`),
      headers: FORM,
    },
    {
      name: 'prototype names',
      body: text('__proto__[x]=1&constructor[prototype][x]=1&client_id[]=a&client_id[b]=c&hasOwnProperty=1'),
      headers: FORM,
    },
    {
      name: 'prototype JSON',
      body: text(
        '{"__proto__":{"polluted":1},"constructor":{"prototype":{"x":1}},"redirect_uris":{"length":1}}',
      ),
      headers: JSON_TYPE,
    },
    {
      name: 'hostile registration values',
      body: text(
        JSON.stringify({
          redirect_uris: [
            null,
            1,
            {},
            'javascript:alert(1)',
            'http://[::1',
            'x'.repeat(5000),
            'https://a.example/\u0000',
          ],
          client_name: '\u0000\ud800',
          grant_types: 'authorization_code',
          token_endpoint_auth_method: ['none'],
          scope: 7,
          jwks: { keys: [{ kty: 'oct', k: MARKER }] },
          client_secret: MARKER,
        }),
      ),
      headers: JSON_TYPE,
    },
    { name: 'JSON scalar', body: text('"just a string"'), headers: JSON_TYPE },
    { name: 'truncated JSON', body: text('{"redirect_uris": ["https://a.example/cb"'), headers: JSON_TYPE },
    { name: 'text/plain', body: text(secretForm), headers: { 'content-type': 'text/plain' } },
    {
      name: 'multipart garbage',
      body: text(`--x\r\nContent-Disposition: form-data; name="password"\r\n\r\n${MARKER}\r\n`),
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
    },
    {
      name: 'utf-16 charset',
      body: text(secretForm),
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-16' },
    },
    {
      name: 'unknown charset',
      body: text('{}'),
      headers: { 'content-type': 'application/json; charset=koi8-zz' },
    },
    {
      name: 'broken content type',
      body: text(secretForm),
      headers: { 'content-type': 'application/x-www-form-urlencoded;;;=;' },
    },
    { name: 'no content type', body: text(secretForm) },
    { name: 'gzip garbage', body: text('not gzip at all'), headers: { ...FORM, 'content-encoding': 'gzip' } },
    {
      name: 'gzip bomb-ish',
      body: gzipSync(Buffer.alloc(200_000, 0x61)),
      headers: { ...FORM, 'content-encoding': 'gzip' },
    },
    {
      name: 'unknown encoding',
      body: text(secretForm),
      headers: { ...FORM, 'content-encoding': 'x-unknown' },
    },
    {
      name: 'stacked encodings',
      body: text(secretForm),
      headers: { ...FORM, 'content-encoding': 'identity, br' },
    },
    { name: 'bad query', query: '?client_id=%ZZ&redirect_uri=%&scope=%E0%A4%A&state=%00' },
    {
      name: 'repeated query',
      query: `?client_id=${clientId}&client_id=x&response_type=code&response_type=token&redirect_uri=http://127.0.0.1:9/callback`,
    },
    {
      name: 'loopback redirect port out of range',
      query: `?client_id=${clientId}&redirect_uri=${encodeURIComponent('http://127.0.0.1:99999/callback')}&response_type=code`,
    },
    { name: 'huge query', query: `?scope=${'openid%20'.repeat(900)}&state=${MARKER}` },
    { name: 'query token', query: `?access_token=${MARKER}&id_token_hint=${MARKER}` },
    {
      name: 'basic without colon',
      headers: { ...FORM, authorization: `Basic ${b64(MARKER)}` },
      body: text('grant_type=refresh_token'),
    },
    {
      name: 'basic bad percent',
      headers: { ...FORM, authorization: `Basic ${b64(`%ZZ:${MARKER}`)}` },
      body: text('grant_type=refresh_token'),
    },
    { name: 'basic empty', headers: { ...FORM, authorization: `Basic ${b64(':')}` }, body: text('token=x') },
    { name: 'basic not base64', headers: { ...FORM, authorization: 'Basic !!!***' }, body: text('token=x') },
    {
      name: 'basic for a real client',
      headers: { ...FORM, authorization: `Basic ${b64(`${clientId}:${MARKER}`)}` },
      body: text(`token=${MARKER}`),
    },
    { name: 'bearer garbage', headers: { authorization: `Bearer ${MARKER}.${MARKER}.${MARKER}` } },
    {
      name: 'bearer jwt-shaped',
      headers: { authorization: `Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.${MARKER}` },
    },
    { name: 'two schemes', headers: { authorization: `Bearer a, Basic ${b64('a:b')}` } },
    {
      name: 'hostile cookies',
      headers: {
        cookie: `agent_auth_session=${'A'.repeat(43)}; agent_auth_csrf=%ZZ; __Host-agent_auth_session=${MARKER}`,
      },
    },
    { name: 'hostile request id', headers: { 'x-request-id': `${MARKER}"}\\u0000${'r'.repeat(400)}` } },
    {
      name: 'forwarded headers',
      headers: {
        'x-forwarded-for': '1.2.3.4, garbage, ::1',
        'x-forwarded-proto': 'gopher',
        'x-forwarded-host': 'evil.example',
      },
    },
  ];
}

// Every parameter any endpoint reads, and every field registration reads.
const PARAMETERS = [
  'client_id',
  'client_secret',
  'redirect_uri',
  'response_type',
  'scope',
  'state',
  'nonce',
  'code_challenge',
  'code_challenge_method',
  'prompt',
  'max_age',
  'response_mode',
  'request',
  'request_uri',
  'grant_type',
  'code',
  'code_verifier',
  'refresh_token',
  'token',
  'token_type_hint',
  'email',
  'password',
  'interaction',
  'decision',
  'csrf',
  'id_token_hint',
  'post_logout_redirect_uri',
  'access_token',
  'new_password',
  'current_password',
  'name',
] as const;
const METADATA_FIELDS = [
  'client_name',
  'token_endpoint_auth_method',
  'scope',
  'software_id',
  'software_version',
  'logo_uri',
  'client_uri',
  'policy_uri',
  'tos_uri',
  'application_type',
  'id_token_signed_response_alg',
] as const;
const METADATA_LISTS = [
  'redirect_uris',
  'post_logout_redirect_uris',
  'grant_types',
  'response_types',
  'contacts',
] as const;
// NUL, other C0 controls, DEL, a C1 control, a bidi override and a zero-width space.
const CONTROL_BYTES = [
  '\u0000',
  '\u0001',
  '\u0008',
  '\t',
  '\n',
  '\r',
  '\u001b',
  '\u007f',
  '\u0085',
  '\u202e',
  '\u200b',
];

/**
 * A control character in every parameter at once (query, form and JSON), and once more with
 * a real client and its redirect URI so the other parameters get past the client lookup.
 */
function controlByteCases(clientId: string): FuzzCase[] {
  return CONTROL_BYTES.flatMap((c) => {
    const code = c.codePointAt(0)?.toString(16).padStart(4, '0') ?? '';
    const value = `a${c}b`;
    const everything = new URLSearchParams(PARAMETERS.map((name) => [name, value]));
    const withClient = new URLSearchParams(PARAMETERS.map((name) => [name, value]));
    withClient.set('client_id', clientId);
    withClient.set('redirect_uri', REDIRECT_URI);
    const metadata: Record<string, unknown> = { redirect_uris: [REDIRECT_URI] };
    for (const field of METADATA_FIELDS) metadata[field] = value;
    for (const field of METADATA_LISTS)
      metadata[field] = field === 'redirect_uris' ? [REDIRECT_URI, `https://a.example/${c}`] : [value];
    return [
      { name: `U+${code} in every query parameter`, query: `?${everything}` },
      { name: `U+${code} in every query parameter but a real client`, query: `?${withClient}` },
      { name: `U+${code} in every form field`, body: text(everything.toString()), headers: FORM },
      {
        name: `U+${code} in every form field but a real client`,
        body: text(withClient.toString()),
        headers: FORM,
      },
      { name: `U+${code} in every metadata field`, body: text(JSON.stringify(metadata)), headers: JSON_TYPE },
    ];
  });
}

/** The one path parameter (the interaction id): broken percent-encoding, and each control character. */
function malformedPaths(): [string, string, FuzzCase][] {
  const broken: [string, string, FuzzCase][] = ['%ZZ', '%C0%AF', '%', '%E0%A4%A'].map((id) => [
    'GET',
    `/interaction/${id}`,
    { name: 'broken percent-encoding in the interaction id' },
  ]);
  return broken.concat(
    CONTROL_BYTES.map((c) => [
      'GET',
      `/interaction/${encodeURIComponent(`a${c}b`)}`,
      { name: `U+${c.codePointAt(0)?.toString(16).padStart(4, '0')} in the interaction id` },
    ]),
  );
}

function randomCase(rand: () => number, index: number): FuzzCase {
  const length = Math.floor(rand() * 3000);
  const bytes = Buffer.alloc(length);
  for (let i = 0; i < length; i++) bytes[i] = Math.floor(rand() * 256);
  const types = [FORM, JSON_TYPE, { 'content-type': 'application/octet-stream' }, {}];
  const headers = types[Math.floor(rand() * types.length)] ?? {};
  return { name: `random #${index}`, body: bytes, headers };
}

interface Outcome {
  label: string;
  status: number;
}

function send(base: string, method: string, path: string, fuzz: FuzzCase): Promise<Outcome> {
  const url = new URL(`${path}${fuzz.query ?? ''}`, base);
  const label = `${method} ${path} [${fuzz.name}]`;
  return new Promise((resolveSend) => {
    const req = request(
      url,
      {
        method,
        headers: { ...fuzz.headers, ...(fuzz.body ? { 'content-length': String(fuzz.body.length) } : {}) },
        agent: false,
      },
      (res) => {
        res.resume();
        res.once('end', () => resolveSend({ label, status: res.statusCode ?? 0 }));
      },
    );
    req.setTimeout(15_000, () => req.destroy(new Error('timeout')));
    // A server that refuses early (413) may close before the body is sent; that is an answer too.
    req.once('error', (error) => resolveSend({ label: `${label} (${error.message})`, status: -1 }));
    req.end(fuzz.body);
  });
}

async function runAll(
  base: string,
  jobs: readonly (readonly [string, string, FuzzCase])[],
): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const job = jobs[next++];
      if (job) outcomes.push(await send(base, job[0], job[1], job[2]));
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return outcomes;
}

function rawExchange(base: string, payload: string): Promise<string> {
  const { hostname, port } = new URL(base);
  return new Promise((resolveRaw) => {
    const socket = connect(Number(port), hostname);
    let answer = '';
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString('latin1');
    });
    socket.once('close', () => resolveRaw(answer));
    socket.once('error', () => resolveRaw(answer));
    socket.setTimeout(5000, () => socket.destroy());
    socket.end(payload);
  });
}

describeEachDatabase('malformed input at every endpoint on %s', (kind) => {
  const skip = kind === 'postgres' && !POSTGRES_URL;
  const title = (name: string) => `${name}${skip ? ` (${POSTGRES_SKIP_REASON})` : ''}`;
  let dir: string;
  let postgres: FreshPostgres | undefined;
  let issuer: IssuerProcess;
  let outcomes: Outcome[] = [];

  beforeAll(async () => {
    if (skip) return;
    await compileIssuer();
    dir = await mkdtemp(join(tmpdir(), 'agent-auth-fuzz-'));
    if (kind === 'postgres' && POSTGRES_URL) postgres = await createFreshPostgres(POSTGRES_URL);
    issuer = await spawnIssuer([
      '--db',
      postgres?.url ?? join(dir, 'fuzz.sqlite'),
      '--rate-limit',
      '0',
      '--allow-signup',
    ]);
    const { clientId } = await register(issuer.url, 'client_secret_basic');
    const rand = mulberry32(SEED);
    const jobs: [string, string, FuzzCase][] = [];
    for (const fuzz of [...fixedCases(clientId), ...controlByteCases(clientId)])
      for (const [method, path] of ENDPOINTS) jobs.push([method, path, fuzz]);
    jobs.push(...malformedPaths());
    for (let i = 0; i < RANDOM_REQUESTS; i++) {
      const endpoint = ENDPOINTS[Math.floor(rand() * ENDPOINTS.length)] ?? ENDPOINTS[0];
      if (endpoint) jobs.push([endpoint[0], endpoint[1], randomCase(rand, i)]);
    }
    outcomes = await runAll(issuer.url, jobs);
  }, 180_000);

  afterAll(async () => {
    if (skip) return;
    await issuer?.stop();
    await postgres?.drop();
    await rm(dir, { recursive: true, force: true });
  });

  it.skipIf(skip)(title('no request gets a 5xx'), () => {
    expect(outcomes.length).toBeGreaterThan(1000);
    const failures = outcomes.filter((o) => o.status >= 500 || o.status === 0);
    expect(failures.map((f) => `${f.status} ${f.label}`)).toEqual([]);
  });

  it.skipIf(skip)(
    title('malformed HTTP is refused by the parser and does not hurt the process'),
    async () => {
      for (const payload of [
        'GARBAGE\r\n\r\n',
        'GET / HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n',
        'POST /oauth/token HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
      ]) {
        expect(await rawExchange(issuer.url, payload)).toMatch(/^HTTP\/1\.1 4\d\d/);
      }
    },
  );

  it.skipIf(skip)(title('the process is still up and healthy afterwards'), async () => {
    expect(issuer.child.exitCode).toBeNull();
    const health = await fetch(`${issuer.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
  });

  it.skipIf(skip)(
    title('no secret-looking value from the requests reached the log, and every log line is JSON'),
    () => {
      const logLines = issuer.lines.filter((l) => !l.startsWith('listening on '));
      expect(logLines.length).toBeGreaterThan(1000);
      expect(logLines.join('\n')).not.toContain(MARKER);
      for (const line of logLines) expect(() => JSON.parse(line)).not.toThrow();
      expect(logLines.some((l) => l.includes('"unexpected error"'))).toBe(false);
    },
  );
});

// The forms issue 13 added, each with the fields it reads. The process fuzz above stops at
// their CSRF check; here every request carries a valid CSRF token and a signed-in session,
// so the control bytes reach the fields themselves.
const ACCOUNT_FORMS: readonly (readonly [string, readonly string[]])[] = [
  ['/password/forgot', ['email']],
  ['/password/set', ['token', 'new_password']],
  ['/signup', ['name', 'email']],
  ['/account/password', ['current_password', 'new_password']],
  ['/account/delete', ['password']],
];

describeEachDatabase('control bytes in the account forms past their CSRF check on %s', (kind) => {
  const skip = kind === 'postgres' && !POSTGRES_URL;
  const title = (name: string) => `${name}${skip ? ` (${POSTGRES_SKIP_REASON})` : ''}`;
  let issuer: ProductionIssuer;
  let agent: FormAgent;
  let csrf: string;

  beforeAll(async () => {
    if (skip) return;
    issuer = await startProductionIssuer({ kind, config: { rateLimit: 0, allowSignup: true } });
    agent = new FormAgent(issuer.url);
    const account = await agent.submit(await agent.get('/account'), 'Sign in', {
      Email: CUSTOMER.email,
      Password: CUSTOMER.password,
    });
    csrf = /name="csrf" value="([^"]+)"/.exec((await agent.follow(account)).html)?.[1] ?? '';
  });
  afterAll(async () => {
    if (!skip) await issuer.close();
  });

  const post = (path: string, fields: Record<string, string>) =>
    agent.request(path, {
      method: 'POST',
      headers: FORM,
      body: new URLSearchParams({ csrf, ...fields }).toString(),
    });

  it.skipIf(skip)(title('no field of theirs turns a control byte into a 5xx; NUL is a 400'), async () => {
    expect(csrf).not.toBe('');
    const outcomes: string[] = [];
    for (const c of CONTROL_BYTES) {
      for (const [path, fields] of ACCOUNT_FORMS) {
        const page = await post(path, Object.fromEntries(fields.map((f) => [f, `a${c}b`])));
        const expected = c === '\u0000' ? page.status === 400 : page.status < 500;
        if (!expected) outcomes.push(`${page.status} ${path} U+${c.codePointAt(0)?.toString(16)}`);
      }
    }
    expect(outcomes).toEqual([]);
    expect(issuer.logs.filter((line) => line.includes('"unexpected error"'))).toEqual([]);
    expect((await agent.get('/account')).html).toContain(`${CUSTOMER.name}`);
  });

  it.skipIf(skip)(
    title(
      'sign-up refuses a control, bidi or zero-width character in the name, and an address that is not one',
    ),
    async () => {
      for (const [index, c] of CONTROL_BYTES.entries()) {
        const email = `sign.up.${index}@example.com`;
        const named = await post('/signup', { name: `Sam${c}Signup`, email });
        expect({ c, status: named.status }).toEqual({ c, status: 400 });
        expect(await issuer.store.findCustomerByEmail(email)).toBeUndefined();
        const addressed = await post('/signup', { name: 'Sam Signup', email: `sign${c}up@example.com` });
        expect({ c, status: addressed.status }).toEqual({ c, status: 400 });
      }
      expect((await post('/signup', { name: 'Sam Signup', email: 'not-an-address' })).status).toBe(400);
      expect(await issuer.store.findCustomerByEmail('not-an-address')).toBeUndefined();
      expect((await post('/signup', { name: 'Sam Signup', email: 'sam.signup@example.com' })).status).toBe(
        200,
      );
    },
  );
});
