/**
 * The merge over products on disk (merge-shelved.ts) against the merge in the heap
 * (`mergeProducts`): the same products from the same upstream, in slug order, the same
 * products left out for a slug taken already (in upstream order), the same content unused.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ProductContent } from '../../../generator/content/load-content.js';
import { mergeProducts, type UpstreamProduct } from '../../../generator/merge.js';
import { mergeShelvedProducts } from '../../../generator/merge-shelved.js';
import { normaliseProducts } from '../../../generator/normalise/index.js';
import type { ShelvedProducts } from '../../../generator/normalise/product-shelf.js';
import { SlugColumn } from '../../../generator/normalise/slug-column.js';
import type { NormalisedProduct } from '../../../generator/normalise/types.js';
import { createRecordFile } from '../../../generator/product-store/record-file.js';

let parent = '';
beforeEach(async () => {
  parent = await mkdtemp(join(tmpdir(), 'agent-catalog-merge-'));
});
afterEach(async () => {
  await rm(parent, { recursive: true, force: true });
});

/** A product as the Shopify mapper makes it (one slug may come from two upstream ids here). */
function upstreamProduct(slug: string, sourceId: string): UpstreamProduct {
  const item = {
    id: Number(sourceId),
    title: `${slug} ${sourceId}`,
    handle: slug,
    variants: [{ id: 900 + Number(sourceId), title: 'Default Title', price: '9.50', available: true }],
  };
  const context = { siteUrl: 'https://shop.example', currency: 'USD', comingSoonTag: 'coming-soon' };
  const [product] = normaliseProducts([item], 'shopify', context).products;
  if (product === undefined) throw new Error(`the mapper refused ${slug}`);
  return product;
}

/** The products in a real records file, every number kept under its product's slug. */
function shelve(products: readonly UpstreamProduct[]): ShelvedProducts {
  const file = createRecordFile<NormalisedProduct>(parent);
  const slugs = new SlugColumn();
  for (const [index, product] of products.entries()) {
    file.push(product);
    slugs.set(index, product.record.slug);
  }
  return {
    slugs,
    at: (index) => file.at(index),
    close: () => file.close(),
  };
}

describe('the merge of products on disk', () => {
  it('when two products share a slug then it keeps, leaves out and uses content as the merge in the heap', () => {
    const upstream = [
      upstreamProduct('peach', '1'),
      upstreamProduct('apple', '2'),
      upstreamProduct('peach', '3'),
      upstreamProduct('cherry', '4'),
      upstreamProduct('apple', '5'),
    ];
    const content: ProductContent[] = [
      { slug: 'apple', file: 'content/products/apple.md', fields: { flavor: 'Crisp' } },
      { slug: 'gone', file: 'content/products/gone.md', fields: { flavor: 'Gone' } },
    ];
    const heap = mergeProducts({ upstream, content, shipping: 'Ships cold.' });
    const shelved = shelve(upstream);
    try {
      const disk = mergeShelvedProducts(shelved, { content, shipping: 'Ships cold.' });
      expect(disk.count).toBe(heap.products.length);
      expect(disk.leftOut).toEqual(heap.leftOut);
      expect([...disk.products()]).toEqual(heap.products);
      expect(disk.unmatched()).toEqual(heap.unmatched);
    } finally {
      shelved.close();
    }
    expect(heap.leftOut.map((item) => item.id)).toEqual(['3', '5']);
  });
});
