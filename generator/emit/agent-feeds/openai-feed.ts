/**
 * OpenAI's product feed, when `agent_feeds.openai.enabled`: a full snapshot of every
 * variant as one row, in JSON Lines and in CSV, each gzip-compressed and cut into shards of
 * `shard_rows` rows, with a manifest that lists the files. Rows are ordered by product
 * slug, then the store's variant order, and shard N always holds rows N·size+1 onwards,
 * so the file names (`shards/products-0001.jsonl.gz`, …) are stable and a build that changes
 * nothing writes the same bytes. Each shard is its own bounded string; no file holds the
 * whole feed.
 */

import { createHash } from 'node:crypto';
import { stringify } from 'csv-stringify/sync';
import type { Artifact } from '../../artifact.js';
import { openAiFeedSettings } from '../../config-agent-feeds.js';
import type { BuildPlan } from '../../plan.js';
import { jsonBody } from '../json.js';
import { buildOpenAiRow, OPENAI_COLUMNS, type OpenAiRow } from './openai-row.js';

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

/** The fragment kind of a product's rows: each row as its JSON line and its CSV line. */
const OPENAI_ROWS = 'openai-rows';

/** A product's rows, each as its JSON line and its CSV line (CSV quotes field by field, so lines join). */
function renderProductRows(rows: readonly OpenAiRow[]): [json: string, csv: string][] {
  return rows.map((row) => [
    `${JSON.stringify(row)}\n`,
    stringify([csvCells(row)], { record_delimiter: '\n' }),
  ]);
}

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

export function emitOpenAiFeed(plan: BuildPlan): Artifact[] {
  const settings = openAiFeedSettings(plan.config.agent_feeds, plan.config.merchant.ships_to);
  if (settings === undefined) return [];
  // Each product's rows, copied from the last build when the product did not change.
  const rows: [json: string, csv: string][] = [];
  for (const planned of plan.products) {
    const bytes = plan.fragments.bytes(OPENAI_ROWS, planned, () => {
      const own = planned.record.variants.flatMap((variant) => {
        const row = buildOpenAiRow(planned.record, variant, plan.config, settings);
        return row === undefined ? [] : [row];
      });
      return JSON.stringify(renderProductRows(own));
    });
    rows.push(...(JSON.parse(bytes.toString('utf8')) as [string, string][]));
  }
  const header = stringify([[...OPENAI_COLUMNS]], { record_delimiter: '\n' });
  const artifacts: Artifact[] = [];
  const files: { path: string; format: string; rows: number; content_sha256: string }[] = [];
  const shards = Math.max(1, Math.ceil(rows.length / settings.shard_rows));
  for (let index = 0; index < shards; index += 1) {
    const shard = rows.slice(index * settings.shard_rows, (index + 1) * settings.shard_rows);
    for (const [format, body] of [
      ['jsonl', shard.map(([json]) => json).join('')],
      ['csv', header + shard.map(([, csv]) => csv).join('')],
    ] as const) {
      const path = shardFileName(index, format);
      artifacts.push({ path, mediaType: GZIP_MEDIA_TYPE, body, encoding: 'gzip' });
      files.push({
        path: `/${path}`,
        format: `${format}.gz`,
        rows: shard.length,
        content_sha256: sha256(body),
      });
    }
  }
  const manifest = {
    feed: 'openai-product-feed',
    generated: plan.generated,
    seller_name: settings.seller_name,
    target_countries: settings.target_countries,
    row_count: rows.length,
    shard_rows: settings.shard_rows,
    files,
  };
  artifacts.push({ path: OPENAI_MANIFEST_FILE, mediaType: 'application/json', ...jsonBody(manifest) });
  return artifacts;
}
