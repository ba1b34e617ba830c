import { describe, expect, test } from 'vitest';
import type { Artifact } from '../../../generator/artifact.js';
import { spillArtifactInChunks } from '../../../generator/compact-artifact.js';
import { validateArtifacts } from '../../../generator/validate/index.js';
import {
  editJson,
  editText,
  type Json,
  kinds,
  productAt,
  sampleArtifacts,
  withoutArtifact,
} from './tamper.js';

const CATALOG = 'agent-catalog.json';
const HEALTH = 'agent-catalog/health.json';

describe('the gate on the sample bundle', () => {
  const artifacts = sampleArtifacts();

  test('finds nothing wrong with the bundle as emitted', () => {
    expect(validateArtifacts(artifacts)).toEqual([]);
  });

  test('when a JSON document does not parse then it is refused as json', () => {
    const broken = editText(artifacts, '.well-known/agent.json', (body) => body.slice(0, -3));
    expect(kinds(validateArtifacts(broken))).toContain('.well-known/agent.json json');
  });
});

describe('the gate refuses data the schemas reject', () => {
  const artifacts = sampleArtifacts();
  const cases: [string, (all: Artifact[]) => Artifact[], string][] = [
    ['the catalog has no count', (all) => editJson(all, CATALOG, (c) => delete c.count), `${CATALOG} schema`],
    [
      'a product has an unknown availability',
      (all) => editJson(all, CATALOG, (c) => (productAt(c, 1).availability = 'sold_out')),
      `${CATALOG} schema`,
    ],
    [
      'a price is not decimal text',
      (all) => editJson(all, CATALOG, (c) => (productAt(c, 0).price = '42,00')),
      `${CATALOG} schema`,
    ],
    ['health is not ok', (all) => editJson(all, HEALTH, (h) => (h.status = 'degraded')), `${HEALTH} schema`],
    [
      'a knowledge-base record has a number for its price',
      (all) => editJson(all, 'kb/products.json', (kb) => (productAt(kb, 2).price = 1234.5)),
      'kb/products.json schema',
    ],
  ];
  test.each(cases)('when %s', (_name, breakIt, expected) => {
    expect(kinds(validateArtifacts(breakIt(artifacts)))).toContain(expected);
  });

  test('when count is not the number of products then the count rule refuses it', () => {
    const broken = editJson(artifacts, CATALOG, (c) => (c.count = 4));
    const problems = validateArtifacts(broken);
    expect(problems).toContainEqual(expect.objectContaining({ path: CATALOG, rule: 'count' }));
    expect(problems.filter((problem) => problem.rule === 'schema')).toEqual([]);
  });

  test('when the catalog is missing then the gate says so', () => {
    expect(kinds(validateArtifacts(withoutArtifact(artifacts, CATALOG)))).toContain(`${CATALOG} missing`);
  });
});

describe('the gate checks the API description and the well-known documents', () => {
  const artifacts = sampleArtifacts();
  const cases: [string, (all: Artifact[]) => Artifact[], string][] = [
    [
      'the description loosens a schema',
      (all) =>
        editJson(all, 'api/openapi.json', (d) => {
          const schemas = (d.components as Json).schemas as Json;
          delete (schemas.Catalog as Json).required;
        }),
      'api/openapi.json openapi',
    ],
    [
      'the description has another version',
      (all) => editJson(all, 'api/openapi.json', (d) => ((d.info as Json).version = '2.0.0')),
      'api/openapi.json openapi',
    ],
    [
      'the resource has a trailing slash the site does not',
      (all) =>
        editJson(
          all,
          '.well-known/oauth-protected-resource.json',
          (m) => (m.resource = 'https://shop.pomona.example/'),
        ),
      '.well-known/oauth-protected-resource.json rfc9728',
    ],
    [
      'tokens may be sent in the query',
      (all) =>
        editJson(all, '.well-known/oauth-protected-resource.json', (m) => {
          m.bearer_methods_supported = ['header', 'query'];
        }),
      '.well-known/oauth-protected-resource.json rfc9728',
    ],
    [
      "the MCP endpoint's metadata names another resource",
      (all) =>
        editJson(all, '.well-known/oauth-protected-resource/mcp.json', (m) => {
          m.resource = 'https://shop.pomona.example/other/mcp';
        }),
      '.well-known/oauth-protected-resource/mcp.json rfc9728',
    ],
    [
      "the MCP endpoint's metadata names another issuer",
      (all) =>
        editJson(all, '.well-known/oauth-protected-resource/mcp.json', (m) => {
          m.authorization_servers = ['https://evil.example'];
        }),
      '.well-known/oauth-protected-resource/mcp.json rfc9728',
    ],
    [
      'the resource metadata names another issuer',
      (all) =>
        editJson(all, '.well-known/oauth-protected-resource.json', (m) => {
          m.authorization_servers = ['https://evil.example'];
        }),
      '.well-known/oauth-authorization-server.json rfc8414',
    ],
    [
      'the OpenID configuration advertises a flow the issuer refuses',
      (all) =>
        editJson(all, '.well-known/openid-configuration.json', (m) => {
          m.grant_types_supported = ['authorization_code', 'implicit'];
        }),
      '.well-known/openid-configuration.json openid-discovery',
    ],
    [
      'the linkset lacks a status link',
      (all) =>
        editJson(all, '.well-known/api-catalog.json', (l) => {
          delete ((l.linkset as Json[])[0] as Json).status;
        }),
      '.well-known/api-catalog.json linkset',
    ],
    [
      'a linkset target has no href',
      (all) =>
        editJson(all, '.well-known/api-catalog.json', (l) => {
          ((l.linkset as Json[])[0] as Json)['service-doc'] = [{ type: 'text/html' }];
        }),
      '.well-known/api-catalog.json linkset',
    ],
    [
      'the two agent cards differ',
      (all) => editJson(all, '.well-known/agent-card.json', (c) => (c.version = '9.9.9')),
      '.well-known/agent-card.json well-known',
    ],
  ];
  test.each(cases)('when %s then it is refused', (_name, breakIt, expected) => {
    expect(kinds(validateArtifacts(breakIt(artifacts)))).toContain(expected);
  });
});

