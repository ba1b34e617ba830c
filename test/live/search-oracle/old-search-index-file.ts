/**
 * The oracle of the index's writer: `buildSearchIndexOfRows` as it was before it read each
 * row once (main at 1ac614a, live/search-index-file.ts): two passes over the rows, field
 * lengths first, then each product's weights summed as its words are read. Kept only so
 * search-index-build.test.ts can check that the one-pass writer makes the same file, to
 * the byte. Not shipped.
 */
import { ByteWriter } from '../../../live/byte-writer.js';
import { buildColumnsFile, type ColumnsRow } from '../../../live/search-columns-file.js';
import type { SearchIndexFile, SearchRow } from '../../../live/search-index-file.js';
import { tokenise } from '../../../live/search-tokens.js';

const BOOSTS = [4, 2, 2, 1, 1, 1.5] as const;
const K1 = 1.2;
const B = 0.75;

interface Posting {
  products: number[];
  weights: number[];
}

export function buildOldSearchIndexOfRows(
  count: number,
  rowAt: (product: number) => SearchRow,
): SearchIndexFile {
  const totals = BOOSTS.map(() => 0);
  for (let product = 0; product < count; product += 1) {
    rowAt(product).fields.forEach((text, field) => {
      totals[field] = (totals[field] ?? 0) + tokenise(text).length;
    });
  }
  const averages = totals.map((total) => total / Math.max(1, count) || 1);
  const byTerm = new Map<string, Posting>();
  const ids: string[] = [];
  const rows: ColumnsRow[] = [];
  for (let product = 0; product < count; product += 1) {
    const row = rowAt(product);
    ids.push(row.id);
    rows.push({ category: row.category, offers: row.offers });
    const weights = new Map<string, number>();
    row.fields.forEach((text, field) => {
      const tokens = tokenise(text);
      const boost = BOOSTS[field] ?? 1;
      const norm = 1 - B + (B * tokens.length) / (averages[field] ?? 1);
      for (const token of tokens) weights.set(token, (weights.get(token) ?? 0) + boost / norm);
    });
    for (const [term, weight] of weights) {
      const posting = byTerm.get(term) ?? { products: [], weights: [] };
      byTerm.set(term, posting);
      posting.products.push(product);
      posting.weights.push(weight);
    }
  }
  const terms = [...byTerm.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const impactOf = (term: string, weight: number): number => {
    const frequency = byTerm.get(term)?.products.length ?? 0;
    const idf = Math.log(1 + (count - frequency + 0.5) / (frequency + 0.5));
    return (idf * weight * (K1 + 1)) / (weight + K1);
  };
  let highest = 0;
  for (const term of terms) {
    for (const weight of byTerm.get(term)?.weights ?? []) highest = Math.max(highest, impactOf(term, weight));
  }
  const postingBytes = new ByteWriter();
  const impactBytes = new ByteWriter();
  const lengths: number[] = [];
  for (const term of terms) {
    const posting = byTerm.get(term) ?? { products: [], weights: [] };
    const start = postingBytes.length;
    let previous = 0;
    posting.products.forEach((product, index) => {
      postingBytes.varint(product - previous);
      previous = product;
      const impact = impactOf(term, posting.weights[index] ?? 0);
      impactBytes.byte(Math.max(1, Math.min(255, Math.round((impact / (highest || 1)) * 255))));
    });
    lengths.push(postingBytes.length - start);
  }
  return {
    format: 3,
    ids,
    ...buildColumnsFile(rows),
    terms,
    counts: terms.map((term) => byTerm.get(term)?.products.length ?? 0),
    lengths,
    postings: postingBytes.base64(),
    impacts: impactBytes.base64(),
  };
}
