/**
 * The live core's MCP endpoint driven by the official SDK client, on both protocol
 * revisions the contract names: the tools are listed with read-only annotations and UCP
 * shapes, and every sample product is found by name, by id and by a price filter with the
 * catalog's own price and availability.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toMinorUnits } from '../../record/decimal-price.js';
import { buildSampleLiveBundle, connectClient, type LiveBundle } from './live-bundle.js';

let bundle: LiveBundle;

beforeAll(async () => {
  bundle = await buildSampleLiveBundle();
}, 60_000);

interface Product {
  id: string;
  handle: string;
  title: string;
  url: string;
  price_range: { min: { amount: number; currency: string } };
  variants: { id: string; price: { amount: number }; availability: { available: boolean; status: string } }[];
}

describe.each(['2025-11-25', '2025-06-18'])('MCP on protocol revision %s', (revision) => {
  let client: Client;
  beforeAll(async () => {
    client = await connectClient(bundle, revision);
  });
  afterAll(async () => {
    await client.close();
  });

  it('negotiates the revision and carries the usage rules in its instructions', () => {
    expect(client.getInstructions()).toMatch(/attribution/i);
    expect(client.getInstructions()).toMatch(/60/);
    expect(client.getInstructions()).toMatch(/train/i);
    expect(client.getInstructions()).toMatch(/purchase/i);
  });

  it('lists the three catalog tools and the account tool, each read-only with input and output schemas', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'get_customer_profile',
      'get_product',
      'lookup_catalog',
      'search_catalog',
    ]);
    for (const tool of tools) {
      expect(tool.annotations?.readOnlyHint).toBe(true);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
    }
  });

  it('finds every sample product by its name, first', async () => {
    for (const record of bundle.records) {
      const result = await client.callTool({
        name: 'search_catalog',
        arguments: { catalog: { query: record.name } },
      });
      const content = result.structuredContent as { products: Product[] };
      expect(content.products[0]?.id, record.name).toBe(record.id);
      const text = (result.content as { type: string; text: string }[])[0];
      expect(JSON.parse(text?.text ?? '')).toEqual(result.structuredContent);
    }
  });

  it('returns every sample product by id with the catalog price, url and availability', async () => {
    for (const record of bundle.records) {
      const result = await client.callTool({
        name: 'get_product',
        arguments: { catalog: { id: record.id } },
      });
      const { product } = result.structuredContent as { product: Product };
      expect(product.id).toBe(record.id);
      expect(product.handle).toBe(record.slug);
      expect(product.url).toBe(record.url);
      expect(product.variants.map((variant) => variant.id)).toEqual(
        record.variants.map((variant) => variant.id),
      );
      record.variants.forEach((variant, index) => {
        expect(product.variants[index]?.price.amount).toBe(toMinorUnits(variant.price, record.currency));
        expect(product.variants[index]?.availability).toEqual({
          available: variant.availability === 'in_stock',
          status: variant.availability,
        });
      });
    }
  });

  it('finds every sample product by a price filter around its own price', async () => {
    for (const record of bundle.records) {
      const amount = toMinorUnits(record.price, record.currency) ?? -1;
      const ids: string[] = [];
      let cursor: string | undefined;
      do {
        const result = await client.callTool({
          name: 'search_catalog',
          arguments: {
            catalog: { filters: { price: { min: amount, max: amount } }, pagination: { cursor, limit: 3 } },
          },
        });
        const content = result.structuredContent as { products: Product[]; pagination: { cursor?: string } };
        ids.push(...content.products.map((product) => product.id));
        cursor = content.pagination.cursor;
      } while (cursor);
      expect(ids, record.name).toContain(record.id);
    }
  });
});
