import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { emitHostingRules } from '../../../generator/emit/hosting.js';
import { emitWellKnown } from '../../../generator/emit/well-known.js';
import { makeSampleConfig, makeSamplePlan, SAMPLE_CONFIG_INPUT } from '../../helpers/sample-plan.js';
import { type ServedBundle, serveTempBundle } from '../preview/served-bundle.js';

function metadataAt(prefix: string) {
  const config = makeSampleConfig({
    ...SAMPLE_CONFIG_INPUT,
    base_url: `https://shop.pomona.example${prefix}`,
  });
  const plan = makeSamplePlan({ config });
  return { plan, documents: emitWellKnown(plan) };
}

describe('the MCP endpoint as a protected resource (RFC 9728)', () => {
  test('its resource is exactly the endpoint URL and its scopes are what get_customer_profile needs', () => {
    const { documents } = metadataAt('');
    const file = documents.find((d) => d.path === '.well-known/oauth-protected-resource/mcp.json');
    expect(JSON.parse(file?.body ?? '{}')).toMatchObject({
      resource: 'https://shop.pomona.example/mcp',
      authorization_servers: ['https://auth.pomona.example'],
      scopes_supported: ['openid', 'profile', 'email'],
      bearer_methods_supported: ['header'],
    });
  });

  test('when base_url carries a path then the well-known URL has that path inserted after the host', () => {
    const { documents } = metadataAt('/api');
    const file = documents.find((d) => d.publicPath === '/.well-known/oauth-protected-resource/api/mcp');
    expect(file?.path).toBe('.well-known/oauth-protected-resource/api/mcp.json');
    expect(JSON.parse(file?.body ?? '{}').resource).toBe('https://shop.pomona.example/api/mcp');
  });

  describe('served by preview with the generated hosting rules', () => {
    let served: ServedBundle;
    beforeAll(async () => {
      const { plan, documents } = metadataAt('/api');
      served = await serveTempBundle([...documents, ...emitHostingRules(plan, documents)]);
    });
    afterAll(async () => {
      await served?.close();
    });

    test('the path-inserted URL answers 200 application/json with the endpoint as resource', async () => {
      const response = await fetch(`${served.url}/.well-known/oauth-protected-resource/api/mcp`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(((await response.json()) as { resource: string }).resource).toBe(
        'https://shop.pomona.example/api/mcp',
      );
    });

    test('the site-wide document stays at the bare well-known URL', async () => {
      const response = await fetch(`${served.url}/.well-known/oauth-protected-resource`);
      expect(response.status).toBe(200);
      expect(((await response.json()) as { resource: string }).resource).toBe('https://shop.pomona.example');
    });
  });
});
