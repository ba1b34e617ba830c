/**
 * The build cache as the build uses it: opened once (read-only, never trusted beyond what
 * it can vouch for), it dates each product's last content change (`changedAt`, the
 * sitemap's lastmod when the store gives none), and it is written back only when the build
 * published, or when it was not trusted. A product whose digest is the cached one keeps
 * its cached time; a changed or new one gets the build time; when the cache is being
 * created or rebuilt, the last bundle seeds the times (seed-lastmods.ts). Nothing here
 * fails a build: a cache that cannot be read is rebuilt, one that cannot be written is a
 * warning, and the next build rebuilds it.
 */
import type { ResolvedConfig } from '../config.js';
import type { Logger } from '../logger.js';
import type { NormaliseMemo } from '../normalise/item-key.js';
import type { PlannedProduct, PlannedProducts, ProductFragments, ValidatedProducts } from '../plan.js';
import type { KnownFile } from '../publish/file-digest.js';
import type { CatalogFactsStore } from '../publish/previous-bundle.js';
import { readPackageVersion } from '../sources/deadline.js';
import {
  type BuildCacheWriter,
  buildCacheDir,
  buildCacheFile,
  CACHE_FORMAT,
  type CacheReading,
  createBuildCache,
  readBuildCache,
  startBuildCache,
  updateBuildCache,
} from './build-cache-file.js';
import { cachedFragments } from './cached-fragments.js';
import { DatedRows } from './dated-rows.js';
import { type FragmentStore, openFragmentStore } from './fragment-store.js';
import { normaliseMemo } from './normalise-memo.js';
import { digestProduct, digestSettings, rememberDigest } from './product-digest.js';
import { lastmodSeeder } from './seed-lastmods.js';

/** The `cache` field of the `--json` summary. */
export interface CacheReport {
  state: 'used' | 'created' | 'rebuilt';
  /** Why the cache was created or rebuilt. */
  reason?: string;
}

export interface BuildCache {
  report: CacheReport;
  /** What the upstream items mapped to in earlier builds (a written build only). */
  normaliseMemo?: NormaliseMemo;
  /** The products with `changedAt` set, in the same order. */
  dateProducts(products: readonly PlannedProduct[], now: Date): Promise<PlannedProduct[]>;
  /**
   * What `dateProducts` does, one product at a time: the returned function dates each
   * product of the catalog once (products read back from disk one at a time). Call once.
   */
  startDating(now: Date): Promise<(product: PlannedProduct) => PlannedProduct>;
  /**
   * Each product's fragments of the big documents, copied from the last build when the
   * product did not change (a written build), or rendered (`build({ write: false })`).
   */
  fragments?: ProductFragments;
  /**
   * The products this build's gate need not check again (every fragment copied from a row a
   * published build's gate passed), when the cache is trusted; undefined otherwise.
   */
  validatedProducts(products: PlannedProducts): ValidatedProducts | undefined;
  /** This build's gate passed: the fragments it wrote need no checking again. */
  gatePassed(): void;
  /**
   * True when a product was added, removed or changed since the last published build, as
   * the trusted cache knows it (then the catalog changes, and the bundle with it); undefined
   * when the cache is not trusted. Call after `dateProducts`.
   */
  productsChanged(): boolean | undefined;
  /** The bundle's files as the last build left them (each digest with its file's stamp); empty without a cache. */
  knownFiles(): ReadonlyMap<string, KnownFile>;
  /**
   * The facts of published catalogs (publish/catalog-facts.ts), by the key of the catalog's
   * files: kept in the fragment file, so they go whenever it is started again.
   */
  catalogFacts: CatalogFactsStore;
  /**
   * Writes what `dateProducts` found, when the build published or the cache was not trusted,
   * and the stamped files of the bundle now in `out`.
   */
  save(published: boolean, files: ReadonlyMap<string, KnownFile>): Promise<void>;
  /** Lets go of the fragment file; a build that failed keeps what it rendered (never wrong, only unused). */
  close(): void;
}

/** The fragment kind of the last published catalog's facts: one row, keyed by no product. */
const CATALOG_FACTS = 'catalog-facts';

/** The fragment file: started again whenever the product rows are not trusted either. */
function openFragments(out: string, settings: string, reading: CacheReading, logger: Logger): FragmentStore {
  // A cache rebuilt for any reason starts its fragments again too: never trust half a cache.
  const store = openFragmentStore(buildCacheDir(out), settings, reading.state !== 'used');
  if (store.state === 'rebuilt')
    logger.debug(`the build cache's fragment file is started again: ${store.reason ?? ''}`);
  return store;
}

