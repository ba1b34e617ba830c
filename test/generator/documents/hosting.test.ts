import { describe, expect, it } from 'vitest';
import type { Artifact } from '../../../generator/artifact.js';
import { checkHostingRules, emitHostingRules } from '../../../generator/emit/hosting.js';
import { emitBundle } from '../../../generator/emit/index.js';
import { bundleFilesOf } from '../../../generator/validate/index.js';
import { makeSampleConfig, makeSamplePlan, SAMPLE_CONFIG_INPUT } from '../../helpers/sample-plan.js';

/** An independent reading of the Netlify `_headers` format: path lines at column 0, indented `Name: value`. */
function readHeaders(text: string): Map<string, Map<string, string[]>> {
  const rules = new Map<string, Map<string, string[]>>();
  let current: Map<string, string[]> | undefined;
  for (const line of text.split('\n')) {
    if (line.trim() === '' || line.trim().startsWith('#')) continue;
    if (!/^\s/.test(line)) {
      current = new Map();
      rules.set(line.trim(), current);
      continue;
    }
    const [name, ...rest] = line.trim().split(':');
    const key = (name ?? '').toLowerCase();
    current?.set(key, [...(current.get(key) ?? []), rest.join(':').trim()]);
  }
  return rules;
}

/** An independent reading of `_redirects`: `from to status` per line. */
function readRedirects(text: string): { from: string; to: string; status: string }[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('#'))
    .map((line) => {
      const [from = '', to = '', status = ''] = line.trim().split(/\s+/);
      return { from, to, status };
    });
}

/** The sample bundle; with the live surface off its product pages are files under one folder rule. */
function bundle(live = true) {
  const plan = makeSamplePlan(
    live ? {} : { config: makeSampleConfig({ ...SAMPLE_CONFIG_INPUT, live: { enabled: false } }) },
  );
  const artifacts = emitBundle(plan);
  const body = (path: string) => artifacts.find((a) => a.path === path)?.body ?? '';
  // The live handler's code (`_worker.js`, the Netlify function) is for the hosts, not served.
  const documents = artifacts.filter(
    (a) => !a.path.startsWith('_') && !a.path.startsWith('.netlify-functions/'),
  );
  return {
    plan,
    artifacts,
    documents,
    headers: readHeaders(body('_headers')),
    redirects: readRedirects(body('_redirects')),
  };
}

