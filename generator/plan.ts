/**
 * The build plan: everything the emitters need, computed once by the pipeline
 * (resolveConfig → fetchUpstream → normalise → loadContent → merge → plan). Every
 * document of the bundle is a pure function of one plan, so they cannot disagree.
 */
import type { ShardCounts } from '../live/live-layout.js';
import type { ResolvedConfig } from './config.js';
import type { Catalog, Health, ProductRecord } from './model.js';
import type { PartSizes } from './parts/cut-parts.js';

/** A product: its canonical record, plus the build facts no document publishes as a field. */
export interface PlannedProduct {
  record: ProductRecord;
  /** Stable upstream identifier (used as the feed's g:id). */
  sourceId: string;
  /** Absolute URL of the main product image, when the upstream has one. */
  imageUrl?: string;
  /**
   * The description as Markdown when the store wrote it as HTML with structure the plain
   * `record.description` cannot carry (tables, lists, links); the Markdown documents use it.
   */
  descriptionMarkdown?: string;
  /** Upstream last-modified time (ISO 8601), when known; the sitemap's lastmod. */
  updatedAt?: string;
  /**
   * When this product's content last changed (ISO 8601), as the build cache remembers it
   * (generator/cache/): the sitemap's lastmod when the store gives no `updatedAt`.
   */
  changedAt?: string;
}

/**
 * The plan's products in slug order, read one at a time: an array for a small catalog, or
 * records kept on disk and read back pass by pass (generator/records/), so a big catalog
 * is never held in the heap whole. An array is one; an emitter walks it with `for…of` or
 * `at`, and keeps only what it derives from each product.
 */
export interface PlannedProducts extends Iterable<PlannedProduct> {
  readonly length: number;
  /** The product at `index` (0 ≤ index < length), undefined past the end. */
  at(index: number): PlannedProduct | undefined;
  /**
   * Each product's slug and digest by index, kept beside a list on disk so that a reader
   * that needs only those (a cached fragment, a packed shard) reads no product. A list
   * without it (an array) gives them from its products (product-store/product-keys.ts).
   */
  readonly keyColumn?: ProductKeyColumn;
}

/** The plan's products' slugs and digests, by index, without the products. */
export interface ProductKeyColumn {
  slug(index: number): string;
  /** The product's digest (`digestProduct`), hex. */
  digest(index: number): string;
}

/**
 * A document's fragments of one kind, one per product of the plan in plan order, read by
 * index when something needs them: a part of the document made of products that did not
 * change is kept from the last bundle without reading them at all (parts/run-parts.ts).
 * Nothing is held per product: a slug, a key or bytes is computed when asked.
 */
export interface ProductElements {
  readonly length: number;
  /** The product's slug: where a document's runs of products are cut. */
  slug(index: number): string;
  /** Names the bytes (fragment kind, slug and product digest); undefined when nothing caches them. */
  key(index: number): string | undefined;
  read(index: number): Buffer;
}

/** One part of a run of products, as an earlier build cut it (its file is named by its SHA-256). */
export interface RunPart {
  readonly length: number;
  readonly sha256: string;
}

/**
 * The plan's products a build's gate need not check again, by slug (every fragment copied
 * from a row a published build's gate passed; cache/cached-fragments.ts). Asked only of the
 * plan's own slugs; iterating gives those slugs in plan order.
 */
export interface ValidatedProducts extends Iterable<string> {
  /** How many of the plan's products. */
  readonly size: number;
  has(slug: string): boolean;
}

/**
 * Where an emitter gets one product's fragment of a big document (emit/fragments.ts):
 * `render` is called only when the bytes are not already known for this product.
 */
export interface ProductFragments {
  bytes(kind: string, product: PlannedProduct, render: () => string): Buffer;
  /**
   * The fragments of `kind` of every product of `products`, as a document's elements. They
   * hold no product: one is read back (from disk, for a big catalog) only to be rendered.
   */
  elements(
    kind: string,
    products: PlannedProducts,
    render: (product: PlannedProduct) => string,
  ): ProductElements;
  /**
   * The parts a run of a parted document was cut into by an earlier build, when the build
   * cache knows the run's `key` (its pieces and their digests); `members` are the run's
   * products, unchecked by this build's gate when the run was never validated.
   */
  runParts(key: string, members: Iterable<string>): readonly RunPart[] | undefined;
  /** Remembers how a run was cut, for the next build. */
  keepRunParts(key: string, parts: readonly RunPart[]): void;
  /** How many products a document's runs hold, as the last build chose it. */
  runLength(document: string): number | undefined;
  keepRunLength(document: string, length: number): void;
  /**
   * A file made of several products (a packed shard of pages or of UCP products), known
   * whole under `key`: copied when the same products at the same digests went into it
   * last time, so an unchanged shard costs one lookup and reads none of its products.
   * `members` are the indexes in `products` of the file's products, in its order; `render`
   * reads them only when the file must be made again. `context` names whatever else the
   * file was made from besides its members (where in its first member a feed shard
   * begins), so another context never copies it.
   */
  whole(
    kind: string,
    key: string,
    products: PlannedProducts,
    members: readonly number[],
    render: () => string,
    context?: string,
  ): Buffer;
}

/** The catalog document without its products, which a big catalog never holds at once. */
export type CatalogHead = Omit<Catalog, 'products'>;

/** A merchant article written as Markdown in `content/articles/`. */
export interface Article {
  slug: string;
  title: string;
  description?: string;
  /** Markdown body, front matter removed. */
  body: string;
  /** ISO 8601 date, when the front matter gives one. */
  updated?: string;
}

export interface BuildPlan {
  config: ResolvedConfig;
  /** ISO 8601 time of this build; the only time stamp in the output. */
  generated: string;
  /** Sorted by slug: the catalog's products are their records, in this order. */
  products: PlannedProducts;
  articles: Article[];
  /** The catalog document but its products (`count` is how many): they are `products`' records. */
  catalog: CatalogHead;
  health: Health;
  /** How large a parted document's parts are (`parts/cut-parts.ts`); the default unless a test lowers it. */
  partSizes?: PartSizes;
  /**
   * Where each product's fragment of the big documents comes from: rendered, or copied
   * from the build cache when the product did not change (emit/fragments.ts).
   */
  fragments: ProductFragments;
  /**
   * How many shards of each kind the live handler's data is cut into (`live/live-layout.ts`):
   * chosen from the catalog's size, keeping the last bundle's counts while they still fit.
   */
  shards: ShardCounts;
}
