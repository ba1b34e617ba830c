/**
 * A small hand-made bundle for the preview server's own behaviour: real documents from
 * the sample plan's catalog emitter, plus hosting rules written here in Netlify's format.
 * These rules are a test input ("given these rules, the server does this"); the test that
 * preview agrees with the generator's own rules uses the emitted `_headers`/`_redirects`.
 */
import type { Artifact } from '../../../generator/artifact.js';
import { emitCatalog } from '../../../generator/emit/catalog.js';
import { formatHeadersFile, formatRedirectsFile } from '../../../generator/emit/hosting-rules-format.js';
import { makeSampleConfig, makeSamplePlan, SAMPLE_CONFIG_INPUT } from '../../helpers/sample-plan.js';

export const LINKSET_TYPE = 'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"';
export const RATE_POLICY = '"default";q=60;w=60';

type File = Pick<Artifact, 'path' | 'body'>;

/** A bundle whose catalog lives under `prefix` (e.g. '' or '/api'). */
export function makeFixtureBundle(prefix = ''): File[] {
  const config = makeSampleConfig({
    ...SAMPLE_CONFIG_INPUT,
    base_url: `https://shop.pomona.example${prefix}`,
  });
  const documents = emitCatalog(makeSamplePlan({ config }));
  const cors: [string, string] = ['Access-Control-Allow-Origin', '*'];
  const headers = formatHeadersFile([
    {
      path: `${prefix}/agent-catalog`,
      headers: [
        ['Content-Type', 'application/json'],
        cors,
        ['Cache-Control', 'public, max-age=900'],
        ['RateLimit-Policy', RATE_POLICY],
      ],
    },
    { path: `${prefix}/agent-catalog/health`, headers: [['Content-Type', 'application/json'], cors] },
    { path: '/.well-known/api-catalog', headers: [['Content-Type', LINKSET_TYPE], cors] },
    { path: '/llms.txt', headers: [['Content-Type', 'text/plain; charset=utf-8'], cors] },
    { path: '/api/', headers: [['X-Frame-Options', 'DENY']] },
  ]);
  const redirects = formatRedirectsFile([
    { from: `${prefix}/agent-catalog`, to: `${prefix}/agent-catalog.json`, status: 200, force: true },
    {
      from: `${prefix}/agent-catalog/health`,
      to: `${prefix}/agent-catalog/health.json`,
      status: 200,
      force: true,
    },
    { from: '/.well-known/api-catalog', to: '/.well-known/api-catalog.json', status: 200, force: true },
    { from: '/old-catalog', to: `${prefix}/agent-catalog`, status: 301, force: false },
  ]);
  return [
    ...documents,
    { path: '_headers', body: headers },
    { path: '_redirects', body: redirects },
    { path: '.well-known/api-catalog.json', body: '{"linkset":[]}' },
    { path: 'llms.txt', body: '# Pomona\n' },
    { path: 'robots.txt', body: 'User-agent: *\nAllow: /\n' },
    { path: 'feed.xml', body: '<?xml version="1.0"?><rss version="2.0"></rss>' },
    { path: 'sitemap.xml', body: '<?xml version="1.0"?><urlset></urlset>' },
    { path: 'api/index.html', body: '<!doctype html><title>API</title>' },
    { path: 'kb/products.json', body: '[]' },
    { path: '.env', body: 'SECRET=dotfile' },
    { path: '.git/config', body: 'SECRET=git' },
  ];
}
