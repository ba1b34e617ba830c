/**
 * A live bundle of `count` made-up products built straight from canonical records with
 * the generator's own `buildLiveFiles`, for tests that need more products than the sample
 * (page boundaries, clamped limits) or a base path.
 */
import { buildLiveFiles } from '../../live/live-files.js';
import { buildProductRecord } from '../../record/build-record.js';
import type { ProductRecord } from '../../record/product-record.js';
import { type LiveBundle, liveBundleOf, liveFileArtifacts } from './live-bundle.js';
import { SMALL_PARTITIONS } from './partitioned-index.js';

const FLAVOURS = ['ginger', 'lemon', 'beet', 'kale', 'mango', 'almond', 'matcha'];

export function makeRecords(count: number, siteUrl: string): ProductRecord[] {
  return Array.from({ length: count }, (_, index) => {
    const flavour = FLAVOURS[index % FLAVOURS.length] ?? 'plain';
    const slug = `${flavour}-press-${index}`;
    const url = `${siteUrl}/products/${slug}`;
    const price = `${3 + (index % 9)}.${String(index % 100).padStart(2, '0')}`;
    return buildProductRecord({
      name: `${flavour} press ${index}`,
      slug,
      url,
      description: `Cold-pressed ${flavour} juice, batch ${index}.`,
      ingredients: null,
      nutrition: null,
      benefits: null,
      certifications: null,
      currency: 'USD',
      purchase_url: url,
      id: `p${index}`,
      category: index % 2 === 0 ? 'Juice' : 'Shots',
      tags: [flavour],
      images: [],
      options: [{ name: 'Size', values: ['8 oz', '16 oz'] }],
      variants: [
        {
          id: `v${index}-8`,
          title: '8 oz',
          options: [{ name: 'Size', value: '8 oz' }],
          price,
          availability: index % 5 === 0 ? 'out_of_stock' : 'in_stock',
          requires_shipping: true,
        },
        {
          id: `v${index}-16`,
          title: '16 oz',
          options: [{ name: 'Size', value: '16 oz' }],
          price: `${20 + (index % 9)}.00`,
          availability: 'in_stock',
          requires_shipping: true,
        },
      ],
    });
  });
}

export async function syntheticLiveBundle(
  count: number,
  baseUrl = 'https://juice.example',
  authUrl = 'https://auth.juice.example',
): Promise<LiveBundle> {
  const siteUrl = new URL(baseUrl).origin;
  const records = makeRecords(count, siteUrl);
  const files = buildLiveFiles(
    records,
    {
      generated: '2026-11-21T12:00:00.000Z',
      base_path: new URL(baseUrl).pathname.replace(/\/+$/, ''),
      site_url: siteUrl,
      auth_url: authUrl,
      mcp_endpoint: `${baseUrl.replace(/\/+$/, '')}/mcp`,
      allowed_origins: ['https://app.example'],
      requests_per_minute: 60,
      policy_headers: [['Content-Usage', 'train-ai=n']],
      server: { name: 'juice-catalog', title: 'Juice catalog', version: '1' },
      instructions: 'Test catalog.',
    },
    // Small partitions, so every test here also reads an index cut into many files.
    { indexSizes: SMALL_PARTITIONS },
  );
  return liveBundleOf(liveFileArtifacts(files), records, {
    site_url: siteUrl,
    base_url: baseUrl.replace(/\/+$/, ''),
  });
}
