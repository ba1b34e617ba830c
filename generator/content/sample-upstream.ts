/**
 * TEMPORARY: a minimal reader of a Shopify `/products.json` file, so the embedded sample
 * merchant builds before the real upstream adapters (`generator/sources/`) land. It
 * reads local files only and will be deleted once `fetchUpstream` from `sources/` exists.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { convert } from 'html-to-text';
import { CatalogError } from '../errors.js';
import type { UpstreamFetcher, UpstreamResult } from '../pipeline.js';

interface ShopifyLike {
  id: number | string;
  title: string;
  handle: string;
  body_html?: string | null;
  updated_at?: string;
  tags?: string[] | string;
  variants: { price: string; available?: boolean }[];
  images?: { src: string }[];
}

function isShopifyLike(value: unknown): value is ShopifyLike {
  if (typeof value !== 'object' || value === null) return false;
  const item = value as Record<string, unknown>;
  return typeof item.title === 'string' && typeof item.handle === 'string' && Array.isArray(item.variants);
}

export const readSampleUpstream: UpstreamFetcher = async (upstream, context) => {
  if (/^https?:/i.test(upstream.source)) {
    throw new CatalogError('UPSTREAM_NETWORK', 'the temporary sample reader reads files only', {
      url: upstream.source,
    });
  }
  const data: unknown = JSON.parse(await readFile(resolve(context.configDir, upstream.source), 'utf8'));
  const items = typeof data === 'object' && data !== null && 'products' in data ? data.products : undefined;
  if (!Array.isArray(items)) throw new CatalogError('UPSTREAM_SHAPE', 'expected { products: [...] }');
  const result: UpstreamResult = { format: 'shopify', products: [], rejected: [], requests: 0 };
  for (const item of items) {
    if (!isShopifyLike(item)) {
      result.rejected.push({ id: String((item as { id?: unknown })?.id ?? '?'), reason: 'not a product' });
      continue;
    }
    const tags = Array.isArray(item.tags) ? item.tags : (item.tags ?? '').split(',').map((tag) => tag.trim());
    const available = item.variants.find((variant) => variant.available !== false);
    const url = `${context.siteUrl}/products/${item.handle}`;
    result.products.push({
      sourceId: String(item.id),
      tags,
      ...(item.images?.[0] ? { imageUrl: item.images[0].src } : {}),
      ...(item.updated_at ? { updatedAt: new Date(item.updated_at).toISOString() } : {}),
      record: {
        name: item.title,
        slug: item.handle,
        url,
        description: item.body_html ? convert(item.body_html, { wordwrap: false }).trim() : null,
        ingredients: null,
        nutrition: null,
        benefits: null,
        certifications: null,
        price: (available ?? item.variants[0])?.price ?? '0.00',
        currency: context.currency,
        availability: tags.includes(upstream.coming_soon_tag)
          ? 'coming_soon'
          : available
            ? 'in_stock'
            : 'out_of_stock',
        purchase_url: url,
      },
    });
  }
  return result;
};
