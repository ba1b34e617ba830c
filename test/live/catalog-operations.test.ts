/**
 * The catalog operations through both doors, MCP tools and UCP REST, over a bundle of 130
 * made-up products: answers valid against the UCP release's own schemas, the same payload
 * from either door, pages without gaps or repeats, lookup and get_product by product and
 * variant ids, and UCP's error envelope for an unknown product.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { type LiveBundle, liveFetch } from './live-bundle.js';
import { syntheticLiveBundle } from './synthetic-bundle.js';
import { type UcpDefinition, ucpErrors } from './ucp-schemas.js';

let bundle: LiveBundle;
let call: ReturnType<typeof liveFetch>;

beforeAll(async () => {
  bundle = await syntheticLiveBundle(130, 'https://juice.example/api');
  call = liveFetch(bundle);
});

type Json = Record<string, unknown>;
interface Product {
  id: string;
  variants: { id: string; price: { amount: number }; inputs?: { id: string; match: string }[] }[];
}
interface Answer {
  products: Product[];
  product?: Product;
  pagination?: { cursor?: string; has_next_page: boolean; total_count: number };
  messages?: { type: string; code: string; content: string }[];
  ucp: { status?: string };
}

const TOOLS = { search: 'search_catalog', lookup: 'lookup_catalog', product: 'get_product' } as const;
type Operation = keyof typeof TOOLS;

interface ToolResult {
  structuredContent: Answer;
  isError?: boolean;
  content: { type: string; text: string }[];
}

async function callTool(name: string, args: Json): Promise<ToolResult> {
  const response = await call(`${bundle.baseUrl}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name, arguments: args } }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { result: ToolResult }).result;
}

async function viaMcp(operation: Operation, catalog: Json): Promise<Answer> {
  const result = await callTool(TOOLS[operation], { catalog });
  expect(result.isError, JSON.stringify(result)).toBeUndefined();
  return result.structuredContent;
}

async function viaRest(operation: Operation, catalog: Json): Promise<{ status: number; body: Answer }> {
  const response = await call(`${bundle.baseUrl}/ucp/catalog/${operation}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(catalog),
  });
  return { status: response.status, body: (await response.json()) as Answer };
}

/** Both doors give the same valid payload; returns it. */
async function ask(operation: Operation, catalog: Json, schema: UcpDefinition): Promise<Answer> {
  const mcp = await viaMcp(operation, catalog);
  const rest = await viaRest(operation, catalog);
  expect(rest.status).toBe(200);
  expect(rest.body).toEqual(mcp);
  expect(ucpErrors(schema, mcp)).toEqual([]);
  return mcp;
}

const SEARCH = 'catalog_search.json#/$defs/search_response';
const LOOKUP = 'catalog_lookup.json#/$defs/lookup_response';
const GET_PRODUCT = 'catalog_lookup.json#/$defs/get_product_response';

async function everyPage(catalog: Json, limit: number): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  do {
    const answer = await ask(
      'search',
      { ...catalog, pagination: { limit, ...(cursor ? { cursor } : {}) } },
      SEARCH,
    );
    expect(answer.products.length).toBeLessThanOrEqual(limit);
    ids.push(...answer.products.map((product) => product.id));
    cursor = answer.pagination?.cursor;
    expect(answer.pagination?.has_next_page).toBe(cursor !== undefined);
  } while (cursor);
  return ids;
}

describe('search', () => {
  it('pages through the whole catalog without gaps or repeats', async () => {
    const ids = await everyPage({}, 17);
    expect(ids).toHaveLength(130);
    expect(new Set(ids).size).toBe(130);
  });

  it('pages through a text query without gaps or repeats, every page in the first order', async () => {
    const all = (await ask('search', { query: 'ginger', pagination: { limit: 50 } }, SEARCH)).products.map(
      (p) => p.id,
    );
    expect(all.length).toBeGreaterThan(10);
    expect(await everyPage({ query: 'ginger' }, 4)).toEqual(all);
  });

  it('finds a misspelt word, and the best partial matches when no product has every word', async () => {
    const ginger = bundle.records
      .filter((record) => record.name.startsWith('ginger'))
      .map((record) => record.id);
    for (const query of ['gingr', 'ginger under five dollars']) {
      const answer = await ask('search', { query, pagination: { limit: 50 } }, SEARCH);
      expect(answer.products.map((product) => product.id).sort(), query).toEqual([...ginger].sort());
    }
  });

  it('pages by 10 by default', async () => {
    const answer = await ask('search', {}, SEARCH);
    expect(answer.products).toHaveLength(10);
    expect(answer.pagination).toMatchObject({ has_next_page: true, total_count: 130 });
  });

  it('filters by price in minor units, category and availability', async () => {
    const answer = await ask(
      'search',
      {
        filters: { price: { min: 300, max: 399 }, categories: ['juice'], available: true },
        pagination: { limit: 50 },
      },
      SEARCH,
    );
    const expected = bundle.records.filter(
      (record, index) =>
        index % 2 === 0 &&
        record.variants.some((v) => v.availability === 'in_stock' && v.price.startsWith('3.')),
    );
    expect(answer.products.map((product) => product.id).sort()).toEqual(
      expected.map((record) => record.id).sort(),
    );
  });

  it('refuses a cursor issued for another query', async () => {
    const first = await viaMcp('search', { query: 'ginger', pagination: { limit: 2 } });
    const rest = await viaRest('search', {
      query: 'lemon',
      pagination: { cursor: first.pagination?.cursor },
    });
    expect(rest.status).toBe(400);
    expect(ucpErrors('types/error_response.json', rest.body)).toEqual([]);
  });
});

