/**
 * The gate's reading of OpenAI's product feed: the manifest lists every shard and no other
 * file sits beside them; each shard holds the rows and the content digest the manifest
 * says; every JSON Lines row passes OpenAI's field rules (`openai-rules.ts`); the CSV
 * shard says cell for cell what its JSON Lines twin says; item ids are unique; and every
 * row agrees with the catalog on the variant's price, sale price, availability and link,
 * with every catalog variant that has an image present.
 */

import { createHash, type Hash } from 'node:crypto';
import { OPENAI_FEED_DIR, OPENAI_MANIFEST_FILE } from '../../emit/agent-feeds/openai-feed.js';
import { OPENAI_AVAILABILITY } from '../../emit/agent-feeds/openai-row.js';
import { isRecord, readJson } from '../bundle-layout.js';
import { digestOf } from '../digests.js';
import type { Message } from '../pending-messages.js';
import type { BundleFiles } from '../problem.js';
import { documentTexts, linesOf } from '../text-lines.js';
import type { CatalogOffers } from './catalog-offers.js';
import { type CsvReading, cellText, readCsvRows, WrittenTwin } from './csv-twin.js';
import type { FeedOfferRow } from './feed-offer-row.js';
import { checkOfferAgrees, type Report } from './offer-agreement.js';
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

type Said = [path: string, message: string];

/** The JSON Lines rows of a shard's lines, one at a time; a line that is not a JSON object is said and skipped. */
function* jsonRows(
  lines: Iterable<[line: string, number: number]>,
  say: (message: string) => void,
): Generator<RowRecord> {
  for (const [line, number] of lines) {
    if (line === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      say(`line ${number} is not valid JSON`);
      continue;
    }
    if (isRecord(value)) yield value;
    else say(`line ${number} is not a JSON object`);
  }
}

/** The pieces of a text as they are read, each added to `hash` on the way. */
function* hashing(texts: Iterable<string>, hash: Hash): Generator<string> {
  for (const text of texts) {
    hash.update(text, 'utf8');
    yield text;
  }
}

