/**
 * The build's fetchUpstream, loadContent and merge stages, and the dating and keeping of
 * the merged products for the plan. Two ways through, one outcome: a catalog the
 * normaliser kept in the heap is merged as an array (`mergeProducts`) and dated whole; one
 * it moved into a file as the products arrived (from `productsOnDiskFrom`, see
 * product-store/product-shelf.ts) is merged by number in slug order (merge-shelved.ts) and
 * each product dated and written to the plan's file as it is read, so the catalog is never
 * in the heap. The count, the left-out products and the content files no product used are
 * the same either way.
 */
import { resolve } from 'node:path';
import type { BuildCache } from './cache/build-cache.js';
import type { ResolvedConfig } from './config.js';
import { assertContentDirExists } from './content/content-use.js';
import { loadContent, type MerchantContent, type ProductContent } from './content/load-content.js';
import type { Logger } from './logger.js';
import { type LeftOutProduct, type MergeInput, mergeProducts } from './merge.js';
import { mergeShelvedProducts } from './merge-shelved.js';
import type { ShelvedProducts } from './normalise/product-shelf.js';
import type { BuildStage, UpstreamFetcher } from './pipeline.js';
import type { PlannedProduct, PlannedProducts } from './plan.js';
import { storeProducts } from './product-store/stored-products.js';
import { describeShipping } from './shipping/policy.js';
import { fetchUpstreamWithDeadline } from './sources/deadline.js';
import type { NormalisedProduct, RejectedProduct, UpstreamResult } from './sources/index.js';

export type KeptProducts = PlannedProducts & { close?: () => void };

export interface GatheredProducts {
  upstream: { format: UpstreamResult['format']; requests: number; rejected: RejectedProduct[] };
  content: MerchantContent;
  /** How many products the catalog has, before any is dated. */
  count: number;
  /** Upstream products the merge left out (a slug another product has). */
  leftOut: LeftOutProduct[];
  /**
   * Dates the merged products by the cache and keeps them for the plan, showing each
   * product kept to `observe` in plan order (the one pass that reads them all). Call once.
   */
  keep(cache: BuildCache, now: Date, observe: (product: PlannedProduct) => void): Promise<KeptProducts>;
  /** The content files no product used; ask after `keep`. */
  unmatched(): ProductContent[];
  /** Lets go of the normaliser's products file, if any. Safe to call twice. */
  close(): void;
}

export interface GatherOptions {
  logger: Logger;
  env?: Readonly<Record<string, string | undefined>>;
  fetchUpstream?: UpstreamFetcher;
  /** From how many products they are kept on disk (`PRODUCTS_ON_DISK_FROM`). */
  productsOnDiskFrom: number;
}

/** The dated products as the plan reads them: on disk from `from` products on, else the array. */
function keepDated(dated: PlannedProduct[], from: number): KeptProducts {
  return dated.length >= from && dated.length > 0 ? storeProducts(dated) : dated;
}

function* dateEach(
  products: Iterable<PlannedProduct>,
  date: (product: PlannedProduct) => PlannedProduct,
  observe: (product: PlannedProduct) => void,
) {
  for (const product of products) {
    const dated = date(product);
    observe(dated);
    yield dated;
  }
}

type MergeSettings = Omit<MergeInput, 'upstream'>;
type Read = Pick<GatheredProducts, 'upstream' | 'content'>;

/** The catalog in the heap: merged as an array, dated whole, kept as today. */
function mergeInHeap(read: Read, products: NormalisedProduct[], input: MergeSettings, from: number) {
  const merged = mergeProducts({ upstream: products, ...input });
  return {
    ...read,
    count: merged.products.length,
    leftOut: merged.leftOut,
    async keep(cache: BuildCache, now: Date, observe: (product: PlannedProduct) => void) {
      // Taken out of `merged`: nothing else holds the array once the plan's list is made.
      const dated = await cache.dateProducts(merged.products, now);
      merged.products = [];
      for (const product of dated) observe(product);
      return keepDated(dated, from);
    },
    unmatched: () => merged.unmatched,
    close: () => {},
  };
}

/**
 * The catalog on disk: each product read back in slug order, merged, dated and written to
 * the plan's file. Once kept, the normaliser's shelf and the merge are let go (the content
 * files no product used are taken first): their tables of digests, slugs and offsets (about
 * 90 MB at 1,000,000 products) would otherwise live until the build ends.
 */
function mergeOnDisk(read: Read, shelved: ShelvedProducts, input: MergeSettings): GatheredProducts {
  let held: { shelved: ShelvedProducts; merge: ReturnType<typeof mergeShelvedProducts> } | undefined = {
    shelved,
    merge: mergeShelvedProducts(shelved, input),
  };
  let unmatched: ProductContent[] | undefined;
  const { count, leftOut } = held.merge;
  return {
    ...read,
    count,
    leftOut,
    async keep(cache, now, observe) {
      const source = held;
      if (source === undefined) throw new TypeError('the shelved products were kept already');
      const date = await cache.startDating(now);
      try {
        // An empty catalog keeps no file, as in the heap.
        const kept = count === 0 ? [] : storeProducts(dateEach(source.merge.products(), date, observe));
        unmatched = source.merge.unmatched();
        return kept;
      } finally {
        source.shelved.close();
        held = undefined;
      }
    },
    unmatched: () => unmatched ?? held?.merge.unmatched() ?? [],
    close: () => held?.shelved.close(),
  };
}

export async function gatherProducts(
  config: ResolvedConfig,
  options: GatherOptions,
  onStage: (stage: BuildStage) => void,
  memo: BuildCache['normaliseMemo'],
): Promise<GatheredProducts> {
  onStage('upstream');
  const read = await fetchUpstreamWithDeadline(config, {
    logger: options.logger,
    ...(options.env ? { env: options.env } : {}),
    ...(memo ? { memo } : {}),
    ...(options.fetchUpstream ? { fetcher: options.fetchUpstream } : {}),
    productsOnDiskFrom: options.productsOnDiskFrom,
  });
  const { shelved } = read;
  try {
    onStage('content');
    const contentPath = resolve(config.config_dir, config.content_dir ?? 'content');
    if (config.content_dir !== undefined) await assertContentDirExists(contentPath, config.content_dir);
    const content = await loadContent(contentPath, config.config_dir);
    onStage('merge');
    const shipping = describeShipping(config);
    const input: MergeSettings = {
      content: content.products,
      ...(shipping !== undefined ? { shipping } : {}),
      brand: { source: config.upstream.brand_source, merchant: config.merchant.brand },
    };
    // Only these facts of the upstream read outlive the merge.
    const facts = {
      upstream: { format: read.format, requests: read.requests, rejected: read.rejected },
      content,
    };
    if (shelved !== undefined) return mergeOnDisk(facts, shelved, input);
    const { products } = read;
    // The upstream's array is let go of once merged: the merged copies are what the plan reads.
    read.products = [];
    return mergeInHeap(facts, products, input, options.productsOnDiskFrom);
  } catch (error) {
    shelved?.close();
    throw error;
  }
}