describe('emitHostingRules', () => {
  it('rewrites every document served at another path than its file with a plain 200, which both hosts accept', () => {
    const { documents, redirects } = bundle();
    // A folder's index.html is served at its slash URL by both hosts without a rule.
    const moved = documents.filter(
      (a) =>
        a.publicPath !== undefined &&
        a.publicPath !== `/${a.path}` &&
        `${a.publicPath}index.html` !== `/${a.path}`,
    );
    expect(moved.length).toBeGreaterThan(0);
    expect(redirects).toHaveLength(moved.length);
    for (const artifact of moved) {
      expect(redirects).toContainEqual({ from: artifact.publicPath, to: `/${artifact.path}`, status: '200' });
    }
    expect(redirects.map((r) => r.from)).not.toContain('/api/');
    expect(redirects.map((r) => r.from)).toContain('/agent-catalog');
    expect(redirects.map((r) => r.from)).toContain('/agent-catalog/health');
  });

  it.each([
    // Headers only: one folder rule for the product Markdown pages when they are files,
    // which routes nothing; none when the live handler answers them from shards.
    { live: false, folders: ['/kb/products/*'] },
    { live: true, folders: [] },
  ])(
    'has no catch-all or pattern route, so an unknown path stays a 404 (live $live)',
    ({ live, folders }) => {
      const { redirects, headers } = bundle(live);
      for (const rule of redirects) expect(rule.from).not.toMatch(/\*|:[a-z]/);
      const patterns = [...headers.keys()].filter((path) => /\*|:[a-z]/.test(path));
      expect(patterns).toEqual(folders);
      expect(redirects.some((r) => r.from === '/.well-known/unknown' || r.from === '/')).toBe(false);
    },
  );

  it('gives every document its media type and open CORS under its public path and its file path', () => {
    const { documents, headers } = bundle();
    for (const artifact of documents) {
      for (const path of new Set([artifact.publicPath ?? `/${artifact.path}`, `/${artifact.path}`])) {
        const rule =
          headers.get(path) ?? (path.startsWith('/kb/products/') ? headers.get('/kb/products/*') : undefined);
        expect(rule?.get('content-type'), path).toEqual([artifact.mediaType]);
        expect(rule?.get('access-control-allow-origin'), path).toEqual(['*']);
        expect(rule?.get('x-content-type-options'), path).toEqual(['nosniff']);
        expect(rule?.get('referrer-policy'), path).toHaveLength(1);
        expect(rule?.get('content-usage'), path).toEqual(['train-ai=n']);
        expect(rule?.get('tdm-reservation'), path).toEqual(['1']);
        expect(rule?.get('ratelimit-policy'), path).toEqual(['"default";q=60;w=60']);
      }
    }
  });

  it('caches the catalog and health for 15 minutes and links the API catalog from the catalog and the root', () => {
    const { headers } = bundle();
    for (const path of ['/agent-catalog', '/agent-catalog.json', '/agent-catalog/health']) {
      expect(headers.get(path)?.get('cache-control')).toEqual(['public, max-age=900']);
    }
    expect(headers.get('/agent-catalog')?.get('link')).toEqual([
      '</.well-known/api-catalog>; rel="api-catalog"',
    ]);
    // The store's root (model (b) here) names the API catalog and the other discovery documents.
    const root = headers.get('/')?.get('link')?.[0] ?? '';
    expect(root).toContain('</.well-known/api-catalog>; rel="api-catalog"');
    expect(root).toContain('</.well-known/ai-catalog.json>; rel="ai-catalog"');
    // Every HTML page carries the same agent-useful relations as the root (issue 31), and its twin.
    for (const page of ['/', '/api/', '/api/index.html']) {
      const links = (headers.get(page)?.get('link') ?? []).join(', ');
      for (const rel of ['api-catalog', 'service-desc', 'service-doc', 'describedby'])
        expect(links, `${page} ${rel}`).toContain(`rel="${rel}"`);
    }
    expect(headers.get('/api/')?.get('link')).toContain(
      '</api/index.md>; rel="alternate"; type="text/markdown"',
    );
    expect(headers.get('/.well-known/api-catalog')?.get('content-type')?.[0]).toMatch(
      /^application\/linkset\+json/,
    );
    expect(headers.get('/agent-catalog')?.get('access-control-expose-headers')?.[0]).toContain('Link');
  });

  it('lets scripts read the rate-limit headers and locks the docs page to no script and no framing', () => {
    const { headers } = bundle();
    const exposed = (headers.get('/agent-catalog')?.get('access-control-expose-headers')?.[0] ?? '').split(
      /,\s*/,
    );
    expect(exposed).toEqual(expect.arrayContaining(['RateLimit', 'Retry-After', 'RateLimit-Policy']));
    const csp = headers.get('/api/')?.get('content-security-policy')?.[0] ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('script-src');
    expect(headers.get('/agent-catalog')?.get('content-security-policy')).toBeUndefined();
  });

  it('derives the rate-limit policy from config.usage', () => {
    const base = makeSamplePlan();
    const plan = {
      ...base,
      config: { ...base.config, usage: { ...base.config.usage, requests_per_minute: 30 } },
    };
    const document: Artifact = {
      path: 'feed.xml',
      mediaType: 'application/rss+xml; charset=utf-8',
      body: '',
    };
    const [headersFile] = emitHostingRules(plan, [document]);
    expect(
      readHeaders(headersFile?.body ?? '')
        .get('/feed.xml')
        ?.get('ratelimit-policy'),
    ).toEqual(['"default";q=30;w=60']);
  });

  it('passes its own checker', () => {
    expect(checkHostingRules(bundleFilesOf(bundle().artifacts))).toEqual([]);
  });
});

