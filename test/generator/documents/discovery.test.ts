/**
 * The agent-discovery documents as a whole bundle emits them, read back independently
 * (gray-matter for front matter, node:crypto for digests, the vendored schema through the
 * gate), and the gate refusing each one broken.
 */
import { createHash } from 'node:crypto';
import matter from 'gray-matter';
import { describe, expect, test } from 'vitest';
import { buildAuthorizationServerMetadata } from '../../../auth-server/metadata.js';
import type { Artifact } from '../../../generator/artifact.js';
import { emitBundle } from '../../../generator/emit/index.js';
import { readProductPages } from '../../../generator/emit/product-page-shards.js';
import { bundleFilesOf, validateBundle } from '../../../generator/validate/index.js';
import { makeSampleConfig, makeSamplePlan, SAMPLE_CONFIG_INPUT } from '../../helpers/sample-plan.js';

type Json = Record<string, unknown>;

const plan = makeSamplePlan();
const artifacts = emitBundle(plan);
const files = bundleFilesOf(artifacts);

function body(path: string): string {
  const found = artifacts.find((artifact: Artifact) => artifact.path === path);
  if (found === undefined) throw new Error(`no artifact ${path}`);
  return found.body;
}

function json(path: string): Json {
  return JSON.parse(body(path)) as Json;
}

function problemsAfter(path: string, change: (text: string) => string, bundle = files) {
  const broken = new Map(bundle);
  broken.set(path, change(broken.get(path) ?? ''));
  return validateBundle(broken).filter((problem) => problem.path === path || problem.rule !== 'consistency');
}

describe('the agent skills index', () => {
  const index = json('.well-known/agent-skills/index.json');
  const [skill] = index.skills as Json[];

  test('is schema 0.2.0 with one shop-<merchant> skill-md entry whose digest is the SHA-256 of the served bytes', () => {
    expect(index.$schema).toBe('https://schemas.agentskills.io/discovery/0.2.0/schema.json');
    expect(skill).toMatchObject({
      name: 'shop-pomona',
      type: 'skill-md',
      url: '/.well-known/agent-skills/shop-pomona/SKILL.md',
    });
    const served = body('.well-known/agent-skills/shop-pomona/SKILL.md');
    const hex = createHash('sha256').update(Buffer.from(served, 'utf8')).digest('hex');
    expect(skill?.digest).toBe(`sha256:${hex}`);
  });

  test('SKILL.md has name and description front matter and says how to search, cite and what not to do', () => {
    const { data, content } = matter(body('.well-known/agent-skills/shop-pomona/SKILL.md'), {});
    expect(data).toEqual({ name: 'shop-pomona', description: skill?.description });
    expect(content).toContain('https://shop.pomona.example/mcp');
    expect(content).toContain('https://shop.pomona.example/ucp/catalog/search');
    expect(content).toMatch(/Do not buy/);
    expect(content).toMatch(/more than 60 requests a minute/);
    expect(content).toMatch(/train/);
  });

  test('the gate refuses a skill whose bytes no longer match the digest', () => {
    const problems = problemsAfter('.well-known/agent-skills/shop-pomona/SKILL.md', (text) => `${text}\n`);
    expect(problems.map((problem) => problem.rule)).toContain('agent-skills');
  });
});

