/**
 * `check`'s probes judged against documents written from the published rules, not from
 * this generator's output: each rule fails a document the scanner fails (the agent_auth
 * block issue 31 found, an AI catalog entry on the retired `mediaType`, a page whose only
 * Link is its Markdown twin, an A2A card with made-up bindings), and passes the reference
 * shapes (the workos/auth.md README's discovery block, the AI Catalog spec's entry with
 * `type`). The probes themselves run over HTTP against a loopback server serving those
 * documents, in model (a) and in model (b).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { createProbeFetch } from '../../../generator/check/probe-http.js';
import { type ProbeResult, runProbes } from '../../../generator/check/probes.js';
import {
  a2aCardFaults,
  agentAuthFaults,
  aiCatalogFaults,
  linkRelations,
} from '../../../generator/check/scanner-rules.js';

/** The workos/auth.md README's discovery example, trimmed to its agent_auth block. */
const WORKOS_AGENT_AUTH = {
  skill: 'https://service.example.com/auth.md',
  register_uri: 'https://auth.service.example.com/agent/auth',
  claim_uri: 'https://auth.service.example.com/agent/auth/claim',
  identity_types_supported: ['anonymous', 'identity_assertion'],
  anonymous: { credential_types_supported: ['api_key'] },
  identity_assertion: {
    assertion_types_supported: ['urn:ietf:params:oauth:token-type:id-jag', 'verified_email'],
    credential_types_supported: ['access_token', 'api_key'],
  },
};

/** The block this project published before issue 31: register_uri, but no skill and no auth.md method. */
const OLD_AGENT_AUTH = {
  register_uri: 'https://auth.example/oauth/clients/register',
  revocation_uri: 'https://auth.example/oauth/revoke',
  registration_methods_supported: ['dynamic_client_registration'],
  flows_supported: ['authorization_code'],
  identity_types_supported: ['user'],
  pkce_required: true,
};

const metadataWith = (agentAuth: unknown) => ({ issuer: 'https://auth.example', agent_auth: agentAuth });

const ENTRY = {
  identifier: 'urn:air:shop.example:mcp:catalog',
  displayName: 'Catalog (MCP)',
  type: 'application/mcp-server-card+json',
  url: 'https://shop.example/mcp/server-card',
  representativeQueries: ['Find products under $20', 'Which products are in stock?'],
};

const catalogWith = (...entries: unknown[]) => ({
  specVersion: '1.0',
  host: { displayName: 'Shop' },
  entries,
});

describe('the auth-md rule', () => {
  test("passes the reference repository's block, and the anonymous method alone when it has claim_uri", () => {
    expect(agentAuthFaults(metadataWith(WORKOS_AGENT_AUTH))).toEqual([]);
    const { identity_assertion: _, ...anonymous } = WORKOS_AGENT_AUTH;
    expect(agentAuthFaults(metadataWith({ ...anonymous, identity_types_supported: ['anonymous'] }))).toEqual(
      [],
    );
  });

  test('fails the block with register_uri but no skill and no complete method', () => {
    const faults = agentAuthFaults(metadataWith(OLD_AGENT_AUTH));
    expect(faults).toEqual([
      expect.stringContaining('skill'),
      expect.stringContaining('complete registration'),
    ]);
  });

  test('fails anonymous without claim_uri, and metadata without the block', () => {
    const { claim_uri: _, identity_assertion: __, ...noClaim } = WORKOS_AGENT_AUTH;
    expect(agentAuthFaults(metadataWith(noClaim))).toEqual([
      expect.stringContaining('complete registration'),
    ]);
    expect(agentAuthFaults({ issuer: 'https://auth.example' })).toEqual([
      expect.stringContaining('agent_auth'),
    ]);
  });
});

describe('the AI catalog rule', () => {
  test('passes an entry with type and 2 to 5 representative queries', () => {
    expect(aiCatalogFaults(catalogWith(ENTRY))).toEqual([]);
  });

  test('fails the retired mediaType, missing or too many queries, and a server card of another type', () => {
    const { type, ...untyped } = ENTRY;
    expect(aiCatalogFaults(catalogWith({ ...untyped, mediaType: type }))).toEqual([
      expect.stringContaining('ADR 0014'),
    ]);
    expect(aiCatalogFaults(catalogWith({ ...ENTRY, representativeQueries: ['one'] }))).toEqual([
      expect.stringContaining('representativeQueries'),
    ]);
    const six = ['a', 'b', 'c', 'd', 'e', 'f'];
    expect(aiCatalogFaults(catalogWith({ ...ENTRY, representativeQueries: six }))).toHaveLength(1);
    expect(aiCatalogFaults(catalogWith({ ...ENTRY, type: 'application/json' }))).toEqual([
      expect.stringContaining('application/mcp-server-card+json'),
    ]);
    expect(aiCatalogFaults({ specVersion: '1.0', entries: [] })).toEqual([
      expect.stringContaining('entries'),
    ]);
  });
});

describe('the Link header rule', () => {
  test('reads every relation of an RFC 8288 value, commas inside <...> and quotes included', () => {
    const value =
      '</a,b>; rel="alternate"; type="text/markdown", </x>; title="p, q"; rel="api-catalog service-doc", </d>; rel=describedby';
    expect(linkRelations(value)).toEqual(['alternate', 'api-catalog', 'service-doc', 'describedby']);
  });
});

