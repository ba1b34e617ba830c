/**
 * The knowledge base's half of the consistency check: every record of `kb/products.json`
 * and every product section of the Markdown knowledge base must be a catalog product with
 * its price and availability, and every variant either lists (the records' `variants`, the
 * sections' variant tables) must agree with the catalog's (`variant-agreement.ts`).
 */

import { canonicalPrice } from '../../record/decimal-price.js';
import { offersOf } from '../../record/variant-offers.js';
import { streamKnowledgeBase } from '../emit/kb-reading.js';
import type { Availability } from '../model.js';
import { isRecordLike } from './agent-feeds/catalog-offers.js';
import { checkOfferAgrees, type FeedOfferRow } from './agent-feeds/offer-agreement.js';
import { isRecord, KB_PRODUCTS_FILE, readJson, stringField } from './bundle-layout.js';
import {
  type ProblemList,
  type Reference,
  type ReferenceProduct,
  reportMissing,
  SeenProducts,
} from './consistency-reference.js';
import type { BundleFiles } from './problem.js';
import { kbProductRecords } from './schemas.js';

export function checkKbRecords(files: BundleFiles, reference: Reference, list: ProblemList): void {
  const records = kbProductRecords(readJson(files, KB_PRODUCTS_FILE));
  if (records === undefined) return;
  const seen = new SeenProducts(reference);
  for (const record of records) {
    const url = stringField(record, 'url');
    if (url === undefined) continue;
    const expected = reference.byUrl.get(url);
    if (expected === undefined) {
      list.add(KB_PRODUCTS_FILE, `${url} is not in the catalog`);
      continue;
    }
    seen.add(expected);
    for (const field of ['slug', 'price', 'currency', 'availability'] as const) {
      const actual = isRecord(record) ? record[field] : undefined;
      if (actual !== expected[field]) {
        list.add(
          KB_PRODUCTS_FILE,
          `${expected.slug}: ${field} is ${String(actual)}, the catalog says ${expected[field]}`,
        );
      }
    }
    checkRecordVariants(record, expected, reference, list);
  }
  reportMissing(KB_PRODUCTS_FILE, seen, reference, list);
}

/** The variants a kb/products.json record lists agree with the catalog's, and it lists them all. */
function checkRecordVariants(
  record: unknown,
  expected: ReferenceProduct,
  reference: Reference,
  list: ProblemList,
): void {
  const { offers } = reference;
  // A malformed record is the schema check's to report; one without variants has none to compare.
  if (!expected.hasVariants || offers === undefined || !isRecordLike(record)) return;
  // The record's own variants, as offers by the rule the catalog's were read with.
  const rows: FeedOfferRow[] = offersOf(record);
  const add = (path: string, message: string) => list.add(path, message);
  for (const row of rows) checkOfferAgrees(row, offers, SAME_WORDS, KB_PRODUCTS_FILE, add);
  reportMissingVariants(KB_PRODUCTS_FILE, rows, expected, list);
}

/** Every variant of the catalog's product must be among the rows a document lists for it. */
function reportMissingVariants(
  path: string,
  rows: readonly FeedOfferRow[],
  expected: ReferenceProduct,
  list: ProblemList,
): void {
  const listed = new Set(rows.map((row) => row.variantId));
  for (const id of expected.variantIds) {
    if (!listed.has(id)) list.add(path, `${expected.slug} variant ${id} is in the catalog but missing here`);
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
    const expected = reference.byUrl.get(entry.link);
    if (expected === undefined) {
      list.add(path, `product ${entry.name} (${entry.link}) is not in the catalog`);
      continue;
    }
    seen.add(expected);
    const [amount = '', currency = ''] = entry.price.split(' ');
    if (canonicalPrice(amount) !== canonicalPrice(expected.price) || currency !== expected.currency) {
      list.add(
        path,
        `${expected.slug}: price is ${entry.price}, the catalog says ${expected.price} ${expected.currency}`,
      );
    }
    if (entry.availability !== expected.availability) {
      list.add(
        path,
        `${expected.slug}: availability is ${entry.availability}, the catalog says ${expected.availability}`,
      );
    }
    // A section with a variant table must list every variant in it.
    const rows = entry.variants.map(kbVariantRow);
    const { offers } = reference;
    const add = (where: string, message: string) => list.add(where, message);
    if (offers !== undefined) for (const row of rows) checkOfferAgrees(row, offers, SAME_WORDS, path, add);
    if (rows.length > 0) reportMissingVariants(path, rows, expected, list);
  }
  reportMissing(path, seen, reference, list);
}
