/**
 * The Agentic Commerce Protocol's product feed, when `agent_feeds.acp.enabled`: the
 * offline full-snapshot form of the ACP product-feed RFC, `metadata.json` (FeedMetadata)
 * and `products.jsonl` (one Product a line, each with its variants), in the shapes of the
 * release's JSON Schema (`spec/2026-04-17/json-schema/schema.feed.json`, vendored under
 * `generator/validate/schemas/acp/`, which the gate validates every line against). Prices
 * are integers in the currency's minor units; variant ids are the store's, the ids a
 * checkout takes; the offer of each variant comes from `record/variant-offers.ts`.
 */

import { toMinorUnits } from '../../../record/decimal-price.js';
import type {
  Availability,
  ProductImage,
  ProductRecord,
  ProductVariant,
} from '../../../record/product-record.js';
import { offerOf } from '../../../record/variant-offers.js';
import type { Artifact } from '../../artifact.js';
import { chunkedArtifact } from '../../compact-artifact.js';
import type { ResolvedConfig } from '../../config.js';
import type { BuildPlan, PlannedProduct } from '../../plan.js';
import { productElements } from '../fragments.js';
import { jsonBody } from '../json.js';

export const ACP_FEED_DIR = 'feeds/acp';
export const ACP_METADATA_FILE = `${ACP_FEED_DIR}/metadata.json`;
export const ACP_PRODUCTS_FILE = `${ACP_FEED_DIR}/products.jsonl`;
export const NDJSON_MEDIA_TYPE = 'application/x-ndjson';
/** The fragment kind of a product's line in products.jsonl. */
const ACP_LINE = 'acp-line';

type Json = Record<string, unknown>;

/**
 * The status values the ACP schema knows (`Availability.status`: "Known values include
 * in_stock, limited_stock, backorder, preorder, out_of_stock, and discontinued"). The field
 * is extensible, but an agent acts only on a value it knows.
 */
export const ACP_STATUSES = [
  'in_stock',
  'limited_stock',
  'backorder',
  'preorder',
  'out_of_stock',
  'discontinued',
] as const;
export type AcpStatus = (typeof ACP_STATUSES)[number];

/**
 * The catalog's states in ACP's terms: only `in_stock` can be bought. A coming-soon
 * product is `out_of_stock`, not available: ACP's `preorder` would promise a release
 * date, and no store states one in the record (UCP keeps the catalog's own `coming_soon`).
 */
export const ACP_AVAILABILITY: Readonly<Record<Availability, { available: boolean; status: AcpStatus }>> = {
  in_stock: { available: true, status: 'in_stock' },
  out_of_stock: { available: false, status: 'out_of_stock' },
  coming_soon: { available: false, status: 'out_of_stock' },
};

function priceOf(amount: string, currency: string): Json | undefined {
  const minor = toMinorUnits(amount, currency);
  return minor === undefined ? undefined : { amount: minor, currency };
}

function mediaOf(image: ProductImage): Json {
  return {
    type: 'image',
    url: image.url,
    ...(image.alt === undefined ? {} : { alt_text: image.alt }),
    ...(image.width === undefined ? {} : { width: image.width }),
    ...(image.height === undefined ? {} : { height: image.height }),
  };
}

function categoriesOf(record: ProductRecord, config: ResolvedConfig): Json[] {
  return [
    ...(record.category === undefined ? [] : [{ value: record.category, taxonomy: 'merchant' }]),
    ...(config.feed.google_product_category === undefined
      ? []
      : [{ value: config.feed.google_product_category, taxonomy: 'google_product_category' }]),
  ];
}

function variantOf(record: ProductRecord, variant: ProductVariant, config: ResolvedConfig): Json {
  const offer = offerOf(record, variant);
  const price = priceOf(offer.salePrice ?? offer.price, offer.currency);
  const listPrice = offer.salePrice === undefined ? undefined : priceOf(offer.price, offer.currency);
  const categories = categoriesOf(record, config);
  return {
    id: variant.id,
    title: variant.title,
    url: offer.url,
    ...(variant.gtin === undefined ? {} : { barcodes: [{ type: 'GTIN', value: variant.gtin }] }),
    ...(price === undefined ? {} : { price }),
    ...(listPrice === undefined ? {} : { list_price: listPrice }),
    availability: ACP_AVAILABILITY[offer.availability],
    ...(categories.length > 0 ? { categories } : {}),
    condition: [config.feed.condition],
    ...(variant.options.length > 0 ? { variant_options: variant.options } : {}),
    ...(variant.image === undefined ? {} : { media: [{ type: 'image', url: variant.image }] }),
    seller: { name: config.merchant.name },
  };
}

export function buildAcpProduct(planned: PlannedProduct, config: ResolvedConfig): Json {
  const { record } = planned;
  const description = {
    plain: record.description ?? '',
    ...(planned.descriptionMarkdown === undefined ? {} : { markdown: planned.descriptionMarkdown }),
  };
  return {
    id: record.id,
    title: record.name,
    description,
    url: record.url,
    ...(record.images.length > 0 ? { media: record.images.map(mediaOf) } : {}),
    variants: record.variants.map((variant) => variantOf(record, variant, config)),
  };
}

/** The feed's metadata: its id and market, and the time of this snapshot. */
export function buildAcpMetadata(plan: BuildPlan): Json {
  const { acp } = plan.config.agent_feeds;
  const country = acp.target_country ?? plan.config.merchant.ships_to[0];
  const id = acp.feed_id ?? [plan.config.merchant.slug, country?.toLowerCase()].filter(Boolean).join('-');
  return { id, ...(country === undefined ? {} : { target_country: country }), updated_at: plan.generated };
}

export function emitAcpFeed(plan: BuildPlan): Artifact[] {
  if (!plan.config.agent_feeds.acp.enabled) return [];
  // One line per product, copied from the last build when the product did not change.
  const lines = productElements(
    plan,
    ACP_LINE,
    (planned) => `${JSON.stringify(buildAcpProduct(planned, plan.config))}\n`,
  );
  return [
    { path: ACP_METADATA_FILE, mediaType: 'application/json', ...jsonBody(buildAcpMetadata(plan)) },
    chunkedArtifact({ path: ACP_PRODUCTS_FILE, mediaType: NDJSON_MEDIA_TYPE, body: '' }, [
      { elements: lines },
    ]),
  ];
}
