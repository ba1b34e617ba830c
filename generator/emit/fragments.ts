/**
 * Documents made of one fragment per product between a head and a tail (the catalog's
 * records, the feed's items, the knowledge base's sections…). Each emitter of such a
 * document names its fragment kind and how one product renders; where the bytes come from
 * is the plan's `fragments`: rendered every time (the default), or, in a build with a
 * cache, copied from the last build for every product whose digest did not change
 * (generator/cache/cached-fragments.ts). Both give the same bytes, so a rebuild's document
 * is the document a cold build would write, and the work is proportional to the change.
 *
 * The document is assembled as byte chunks, never as one string or one buffer: at 100,000
 * products the catalog is 261 MiB, a string that size is slow to build and close to V8's
 * limit, and a parted document is cut straight from its chunks (emit/document-storage.ts).
 */
import type { Artifact } from '../artifact.js';
import { chunkedArtifact } from '../compact-artifact.js';
import type { DocumentPiece } from '../document-pieces.js';
import type { BuildPlan, PlannedProduct, ProductElements, ProductFragments } from '../plan.js';
import { productAt } from '../product-store/planned-products.js';
import { recordsView } from '../product-store/records-view.js';
import { stableJson } from './json.js';

export const renderEveryFragment: ProductFragments = {
  bytes: (_kind, _product, render) => Buffer.from(render(), 'utf8'),
  // Rendered each time it is read, and held by nobody: a document's bytes are never all in
  // memory, at the cost of rendering twice a section two documents carry (the knowledge
  // base and llms-full.txt). Nothing caches it, so it has no key.
  elements: (kind, products, render) => ({
    length: products.length,
    slug: (index) => productAt(products, index, kind).record.slug,
    key: () => undefined,
    read: (index) => Buffer.from(render(productAt(products, index, kind)), 'utf8'),
  }),
  whole: (_kind, _key, _products, _members, render) => Buffer.from(render(), 'utf8'),
  runParts: () => undefined,
  keepRunParts: () => {},
  runLength: () => undefined,
  keepRunLength: () => {},
};

/** The key a shard's whole file is kept under: zero-padded, so shards asked for in order are read in one scan. */
export function shardKey(shard: number): string {
  return `shard-${String(shard).padStart(7, '0')}`;
}

/** `value` as `stableJson` writes it, one level in: how an element of a top-level array is laid out. */
export function indentedJson(value: unknown): string {
  return `    ${JSON.stringify(value, null, 2).replaceAll('\n', '\n    ')}`;
}

/** A placeholder no JSON value of ours holds: where the array's elements go. */
const ELEMENTS = '\u0000elements\u0000';
const ELEMENTS_LINE = `    ${JSON.stringify(ELEMENTS)}`;

/**
 * `stableJson(value)` where `value[key]` is an array of as many elements as `elements`, each
 * already laid out by `indentedJson`: the same bytes, as pieces in order, never joined into
 * the whole text or one buffer.
 */
export function jsonChunksWithElements(
  value: Record<string, unknown>,
  key: string,
  elements: ProductElements,
): DocumentPiece[] {
  if (elements.length === 0) return [Buffer.from(stableJson({ ...value, [key]: [] }), 'utf8')];
  const text = stableJson({ ...value, [key]: [ELEMENTS] });
  const at = text.indexOf(`\n${ELEMENTS_LINE}\n`);
  // `key` is a top-level key of what was written, so its one element sits one level in.
  if (at < 0) throw new TypeError(`jsonChunksWithElements: no "${key}" array one level in`);
  const head = Buffer.from(text.slice(0, at + 1), 'utf8');
  const tail = Buffer.from(text.slice(at + 1 + ELEMENTS_LINE.length), 'utf8');
  return [head, { elements, between: Buffer.from(',\n', 'utf8') }, tail];
}

/** The plan's fragments of `kind`, one per product in plan order, each read when needed. */
export function productElements(
  plan: BuildPlan,
  kind: string,
  render: (product: PlannedProduct) => string,
): ProductElements {
  return plan.fragments.elements(kind, plan.products, render);
}

/** The fragment kind of a product's record as an element of a top-level `products` array. */
export const RECORD_JSON = 'record-json';

/**
 * A JSON document (`stableJson` of `head` with `products`) whose `products` are the plan's
 * records in plan order, each record's text taken from the plan's fragments. `products`
 * goes right after the head's keys, as the object literal `{ ...head, products }` puts it.
 * The gate reads the records through a view (`recordsView`), never a copy of them.
 */
export function recordsJsonArtifact(
  plan: BuildPlan,
  fields: Omit<Artifact, 'body' | 'serialisedFrom' | 'encoding'>,
  head: Record<string, unknown>,
): Artifact {
  const elements = productElements(plan, RECORD_JSON, (product) => indentedJson(product.record));
  const frame = { ...head, products: [] };
  const chunks = jsonChunksWithElements(frame, 'products', elements);
  const serialisedFrom = {
    body: '',
    get value() {
      // A view, not a copy: a big catalog's records are read back from disk as the gate reads them.
      return { ...head, products: recordsView(plan.products) };
    },
  };
  return chunkedArtifact({ ...fields, body: '', serialisedFrom }, chunks);
}
