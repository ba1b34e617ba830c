/**
 * The knowledge base's half of the consistency check: every record of `kb/products.json`
 * and every product section of the Markdown knowledge base must be a catalog product with
 * its price and availability, and every variant either lists (the records' `variants`, the
 * sections' variant tables) must agree with the catalog's (`variant-agreement.ts`).
 */

import { offersOf } from '../../record/variant-offers.js';
import { streamKnowledgeBase } from '../emit/kb-reading.js';
import type { Availability } from '../model.js';
import type { FeedOfferRow } from './agent-feeds/feed-offer-row.js';
import { checkOfferAgrees } from './agent-feeds/offer-agreement.js';
import { isRecordLike } from './agent-feeds/record-like.js';
import { isRecord, KB_PRODUCTS_FILE, stringField } from './bundle-layout.js';
import type { CatalogProducts } from './catalog-products.js';
import { type ProblemList, type Reference, reportMissing, SeenProducts } from './consistency-reference.js';
import { digestOf } from './digests.js';
import { kbProductsOf } from './listed-records.js';
import type { Message, ProductText } from './pending-messages.js';
import type { BundleFiles } from './problem.js';

export function checkKbRecords(files: BundleFiles, reference: Reference, list: ProblemList): void {
  // Record by record (seeded or walked), never the whole document as one value.
  const records = kbProductsOf(files);
  if (records === undefined) return;
  const seen = new SeenProducts(reference);
  for (const record of records) {
    const url = stringField(record, 'url');
    if (url === undefined) continue;
    const expected = reference.products.find(url);
    if (expected === undefined) {
      list.add(KB_PRODUCTS_FILE, `${url} is not in the catalog`);
      continue;
    }
    seen.add(expected);
    checkRecordFields(record, expected, reference.products, list);
    checkRecordVariants(record, expected, reference, list);
  }
  reportMissing(KB_PRODUCTS_FILE, seen, reference, list);
}

/** A kb/products.json record states the catalog's slug, price, currency and availability. */
function checkRecordFields(
  record: unknown,
  expected: number,
  products: CatalogProducts,
  list: ProblemList,
): void {
  for (const field of ['slug', 'price', 'currency', 'availability'] as const) {
    const actual = isRecord(record) ? record[field] : undefined;
    const same =
      field === 'slug'
        ? products.slugIs(expected, actual)
        : field === 'price'
          ? products.priceIs(expected, actual)
          : actual === (field === 'currency' ? products.currency(expected) : products.availability(expected));
    if (same) continue;
    const said = String(actual);
    const catalogs = (text: ProductText) =>
      field === 'slug' || field === 'price'
        ? text[field]
        : field === 'currency'
          ? products.currency(expected)
          : products.availability(expected);
    list.add(KB_PRODUCTS_FILE, {
      place: products.sourceOf(expected),
      say: (text) => `${text.slug}: ${field} is ${said}, the catalog says ${catalogs(text)}`,
    });
  }
}

/** The variants a kb/products.json record lists agree with the catalog's, and it lists them all. */
function checkRecordVariants(
  record: unknown,
  expected: number,
  reference: Reference,
  list: ProblemList,
): void {
  const { offers } = reference;
  // A malformed record is the schema check's to report; one without variants has none to compare.
  if (!reference.products.hasVariants(expected) || offers === undefined || !isRecordLike(record)) return;
  // The record's own variants, as offers by the rule the catalog's were read with.
  const rows: FeedOfferRow[] = offersOf(record);
  const add = (path: string, message: Message) => list.add(path, message);
  for (const row of rows) checkOfferAgrees(row, offers, SAME_WORDS, KB_PRODUCTS_FILE, add);
  reportMissingVariants(KB_PRODUCTS_FILE, rows, expected, reference.products, list);
}

/** Every variant of the catalog's product must be among the rows a document lists for it. */
function reportMissingVariants(
  path: string,
  rows: readonly FeedOfferRow[],
  expected: number,
  products: CatalogProducts,
  list: ProblemList,
): void {
  const listed = new Set(rows.map((row) => digestOf(row.variantId)));
  for (const [at, id] of products.variantIds(expected).entries()) {
    if (!listed.has(id))
      list.add(path, {
        place: products.sourceOf(expected),
        say: ({ slug, variantIds }) => `${slug} variant ${variantIds[at]} is in the catalog but missing here`,
      });
  }
}

/** The knowledge base states availability in the catalog's own words. */
const SAME_WORDS: Readonly<Record<Availability, string>> = {
  in_stock: 'in_stock',
  out_of_stock: 'out_of_stock',
  coming_soon: 'coming_soon',
};

/**
 * A variant table row as an offer: the table states the price paid now and the "was"
 * price, the feeds' terms the regular price and the sale price (`offerOf`).
 */
function kbVariantRow(entry: { id: string; price: string; was: string; availability: string }): FeedOfferRow {
  const [amount = '', currency = ''] = entry.price.split(' ');
  const [was = ''] = entry.was.split(' ');
  return {
    variantId: entry.id,
    price: was === '' ? amount : was,
    ...(was === '' ? {} : { salePrice: amount }),
    currency,
    availability: entry.availability,
  };
}

export function checkKnowledgeBaseMarkdown(
  files: BundleFiles,
  path: string,
  reference: Reference,
  list: ProblemList,
): void {
  const seen = new SeenProducts(reference);
  // Section by section as the lines are read: the sections are never gathered.
  for (const entry of streamKnowledgeBase(files, path)?.sections ?? []) {
    const { products } = reference;
    const expected = products.find(entry.link);
    if (expected === undefined) {
      list.add(path, `product ${entry.name} (${entry.link}) is not in the catalog`);
      continue;
    }
    seen.add(expected);
    const [amount = '', currency = ''] = entry.price.split(' ');
    const catalogCurrency = products.currency(expected);
    if (!products.samePrice(expected, amount) || currency !== catalogCurrency) {
      list.add(path, {
        place: products.sourceOf(expected),
        say: ({ slug, price }) =>
          `${slug}: price is ${entry.price}, the catalog says ${price} ${catalogCurrency}`,
      });
    }
    const availability = products.availability(expected);
    if (entry.availability !== availability) {
      list.add(path, {
        place: products.sourceOf(expected),
        say: ({ slug }) => `${slug}: availability is ${entry.availability}, the catalog says ${availability}`,
      });
    }
    // A section with a variant table must list every variant in it.
    const rows = entry.variants.map(kbVariantRow);
    const { offers } = reference;
    const add = (where: string, message: Message) => list.add(where, message);
    if (offers !== undefined) for (const row of rows) checkOfferAgrees(row, offers, SAME_WORDS, path, add);
    if (rows.length > 0) reportMissingVariants(path, rows, expected, products, list);
  }
  reportMissing(path, seen, reference, list);
}