describe('the gate checks the documents agree with the catalog', () => {
  const artifacts = sampleArtifacts();

  test('when the feed has another price then the consistency check names the feed and the product', () => {
    const broken = editText(artifacts, 'feed.xml', (body) =>
      body.replace('<g:price>42.00 USD</g:price>', '<g:price>41.00 USD</g:price>'),
    );
    const problems = validateArtifacts(broken).filter((problem) => problem.rule === 'consistency');
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ path: 'feed.xml' });
    expect(problems[0]?.message).toContain('green-glow');
  });

  test('when kb/products.json has another availability then it is refused', () => {
    const broken = editJson(
      artifacts,
      'kb/products.json',
      (kb) => (productAt(kb, 0).availability = 'out_of_stock'),
    );
    expect(kinds(validateArtifacts(broken))).toContain('kb/products.json consistency');
  });

  test('when the knowledge base Markdown has another price then it is refused', () => {
    const broken = editText(artifacts, 'kb/pomona-knowledge-base.md', (body) =>
      body.replace('- Price: 1234.50 USD', '- Price: 1234.00 USD'),
    );
    expect(kinds(validateArtifacts(broken))).toContain('kb/pomona-knowledge-base.md consistency');
  });

  test('when the sitemap leaves a product out then it is refused', () => {
    const broken = editText(artifacts, 'sitemap.xml', (body) =>
      body.replace(
        /<url>\s*<loc>https:\/\/shop\.pomona\.example\/products\/ginger-shot<\/loc>[\s\S]*?<\/url>/,
        '',
      ),
    );
    expect(kinds(validateArtifacts(broken))).toContain('sitemap.xml consistency');
  });

  test('when the catalog drops a product the other documents still list then each of them is named', () => {
    const broken = editJson(artifacts, CATALOG, (c) => {
      // The first product is the one with an image and a price, so the feed lists it too.
      (c.products as unknown[]).shift();
      c.count = 2;
    });
    const named = validateArtifacts(broken)
      .filter((problem) => problem.rule === 'consistency')
      .map((problem) => problem.path);
    const listing = [
      'feed.xml',
      'kb/products.json',
      'kb/pomona-knowledge-base.md',
      'sitemap.xml',
      'llms.txt',
      'llms-full.txt',
    ];
    const present = listing.filter((path) => artifacts.some((artifact) => artifact.path === path));
    expect(present).toEqual(expect.arrayContaining(listing.slice(0, 4)));
    expect(new Set(named)).toEqual(new Set(present));
  });

  /** The artifacts with llms-full.txt (its body edited) read in chunks of a few bytes, as a parted document is. */
  function chunkedLlmsFull(edit: (body: string) => string): Artifact[] {
    return artifacts.map((artifact) => {
      if (artifact.path !== 'llms-full.txt') return artifact;
      const bytes = Buffer.from(edit(artifact.body), 'utf8');
      return spillArtifactInChunks(artifact, function* () {
        for (let at = 0; at < bytes.length; at += 7) yield bytes.subarray(at, at + 7);
      });
    });
  }

  test('when llms-full.txt is read in chunks then its links are checked as in its whole text', () => {
    expect(validateArtifacts(chunkedLlmsFull((body) => body))).toEqual([]);
    const broken = chunkedLlmsFull(
      (body) => `${body}\n- [Gone](https://shop.pomona.example/products/gone-juice): left the store\n`,
    );
    const problems = validateArtifacts(broken).filter((problem) => problem.path === 'llms-full.txt');
    expect(problems.map((problem) => problem.rule)).toEqual(['consistency']);
    expect(problems[0]?.message).toContain('https://shop.pomona.example/products/gone-juice');
  });

  test('when two products share a slug then the catalog is refused', () => {
    const broken = editJson(artifacts, CATALOG, (c) => (productAt(c, 1).slug = 'green-glow'));
    expect(kinds(validateArtifacts(broken))).toContain(`${CATALOG} consistency`);
  });
});
