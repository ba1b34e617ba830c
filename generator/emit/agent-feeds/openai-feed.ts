/**
 * OpenAI's product feed, when `agent_feeds.openai.enabled`: a full snapshot of every
 * variant as one row, in JSON Lines and in CSV, each gzip-compressed and cut into shards of
 * `shard_rows` rows, with a manifest that lists the files. Rows are ordered by product
 * slug, then the store's variant order, and shard N always holds rows N·size+1 onwards,
 * so the file names (`shards/products-0001.jsonl.gz`, …) are stable and a build that changes
 * nothing writes the same bytes. The shards are made one at a time, each from its products'
 * cached rows, and yielded as they are made, so no more than one shard is held; a shard whose
 * products did not change is not made at all (its digests are the build cache's).
 */

import { createHash } from 'node:crypto';
import { stringify } from 'csv-stringify/sync';
import type { Artifact } from '../../artifact.js';
import { textDigestedArtifact } from '../../compact-artifact.js';
import { type OpenAiFeedSettings, openAiFeedSettings } from '../../config-agent-feeds.js';
import type { ProductRecord } from '../../model.js';
import type { BuildPlan, PlannedProducts } from '../../plan.js';
import { ListColumns } from '../../product-store/list-columns.js';
import { mapProducts, productAt } from '../../product-store/planned-products.js';
import { shardKey } from '../fragments.js';
import { jsonBody } from '../json.js';
import { buildOpenAiRow, hasOpenAiRow, OPENAI_COLUMNS, type OpenAiRow } from './openai-row.js';
import {
  decodeProductRows,
  encodeProductRows,
  type ProductRows,
  type RenderedRow,
} from './openai-rows-fragment.js';

export const OPENAI_FEED_DIR = 'feeds/openai';
export const OPENAI_MANIFEST_FILE = `${OPENAI_FEED_DIR}/manifest.json`;
/** The shards' own folder: served by one header rule however many there are (folder-header-rules.ts). */
export const OPENAI_SHARD_DIR = `${OPENAI_FEED_DIR}/shards`;
export const GZIP_MEDIA_TYPE = 'application/gzip';

export function shardFileName(index: number, format: 'jsonl' | 'csv'): string {
  return `${OPENAI_SHARD_DIR}/products-${String(index + 1).padStart(4, '0')}.${format}.gz`;
}

/** A row's cells as the CSV writes them: lists joined with commas, booleans as lower-case words. */
function csvCells(row: OpenAiRow): string[] {
  return OPENAI_COLUMNS.map((column) => {
    const value = row[column];
    if (value === undefined) return '';
    if (Array.isArray(value)) return value.join(',');
    return typeof value === 'object' ? JSON.stringify(value) : String(value);
  });
}

/** The fragment kind of a product's rows (openai-rows-fragment.ts). */
const OPENAI_ROWS = 'openai-rows';
/** The kind a shard's text digests are kept under, whole, by shard. */
const OPENAI_SHARDS = 'openai-shards';

/** A product's rows, each as its JSON line and its CSV line (CSV quotes field by field, so lines join). */
function renderProductRows(rows: readonly OpenAiRow[]): RenderedRow[] {
  return rows.map((row) => [
    `${JSON.stringify(row)}\n`,
    stringify([csvCells(row)], { record_delimiter: '\n' }),
  ]);
}

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The rows one product gives a shard: rows `from` to `to` (exclusive) of the product at `product`. */
interface Span {
  product: number;
  from: number;
  to: number;
}

/** Where the next shard begins: a product, and how many of its rows earlier shards hold. */
interface Cursor {
  product: number;
  skip: number;
}

/** The next `rows` rows from `start`, product by product, with where the shard after them begins. */
function cutShard(counts: ArrayLike<number>, start: Cursor, rows: number): { spans: Span[]; next: Cursor } {
  const spans: Span[] = [];
  let { product, skip } = start;
  for (let left = rows; left > 0; ) {
    const count = counts[product];
    if (count === undefined) throw new TypeError('cutShard: fewer rows than asked for');
    const take = Math.min(count - skip, left);
    if (take > 0) spans.push({ product, from: skip, to: skip + take });
    left -= take;
    if (skip + take < count) skip += take;
    else {
      product += 1;
      skip = 0;
    }
  }
  return { spans, next: { product, skip } };
}

/** Two SHA-256 digests in hex, as a shard's whole row keeps them. */
const DIGESTS = /^([0-9a-f]{64}) ([0-9a-f]{64})$/;

type ShardTexts = Record<'jsonl' | 'csv', Buffer>;

/**
 * How shards are made from products' rows: each product's rows copied from the last build
 * when it did not change (the last one read is kept, as a product whose rows span two
 * shards is asked for twice), checked against the count the shards were cut by.
 */
