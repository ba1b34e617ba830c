/**
 * The gate's reading of OpenAI's product feed: the manifest lists every shard and no other
 * file sits beside them; each shard holds the rows and the content digest the manifest
 * says; every JSON Lines row passes OpenAI's field rules (`openai-rules.ts`); the CSV
 * shard says cell for cell what its JSON Lines twin says; item ids are unique; and every
 * row agrees with the catalog on the variant's price, sale price, availability and link,
 * with every catalog variant that has an image present.
 */

import { createHash } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { OPENAI_FEED_DIR, OPENAI_MANIFEST_FILE } from '../../emit/agent-feeds/openai-feed.js';
import { OPENAI_AVAILABILITY } from '../../emit/agent-feeds/openai-row.js';
import { isRecord, readJson } from '../bundle-layout.js';
import type { BundleFiles } from '../problem.js';
import type { CatalogOffers } from './catalog-offers.js';
import { checkOfferAgrees, type FeedOfferRow, type Report } from './offer-agreement.js';
import { checkOpenAiRow, type RowRecord } from './openai-rules.js';

/** More faults than this per shard add nothing a reader can act on. */
const MAX_ROW_FAULTS = 20;

interface ManifestFile {
  path: string;
  format: string;
  rows: number;
  content_sha256: string;
}

function readManifestFiles(value: unknown): ManifestFile[] | undefined {
  if (!isRecord(value) || !Array.isArray(value.files)) return undefined;
  const files = value.files.filter(
    (entry): entry is ManifestFile =>
      isRecord(entry) &&
      typeof entry.path === 'string' &&
      typeof entry.format === 'string' &&
      typeof entry.rows === 'number' &&
      typeof entry.content_sha256 === 'string',
  );
  return files.length === value.files.length ? files : undefined;
}

function parseJsonLines(text: string, report: Report, path: string): RowRecord[] {
  const rows: RowRecord[] = [];
  for (const [index, line] of text.split('\n').entries()) {
    if (line === '') continue;
    try {
      const value: unknown = JSON.parse(line);
      if (isRecord(value)) rows.push(value);
      else report(path, `line ${index + 1} is not a JSON object`);
    } catch {
      report(path, `line ${index + 1} is not valid JSON`);
    }
  }
  return rows;
}

function parseCsvRows(text: string, report: Report, path: string): RowRecord[] {
  try {
    return parse(text, { columns: true, skip_empty_lines: true }) as RowRecord[];
  } catch (error) {
    report(path, `not valid CSV: ${error instanceof Error ? error.message : String(error)}`);
    return [];
  }
}

/** A JSON Lines value as its CSV cell: lists comma-joined, an object as JSON text. */
function cellText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (Array.isArray(value)) return value.join(',');
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

export function checkOpenAiFeed(
  files: BundleFiles,
  catalog: CatalogOffers | undefined,
  report: Report,
): void {
  const shardPaths = [...files.keys()].filter((path) => path.startsWith(`${OPENAI_FEED_DIR}/`));
  if (shardPaths.length === 0) return;
  const manifestFiles = readManifestFiles(readJson(files, OPENAI_MANIFEST_FILE));
  if (manifestFiles === undefined) {
    report(OPENAI_MANIFEST_FILE, 'missing or unreadable: it must list every shard of the OpenAI feed');
    return;
  }
  const listed = new Set(manifestFiles.map((entry) => entry.path.replace(/^\//, '')));
  for (const path of shardPaths) {
    if (path !== OPENAI_MANIFEST_FILE && !listed.has(path)) report(path, 'is not listed in the manifest');
  }
  const jsonRows = new Map<string, RowRecord[]>();
  for (const entry of manifestFiles) {
    const path = entry.path.replace(/^\//, '');
    const text = files.get(path);
    if (text === undefined) {
      report(OPENAI_MANIFEST_FILE, `lists ${entry.path}, which is missing`);
      continue;
    }
    if (createHash('sha256').update(text, 'utf8').digest('hex') !== entry.content_sha256) {
      report(path, 'content does not match the manifest digest (corrupt, or changed after the build)');
    }
    const rows =
      entry.format === 'csv.gz' ? parseCsvRows(text, report, path) : parseJsonLines(text, report, path);
    if (rows.length !== entry.rows)
      report(path, `holds ${rows.length} rows, the manifest says ${entry.rows}`);
    jsonRows.set(path, rows);
  }
  const all = compareFormats(manifestFiles, jsonRows, report);
  checkRows(all, catalog, report);
}

/** Each CSV shard must say what its JSON Lines twin says; returns the JSON Lines rows with their file. */
function compareFormats(
  manifestFiles: readonly ManifestFile[],
  rowsByPath: ReadonlyMap<string, RowRecord[]>,
  report: Report,
): { path: string; row: RowRecord }[] {
  const all: { path: string; row: RowRecord }[] = [];
  for (const entry of manifestFiles) {
    if (entry.format !== 'jsonl.gz') continue;
    const path = entry.path.replace(/^\//, '');
    const rows = rowsByPath.get(path) ?? [];
    for (const row of rows) all.push({ path, row });
    const csvPath = path.replace(/\.jsonl\.gz$/, '.csv.gz');
    const csvRows = rowsByPath.get(csvPath);
    if (csvRows === undefined) {
      report(path, `has no CSV twin ${csvPath} in the manifest`);
      continue;
    }
    const mismatch = rows.findIndex((row, index) =>
      Object.entries(csvRows[index] ?? {}).some(([column, cell]) => cellText(row[column]) !== cell),
    );
    if (mismatch >= 0) report(csvPath, `row ${mismatch + 1} differs from row ${mismatch + 1} of ${path}`);
  }
  return all;
}

function checkRows(
  all: readonly { path: string; row: RowRecord }[],
  catalog: CatalogOffers | undefined,
  report: Report,
): void {
  const seen = new Set<string>();
  let faults = 0;
  const limited: Report = (path, message) => {
    faults += 1;
    if (faults <= MAX_ROW_FAULTS) report(path, message);
  };
  for (const { path, row } of all) {
    const id = cellText(row.item_id);
    for (const fault of checkOpenAiRow(row)) limited(path, `item ${id}: ${fault}`);
    if (seen.has(id)) limited(path, `item_id ${id} appears twice`);
    seen.add(id);
    if (catalog !== undefined) checkOfferAgrees(toOfferRow(row), catalog, OPENAI_AVAILABILITY, path, limited);
  }
  if (catalog === undefined) return;
  for (const [variantId, variant] of catalog.byVariant) {
    if (variant.hasImage && !seen.has(variantId)) {
      limited(
        OPENAI_MANIFEST_FILE,
        `catalog variant ${variantId} (${variant.slug}) is missing from the feed`,
      );
    }
  }
  if (faults > MAX_ROW_FAULTS)
    report(OPENAI_MANIFEST_FILE, `${faults - MAX_ROW_FAULTS} more faults not listed`);
}

const PRICE_TEXT = /^(\S+) ([A-Z]{3})$/;

function toOfferRow(row: RowRecord): FeedOfferRow {
  const price = PRICE_TEXT.exec(cellText(row.price));
  const sale = PRICE_TEXT.exec(cellText(row.sale_price));
  return {
    variantId: cellText(row.item_id),
    url: cellText(row.url),
    price: price?.[1] ?? cellText(row.price),
    ...(sale === null ? {} : { salePrice: sale[1] }),
    currency: price?.[2] ?? '',
    availability: cellText(row.availability),
  };
}
