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
import { stringify } from 'csv-stringify/sync';
import { OPENAI_FEED_DIR, OPENAI_MANIFEST_FILE } from '../../emit/agent-feeds/openai-feed.js';
import { OPENAI_AVAILABILITY } from '../../emit/agent-feeds/openai-row.js';
import { isRecord, readJson } from '../bundle-layout.js';
import type { BundleFiles } from '../problem.js';
import type { CatalogOffers } from './catalog-offers.js';
import { checkOfferAgrees, type FeedOfferRow, type Report } from './offer-agreement.js';
import { checkOpenAiRow, type RowRecord } from './openai-rules.js';
import { textLines } from './text-lines.js';

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
  for (const [line, number] of textLines(text)) {
    if (line === '') continue;
    try {
      const value: unknown = JSON.parse(line);
      if (isRecord(value)) rows.push(value);
      else report(path, `line ${number} is not a JSON object`);
    } catch {
      report(path, `line ${number} is not valid JSON`);
    }
  }
  return rows;
}

/** A JSON Lines value as its CSV cell: lists comma-joined, an object as JSON text. */
function cellText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (Array.isArray(value)) return value.join(',');
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** A CSV shard read row by row (no row kept): how many rows, the first that differs from its JSON Lines twin, or why it is not CSV. */
interface CsvReading {
  rows: number;
  /** 0-based; undefined when every row says what the twin's row says (or there is no twin). */
  mismatch?: number;
  error?: string;
}

/**
 * True when the CSV is, byte for byte, its header followed by the twin's rows written by
 * csv-stringify (the writer made to be read back by csv-parse, with its default quoting):
 * then csv-parse would read exactly the twin's cells back, and the shard need not be
 * parsed (csv-parse was a third of a cold gate's time). Anything else, a header that
 * would not make one record per row included, is parsed.
 */
function writesTwin(text: string, twin: readonly RowRecord[]): boolean {
  const headerEnd = text.indexOf('\n');
  if (headerEnd < 0) return false;
  let columns: unknown;
  try {
    [columns] = parse(text.slice(0, headerEnd + 1)) as unknown[];
  } catch {
    return false;
  }
  // One column could write an empty line, which csv-parse skips; a repeated name loses a cell.
  if (!Array.isArray(columns) || columns.length < 2 || new Set(columns).size !== columns.length) return false;
  const names = columns.map(String);
  if (text.length - headerEnd - 1 < twin.length) return false;
  const rows = stringify(
    twin.map((row) => names.map((column) => cellText(row[column]))),
    { record_delimiter: '\n' },
  );
  return text.length === headerEnd + 1 + rows.length && text.endsWith(rows);
}

function readCsvRows(text: string, twin: readonly RowRecord[] | undefined): CsvReading {
  if (twin !== undefined && writesTwin(text, twin)) return { rows: twin.length };
  let rows = 0;
  let mismatch: number | undefined;
  try {
    parse(text, {
      columns: true,
      skip_empty_lines: true,
      // Each record compared as it is parsed and dropped: a shard's rows are never all held.
      on_record: (record: Record<string, string>) => {
        const row = twin?.[rows];
        if (
          mismatch === undefined &&
          row !== undefined &&
          Object.entries(record).some(([column, cell]) => cellText(row[column]) !== cell)
        )
          mismatch = rows;
        rows += 1;
        return null;
      },
    });
  } catch (error) {
    // Not CSV: no rows, so nothing to compare.
    return { rows: 0, error: error instanceof Error ? error.message : String(error) };
  }
  return mismatch === undefined ? { rows } : { rows, mismatch };
}

