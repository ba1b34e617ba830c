/**
 * The normalise stage: upstream product objects of one format → canonical records. Pure (no
 * I/O). Products that cannot be mapped are returned as rejections, not thrown, so one bad
 * product does not sink a catalog of thousands (the pipeline warns, or fails under
 * --strict). The same upstream id seen twice (a page served twice while the store
 * changed under the crawl) is kept once, in the copy the store updated last (its
 * `updated_at`): the first copy met may be the stale one, from before a price or a sale
 * changed; two different products claiming one slug cannot both be published, so the
 * later one is rejected. Items come one at a time (`createNormaliser`), as a source reads
 * them; once every item is mapped, WooCommerce grouped products are summarised from their
 * children (`grouped.ts`).
 */
import { cleanDeep } from './clean-text.js';
import { decodeSlug, describeRejection } from './fields.js';
import { resolveGroupedProducts, resolveGroupsOnShelf } from './grouped.js';
import { type ItemKey, itemDigests, type NormaliseMemo } from './item-key.js';
import { mapNativeProduct } from './native.js';
import { arrayShelf, type ProductShelf, type ShelvedProducts } from './product-shelf.js';
import { type KeptProduct, ShelfKeys } from './shelf-keys.js';
import { mapShopifyProduct } from './shopify.js';
import type { MapContext, MapOutcome, NormalisedProduct, RejectedProduct, UpstreamFormat } from './types.js';
import { mapWooProduct } from './woocommerce.js';

export { formatDecimalPrice, formatMinorUnits, minorDigitsFor } from '../../record/decimal-price.js';
export { convertHtmlToText } from './html-text.js';
export type { ItemKey, NormaliseMemo } from './item-key.js';
export { mapNativeProduct } from './native.js';
export type { ProductShelf, ShelvedProducts } from './product-shelf.js';
export { mapShopifyProduct } from './shopify.js';
export type { MapContext, MapOutcome, NormalisedProduct, RejectedProduct, UpstreamFormat } from './types.js';
export { mapWooProduct } from './woocommerce.js';

const MAPPERS: Readonly<Record<UpstreamFormat, (raw: unknown, context: MapContext) => MapOutcome>> = {
  native: mapNativeProduct,
  shopify: mapShopifyProduct,
  woocommerce: mapWooProduct,
};

export interface NormaliseResult {
  /** In upstream order; empty when the products are on disk (`shelved`). */
  products: NormalisedProduct[];
  /** The products, when the shelf the normaliser was given had moved them into a file. */
  shelved?: ShelvedProducts;
  rejected: RejectedProduct[];
  /** Upstream items dropped because their id had been seen already. */
  duplicates: number;
}

/**
 * The normaliser a source feeds item by item, as its pages or lines arrive, so no source
 * holds its raw items until the end: `add` maps one upstream item at once, `finish`
 * resolves what needs the whole crawl (grouped products) and returns the records.
 */
export interface Normaliser {
  add(raw: unknown): void;
  finish(): NormaliseResult;
}

export function normaliseProducts(
  items: readonly unknown[],
  format: UpstreamFormat,
  context: MapContext,
): NormaliseResult {
  const normaliser = createNormaliser(format, context);
  for (const raw of items) normaliser.add(raw);
  return normaliser.finish();
}

/**
 * `shelf`: where the mapped products are kept (an array unless told); a shelf that moved
 * them into a file makes `finish` hand them over as `shelved`, and the caller closes it.
 */
export function createNormaliser(
  format: UpstreamFormat,
  context: MapContext,
  memo?: NormaliseMemo,
  shelf: ProductShelf = arrayShelf(),
): Normaliser {
  return new CatalogNormaliser(format, context, memo, shelf);
}

class CatalogNormaliser implements Normaliser {
  private readonly rejected: RejectedProduct[] = [];
  /** The kept products' ids and slugs, by number (shelf-keys.ts). */
  private readonly keys: ShelfKeys;
  /** Ids of items the mapper refused: one warning per id (as many as the warnings themselves). */
  private readonly rejectedIds = new Set<string>();
  /** The numbers of the kept products that are grouped (resolved once every item is mapped). */
  private readonly groups = new Set<number>();
  private duplicates = 0;
  private readonly digestOf: ((raw: unknown) => string) | undefined;

  constructor(
    private readonly format: UpstreamFormat,
    private readonly context: MapContext,
    private readonly memo: NormaliseMemo | undefined,
    private readonly products: ProductShelf,
  ) {
    this.digestOf = memo === undefined ? undefined : itemDigests(format, context);
    this.keys = new ShelfKeys(products);
  }

  add(raw: unknown): void {
    const key = this.keyOf(raw);
    const recalled = key === undefined ? undefined : this.memo?.recall(key);
    if (recalled !== undefined) {
      this.keep(recalled);
      return;
    }
    // Text hygiene happens once, here, for every field of every adapter (see clean-text.ts).
    const item = cleanDeep(raw);
    const outcome = MAPPERS[this.format](item, this.context);
    if (outcome.ok) {
      if (key !== undefined) this.memo?.remember(key, outcome.product);
      this.keep(outcome.product);
    } else this.reject(item, outcome.rejected);
  }