describe('lookup and get_product', () => {
  it('returns products by product and variant id, each variant saying which id it answers', async () => {
    const answer = await ask('lookup', { ids: ['p3', 'v7-16', 'nope'] }, LOOKUP);
    expect(answer.products.map((product) => product.id)).toEqual(['p3', 'p7']);
    expect(answer.products[0]?.variants.map((v) => [v.id, v.inputs])).toEqual([
      ['v3-8', [{ id: 'p3', match: 'featured' }]],
    ]);
    expect(answer.products[1]?.variants.map((v) => [v.id, v.inputs])).toEqual([
      ['v7-16', [{ id: 'v7-16', match: 'exact' }]],
    ]);
    expect(answer.messages).toEqual([{ type: 'info', code: 'not_found', content: 'nope' }]);
  });

  it('applies the filters after resolving ids, leaving out products no variant of which passes', async () => {
    const filters = { price: { max: 1000 }, available: true };
    const answer = await ask('lookup', { ids: ['p0', 'p1', 'v2-16'], filters }, LOOKUP);
    expect(
      answer.products.map((product) => [product.id, product.variants.map((variant) => variant.id)]),
    ).toEqual([['p1', ['v1-8']]]);
    const detail = await ask('product', { id: 'p0', filters: { available: true } }, GET_PRODUCT);
    expect(detail.product?.variants.map((variant) => variant.id)).toEqual(['v0-16']);
    const none = await ask(
      'product',
      { id: 'v0-8', filters: { available: true } },
      'types/error_response.json',
    );
    expect(none.messages?.[0]).toMatchObject({ type: 'error', code: 'not_found' });
  });

  it('gets a product by a variant id with that variant first', async () => {
    const answer = await ask('product', { id: 'v9-16' }, 'catalog_lookup.json#/$defs/get_product_response');
    expect(answer.product?.id).toBe('p9');
    expect(answer.product?.variants.map((variant) => variant.id)).toEqual(['v9-16', 'v9-8']);
  });

  it('narrows get_product to the selected options, with availability signals on every value', async () => {
    const answer = await ask(
      'product',
      { id: 'p5', selected: [{ name: 'Size', label: '16 oz' }] },
      'catalog_lookup.json#/$defs/get_product_response',
    );
    const product = answer.product as Product & { selected?: unknown; options?: unknown };
    expect(product.variants.map((variant) => variant.id)).toEqual(['v5-16']);
    expect(product.selected).toEqual([{ name: 'Size', label: '16 oz' }]);
    expect(product.options).toEqual([
      {
        name: 'Size',
        values: [
          { label: '8 oz', available: false, exists: true },
          { label: '16 oz', available: true, exists: true },
        ],
      },
    ]);
  });

  it('relaxes a selection no variant has, and says so in selected', async () => {
    const answer = await ask(
      'product',
      { id: 'p6', selected: [{ name: 'Size', label: '64 oz' }] },
      'catalog_lookup.json#/$defs/get_product_response',
    );
    const product = answer.product as Product & { selected?: unknown };
    expect(product.selected).toEqual([]);
    expect(product.variants.map((variant) => variant.id)).toEqual(['v6-8', 'v6-16']);
  });

  it('answers an unknown product id with UCP error envelope, not a protocol error', async () => {
    const answer = await ask('product', { id: 'missing' }, 'types/error_response.json');
    expect(answer.ucp.status).toBe('error');
    expect(answer.messages?.[0]).toMatchObject({ type: 'error', code: 'not_found' });
  });
});