/**
 * One shard pair at a time: a JSON Lines shard's rows are parsed, its CSV twin is compared
 * with them row by row, the rows are checked, and both are dropped before the next pair,
 * so the gate holds one shard of rows (10,000) whatever the catalog's size. The problems
 * are listed in the order checking every shard first, then the twins, then the rows gave.
 */
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
  type Said = [path: string, message: string];
  const ofEntry: Said[][] = manifestFiles.map(() => []);
  const ofTwins: Said[] = [];
  const rows = new RowChecks(catalog);
  const csvReadings = new Map<string, CsvReading>();
  /** The manifest's checks of one shard (missing, digest); its text when it is there. */
  const shardText = (index: number, entry: ManifestFile, path: string): string | undefined => {
    const text = files.get(path);
    if (text === undefined) {
      ofEntry[index]?.push([OPENAI_MANIFEST_FILE, `lists ${entry.path}, which is missing`]);
      return undefined;
    }
    if (createHash('sha256').update(text, 'utf8').digest('hex') !== entry.content_sha256) {
      ofEntry[index]?.push([
        path,
        'content does not match the manifest digest (corrupt, or changed after the build)',
      ]);
    }
    return text;
  };
  const countRows = (index: number, entry: ManifestFile, path: string, count: number) => {
    if (count !== entry.rows)
      ofEntry[index]?.push([path, `holds ${count} rows, the manifest says ${entry.rows}`]);
  };
  /** A CSV shard's checks; its reading against `twin` (its JSON Lines rows) when it has one. */
  const checkCsv = (index: number, twin?: readonly RowRecord[]): CsvReading | undefined => {
    const entry = manifestFiles[index];
    if (entry === undefined) return undefined;
    const path = entry.path.replace(/^\//, '');
    const text = shardText(index, entry, path);
    if (text === undefined) return undefined;
    const reading = readCsvRows(text, twin);
    if (reading.error !== undefined) ofEntry[index]?.push([path, `not valid CSV: ${reading.error}`]);
    countRows(index, entry, path, reading.rows);
    csvReadings.set(path, reading);
    return reading;
  };
  const done = new Set<number>();
  for (const [index, entry] of manifestFiles.entries()) {
    if (entry.format === 'csv.gz') continue;
    const path = entry.path.replace(/^\//, '');
    const text = shardText(index, entry, path);
    const shardRows =
      text === undefined
        ? []
        : parseJsonLines(text, (at, message) => ofEntry[index]?.push([at, message]), path);
    if (text !== undefined) countRows(index, entry, path, shardRows.length);
    if (entry.format !== 'jsonl.gz') continue;
    // Its CSV twin, where the manifest last lists it (a map of the shards would keep that one).
    const csvPath = path.replace(/\.jsonl\.gz$/, '.csv.gz');
    const twinIndex = manifestFiles.findLastIndex(
      (other) => other.format === 'csv.gz' && other.path.replace(/^\//, '') === csvPath,
    );
    const twin = twinIndex < 0 ? undefined : done.has(twinIndex) ? undefined : checkCsv(twinIndex, shardRows);
    done.add(twinIndex);
    const reading = twin ?? csvReadings.get(csvPath);
    if (reading === undefined) ofTwins.push([path, `has no CSV twin ${csvPath} in the manifest`]);
    else if (reading.mismatch !== undefined)
      ofTwins.push([
        csvPath,
        `row ${reading.mismatch + 1} differs from row ${reading.mismatch + 1} of ${path}`,
      ]);
    rows.check(path, shardRows);
  }
  for (const [index, entry] of manifestFiles.entries())
    if (entry.format === 'csv.gz' && !done.has(index)) checkCsv(index);
  for (const [path, message] of [...ofEntry.flat(), ...ofTwins]) report(path, message);
  rows.finish(report);
}

/** The rows' own rules, unique ids and agreement with the catalog, shard by shard; faults past MAX_ROW_FAULTS counted. */
class RowChecks {
  readonly #catalog: CatalogOffers | undefined;
  readonly #seen = new Set<string>();
  readonly #said: [path: string, message: string][] = [];
  #faults = 0;
  readonly #limited: Report = (path, message) => {
    this.#faults += 1;
    if (this.#faults <= MAX_ROW_FAULTS) this.#said.push([path, message]);
  };

  constructor(catalog: CatalogOffers | undefined) {
    this.#catalog = catalog;
  }

  check(path: string, rows: readonly RowRecord[]): void {
    for (const row of rows) {
      const id = cellText(row.item_id);
      for (const fault of checkOpenAiRow(row)) this.#limited(path, `item ${id}: ${fault}`);
      if (this.#seen.has(id)) this.#limited(path, `item_id ${id} appears twice`);
      this.#seen.add(id);
      if (this.#catalog !== undefined)
        checkOfferAgrees(toOfferRow(row), this.#catalog, OPENAI_AVAILABILITY, path, this.#limited);
    }
  }

  finish(report: Report): void {
    if (this.#catalog !== undefined) {
      for (const [variantId, variant] of this.#catalog.byVariant) {
        if (variant.hasImage && !this.#seen.has(variantId)) {
          this.#limited(
            OPENAI_MANIFEST_FILE,
            `catalog variant ${variantId} (${variant.slug}) is missing from the feed`,
          );
        }
      }
    }
    for (const [path, message] of this.#said) report(path, message);
    if (this.#faults > MAX_ROW_FAULTS)
      report(OPENAI_MANIFEST_FILE, `${this.#faults - MAX_ROW_FAULTS} more faults not listed`);
  }
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