describe('the A2A card rule', () => {
  const card = {
    name: 'Shop',
    description: 'A catalog.',
    version: '1.0.0',
    capabilities: {},
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['application/json'],
    supportedInterfaces: [
      { url: 'https://shop.example/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    ],
    skills: [{ id: 'search', name: 'Search', description: 'Searches the catalog.', tags: ['search'] }],
  };

  test('passes a core binding and a URI binding, fails made-up binding names (A2A 1.0 §5.8)', () => {
    expect(a2aCardFaults(card)).toEqual([]);
    const uri = {
      url: 'https://shop.example/mcp',
      protocolBinding: 'https://modelcontextprotocol.io',
      protocolVersion: '1',
    };
    expect(a2aCardFaults({ ...card, supportedInterfaces: [uri] })).toEqual([]);
    const made = { url: 'https://shop.example/mcp', protocolBinding: 'MCP', protocolVersion: '1.0' };
    expect(a2aCardFaults({ ...card, supportedInterfaces: [made] })).toEqual([
      expect.stringContaining('"MCP"'),
    ]);
  });
});

type Served = { status?: number; type?: string; headers?: Record<string, string>; body: string };

describe('the probes over HTTP', () => {
  const routes = new Map<string, Served>();
  let server: Server;
  let base = '';

  beforeAll(async () => {
    server = createServer((request, response) => {
      const path = (request.url ?? '/').split('?')[0] ?? '/';
      const accept = request.headers.accept ?? '';
      const route = routes.get(accept.includes('text/markdown') ? `md:${path}` : path) ?? routes.get(path);
      if (route === undefined) {
        response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
        return;
      }
      response
        .writeHead(route.status ?? 200, {
          'content-type': route.type ?? 'application/json',
          ...route.headers,
        })
        .end(route.body);
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise<void>((done) => server.close(() => done())));

  beforeEach(() => {
    routes.clear();
    const page = (link: string): Served => ({
      type: 'text/html',
      headers: { link, vary: 'Accept' },
      body: '<p>hi</p>',
    });
    routes.set('/', page('</index.md>; rel="alternate"; type="text/markdown"'));
    routes.set('/api/', page('</.well-known/api-catalog>; rel="api-catalog"'));
    routes.set('md:/api/', { type: 'text/markdown', headers: { vary: 'Accept' }, body: '# API' });
    routes.set('/auth.md', { type: 'text/markdown', body: 'How to register.\n' });
    routes.set('/.well-known/oauth-protected-resource', {
      body: JSON.stringify({
        resource: 'https://shop.example',
        authorization_servers: ['https://auth.example'],
      }),
    });
    routes.set('/.well-known/oauth-authorization-server', {
      body: JSON.stringify(metadataWith(OLD_AGENT_AUTH)),
    });
    const { type, ...untyped } = ENTRY;
    routes.set('/.well-known/ai-catalog.json', {
      body: JSON.stringify(catalogWith({ ...untyped, mediaType: type })),
    });
  });

  const run = async (storeOwnsRoot: boolean): Promise<Map<string, ProbeResult>> => {
    const results = await runProbes(createProbeFetch(base, 5_000), storeOwnsRoot);
    return new Map(results.map((result) => [result.id, result]));
  };

  test('each document that breaks its rule fails its probe', async () => {
    const results = await run(false);
    expect(results.get('linkHeaders')?.status).toBe('fail');
    expect(results.get('markdownNegotiation')?.status).toBe('fail');
    expect(results.get('authMd')?.message).toMatch(/H1/);
    expect(results.get('ard')?.message).toMatch(/ADR 0014/);
  });

  test('the auth.md probe reads the agent_auth block once the guide has its heading, and the issuer against the resource', async () => {
    routes.set('/auth.md', { type: 'text/markdown', body: '# auth.md: Shop\n' });
    expect((await run(false)).get('authMd')).toMatchObject({
      status: 'fail',
      message: expect.stringMatching(/skill/),
    });
    const anonymous = { ...WORKOS_AGENT_AUTH, identity_assertion: undefined };
    routes.set('/.well-known/oauth-authorization-server', { body: JSON.stringify(metadataWith(anonymous)) });
    expect((await run(false)).get('authMd')?.status).toBe('pass');
    routes.set('/.well-known/oauth-authorization-server', {
      body: JSON.stringify({ ...metadataWith(anonymous), issuer: 'https://other.example' }),
    });
    expect((await run(false)).get('authMd')?.message).toMatch(/authorization_servers/);
  });

  test("the WebMCP probe finds the registering script among a store page's own scripts, not another origin's", async () => {
    const storePage = (scripts: string[]): Served => ({
      type: 'text/html',
      body: scripts.map((src) => `<script src="${src}" defer></script>`).join(''),
    });
    const registering = 'document.modelContext.registerTool({name: "search_catalog"});';
    routes.set('/theme.js', { type: 'text/javascript', body: 'console.log(1);' });
    routes.set('/webmcp.js', { type: 'text/javascript', body: registering });
    routes.set('/', storePage(['//cdn.example/shop.js', '/theme.js', '/webmcp.js']));
    expect((await run(false)).get('webMcp')).toMatchObject({ status: 'pass', message: /\/webmcp\.js/ });
    routes.set('/', storePage(['https://cdn.example/webmcp.js', '/theme.js']));
    expect((await run(false)).get('webMcp')?.status).toBe('fail');
  });

  test("in model (b) the homepage probes judge the store's / and report the bundle's /api/ beside it", async () => {
    const results = await run(true);
    for (const id of ['linkHeaders', 'markdownNegotiation', 'webMcp']) {
      expect(results.get(id), id).toMatchObject({ status: 'fail', judges: 'store' });
    }
    expect(results.get('linkHeaders')?.message).toMatch(/\/api\/: pass/);
    expect(results.get('markdownNegotiation')?.message).toMatch(/\/api\/: pass/);
    expect(results.get('robotsTxt')).not.toHaveProperty('judges');
  });
});