/**
 * One shard pair at a time, one row at a time: a JSON Lines shard is read line by line
 * from its bytes, each row checked as it is parsed and written beside its CSV twin's bytes
 * as they are read (or, when the twin is not what csv-stringify writes, the twin parsed
 * and compared record by record with the shard read again). Only the ids seen and the
 * problems are kept across rows, so the gate never holds a shard's rows, nor its text.
 * The problems are listed in the order checking every shard first, then the twins, then
 * the rows gave.
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
  const ofEntry: Said[][] = manifestFiles.map(() => []);
  const ofTwins: Said[] = [];
  const rows = new RowChecks(catalog);
  const csvReadings = new Map<string, CsvReading>();
  /** A shard's text as it is read, and whether it matched the manifest's digest once read; undefined (said) when it is missing. */
  const shardTexts = (index: number, entry: ManifestFile, path: string) => {
    const texts = documentTexts(files, path);
    if (texts === undefined) {
      ofEntry[index]?.push([OPENAI_MANIFEST_FILE, `lists ${entry.path}, which is missing`]);
      return undefined;
    }
    const hash = createHash('sha256');
    const checkDigest = () => {
      if (hash.digest('hex') !== entry.content_sha256) {
        ofEntry[index]?.push([
          path,
          'content does not match the manifest digest (corrupt, or changed after the build)',
        ]);
      }
    };
    return { texts: hashing(texts, hash), checkDigest };
  };
  const countRows = (index: number, entry: ManifestFile, path: string, count: number) => {
    if (count !== entry.rows)
      ofEntry[index]?.push([path, `holds ${count} rows, the manifest says ${entry.rows}`]);
  };
  type Shard = NonNullable<ReturnType<typeof shardTexts>>;
  /** A CSV shard's own checks once it is read: its digest, whether it is CSV, its row count. */
  const sayCsv = (index: number, entry: ManifestFile, shard: Shard, reading: CsvReading): CsvReading => {
    const path = entry.path.replace(/^\//, '');
    shard.checkDigest();
    if (reading.error !== undefined) ofEntry[index]?.push([path, `not valid CSV: ${reading.error}`]);
    countRows(index, entry, path, reading.rows);
    csvReadings.set(path, reading);
    return reading;
  };
  /** A CSV shard parsed and checked; its reading against `twin` (its JSON Lines rows, read again) when it has one. */
  const checkCsv = (index: number, entry: ManifestFile, twin?: () => Iterator<RowRecord>) => {
    const shard = shardTexts(index, entry, entry.path.replace(/^\//, ''));
    return shard === undefined ? undefined : sayCsv(index, entry, shard, readCsvRows(shard.texts, twin?.()));
  };
  const done = new Set<number>();
  for (const [index, entry] of manifestFiles.entries()) {
    if (entry.format === 'csv.gz') continue;
    const path = entry.path.replace(/^\//, '');
    // Its CSV twin, where the manifest last lists it (a map of the shards would keep that one).
    const csvPath = path.replace(/\.jsonl\.gz$/, '.csv.gz');
    const twinIndex =
      entry.format === 'jsonl.gz'
        ? manifestFiles.findLastIndex(
            (other) => other.format === 'csv.gz' && other.path.replace(/^\//, '') === csvPath,
          )
        : -1;
    const twinEntry = done.has(twinIndex) ? undefined : manifestFiles[twinIndex];
    // Read beside the shard as its rows come; its own checks wait for the shard's.
    const csvShard = twinEntry === undefined ? undefined : shardTexts(twinIndex, twinEntry, csvPath);
    const written = csvShard === undefined ? undefined : new WrittenTwin(csvShard.texts);
    const shard = shardTexts(index, entry, path);
    const lineFaults: Said[] = [];
    let count = 0;
    if (shard !== undefined) {
      for (const row of jsonRows(linesOf(shard.texts), (message) => lineFaults.push([path, message]))) {
        count += 1;
        rows.check(path, row);
        written?.accept(row);
      }
      shard.checkDigest();
      ofEntry[index]?.push(...lineFaults);
      countRows(index, entry, path, count);
    }
    if (entry.format !== 'jsonl.gz') continue;
    const again = () =>
      jsonRows(linesOf(shard === undefined ? [] : (documentTexts(files, path) ?? [])), () => undefined);
    let twin: CsvReading | undefined;
    if (twinEntry !== undefined && csvShard !== undefined && written !== undefined)
      twin = written.finish()
        ? sayCsv(twinIndex, twinEntry, csvShard, { rows: count })
        : checkCsv(twinIndex, twinEntry, again);
    done.add(twinIndex);
    const reading = twin ?? csvReadings.get(csvPath);
    if (reading === undefined) ofTwins.push([path, `has no CSV twin ${csvPath} in the manifest`]);
    else if (reading.mismatch !== undefined)
      ofTwins.push([
        csvPath,
        `row ${reading.mismatch + 1} differs from row ${reading.mismatch + 1} of ${path}`,
      ]);
  }
  for (const [index, entry] of manifestFiles.entries())
    if (entry.format === 'csv.gz' && !done.has(index)) checkCsv(index, entry);
  for (const [path, message] of [...ofEntry.flat(), ...ofTwins]) report(path, message);
  rows.finish(report);
}

/** The rows' own rules, unique ids and agreement with the catalog, row by row; faults past MAX_ROW_FAULTS counted. */
class RowChecks {
  readonly #catalog: CatalogOffers | undefined;
  readonly #seen = new Set<string>();
  /** The catalog's offers some row named, by offer number. */
  readonly #seenOffers: Uint8Array;
  readonly #said: [path: string, message: Message][] = [];
  #faults = 0;
  readonly #limited: Report = (path, message) => {
    this.#faults += 1;
    if (this.#faults <= MAX_ROW_FAULTS) this.#said.push([path, message]);
  };

  constructor(catalog: CatalogOffers | undefined) {
    this.#catalog = catalog;
    this.#seenOffers = new Uint8Array(catalog?.size ?? 0);
  }

  check(path: string, row: RowRecord): void {
    const id = cellText(row.item_id);
    for (const fault of checkOpenAiRow(row)) this.#limited(path, `item ${id}: ${fault}`);
    if (this.#seen.has(id)) this.#limited(path, `item_id ${id} appears twice`);
    this.#seen.add(id);
    if (this.#catalog === undefined) return;
    const offer = checkOfferAgrees(toOfferRow(row), this.#catalog, OPENAI_AVAILABILITY, path, this.#limited);
    if (offer !== -1) this.#seenOffers[offer] = 1;
  }

  finish(report: Report): void {
    for (const { offer, id } of this.#catalog?.unseenWithImage(this.#seenOffers) ?? []) {
      this.#limited(OPENAI_MANIFEST_FILE, {
        place: this.#catalog?.place(offer) ?? 0,
        say: ({ slug, offers }) => {
          const variantId = offers.findLast((candidate) => digestOf(candidate.variantId) === id)?.variantId;
          return `catalog variant ${variantId} (${slug}) is missing from the feed`;
        },
      });
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
