/**
 * The one owner of "the catalog's products of a bundle" and of `kb/products.json`'s records,
 * for every checker that walks them: the value the build serialised the document from when
 * it has one (`serialisedValue`), else the document walked record by record from its bytes
 * (`json-walk.ts`), a directory's parted catalog part by part. Nothing here keeps the
 * records: each iteration walks the document again, because at a million products the
 * catalog's text (2.6 GB) and its tree do not fit the heap. What is kept per bundle is the
 * envelope only (every field but the records, and how many there are).
 */
import { isRecord, KB_PRODUCTS_FILE, locateDocuments } from './bundle-layout.js';
import { type JsonEnvelope, type ListPlace, readJsonEnvelope, walkJsonRecords } from './json-walk.js';
import { documentChunks, serialisedValue } from './parse-once.js';
import type { BundleFiles } from './problem.js';

export type { JsonEnvelope } from './json-walk.js';

const envelopesByBundle = new WeakMap<BundleFiles, Map<string, JsonEnvelope>>();

/** A document's bytes chunk by chunk when the bundle has them, else its text (a live site's). */
function documentPieces(files: BundleFiles, path: string): Iterable<string | Uint8Array> {
  const chunks = documentChunks(files, path);
  if (chunks !== undefined) return chunks;
  const text = files.get(path);
  return text === undefined ? [] : [text];
}

function listOf(value: unknown, place: ListPlace): unknown[] | undefined {
  if (place === 'root-or-products' && Array.isArray(value)) return value;
  return isRecord(value) && Array.isArray(value.products) ? value.products : undefined;
}

function envelopeOfValue(value: unknown, place: ListPlace): JsonEnvelope {
  const list = listOf(value, place);
  if (list === undefined) return { ok: true, value, records: undefined };
  // Spread field by field: the seed's `products` may be a view over records on disk, not read here.
  return {
    ok: true,
    value: Array.isArray(value) ? [] : { ...(value as object), products: [] },
    records: list.length,
  };
}

/**
 * The document's envelope: its fields but the records, and how many records it lists (or
 * whether its JSON is invalid). Undefined when the bundle has no such file. Walked once per
 * bundle and kept, since several checkers ask.
 */
export function listedEnvelope(files: BundleFiles, path: string, place: ListPlace): JsonEnvelope | undefined {
  if (!files.has(path)) return undefined;
  const seed = serialisedValue(files, path);
  if (seed !== undefined) return envelopeOfValue(seed.value, place);
  let envelopes = envelopesByBundle.get(files);
  if (envelopes === undefined) {
    envelopes = new Map();
    envelopesByBundle.set(files, envelopes);
  }
  const key = `${place}\u0000${path}`;
  const known = envelopes.get(key);
  if (known !== undefined) return known;
  const envelope = readJsonEnvelope(documentPieces(files, path), place);
  envelopes.set(key, envelope);
  return envelope;
}

/**
 * The records of a document that lists them, walked anew each time they are iterated;
 * undefined when the document is missing, is not JSON, or has no list where `place` says.
 */
export function listedRecords(
  files: BundleFiles,
  path: string,
  place: ListPlace,
): Iterable<unknown> | undefined {
  const seed = serialisedValue(files, path);
  if (seed !== undefined && files.has(path)) return listOf(seed.value, place);
  const envelope = listedEnvelope(files, path, place);
  if (envelope === undefined || !envelope.ok || envelope.records === undefined) return undefined;
  return { [Symbol.iterator]: () => walkJsonRecords(documentPieces(files, path), place) };
}

/** The catalog's products (the bundle's `agent-catalog.json`, wherever the layout puts it). */
export function catalogProductsOf(files: BundleFiles): Iterable<unknown> | undefined {
  const { catalogFile } = locateDocuments(files);
  return catalogFile === undefined ? undefined : listedRecords(files, catalogFile, 'products');
}

/** The catalog's envelope (merchant, generated, count, …, `products: []`). */
export function catalogEnvelopeOf(files: BundleFiles, catalogFile: string): JsonEnvelope | undefined {
  return listedEnvelope(files, catalogFile, 'products');
}

/** `kb/products.json`'s records: the file is either an array of them or an object with `products`. */
export function kbProductsOf(files: BundleFiles): Iterable<unknown> | undefined {
  return listedRecords(files, KB_PRODUCTS_FILE, 'root-or-products');
}

export function kbEnvelopeOf(files: BundleFiles): JsonEnvelope | undefined {
  return listedEnvelope(files, KB_PRODUCTS_FILE, 'root-or-products');
}