describe('checkHostingRules', () => {
  const files = () => new Map(bundleFilesOf(bundle().artifacts));
  const staticPageFiles = () => new Map(bundleFilesOf(bundle(false).artifacts));
  const rules = (bundleFiles: Map<string, string>) => checkHostingRules(bundleFiles).map((p) => p.path);

  it('refuses a catch-all rewrite', () => {
    const bundleFiles = files();
    bundleFiles.set('_redirects', `${bundleFiles.get('_redirects')}/*  /api/index.html  200\n`);
    expect(rules(bundleFiles)).toContain('_redirects');
  });

  it("accepts the product Markdown pages' folder rule and refuses any other pattern in _headers", () => {
    const bundleFiles = files();
    expect(checkHostingRules(bundleFiles)).toEqual([]);
    const headers = bundleFiles.get('_headers') ?? '';
    bundleFiles.set('_headers', `${headers}/kb/*\n  Content-Type: text/markdown; charset=utf-8\n`);
    expect(checkHostingRules(bundleFiles).map((p) => p.message)).toContain(
      'headers for "/kb/*": only exact paths are allowed',
    );
  });

  it('keeps one header rule for the feed shards however many there are, and passes its own checker', () => {
    const { plan, artifacts } = bundle();
    const documents = artifacts.filter((a) => !a.path.startsWith('_') && !a.path.startsWith('.netlify'));
    // 150 shards: what `shard_rows: 1000` makes of a 75,000-variant catalog.
    const shards: Artifact[] = Array.from({ length: 150 }, (_, index) => ({
      path: `feeds/openai/shards/products-${String(index + 1).padStart(4, '0')}.${index % 2 === 0 ? 'jsonl' : 'csv'}.gz`,
      mediaType: 'application/gzip',
      body: '{}\n',
      encoding: 'gzip',
    }));
    const rules = emitHostingRules(plan, [...documents, ...shards]);
    const bundleFiles = new Map(bundleFilesOf([...documents, ...shards, ...rules]));
    const headers = readHeaders(bundleFiles.get('_headers') ?? '');
    expect([...headers.keys()].filter((path) => path.startsWith('/feeds/openai/shards/'))).toEqual([
      '/feeds/openai/shards/*',
    ]);
    expect(headers.get('/feeds/openai/shards/*')?.get('content-type')).toEqual(['application/gzip']);
    expect(headers.size).toBeLessThan(100);
    expect(checkHostingRules(bundleFiles)).toEqual([]);
  });

  it("refuses an exact rule inside a folder's rule, which a host would apply on top of it", () => {
    const bundleFiles = staticPageFiles();
    const page = [...bundleFiles.keys()].find((path) => path.startsWith('kb/products/'));
    bundleFiles.set(
      '_headers',
      `${bundleFiles.get('_headers')}/${page}\n  Content-Type: text/markdown; charset=utf-8\n`,
    );
    expect(checkHostingRules(bundleFiles).map((p) => p.message)).toContain(
      `headers for "/${page}" overlap its folder's rule: a host would send both`,
    );
  });

  it('refuses a product Markdown page the folder rule does not cover', () => {
    const bundleFiles = staticPageFiles();
    const headers = (bundleFiles.get('_headers') ?? '').replace('/kb/products/*', '/kb/products/only-one.md');
    bundleFiles.set('_headers', headers);
    expect(checkHostingRules(bundleFiles).some((p) => p.message.includes('/kb/products/'))).toBe(true);
  });

  it('refuses a rewrite to a file that is not in the bundle', () => {
    const bundleFiles = files();
    bundleFiles.delete('agent-catalog.json');
    expect(rules(bundleFiles)).toContain('_redirects');
  });

  it('refuses a path routed twice', () => {
    const bundleFiles = files();
    const text = `${bundleFiles.get('_redirects')}/agent-catalog  /agent-catalog.json  200\n`;
    bundleFiles.set('_redirects', text);
    expect(checkHostingRules(bundleFiles).map((p) => p.message)).toEqual([
      expect.stringContaining('/agent-catalog is routed twice'),
    ]);
  });

  it('refuses a forced 200! and a 404 rewrite, which Cloudflare Pages rejects line by line', () => {
    const bundleFiles = files();
    const forced = (bundleFiles.get('_redirects') ?? '').replace(/(\/agent-catalog\s+\S+\s+)200$/m, '$1200!');
    bundleFiles.set('_redirects', `${forced}/gone  /agent-catalog.json  404\n`);
    const messages = checkHostingRules(bundleFiles).map((p) => p.message);
    expect(messages.filter((m) => m.includes('Cloudflare Pages accepts only'))).toHaveLength(2);
  });

  it('refuses a proxy to another origin and a rewrite that a file would shadow on Netlify', () => {
    const bundleFiles = files();
    const extra = '/elsewhere  https://shop.example/  200\n/feed.xml  /agent-catalog.json  200\n';
    bundleFiles.set('_redirects', `${bundleFiles.get('_redirects')}${extra}`);
    const messages = checkHostingRules(bundleFiles).map((p) => p.message);
    expect(messages.some((m) => m.includes('cannot proxy to another origin'))).toBe(true);
    expect(messages.some((m) => m.includes('a file is served at /feed.xml'))).toBe(true);
  });

  it('refuses more header rules and longer lines than Cloudflare Pages reads', () => {
    const bundleFiles = files();
    const many = Array.from(
      { length: 101 },
      (_, i) => `/agent-catalog.json\n  X-N${i}: ${'v'.repeat(i === 0 ? 2001 : 1)}`,
    );
    bundleFiles.set('_headers', `${bundleFiles.get('_headers')}\n${many.join('\n')}\n`);
    const messages = checkHostingRules(bundleFiles).map((p) => p.message);
    expect(messages.some((m) => /header rules; Cloudflare Pages allows 100$/.test(m))).toBe(true);
    expect(messages.some((m) => /characters; Cloudflare Pages allows 2000$/.test(m))).toBe(true);
  });

  it('refuses a splat in _headers and a document without a Content-Type', () => {
    const bundleFiles = files();
    const text = (bundleFiles.get('_headers') ?? '').replace(
      /^\/feed\.xml\n {2}Content-Type: [^\n]*\n/m,
      '/feed.xml\n',
    );
    bundleFiles.set('_headers', `${text}\n/assets/*\n  X-A: b\n`);
    expect(checkHostingRules(bundleFiles)).toHaveLength(3);
  });

  it('refuses a malformed _headers file', () => {
    const bundleFiles = files();
    bundleFiles.set('_headers', '  Orphan: header\n');
    expect(checkHostingRules(bundleFiles).map((p) => p.rule)).toContain('hosting');
  });

  it('does not check a live site, which exposes neither file', () => {
    const bundleFiles = files();
    bundleFiles.delete('_headers');
    bundleFiles.delete('_redirects');
    expect(checkHostingRules(bundleFiles)).toEqual([]);
  });
});