function shardRenderer(
  plan: BuildPlan,
  settings: OpenAiFeedSettings,
  counts: ArrayLike<number>,
): (spans: readonly Span[]) => ShardTexts {
  const header = Buffer.from(stringify([[...OPENAI_COLUMNS]], { record_delimiter: '\n' }), 'utf8');
  let last: { index: number; rows: ProductRows } | undefined;
  const rowsOf = (index: number): ProductRows => {
    if (last?.index === index) return last.rows;
    const planned = productAt(plan.products, index, 'emitOpenAiFeed');
    const rows = decodeProductRows(
      plan.fragments.bytes(OPENAI_ROWS, planned, () => {
        const own = planned.record.variants.flatMap((variant) => {
          const row = buildOpenAiRow(planned.record, variant, plan.config, settings);
          return row === undefined ? [] : [row];
        });
        return encodeProductRows(renderProductRows(own));
      }),
    );
    if (rows.count !== counts[index]) throw new TypeError(`emitOpenAiFeed: ${planned.record.slug}'s rows`);
    last = { index, rows };
    return rows;
  };
  return (spans) => {
    const json: Buffer[] = [];
    const csv: Buffer[] = [header];
    for (const { product, from, to } of spans) {
      const rows = rowsOf(product);
      json.push(rows.json(from, to));
      csv.push(rows.csv(from, to));
    }
    return { jsonl: Buffer.concat(json), csv: Buffer.concat(csv) };
  };
}

/**
 * One shard's two files, with their texts' digests. The texts are a function of the rows of
 * the products that give the shard rows (each a function of its digest, under the build's
 * settings), of the row of the first one where the shard starts, and of the shard's row
 * count: with those the same (the context and the members of `whole`), the digests kept
 * whole are the texts', which are then made only if the writer asks for them.
 */
function shardFiles(
  plan: BuildPlan,
  index: number,
  shard: { spans: readonly Span[]; skip: number; rows: number; size: number },
  renderShard: (spans: readonly Span[]) => ShardTexts,
): { format: 'jsonl' | 'csv'; artifact: Artifact; digest: string }[] {
  const members = shard.spans.map(({ product }) => product);
  let rendered: ShardTexts | undefined;
  const render = () => {
    rendered = renderShard(shard.spans);
    return `${sha256(rendered.jsonl)} ${sha256(rendered.csv)}`;
  };
  const context = `${shard.size} ${shard.skip} ${shard.rows}`;
  const kept = plan.fragments.whole(OPENAI_SHARDS, shardKey(index), plan.products, members, render, context);
  const digests = DIGESTS.exec(kept.toString('latin1')) ?? DIGESTS.exec(render());
  if (digests?.[1] === undefined || digests[2] === undefined)
    throw new TypeError('emitOpenAiFeed: no shard digests');
  const texts = rendered;
  return (
    [
      ['jsonl', digests[1]],
      ['csv', digests[2]],
    ] as const
  ).map(([format, digest]) => {
    const path = shardFileName(index, format);
    const text = () => (texts ?? renderShard(shard.spans))[format];
    return {
      format,
      digest,
      artifact: textDigestedArtifact({ path, mediaType: GZIP_MEDIA_TYPE }, digest, text),
    };
  });
}

/** How many rows of the feed a product has: one per variant with an image. */
export function countOpenAiRows(record: ProductRecord): number {
  let count = 0;
  for (const variant of record.variants) if (hasOpenAiRow(record, variant)) count += 1;
  return count;
}

/** Each product's row count, by the plan's list of products (which never changes once kept). */
const rowCountsByProducts = new ListColumns<ArrayLike<number>>("the OpenAI feed's row counts");

/** Remembers `counts` as `countOpenAiRows` of each product of `products`, in their order. */
export function rememberOpenAiRowCounts(products: PlannedProducts, counts: ArrayLike<number>): void {
  rowCountsByProducts.remember(products, counts);
}

export function* emitOpenAiFeed(plan: BuildPlan): Generator<Artifact> {
  const settings = openAiFeedSettings(plan.config.agent_feeds, plan.config.merchant.ships_to);
  if (settings === undefined) return;
  const size = settings.shard_rows;
  // Counted without building the rows, so a shard knows its products before reading any;
  // taken as the products were kept when the build gave them (`rememberOpenAiRowCounts`).
  const counts =
    rowCountsByProducts.of(plan.products) ??
    mapProducts(plan.products, ({ record }) => countOpenAiRows(record));
  let total = 0;
  for (let index = 0; index < counts.length; index += 1) total += counts[index] ?? 0;
  const renderShard = shardRenderer(plan, settings, counts);
  const files: { path: string; format: string; rows: number; content_sha256: string }[] = [];
  const shards = Math.max(1, Math.ceil(total / size));
  let cursor: Cursor = { product: 0, skip: 0 };
  // One shard at a time, yielded as it is made: its texts are let go once written.
  for (let index = 0; index < shards; index += 1) {
    const rows = Math.min(size, total - index * size);
    const { spans, next } = cutShard(counts, cursor, rows);
    for (const { format, artifact, digest } of shardFiles(
      plan,
      index,
      { spans, skip: cursor.skip, rows, size },
      renderShard,
    )) {
      yield artifact;
      files.push({ path: `/${artifact.path}`, format: `${format}.gz`, rows, content_sha256: digest });
    }
    cursor = next;
  }
  const manifest = {
    feed: 'openai-product-feed',
    generated: plan.generated,
    seller_name: settings.seller_name,
    target_countries: settings.target_countries,
    row_count: total,
    shard_rows: size,
    files,
  };
  yield { path: OPENAI_MANIFEST_FILE, mediaType: 'application/json', ...jsonBody(manifest) };
}