describe('UCP REST refuses bad requests with 4xx', () => {
  it.each([
    ['not JSON', '{', 400],
    ['a wrong type', JSON.stringify({ query: 5 }), 400],
    ['an array', '[]', 400],
  ])('answers %s with %d', async (_name, body, status) => {
    const response = await call(`${bundle.baseUrl}/ucp/catalog/search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(response.status).toBe(status);
    expect(ucpErrors('types/error_response.json', await response.json())).toEqual([]);
  });

  it('answers a lookup batch over the limit with 400 request_too_large', async () => {
    const ids = Array.from({ length: 51 }, (_, index) => `p${index}`);
    const { status, body } = await viaRest('lookup', { ids });
    expect(status).toBe(400);
    expect(body.messages?.[0]?.code).toBe('request_too_large');
  });

  it('answers a body over 64 KiB with 413, GET with 405 and a form with 415', async () => {
    const big = await call(`${bundle.baseUrl}/ucp/catalog/search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'x'.repeat(70_000) }),
    });
    expect(big.status).toBe(413);
    const get = await call(`${bundle.baseUrl}/ucp/catalog/search`);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    const form = await call(`${bundle.baseUrl}/ucp/catalog/search`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'query=x',
    });
    expect(form.status).toBe(415);
  });
});

describe('fields a door does not read', () => {
  it('answers a REST body wrapped in the MCP tools\' "catalog" with a warning naming the field', async () => {
    const name = bundle.records[7]?.name ?? '';
    const wrapped = await viaRest('search', { catalog: { query: name } });
    expect(wrapped.status).toBe(200);
    expect(ucpErrors(SEARCH, wrapped.body)).toEqual([]);
    expect(wrapped.body.messages).toEqual([
      expect.objectContaining({ type: 'warning', code: 'ignored_field', path: '$.catalog' }),
    ]);
    expect(wrapped.body.messages?.[0]?.content).toMatch(/top level/);
    // The products are an unfiltered first page, which is why the caller must be told.
    const unfiltered = await viaRest('search', {});
    expect(wrapped.body.products).toEqual(unfiltered.body.products);
  });

  it('answers an unknown extension field with an info message and the same products', async () => {
    const name = bundle.records[3]?.name ?? '';
    const plain = await viaRest('lookup', { ids: [bundle.records[3]?.id ?? ''] });
    const extended = await viaRest('lookup', { ids: [bundle.records[3]?.id ?? ''], loyalty_tier: 'gold' });
    expect(extended.status).toBe(200);
    expect(ucpErrors(LOOKUP, extended.body)).toEqual([]);
    expect(extended.body.products).toEqual(plain.body.products);
    expect(extended.body.messages).toEqual([
      expect.objectContaining({ type: 'info', code: 'ignored_field', path: '$.loyalty_tier' }),
    ]);
    expect(plain.body.messages, name).toBeUndefined();
  });

  it("names at most five of a body's unknown fields", async () => {
    const many = Object.fromEntries(Array.from({ length: 40 }, (_, index) => [`x${index}`, index]));
    const { status, body } = await viaRest('search', many);
    expect(status).toBe(200);
    expect(body.messages).toHaveLength(5);
  });

  it('refuses MCP arguments that put the request beside "catalog", saying where it goes', async () => {
    const result = await callTool('search_catalog', { query: 'ginger' });
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toMatch(/"query".*inside "catalog"/);
  });
});

describe('the index cut into partitions', () => {
  it('is spread over a root and partition files of each kind, as many as the manifest says', async () => {
    const parts = bundle.artifacts.filter((artifact) => artifact.path.startsWith('_live/index/'));
    const manifest = JSON.parse((await bundle.context.readAsset('_live/manifest.json')) ?? '{}');
    expect(parts).toHaveLength(manifest.index_parts);
    const folders = new Set(parts.map((part) => part.path.split('/')[2]));
    expect([...folders].sort()).toEqual([
      'facets',
      'ids',
      'prices',
      'root.json',
      'rvocab',
      'spans',
      'terms',
      'vocab',
    ]);
    expect(parts.length).toBeGreaterThan(20);
  });
});

describe('platform profiles and a broken deployment', () => {
  it('answers the same whether or not a platform sends its UCP profile', async () => {
    const plain = await viaMcp('search', { query: 'kale' });
    const response = await call(`${bundle.baseUrl}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'ucp-agent': 'profile="https://platform.example/profile.json"',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          name: 'search_catalog',
          arguments: {
            meta: { 'ucp-agent': { profile: 'https://platform.example/profile.json' } },
            catalog: { query: 'kale' },
          },
        },
      }),
    });
    const body = (await response.json()) as { result: { structuredContent: Answer } };
    expect(body.result.structuredContent).toEqual(plain);
  });

  it('answers 503 without details when the bundle lacks its live data', async () => {
    const broken = {
      ...bundle,
      context: {
        settings: { ...bundle.context.settings, generated: 'a bundle without its index' },
        readAsset: async (path: string) =>
          path.startsWith('_live/index/') ? undefined : bundle.context.readAsset(path),
        readAssetBytes: async (path: string) =>
          path.startsWith('_live/index/') ? undefined : bundle.context.readAssetBytes(path),
      },
    };
    const response = await liveFetch(broken)(`${bundle.baseUrl}/ucp/catalog/search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(response.status).toBe(503);
    expect(await response.text()).not.toMatch(/_live|\.ts:|\.js:/);
  });
});
