import { describe, expect, test } from 'vitest';
import { buildAuthorizationServerMetadata, buildOpenIdConfiguration } from '../../../auth-server/metadata.js';
import type { Artifact } from '../../../generator/artifact.js';
import { emitWellKnown } from '../../../generator/emit/well-known.js';
import { makeSampleConfig, makeSamplePlan, SAMPLE_CONFIG_INPUT } from '../../helpers/sample-plan.js';

type Json = Record<string, unknown>;

function find(artifacts: readonly Artifact[], path: string): Artifact {
  const artifact = artifacts.find((candidate) => candidate.path === path);
  if (artifact === undefined) throw new Error(`no artifact ${path}`);
  return artifact;
}

function json(artifact: Artifact): Json {
  return JSON.parse(artifact.body) as Json;
}

describe('the well-known documents', () => {
  const plan = makeSamplePlan();
  const artifacts = emitWellKnown(plan);

  test('publish every extension-less URL as a .json file with its public path and media type', () => {
    const table = artifacts.map(({ path, publicPath, mediaType }) => ({ path, publicPath, mediaType }));
    expect(table).toEqual([
      {
        path: '.well-known/oauth-protected-resource.json',
        publicPath: '/.well-known/oauth-protected-resource',
        mediaType: 'application/json',
      },
      {
        path: '.well-known/oauth-protected-resource/mcp.json',
        publicPath: '/.well-known/oauth-protected-resource/mcp',
        mediaType: 'application/json',
      },
      {
        path: '.well-known/oauth-authorization-server.json',
        publicPath: '/.well-known/oauth-authorization-server',
        mediaType: 'application/json',
      },
      {
        path: '.well-known/openid-configuration.json',
        publicPath: '/.well-known/openid-configuration',
        mediaType: 'application/json',
      },
      {
        path: '.well-known/api-catalog.json',
        publicPath: '/.well-known/api-catalog',
        mediaType: 'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"',
      },
      { path: '.well-known/agent.json', publicPath: undefined, mediaType: 'application/json' },
      { path: '.well-known/agent-card.json', publicPath: undefined, mediaType: 'application/json' },
    ]);
  });

  test('the protected resource metadata names the site exactly and only the header bearer method', () => {
    const metadata = json(find(artifacts, '.well-known/oauth-protected-resource.json'));
    expect(metadata).toEqual({
      resource: 'https://shop.pomona.example',
      authorization_servers: ['https://auth.pomona.example'],
      scopes_supported: ['openid', 'profile', 'email', 'offline_access'],
      bearer_methods_supported: ['header'],
      resource_name: 'Pomona Press Juice Co. catalog',
      resource_documentation: 'https://shop.pomona.example/api/',
      resource_policy_uri: 'https://shop.pomona.example/api/#usage',
      resource_tos_uri: 'https://shop.pomona.example/api/#usage',
    });
  });

  test('when site_url and auth_url are given with odd forms then resource and issuer are kept byte for byte', () => {
    const config = makeSampleConfig({
      ...SAMPLE_CONFIG_INPUT,
      site_url: 'https://www.pomona.example/',
      auth_url: 'https://id.pomona.example/tenant/',
    });
    const documents = emitWellKnown(makeSamplePlan({ config }));
    const metadata = json(find(documents, '.well-known/oauth-protected-resource.json'));
    // RFC 9728 §3.3: the identifier the document is published for, with no slash added.
    expect(metadata.resource).toBe('https://www.pomona.example');
    expect(metadata.authorization_servers).toEqual(['https://id.pomona.example/tenant/']);
    expect(json(find(documents, '.well-known/openid-configuration.json')).issuer).toBe(
      'https://id.pomona.example/tenant/',
    );
  });

  test('the issuer metadata copies are exactly what the issuer module computes', () => {
    const issuer = { issuer: plan.config.auth_url, siteUrl: plan.config.site_url };
    expect(json(find(artifacts, '.well-known/oauth-authorization-server.json'))).toEqual(
      buildAuthorizationServerMetadata(issuer),
    );
    expect(json(find(artifacts, '.well-known/openid-configuration.json'))).toEqual(
      buildOpenIdConfiguration(issuer),
    );
  });

  test('the API catalog is a linkset anchored at the catalog with description, docs, status and terms', () => {
    const linkset = json(find(artifacts, '.well-known/api-catalog.json'));
    expect(Object.keys(linkset)).toEqual(['linkset']);
    expect(linkset.linkset).toEqual([
      {
        anchor: 'https://shop.pomona.example/agent-catalog',
        'service-desc': [
          {
            href: 'https://shop.pomona.example/api/openapi.json',
            type: 'application/vnd.oai.openapi+json;version=3.1',
          },
        ],
        'service-doc': [{ href: 'https://shop.pomona.example/api/', type: 'text/html' }],
        status: [{ href: 'https://shop.pomona.example/agent-catalog/health', type: 'application/json' }],
        'terms-of-service': [{ href: 'https://shop.pomona.example/api/#usage', type: 'text/html' }],
        license: [{ href: 'https://shop.pomona.example/api/#usage', type: 'text/html' }],
      },
      ...['https://shop.pomona.example/mcp', 'https://shop.pomona.example/ucp'].map((anchor) => ({
        anchor,
        'service-desc': [{ href: 'https://shop.pomona.example/.well-known/ucp', type: 'application/json' }],
        'service-doc': [{ href: 'https://shop.pomona.example/api/', type: 'text/html' }],
        'terms-of-service': [{ href: 'https://shop.pomona.example/api/#usage', type: 'text/html' }],
      })),
    ]);
  });

  test('when the live surface is off then the API catalog lists the catalog alone', () => {
    const config = makeSampleConfig({ ...SAMPLE_CONFIG_INPUT, live: { enabled: false } });
    const linkset = json(find(emitWellKnown(makeSamplePlan({ config })), '.well-known/api-catalog.json'));
    expect((linkset.linkset as Json[]).map((context) => context.anchor)).toEqual([
      'https://shop.pomona.example/agent-catalog',
    ]);
  });

  test('when base_url carries a path then the linkset anchor and status carry it', () => {
    const config = makeSampleConfig({ ...SAMPLE_CONFIG_INPUT, base_url: 'https://shop.pomona.example/api' });
    const linkset = json(find(emitWellKnown(makeSamplePlan({ config })), '.well-known/api-catalog.json'));
    expect(linkset.linkset).toEqual([
      expect.objectContaining({
        anchor: 'https://shop.pomona.example/api/agent-catalog',
        status: [{ href: 'https://shop.pomona.example/api/agent-catalog/health', type: 'application/json' }],
      }),
      expect.objectContaining({ anchor: 'https://shop.pomona.example/api/mcp' }),
      expect.objectContaining({ anchor: 'https://shop.pomona.example/api/ucp' }),
    ]);
  });

  test('agent.json and agent-card.json are one A2A 1.0 AgentCard naming the live JSONRPC binding', () => {
    const agent = find(artifacts, '.well-known/agent.json');
    expect(find(artifacts, '.well-known/agent-card.json').body).toBe(agent.body);
    const card = json(agent);
    expect(card.url).toBeUndefined();
    expect(card).toMatchObject({
      name: 'Pomona Press Juice Co. Catalog',
      // A2A 1.0 §5.8: a core binding the live handler serves, not made-up names (issue 31).
      supportedInterfaces: [
        { url: 'https://shop.pomona.example/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      ],
      provider: { organization: 'Pomona Press Juice Co.', url: 'https://shop.pomona.example' },
      version: '1.0.0',
      capabilities: { streaming: false, pushNotifications: false },
      defaultInputModes: ['text/plain', 'application/json'],
      defaultOutputModes: ['application/json'],
    });
    const skills = card.skills as Json[];
    expect(skills.map((skill) => skill.id)).toEqual(['searchCatalog']);
    for (const skill of skills) {
      expect(Object.keys(skill)).toEqual(
        expect.arrayContaining(['id', 'name', 'description', 'tags', 'examples']),
      );
    }
    const schemes = card.securitySchemes as Record<string, Json>;
    expect(Object.keys(schemes)).toEqual(['oauth2', 'openIdConnect']);
    // A2A 1.0's SecurityScheme is a tagged union, not OpenAPI's `type` field.
    expect(Object.keys(schemes.oauth2 ?? {})).toEqual(['oauth2SecurityScheme']);
    expect(Object.keys(schemes.openIdConnect ?? {})).toEqual(['openIdConnectSecurityScheme']);
    expect(card.security).toBeUndefined();
  });
});