  /** The item's key for the memo; none without a memo, or for an item with no upstream id. */
  private keyOf(raw: unknown): ItemKey | undefined {
    if (this.digestOf === undefined) return undefined;
    const id = readRawSourceId(raw, this.format);
    return id === undefined ? undefined : { id, digest: this.digestOf(raw) };
  }

  finish(): NormaliseResult {
    const inHeap = this.products.inHeap();
    if (inHeap === undefined) return this.finishShelved();
    const grouped = resolveGroupedProducts(inHeap);
    const rejected = [...this.rejected, ...grouped.rejected];
    return { products: grouped.products, rejected, duplicates: this.duplicates };
  }

  /** The products on disk: groups resolved in place, and the slug of each number kept. */
  private finishShelved(): NormaliseResult {
    const shelf = this.products;
    const groups = [...this.groups].sort((a, b) => a - b);
    const grouped = resolveGroupsOnShelf(shelf, groups, (id) => this.keys.numberOf(id));
    const { slugs } = this.keys;
    for (const index of grouped.dropped) slugs.drop(index);
    slugs.seal();
    const shelved: ShelvedProducts = { slugs, at: (index) => shelf.at(index), close: () => shelf.close() };
    const rejected = [...this.rejected, ...grouped.rejected];
    return { products: [], shelved, rejected, duplicates: this.duplicates };
  }

  private reject(item: unknown, rejection: RejectedProduct): void {
    // A repeated page repeats its invalid products too: one warning per upstream id, not per copy.
    const id = readRawSourceId(item, this.format);
    if (id !== undefined && (this.rejectedIds.has(id) || this.keys.seen(id))) {
      this.duplicates += 1;
      return;
    }
    if (id !== undefined) this.rejectedIds.add(id);
    const slug = readRawSlug(item, this.format);
    this.rejected.push(slug === undefined ? rejection : { ...rejection, slug });
  }

  private keep(product: NormalisedProduct): void {
    const kept = this.keys.find(product.sourceId);
    if (kept !== undefined || this.keys.refused(product.sourceId)) {
      this.duplicates += 1;
      const index = kept === undefined ? undefined : keepNewerCopy(this.products, this.keys, kept, product);
      if (index !== undefined) this.noteGroup(index, product);
      return;
    }
    const owner = this.keys.slugOwner(product.record.slug);
    if (owner !== undefined) {
      this.keys.refuse(product.sourceId);
      const ownerId = this.products.at(owner)?.sourceId ?? '';
      const reason = `has the slug "${product.record.slug}" of product ${ownerId} already`;
      this.rejected.push(describeRejection(product.sourceId, reason, product.record.name));
      return;
    }
    this.noteGroup(this.products.length, product);
    this.keys.keep(this.products.length, product);
    this.products.push(product);
  }

  private noteGroup(index: number, product: NormalisedProduct): void {
    if (product.grouped === undefined) this.groups.delete(index);
    else this.groups.add(index);
  }
}

/**
 * Puts `copy` in the place of the kept product with its id when the store updated it
 * later, and returns that place. A copy whose slug changed to one another product holds
 * stays out: the kept copy is still a consistent product.
 */
function keepNewerCopy(
  products: ProductShelf,
  keys: ShelfKeys,
  { index, product: kept }: KeptProduct,
  copy: NormalisedProduct,
): number | undefined {
  if (!isUpdatedLater(copy, kept)) return undefined;
  const owner = keys.slugOwner(copy.record.slug);
  if (owner !== undefined && owner !== index) return undefined;
  keys.moveSlug(index, copy.record.slug);
  products.set(index, copy);
  return index;
}

function isUpdatedLater(copy: NormalisedProduct, kept: NormalisedProduct): boolean {
  if (copy.updatedAt === undefined || kept.updatedAt === undefined) return false;
  return Date.parse(copy.updatedAt) > Date.parse(kept.updatedAt);
}

/** Where each format keeps the handle that names the product's content file. */
const SLUG_KEYS: Readonly<Record<UpstreamFormat, string>> = {
  native: 'slug',
  shopify: 'handle',
  woocommerce: 'slug',
};

/** The id a mapper would give the item (a native product without an id is known by its slug). */
function readRawSourceId(raw: unknown, format: UpstreamFormat): string | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const { id, slug } = raw as Record<string, unknown>;
  if (typeof id === 'number' || (typeof id === 'string' && id !== '')) return String(id);
  return format === 'native' && typeof slug === 'string' && slug.trim() !== '' ? slug.trim() : undefined;
}

function readRawSlug(raw: unknown, format: UpstreamFormat): string | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const value = (raw as Record<string, unknown>)[SLUG_KEYS[format]];
  return typeof value === 'string' && value.trim() !== '' ? decodeSlug(value.trim()) : undefined;
}