describe('the MCP server cards and the AI catalog', () => {
  const card = json('mcp/server-card.json');
  const legacy = json('.well-known/mcp/server-card.json');
  const catalog = json('.well-known/ai-catalog.json');

  test('the current card names the MCP endpoint; the scanner shape states the same server', () => {
    expect(card).toMatchObject({
      $schema: 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json',
      name: 'example.pomona.shop/catalog',
      remotes: [{ type: 'streamable-http', url: 'https://shop.pomona.example/mcp' }],
    });
    expect(legacy).toMatchObject({
      serverInfo: { name: card.name, version: card.version },
      transport: { type: 'streamable-http', endpoint: 'https://shop.pomona.example/mcp' },
    });
  });

  test('the AI catalog lists the server card, the agent card, the skills index and the API catalog', () => {
    expect(catalog.specVersion).toBe('1.0');
    const entries = catalog.entries as Json[];
    // ADR 0014 renamed mediaType to type; the scanner wants 2 to 5 representative queries an entry.
    for (const entry of entries) {
      expect(entry).not.toHaveProperty('mediaType');
      const queries = entry.representativeQueries as string[];
      expect(queries.length).toBeGreaterThanOrEqual(2);
      expect(queries.length).toBeLessThanOrEqual(5);
    }
    expect(entries.map((entry) => [entry.type, entry.url])).toEqual([
      ['application/mcp-server-card+json', 'https://shop.pomona.example/mcp/server-card'],
      ['application/a2a-agent-card+json', 'https://shop.pomona.example/.well-known/agent-card.json'],
      ['application/json', 'https://shop.pomona.example/.well-known/agent-skills/index.json'],
      ['application/linkset+json', 'https://shop.pomona.example/.well-known/api-catalog'],
    ]);
  });

  test('the gate validates the current card against the published schema', () => {
    const problems = problemsAfter('mcp/server-card.json', (text) =>
      text.replace('"name": "example.pomona.shop/catalog"', '"name": "no slash"'),
    );
    expect(problems.map(({ path, rule }) => [path, rule])).toEqual([
      ['mcp/server-card.json', 'schema'],
      // The older shape now names another server than the current card.
      ['.well-known/mcp/server-card.json', 'mcp-server-card'],
    ]);
  });

  test('the gate refuses an entry still using the retired mediaType, or without representative queries', () => {
    const retired = problemsAfter('.well-known/ai-catalog.json', (text) =>
      text.replace('"type": "application/linkset+json"', '"mediaType": "application/linkset+json"'),
    );
    expect(retired.map((problem) => problem.message)).toEqual([expect.stringContaining('ADR 0014')]);
    const unqueried = problemsAfter('.well-known/ai-catalog.json', (text) => {
      const value = JSON.parse(text) as { entries: Json[] };
      delete value.entries[0]?.representativeQueries;
      return JSON.stringify(value);
    });
    expect(unqueried.map((problem) => problem.message)).toEqual([
      expect.stringContaining('representativeQueries'),
    ]);
  });

  test('the gate refuses an AI catalog entry pointing at a document the bundle does not serve', () => {
    const problems = problemsAfter('.well-known/ai-catalog.json', (text) =>
      text.replace('/.well-known/agent-card.json', '/.well-known/nothing.json'),
    );
    expect(problems.map((problem) => problem.rule)).toEqual(['ai-catalog']);
  });
});

describe('auth.md and the agent_auth block', () => {
  const metadata = buildAuthorizationServerMetadata({
    issuer: 'https://auth.pomona.example',
    siteUrl: 'https://shop.pomona.example',
  });

  test("the agent_auth block offers auth.md's anonymous method, complete, and the site copy is the issuer's document", () => {
    // The workos/auth.md README's discovery shape: skill, register_uri, claim_uri, and for
    // anonymous registration identity_types_supported plus anonymous.credential_types_supported.
    expect(metadata.agent_auth).toEqual({
      skill: 'https://shop.pomona.example/auth.md',
      register_uri: 'https://auth.pomona.example/oauth/clients/register',
      claim_uri: 'https://auth.pomona.example/oauth/authorize',
      identity_types_supported: ['anonymous'],
      anonymous: { credential_types_supported: ['access_token'] },
    });
    expect(json('.well-known/oauth-authorization-server.json')).toEqual(JSON.parse(JSON.stringify(metadata)));
  });

  test('auth.md names every endpoint of the metadata and the resource to ask for', () => {
    const guide = body('auth.md');
    for (const key of [
      'registration_endpoint',
      'authorization_endpoint',
      'token_endpoint',
      'revocation_endpoint',
    ]) {
      expect(guide).toContain(String(metadata[key]));
    }
    expect(guide).toContain('resource=https://shop.pomona.example/mcp');
    expect(guide).toContain('code_challenge_method=S256');
  });

  test('the gate refuses an auth.md that lost an endpoint of the metadata', () => {
    const problems = problemsAfter('auth.md', (text) => text.replaceAll('/oauth/token', '/token'));
    expect(problems.map((problem) => problem.rule)).toEqual(['auth-md']);
  });
});

