/**
 * The feed's half of the cross-document consistency check: every item of feed.xml must
 * be a catalog product with the catalog's price, availability and shipping terms. The
 * feed may leave a product out (one that breaks a Google item rule, `emit/feed-rules.ts`),
 * so, unlike the other documents, it need not list every catalog product.
 */
import { FEED_AVAILABILITY } from '../emit/feed-item.js';
import type { Availability } from '../model.js';
import { type FeedFacts, readFeedItems } from './consistency-sources.js';
import type { BundleFiles } from './problem.js';

/** What the documents are compared against: one catalog product. */
export interface ReferenceProduct {
  slug: string;
  price: string;
  currency: string;
  availability: Availability;
  shipping?: string;
}

/** Decimal text in one canonical form ("12.5" and "12.50" are the same price). */
export function canonicalPrice(price: string): string {
  const [whole = '', fraction = ''] = price.split('.');
  const trimmed = fraction.replace(/0+$/, '');
  return trimmed === '' ? whole : `${whole}.${trimmed}`;
}

/**
 * The feed may leave a catalog product out (one that breaks a Google item rule, see
 * `feed-rules.ts`), but every item it has must be a catalog product with the catalog's
 * price, availability and shipping terms.
 */
export function checkFeedItems(
  files: BundleFiles,
  byUrl: ReadonlyMap<string, ReferenceProduct>,
  add: (path: string, message: string) => void,
): void {
  const feed = readFeedItems(files);
  if (feed === undefined) return;
  for (const item of feed.items) {
    const expected = byUrl.get(item.link);
    if (expected === undefined) {
      add(feed.path, `item ${item.link} is not in the catalog`);
      continue;
    }
    const [amount = '', currency = ''] = item.price.split(' ');
    if (canonicalPrice(amount) !== canonicalPrice(expected.price) || currency !== expected.currency) {
      add(
        feed.path,
        `${expected.slug}: price is ${item.price}, the catalog says ${expected.price} ${expected.currency}`,
      );
    }
    const availability = FEED_AVAILABILITY[expected.availability];
    if (item.availability !== availability) {
      add(
        feed.path,
        `${expected.slug}: availability is ${item.availability}, the catalog's ${expected.availability} maps to ${availability}`,
      );
    }
    checkShippingAgrees(feed.path, item.shipping, expected, add);
  }
}

/** The catalog's shipping sentence must begin with the terms the feed's g:shipping states. */
function checkShippingAgrees(
  path: string,
  shipping: FeedFacts['items'][number]['shipping'],
  expected: ReferenceProduct,
  add: (path: string, message: string) => void,
): void {
  if (shipping === undefined) return;
  if ('problem' in shipping) {
    add(path, `${expected.slug}: ${shipping.problem}`);
    return;
  }
  if (!(expected.shipping ?? '').startsWith(shipping.terms)) {
    add(
      path,
      `${expected.slug}: g:shipping says "${shipping.terms}", the catalog's shipping says "${expected.shipping ?? '(nothing)'}"`,
    );
  }
}
