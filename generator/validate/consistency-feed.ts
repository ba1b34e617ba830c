/**
 * The feed's half of the cross-document consistency check: every item of feed.xml must
 * be a catalog variant (by `g:id`) with the catalog's regular price, sale price,
 * availability and link (`variant-agreement.ts`), and the catalog's shipping terms, or no
 * `g:shipping` at all for a variant that ships nothing. The feed may leave a variant out
 * (one that breaks a Google item rule, `emit/feed-rules.ts`), so, unlike the other
 * documents, it need not list every catalog variant. A catalog written before products
 * had variants is compared product by product, by link.
 */
import { FEED_AVAILABILITY } from '../emit/feed-item.js';
import type { Availability } from '../model.js';
import { type FeedFacts, readFeedItems } from './consistency-sources.js';
import type { BundleFiles } from './problem.js';
import { checkVariantAgreement, type ReferenceVariant, type VariantRow } from './variant-agreement.js';

export { canonicalPrice } from './variant-agreement.js';

/** What the documents are compared against: one catalog product. */
export interface ReferenceProduct {
  slug: string;
  price: string;
  currency: string;
  availability: Availability;
  shipping?: string;
  /** False for a record without `variants` (a catalog from before variants). */
  hasVariants: boolean;
  /** The ids of the record's variants, in its order. */
  variantIds: string[];
}

type FeedItemFacts = FeedFacts['items'][number];
type Add = (path: string, message: string) => void;

/** A product without variants as the one variant the feed's item stands for. */
function legacyVariant(item: FeedItemFacts, url: string, product: ReferenceProduct): ReferenceVariant {
  return {
    slug: product.slug,
    row: {
      variantId: item.id,
      price: `${product.price} ${product.currency}`,
      availability: product.availability,
      url,
    },
    requiresShipping: true,
    ...(product.shipping === undefined ? {} : { shipping: product.shipping }),
  };
}

function rowOf(item: FeedItemFacts): VariantRow {
  return {
    variantId: item.id,
    price: item.price,
    ...(item.salePrice === '' ? {} : { salePrice: item.salePrice }),
    availability: item.availability,
    url: item.link,
  };
}

export function checkFeedItems(
  files: BundleFiles,
  reference: {
    variants: ReadonlyMap<string, ReferenceVariant>;
    byUrl: ReadonlyMap<string, ReferenceProduct>;
  },
  add: Add,
): void {
  const feed = readFeedItems(files);
  if (feed === undefined) return;
  const target = { path: feed.path, add, availabilityOf: (value: Availability) => FEED_AVAILABILITY[value] };
  for (const item of feed.items) {
    const legacy = reference.byUrl.get(item.link);
    const variants =
      reference.variants.has(item.id) || legacy === undefined || legacy.hasVariants
        ? reference.variants
        : new Map([[item.id, legacyVariant(item, item.link, legacy)]]);
    const [expected] = checkVariantAgreement([rowOf(item)], variants, target);
    if (expected !== undefined) checkShippingAgrees(feed.path, item.shipping, expected, add);
  }
}

/** The catalog's shipping sentence must begin with the terms the feed's g:shipping states. */
function checkShippingAgrees(
  path: string,
  shipping: FeedItemFacts['shipping'],
  expected: ReferenceVariant,
  add: Add,
): void {
  if (shipping === undefined) return;
  const subject = `${expected.slug} variant ${expected.row.variantId}`;
  if (!expected.requiresShipping) {
    add(path, `${subject}: ships nothing (requires_shipping false), yet the item has g:shipping`);
    return;
  }
  if ('problem' in shipping) {
    add(path, `${subject}: ${shipping.problem}`);
    return;
  }
  if (!(expected.shipping ?? '').startsWith(shipping.terms)) {
    add(
      path,
      `${subject}: g:shipping says "${shipping.terms}", the catalog's shipping says "${expected.shipping ?? '(nothing)'}"`,
    );
  }
}
