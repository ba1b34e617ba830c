/**
 * The UCP business profile and the live surface switch: the profile is valid for the gate
 * (the release's own business_profile schema), names the endpoints where the handler
 * answers, and is refused when broken; with `live.enabled: false` the bundle is plain
 * files again and no document mentions an endpoint that would not answer.
 */
import { describe, expect, it } from 'vitest';
import { emitBundle } from '../../../generator/emit/index.js';
import { validateArtifacts } from '../../../generator/validate/index.js';
import { makeSampleConfig, makeSamplePlan, SAMPLE_CONFIG_INPUT } from '../../helpers/sample-plan.js';
import { editJson, type Json, kinds, sampleArtifacts } from '../validate/tamper.js';

const PROFILE = '.well-known/ucp.json';

function ucpOf(value: Json): Json {
  return value.ucp as Json;
}

describe('the UCP business profile', () => {
  const artifacts = sampleArtifacts();

  it('is published at /.well-known/ucp as JSON and passes the gate', () => {
    const profile = artifacts.find((artifact) => artifact.path === PROFILE);
    expect(profile).toMatchObject({ publicPath: '/.well-known/ucp', mediaType: 'application/json' });
    expect(validateArtifacts(artifacts)).toEqual([]);
    const ucp = ucpOf(JSON.parse(profile?.body ?? '{}') as Json);
    expect(ucp.version).toBe('2026-04-08');
    expect(ucp.payment_handlers).toEqual({});
    expect(Object.keys(ucp.capabilities as Json).sort()).toEqual([
      'dev.ucp.shopping.catalog.lookup',
      'dev.ucp.shopping.catalog.search',
    ]);
    const services = (ucp.services as Record<string, Json[]>)['dev.ucp.shopping'] ?? [];
    expect(services.map((service) => [service.transport, service.endpoint])).toEqual([
      ['rest', 'https://shop.pomona.example/ucp'],
      ['mcp', 'https://shop.pomona.example/mcp'],
    ]);
  });

  it('is cached publicly for at least a minute by the hosting rules', () => {
    const headers = artifacts.find((artifact) => artifact.path === '_headers')?.body ?? '';
    const block = headers.split('\n/').find((rule) => rule.startsWith('.well-known/ucp\n')) ?? '';
    const maxAge = Number(/Cache-Control: public, max-age=(\d+)/.exec(block)?.[1]);
    expect(maxAge).toBeGreaterThanOrEqual(60);
    expect(block).toContain('Content-Type: application/json');
  });

  it.each([
    ['without payment_handlers', (value: Json) => delete ucpOf(value).payment_handlers],
    [
      'with a version that is not a date',
      (value: Json) => Object.assign(ucpOf(value), { version: 'latest' }),
    ],
    [
      'with an endpoint elsewhere',
      (value: Json) => {
        const services = (ucpOf(value).services as Record<string, Json[]>)['dev.ucp.shopping'] ?? [];
        Object.assign(services[1] ?? {}, { endpoint: 'https://shop.pomona.example/other/mcp' });
      },
    ],
    [
      'without the lookup capability',
      (value: Json) => {
        delete (ucpOf(value).capabilities as Json)['dev.ucp.shopping.catalog.lookup'];
      },
    ],
  ])('is refused by the gate %s', (_name, breakIt) => {
    expect(kinds(validateArtifacts(editJson(artifacts, PROFILE, breakIt)))).toContain(
      `${PROFILE} ucp-profile`,
    );
  });

  it('keeps the handler data out of the hosting rules', () => {
    const rules = artifacts.filter(
      (artifact) => artifact.path === '_headers' || artifact.path === '_redirects',
    );
    expect(rules.map((rule) => rule.body).join('\n')).not.toContain('_live');
    expect(artifacts.some((artifact) => artifact.path === '_live/index/root.json')).toBe(true);
  });
});

describe('when the config turns the live surface off', () => {
  const config = makeSampleConfig({ ...SAMPLE_CONFIG_INPUT, live: { enabled: false } });
  const artifacts = emitBundle(makeSamplePlan({ config }));

  it('publishes no handler data and no UCP profile, and still passes the gate', () => {
    expect(
      artifacts.filter((artifact) => artifact.path.startsWith('_live/') || artifact.path === PROFILE),
    ).toEqual([]);
    expect(validateArtifacts(artifacts)).toEqual([]);
  });

  it('mentions no live endpoint in any document', () => {
    for (const artifact of artifacts) {
      expect(artifact.body, artifact.path).not.toMatch(/\/mcp\b|\/ucp\b|\.well-known\/ucp|\/a2a\b/);
    }
  });

  it('publishes no A2A card, which would name an endpoint nobody serves, and no link to one', () => {
    for (const artifact of artifacts) {
      expect(artifact.path).not.toMatch(/^\.well-known\/agent(-card)?\.json$/);
      expect(artifact.body, artifact.path).not.toMatch(/\.well-known\/agent(-card)?\.json/);
    }
  });
});