describe('the Markdown pages', () => {
  test("each product has a page whose front matter is the record's key fields", () => {
    for (const product of plan.products) {
      const { record } = product;
      // The sample turns the live surface on: its pages are entries of the handler's shards.
      const page = readProductPages(files).pages.get(`kb/products/${record.slug}.md`) ?? '';
      const { data, content } = matter(page, {});
      expect(data).toMatchObject({
        id: record.id,
        name: record.name,
        url: record.url,
        price: record.price,
        currency: record.currency,
        availability: record.availability,
        brand: plan.config.merchant.brand,
      });
      expect(content.startsWith('# ')).toBe(true);
    }
  });

  test('the sitemap and llms.txt list every product page', () => {
    for (const product of plan.products) {
      const url = `https://shop.pomona.example/kb/products/${encodeURIComponent(product.record.slug)}.md`;
      expect(body('sitemap.xml')).toContain(`<loc>${url}</loc>`);
      expect(body('llms.txt')).toContain(url);
    }
  });

  test('the gate refuses a page whose price disagrees with the catalog, and a missing twin', () => {
    const slug = plan.products.at(0)?.record.slug ?? '';
    const price = plan.products.at(0)?.record.price ?? '';
    // With the live surface off each page is a file of its own.
    const staticFiles = bundleFilesOf(
      emitBundle(
        makeSamplePlan({ config: makeSampleConfig({ ...SAMPLE_CONFIG_INPUT, live: { enabled: false } }) }),
      ),
    );
    const problems = problemsAfter(
      `kb/products/${slug}.md`,
      (text) => text.replace(`price: '${price}'`, "price: '0.01'"),
      staticFiles,
    );
    expect(problems.map((problem) => problem.rule)).toEqual(['markdown']);
    const withoutTwin = new Map(files);
    withoutTwin.delete('api/index.md');
    expect(validateBundle(withoutTwin).filter((problem) => problem.path === 'api/index.md')).toHaveLength(1);
  });

  test('the gate refuses a packed page whose price disagrees with the catalog, and whose entity tag is not its own', () => {
    const slug = plan.products.at(0)?.record.slug ?? '';
    const price = plan.products.at(0)?.record.price ?? '';
    // As long as the old price, so the shard's offsets still hold: only this page differs.
    const wrong = price.replace(/\d/g, '0').replace(/0$/, '1');
    const shard = [...files.keys()].find(
      (path) => path.startsWith('_live/pages/') && (files.get(path) ?? '').includes(`slug: ${slug}\n`),
    );
    const problems = problemsAfter(shard ?? '', (text) =>
      text.replace(
        new RegExp(`(slug: ${slug}\\n[^]*?)price: '${price.replace('.', '\\.')}'`),
        `$1price: '${wrong}'`,
      ),
    );
    expect(problems.filter((problem) => problem.path === shard).map((problem) => problem.message)).toEqual([
      expect.stringContaining('entity tag'),
    ]);
    expect(
      problems.filter((problem) => problem.path === `kb/products/${slug}.md`).map((p) => p.rule),
    ).toEqual(['markdown']);
  });

  test('model (a) has a twin of / and both HTML pages link theirs', () => {
    const own = makeSamplePlan({
      config: makeSampleConfig({ ...SAMPLE_CONFIG_INPUT, site_url: 'https://agents.pomona.example' }),
    });
    const bundle = emitBundle(own);
    const find = (path: string) => bundle.find((artifact) => artifact.path === path)?.body ?? '';
    expect(find('index.md')).toMatch(/^# Pomona Press Juice Co\./);
    expect(find('index.html')).toContain(
      '<link rel="alternate" type="text/markdown" href="https://agents.pomona.example/index.md">',
    );
    expect(find('api/index.html')).toContain(
      '<link rel="alternate" type="text/markdown" href="https://agents.pomona.example/api/index.md">',
    );
    expect(validateBundle(bundleFilesOf(bundle))).toEqual([]);
  });
});
