/**
 * The knowledge base's half of the consistency check: every record of `kb/products.json`
 * and every product section of the Markdown knowledge base must be a catalog product with
 * its price and availability, and every variant either lists (the records' `variants`, the
 * sections' variant tables) must agree with the catalog's (`variant-agreement.ts`).
 */
import { readKnowledgeBase } from '../emit/kb.js';
import { isRecord, KB_PRODUCTS_FILE, readJson, stringField } from './bundle-layout.js';
import type { ReferenceProduct } from './consistency-feed.js';
import { type ProblemList, type Reference, reportMissing } from './consistency-reference.js';
import type { BundleFiles } from './problem.js';
import { kbProductRecords } from './schemas.js';
import {
  canonicalPrice,
  checkVariantAgreement,
  collectReferenceVariants,
  offerRow,
  type VariantRow,
} from './variant-agreement.js';

export function checkKbRecords(files: BundleFiles, reference: Reference, list: ProblemList): void {
  const records = kbProductRecords(readJson(files, KB_PRODUCTS_FILE));
  if (records === undefined) return;
  const seen = new Set<string>();
  for (const record of records) {
    const url = stringField(record, 'url');
    if (url === undefined) continue;
    seen.add(url);
    const expected = reference.byUrl.get(url);
    if (expected === undefined) {
      list.add(KB_PRODUCTS_FILE, `${url} is not in the catalog`);
      continue;
    }
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
  if (!expected.hasVariants) return;
  // The record's own variants, read by the same rules as the catalog's, become its rows.
  const own = collectReferenceVariants([record], () => undefined);
  const rows = [...own.values()].map((variant) => variant.row);
  checkVariantAgreement(rows, reference.variants, { path: KB_PRODUCTS_FILE, add: (p, m) => list.add(p, m) });
  reportMissingVariants(KB_PRODUCTS_FILE, rows, expected, list);
}

/** Every variant of the catalog's product must be among the rows a document lists for it. */
function reportMissingVariants(
  path: string,
  rows: readonly VariantRow[],
  expected: ReferenceProduct,
  list: ProblemList,
): void {
  const listed = new Set(rows.map((row) => row.variantId));
  for (const id of expected.variantIds) {
    if (!listed.has(id)) list.add(path, `${expected.slug} variant ${id} is in the catalog but missing here`);
  }
}

/** A knowledge-base variant table row in the feeds' terms. */
function kbVariantRow(entry: { id: string; price: string; was: string; availability: string }): VariantRow {
  const [amount = '', currency = ''] = entry.price.split(' ');
  const was = entry.was === '' ? undefined : entry.was.split(' ')[0];
  return { ...offerRow(entry.id, amount, was, currency), availability: entry.availability };
}

export function checkKnowledgeBaseMarkdown(
  files: BundleFiles,
  path: string,
  reference: Reference,
  list: ProblemList,
): void {
  const seen = new Set<string>();
  for (const entry of readKnowledgeBase(files, path)?.products ?? []) {
    const expected = reference.byUrl.get(entry.link);
    seen.add(entry.link);
    if (expected === undefined) {
      list.add(path, `product ${entry.name} (${entry.link}) is not in the catalog`);
      continue;
    }
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
    checkVariantAgreement(rows, reference.variants, {
      path,
      add: (where, message) => list.add(where, message),
    });
    if (rows.length > 0) reportMissingVariants(path, rows, expected, list);
  }
  reportMissing(path, seen, reference, list);
}
