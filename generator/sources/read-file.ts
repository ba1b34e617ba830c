/**
 * Reads an upstream file next to the config (a native catalog, a saved Shopify or
 * WooCommerce page, or a whole store's export) as a stream, a chunk at a time, handing its
 * products on in batches as they are read: the file is never held whole, so its size is not
 * bounded by memory or by the longest JavaScript string (a million-product
 * `{"products": [...]}` document is 1.4 GB). What is bounded is one product (or other root
 * member, or one line): `upstream.max_response_bytes`. A file named `.jsonl` or `.ndjson` is
 * JSON Lines, one product a line; anything else is one JSON document, `{"products": [...]}`
 * or a bare array. A missing or unreadable file is UPSTREAM_NETWORK and bad JSON
 * UPSTREAM_SHAPE naming the byte offset or line, so a file source fails a build exactly as
 * an unreachable store would.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { CatalogError } from '../errors.js';
import { splitNumberedLines } from '../http/split-lines.js';
import type { UpstreamFormat } from '../normalise/types.js';
import {
  describeExpectedList,
  detectFormatFromFirstItem,
  detectFormatFromLine,
  detectionError,
} from './documents.js';
import { readJsonItems } from './json-items.js';
import type { SourceBatch } from './source-batch.js';

export interface FileReadOptions {
  /** The configured format, or undefined to detect it from the file's first product. */
  format: UpstreamFormat | undefined;
  /** The largest product, other root member or line accepted, in bytes. */
  maxItemBytes: number;
}

/** Bytes read at once: large reads cost fewer system calls and awaits per product. */
const CHUNK_BYTES = 1024 * 1024;
/** Lines parsed per batch of a JSON Lines file. */
const LINE_BATCH = 500;
/** A bound on any one file read (a file's own size bounds it too). */
const MAX_FILE_BYTES = 64 * 1024 ** 3;

export function isJsonLinesPath(path: string): boolean {
  return /\.(?:jsonl|ndjson)$/i.test(path);
}

function cannotRead(path: string, cause: unknown): CatalogError {
  return new CatalogError(
    'UPSTREAM_NETWORK',
    `cannot read upstream file ${path}`,
    { url: path, file: path },
    { cause },
  );
}

export async function* readFileBatches(path: string, options: FileReadOptions): AsyncGenerator<SourceBatch> {
  try {
    await stat(path);
    const chunks = createReadStream(path, { highWaterMark: CHUNK_BYTES });
    yield* isJsonLinesPath(path) ? readLines(chunks, path, options) : readDocument(chunks, path, options);
  } catch (error) {
    throw error instanceof CatalogError ? error : cannotRead(path, error);
  }
}

function shapeError(path: string, format: UpstreamFormat): CatalogError {
  const expected = describeExpectedList(format);
  return new CatalogError('UPSTREAM_SHAPE', `upstream document at ${path} is not ${expected}`, {
    url: path,
    file: path,
    status: 200,
    expected,
  });
}

/** A WooCommerce listing is an array, a Shopify page an object; a native catalog may be either. */
function acceptsRoot(format: UpstreamFormat, root: 'array' | 'object'): boolean {
  if (format === 'native') return true;
  return root === (format === 'woocommerce' ? 'array' : 'object');
}

/**
 * The format is known at the first product, from the root's kind and that product (a root
 * object's members after its list are not waited for: the list may be gigabytes long).
 */
async function* readDocument(
  chunks: AsyncIterable<Buffer>,
  path: string,
  options: FileReadOptions,
): AsyncGenerator<SourceBatch> {
  const members = new Set<string>();
  let root: 'array' | 'object' = 'object';
  let list = false;
  let shape = options.format;
  const events = readJsonItems(chunks, {
    where: path,
    maxItemBytes: options.maxItemBytes,
    listKey: 'products',
  });
  for await (const run of events) {
    const items: unknown[] = [];
    for (const event of run) {
      if (event.kind === 'root') {
        root = event.root;
        list = root === 'array';
        if (shape !== undefined && !acceptsRoot(shape, root)) throw shapeError(path, shape);
      } else if (event.kind === 'list') list = true;
      else if (event.kind === 'member') members.add(event.key);
      else {
        shape ??= detectFormatFromFirstItem(root, event.value, (key) => members.has(key));
        items.push(event.value);
      }
    }
    if (shape !== undefined && items.length > 0) yield { format: shape, shape, items };
  }
  if (!list) throw shape === undefined ? detectionError(path) : shapeError(path, shape);
  shape ??= detectFormatFromFirstItem(root, undefined, (key) => members.has(key));
  // An empty list still says which format was read.
  yield { format: shape, shape, items: [] };
}

async function* readLines(
  chunks: AsyncIterable<Buffer>,
  path: string,
  options: FileReadOptions,
): AsyncGenerator<SourceBatch> {
  let shape = options.format;
  let items: unknown[] = [];
  const limits = { maxLineBytes: options.maxItemBytes, maxTotalBytes: MAX_FILE_BYTES };
  for await (const { text, line } of splitNumberedLines(chunks, path, limits)) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (cause) {
      throw new CatalogError(
        'UPSTREAM_SHAPE',
        `line ${line} of upstream file ${path} is not valid JSON (one product a line is expected in a .jsonl or .ndjson file)`,
        { url: path, file: path, line },
        { cause },
      );
    }
    shape ??= detectFormatFromLine(value);
    items.push(value);
    if (items.length >= LINE_BATCH) {
      yield { format: shape, shape, items };
      items = [];
    }
  }
  const format = shape ?? 'native';
  yield { format, shape: format, items };
}
