/**
 * The last bundle's catalog as the lastmod seed needs it (seed-lastmods.ts), read product
 * by product whether it is one file or stored in parts (`readDocumentChunks`, the reader
 * the last catalog's facts use), so neither its text nor its products are ever held: at
 * 1,000,000 products the catalog is 2.6 GB, past the longest string V8 makes. Each product
 * leaves three 8-byte numbers in typed arrays, by its place in the catalog: its slug's
 * digest, the first 8 bytes of its record's digest, and the digest of its Markdown page's
 * URL path (what the last sitemap dated). A catalog that cannot be read to its end, or is
 * no catalog, gives nothing.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ResolvedConfig } from '../config.js';
import { catalogPaths } from '../emit/catalog.js';
import { productMarkdownPath } from '../emit/sitemap-pages.js';
import { readDocumentChunks } from '../publish/read-parted.js';
import { readJsonItems } from '../sources/json-items.js';
import { isRecord } from '../validate/bundle-layout.js';
import { DigestColumn, digestOf } from '../validate/digests.js';
import { digestRecord } from './product-digest.js';

/** The last catalog's products, one entry a product in each column, in catalog order. */
export interface LastCatalogKeys {
  slugs: BigUint64Array;
  records: BigUint64Array;
  pages: BigUint64Array;
}

/** The first 8 bytes of a record's digest (`digestRecord`), to compare a record with the last catalog's. */
export function recordKey(record: unknown): bigint {
  return BigInt(`0x${digestRecord(record).slice(0, 16)}`);
}

/** The URL path of a product's Markdown page, as the sitemap's `loc` for it reads. */
export function pagePathOf(slug: string, config: ResolvedConfig): string {
  return new URL(productMarkdownPath(slug), config.site_url).pathname;
}

class KeyColumns {
  readonly slugs = new DigestColumn();
  readonly records = new DigestColumn();
  readonly pages = new DigestColumn();

  add(record: unknown, config: ResolvedConfig): void {
    const slug = isRecord(record) ? record.slug : undefined;
    // A product without a slug has no page the sitemap dated.
    if (typeof slug !== 'string') return;
    this.slugs.push(digestOf(slug));
    this.records.push(recordKey(record));
    this.pages.push(digestOf(pagePathOf(slug, config)));
  }

  finish(): LastCatalogKeys {
    return { slugs: this.slugs.finish(), records: this.records.finish(), pages: this.pages.finish() };
  }
}

/** Bytes handed to the item reader at once: its products of one chunk are parsed together, and a part is 16 MiB. */
const PIECE_BYTES = 1 << 20;

async function* piecesOf(chunks: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  for await (const chunk of chunks)
    for (let at = 0; at < chunk.length; at += PIECE_BYTES) yield chunk.subarray(at, at + PIECE_BYTES);
}

async function readKeys(
  out: string,
  path: string,
  config: ResolvedConfig,
): Promise<LastCatalogKeys | undefined> {
  const chunks = readDocumentChunks(out, path, { has: (file) => existsSync(join(out, file)) });
  const options = { where: join(out, path), listKey: 'products', maxItemBytes: Number.MAX_SAFE_INTEGER };
  let columns = new KeyColumns();
  let isArray = false;
  for await (const events of readJsonItems(piecesOf(chunks), options)) {
    for (const event of events) {
      if (event.kind === 'root') isArray = event.root === 'array';
      // As JSON.parse reads a member given twice: the last `products` counts.
      else if (event.kind === 'list' || (event.kind === 'member' && event.key === 'products'))
        columns = new KeyColumns();
      else if (event.kind === 'item' && !isArray) columns.add(event.value, config);
    }
  }
  // A bare array is no catalog.
  return isArray ? undefined : columns.finish();
}

/**
 * The last catalog's keys, or undefined when `out` holds none that reads to its end: a
 * missing file, bytes that are not one JSON document, a part that differs from its manifest
 * or a manifest that is not one all seed nothing, and never fail the build.
 */
export async function readLastCatalogKeys(
  out: string,
  config: ResolvedConfig,
): Promise<LastCatalogKeys | undefined> {
  const path = `${catalogPaths(config.base_url).catalogPath.slice(1)}.json`;
  try {
    return await readKeys(out, path, config);
  } catch {
    return undefined;
  }
}