export async function openBuildCache(
  out: string,
  config: ResolvedConfig,
  logger: Logger,
  write = true,
): Promise<BuildCache> {
  const file = buildCacheFile(out);
  const settings = digestSettings(config, await readPackageVersion(), CACHE_FORMAT);
  const reading: CacheReading = readBuildCache(file, settings);
  const store = write ? openFragments(out, settings, reading, logger) : undefined;
  const report: CacheReport =
    reading.state !== 'used'
      ? { state: reading.state, reason: reading.reason }
      : store?.state === 'rebuilt'
        ? { state: 'rebuilt', reason: `its fragment file was not trusted (${store.reason ?? 'unknown'})` }
        : { state: 'used' };
  const fragments = store === undefined ? undefined : cachedFragments(store);
  let closed = false;
  const closeStore = (prune?: { removedSlugs: readonly string[] }) => {
    if (closed || store === undefined) return;
    closed = true;
    store.close(prune);
    const failure = store.failure();
    if (failure !== undefined) {
      logger.warn(
        `the build cache's fragment file failed while ${failure}; this build rendered every fragment it could not read, and the next build starts the file again`,
      );
    }
  };
  // The summary says it (`cache` in --json, one line for people); the log names the file.
  if (reading.state === 'rebuilt') logger.debug(`the build cache at ${file} is rebuilt: ${reading.reason}`);
  const cached = reading.state === 'used' ? reading.products : undefined;
  // What the dating found against the rows read (dated-rows.ts): compact, as those are.
  let rows = new DatedRows(cached);
  let created = new Date();
  // A cache created or rebuilt by a written build is written as its products are dated, not
  // held: every row would be new. Nothing fails the build; save warns what went wrong.
  let writer: BuildCacheWriter | undefined;
  let writeFailure: string | undefined;
  const failWriting = (error: unknown) => {
    writeFailure = error instanceof Error ? error.message : String(error);
    writer?.abandon();
    writer = undefined;
  };
  const startDating = async (now: Date) => {
    created = now;
    const seed = cached === undefined ? await lastmodSeeder(out, config) : () => undefined;
    rows = new DatedRows(cached);
    writer?.abandon();
    writer = undefined;
    writeFailure = undefined;
    if (cached === undefined && write)
      writer = await startBuildCache(file, { settings, created: now.toISOString() }).catch(
        (error: unknown) => {
          failWriting(error);
          return undefined;
        },
      );
    return (product: PlannedProduct): PlannedProduct => {
      const { slug } = product.record;
      const digest = digestProduct(product);
      const before = cached?.get(slug);
      const lastmod =
        before?.digest === digest ? before.lastmod : (seed(slug, product.record) ?? now.toISOString());
      if (writer === undefined && writeFailure === undefined) rows.note(slug, { digest, lastmod });
      else if (writer !== undefined) {
        try {
          writer.add(slug, { digest, lastmod });
        } catch (error) {
          failWriting(error);
        }
      }
      const dated = { ...product, changedAt: lastmod };
      rememberDigest(dated, digest);
      return dated;
    };
  };

  return {
    report,
    ...(fragments !== undefined ? { fragments } : {}),
    ...(store !== undefined ? { normaliseMemo: normaliseMemo(store) } : {}),
    close: () => {
      writer?.abandon();
      writer = undefined;
      closeStore();
    },
    knownFiles: () => (store === undefined || closed ? new Map() : store.knownFiles()),
    catalogFacts: {
      read: (key) => (store === undefined || closed ? undefined : store.get(CATALOG_FACTS, '', key)?.bytes),
      keep: (key, bytes) => {
        if (store === undefined || closed) return;
        store.put(CATALOG_FACTS, '', key, bytes);
        // Kept once the gate passed the bundle they describe, as every other row then is.
        store.markValidated();
      },
    },
    validatedProducts: (products) =>
      report.state === 'used' ? fragments?.validatedProducts(products) : undefined,
    productsChanged() {
      return rows.changed();
    },
    gatePassed() {
      try {
        if (!closed) store?.markValidated();
      } catch (error) {
        logger.warn(
          `the build cache's fragment file could not be written (${String(error)}); the next build checks every product`,
        );
      }
    },
    startDating,
    async dateProducts(products, now) {
      const date = await startDating(now);
      return products.map((product) => date(product));
    },
    async save(published, files) {
      try {
        if (!closed) store?.saveKnownFiles(files);
        // Published: the fragments of products no longer in the catalog go.
        const removedSlugs = rows.removedSlugs();
        closeStore(published ? { removedSlugs } : undefined);
      } catch (error) {
        logger.warn(
          `the build cache's fragment file could not be written (${String(error)}); the next build renders every product`,
        );
      }
      if (!published && cached !== undefined) return;
      try {
        if (writeFailure !== undefined) throw new Error(writeFailure);
        if (writer !== undefined) {
          const started = writer;
          writer = undefined;
          await started.finish();
          return;
        }
        if (cached === undefined) {
          await createBuildCache(file, { settings, created: created.toISOString() }, rows.rows());
          return;
        }
        const changed = [...rows.rows()];
        const removed = rows.removedSlugs();
        if (changed.length > 0 || removed.length > 0) updateBuildCache(file, changed, removed);
      } catch (error) {
        const why = error instanceof Error ? error.message : String(error);
        logger.warn(`the build cache at ${file} could not be written (${why}); the next build rebuilds it`);
      }
    },
  };
}
