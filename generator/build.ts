/**
 * `build()`: the whole pipeline, resolveConfig → open the build cache → fetchUpstream
 * (normalise included, an unchanged item read back from the cache) → loadContent → merge →
 * plan → emit → validate → publish, as one function the CLI and
 * the tests share. With `write: false` it returns the artifacts and the summary without
 * writing anything. It compares against the last good bundle in `out`: the shrink guard,
 * the summary diff and "nothing changed" (emit-against.ts: the bundle re-emitted with the
 * previous `generated` time has every file's digest, so it is not rewritten and keeps its
 * time). A written build streams its documents into staging as they are emitted; the host
 * limits are checked before the staging folder is committed, and the build cache is saved
 * after it.
 */
import { resolve } from 'node:path';
import { countShards } from '../live/live-layout.js';
import type { Artifact } from './artifact.js';
import { type CacheReport, openBuildCache } from './cache/build-cache.js';
import { CatalogTally } from './catalog-tally.js';
import type { ConfigOverrides, ResolvedConfig } from './config.js';
import { resolveConfigSources } from './config-file.js';
import { checkContentUse, type UnusedContent } from './content/content-use.js';
import type { FeedExclusion } from './emit/feed-rules.js';
import { emitAgainst } from './emit-against.js';
import { CatalogError } from './errors.js';
import { type GatheredProducts, gatherProducts, type KeptProducts } from './gather-products.js';
import { readBundleDirShape, shapeOfArtifacts } from './hosting/bundle-shape.js';
import { checkEveryHost, type HostFit } from './hosting/host-fit.js';
import { judgeHostFit } from './hosting/judge-host-fit.js';
import type { Logger } from './logger.js';
import type { LeftOutProduct } from './merge.js';
import { type PartSizes, partSizesAround } from './parts/cut-parts.js';
import type { BuildStage, UpstreamFetcher } from './pipeline.js';
import type { BuildPlan } from './plan.js';
import { productFactsOf } from './product-store/product-facts.js';
import { factsOfPlan } from './publish/catalog-facts.js';
import { compareWithDigests, knownFilesOf } from './publish/file-digest.js';
import { keepCatalogFacts, type PreviousBundle, readPreviousBundle } from './publish/previous-bundle.js';
import { type PublishReport, recoverBundle } from './publish/publish-bundle.js';
import { stampBundle } from './publish/read-bundle.js';
import { sweepScratchFolders } from './scratch-folder.js';
import type { UpstreamResult } from './sources/index.js';
import { type CatalogChanges, diffCatalogs } from './summary/diff.js';
import { type BuildNotice, describeBuildNotices } from './summary/notices.js';
import type { Baseline } from './summary/report.js';

export interface BuildOptions {
  /** Config file path, relative to `cwd`. */
  configPath: string;
  /** Output directory, relative to `cwd`. */
  out: string;
  cwd: string;
  flags?: ConfigOverrides;
  env?: Readonly<Record<string, string | undefined>>;
  /** false: return the artifacts and summary, touch nothing on disk. */
  write: boolean;
  strict?: boolean;
  allowShrink?: boolean;
  /** Publish a catalog with no product (`--allow-empty`); without it an empty catalog fails the build. */
  allowEmpty?: boolean;
  logger: Logger;
  /** The build clock; injected by tests for reproducible output. */
  now?: () => Date;
  onStage?: (stage: BuildStage) => void;
  /** The fetchUpstream stage; the real adapters unless a test passes its own. */
  fetchUpstream?: UpstreamFetcher;
  /**
   * The sizes of a parted document's parts; default `DEFAULT_PART_SIZES`, or around
   * `AGENT_CATALOG_PART_BYTES` bytes when the environment sets it (tests lower it, so a small
   * catalog is parted; not a config field, since no merchant should need to change it).
   */
  partSizes?: PartSizes;
  /**
   * From how many products the plan's products are kept on disk rather than in the heap
   * (product-store/stored-products.ts); default `PRODUCTS_ON_DISK_FROM`, or
   * `AGENT_CATALOG_PRODUCTS_ON_DISK` when the environment sets it (tests set 0, so a small
   * catalog takes the big catalog's path).
   */
  productsOnDiskFrom?: number;
}

/**
 * From this many products the records leave the heap (about 4 KB a product there). Measured
 * at 100,000 products on 2026-11-27 (BENCHMARKS.md, "the 100,000-product build on disk and
 * in the heap"), once the normaliser, the document pieces and the gate no longer held the
 * catalog: on disk the cold build peaked at 1.11 GB against 1.40 in the heap for the same
 * CPU, and a one-price rebuild at 0.73 GB against 0.97, for 67 s of CPU against 46 (each walk
 * parses the file again), still under a fifth of the cold build. At 10,000, once the heap
 * grew by half at a time (heap-policy.ts), the records were what the heap held at the peak:
 * on disk V8's heap peaked 50–60 MB lower and the process about 70 MB lower, for about 2 s
 * more CPU (BENCHMARKS.md, "the 10,000-product build near 300 MB"). Below this a store is
 * small enough that its records cost little and its rebuild keeps the heap's speed.
 */
export const PRODUCTS_ON_DISK_FROM = 5_000;

const PRODUCTS_ON_DISK_VARIABLE = 'AGENT_CATALOG_PRODUCTS_ON_DISK';

/**
 * A whole number the environment sets for a build (`variable`), at least `least`;
 * undefined when unset. A bad value stops the build naming the variable and the unit.
 */
function wholeNumberFromEnv(
  options: BuildOptions,
  variable: string,
  least: number,
  unit: string,
): number | undefined {
  const text = options.env?.[variable];
  if (text === undefined || text === '') return undefined;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < least) {
    throw new CatalogError(
      'CONFIG_INVALID',
      `${variable} must be a whole number of ${unit}, ${least} or more: ${JSON.stringify(text)}`,
      { field: variable },
    );
  }
  return value;
}

function productsOnDiskFrom(options: BuildOptions): number {
  if (options.productsOnDiskFrom !== undefined) return options.productsOnDiskFrom;
  return wholeNumberFromEnv(options, PRODUCTS_ON_DISK_VARIABLE, 0, 'products') ?? PRODUCTS_ON_DISK_FROM;
}

const PART_BYTES_VARIABLE = 'AGENT_CATALOG_PART_BYTES';

function partSizesOf(options: BuildOptions): PartSizes | undefined {
  if (options.partSizes) return options.partSizes;
  const avg = wholeNumberFromEnv(options, PART_BYTES_VARIABLE, 64, 'bytes');
  return avg === undefined ? undefined : partSizesAround(avg);
}

export interface BuildWarning {
  code: 'PRODUCT_INVALID' | 'PREVIOUS_UNREADABLE' | 'HOST_LIMIT' | BuildNotice['code'];
  message: string;
  product?: string;
  /** The content file a CONTENT_UNUSED warning is about. */
  file?: string;
}

export interface BuildResult {
  /**
   * The plan the bundle was made from. Its products can no longer be read when they were
   * kept on disk (from `PRODUCTS_ON_DISK_FROM` products): the build deleted their file.
   */
  plan: BuildPlan;
  artifacts: Artifact[];
  /** false when the bundle in `out` already holds exactly this output. */
  changed: boolean;
  /** true when this build wrote the bundle. */
  published: boolean;
  changes: CatalogChanges;
  warnings: BuildWarning[];
  /** Content files no upstream product used (kept, not published), by file name. */
  unusedContent: UnusedContent[];
  /** Catalog products left out of feed.xml, each with the Google rule it breaks. */
  feedExcluded: FeedExclusion[];
  /** Absolute output directory. */
  out: string;
  previousGenerated?: string;
  upstream: { format: UpstreamResult['format']; requests: number };
  /** The bundle's files against the last bundle (all unchanged when nothing changed or nothing was written). */
  files: PublishReport;
  /** Whether the bundle fits each host's limits, and how it breaks them. */
  hosts: HostFit[];
  /** Whether the build cache beside the bundle was used, created or rebuilt (and why). */
  cache: CacheReport;
  /** What `changed` and `files` were counted against (summary/report.ts). */
  baseline: Baseline;
}

function leftOutWarnings(leftOut: readonly LeftOutProduct[], strict: boolean): BuildWarning[] {
  const warnings = leftOut.map((item) => ({
    code: 'PRODUCT_INVALID' as const,
    product: item.id,
    // The reason already names the product (id and name): say it once.
    message: `upstream ${item.reason}; left out of the catalog`,
  }));
  if (strict && warnings.length > 0) {
    throw new CatalogError(
      'PRODUCT_INVALID',
      `${warnings.length} invalid upstream product(s) under --strict: ${warnings.map((w) => w.message).join('; ')}`,
      { products: leftOut.map((item) => item.id) },
    );
  }
  return warnings;
}

function guardShrink(
  previous: PreviousBundle | undefined,
  count: number,
  config: ResolvedConfig,
  allow: boolean,
): void {
  if (!previous || allow) return;
  const floor = config.build.shrink_threshold * previous.count;
  // An empty catalog after a non-empty one is always an upstream accident, whatever the threshold.
  if (count < floor || (count === 0 && previous.count > 0)) {
    throw new CatalogError(
      'CATALOG_SHRANK',
      `the catalog shrank from ${previous.count} to ${count} products (below ${config.build.shrink_threshold * 100}% of the last good bundle); pass --allow-shrink to publish anyway`,
      { previous: previous.count, next: count, threshold: config.build.shrink_threshold },
    );
  }
}

/**
 * An empty catalog is never a success by accident: when the store gave nothing usable
 * (every product refused, as when an older WooCommerce answer has no `slug` field), the
 * build stops before publishing and says why the products were refused.
 */
function guardEmpty(count: number, rejected: readonly LeftOutProduct[], allow: boolean): void {
  if (count > 0 || allow) return;
  const reasons = rejected.slice(0, 3).map((item) => item.reason);
  const more = rejected.length > reasons.length ? `; and ${rejected.length - reasons.length} more` : '';
  const why =
    rejected.length === 0
      ? 'the upstream has no products'
      : `every upstream product was refused (${rejected.length}): ${reasons.join('; ')}${more}`;
  throw new CatalogError(
    'CATALOG_EMPTY',
    `refusing to publish an empty catalog: ${why}; pass --allow-empty to publish it anyway`,
    { rejected: rejected.length },
  );
}

export async function build(options: BuildOptions): Promise<BuildResult> {
  const onStage = options.onStage ?? (() => {});
  onStage('config');
  const config = await resolveConfigSources({
    configPath: options.configPath,
    cwd: options.cwd,
    ...(options.flags ? { flags: options.flags } : {}),
    ...(options.env ? { env: options.env } : {}),
  });
  const out = resolve(options.cwd, options.out);
  // A killed build may have left the last good bundle in its backup folder: put it back first.
  if (options.write) await recoverBundle(out, options.logger);
  // And may have left its products on disk, gigabytes at 1,000,000 products.
  for (const name of sweepScratchFolders())
    options.logger.debug(`removed ${name}, left by a build that died`);
  // Read before the cache is opened: a bad value stops the build with nothing to let go of.
  const onDiskFrom = productsOnDiskFrom(options);
  // Opened before the store is read: it remembers what each unchanged item mapped to.
  const cache = await openBuildCache(out, config, options.logger, options.write);
  let products: KeptProducts | undefined;
  let gathered: GatheredProducts | undefined;
  try {
    gathered = await gatherProducts(
      config,
      {
        logger: options.logger,
        ...(options.env ? { env: options.env } : {}),
        ...(options.fetchUpstream ? { fetchUpstream: options.fetchUpstream } : {}),
        productsOnDiskFrom: onDiskFrom,
      },
      onStage,
      cache.normaliseMemo,
    );
    const { upstream, content, count, leftOut } = gathered;
    // Progress a person can follow (the CLI prints `info` on a terminal only).
    options.logger.info(
      `  read ${count} products (${upstream.format}, ${upstream.requests} requests, ${upstream.rejected.length} refused)`,
    );
    const warnings = leftOutWarnings([...upstream.rejected, ...leftOut], options.strict === true);
    // Files whose inode, size and time are those the cache knows are not read again.
    const previous = await readPreviousBundle(
      out,
      config,
      options.logger,
      warnings,
      cache.knownFiles(),
      cache.catalogFacts,
    );
    for (const warning of warnings) options.logger.warn(warning.message);
    guardEmpty(count, [...upstream.rejected, ...leftOut], options.allowEmpty === true);
    guardShrink(previous, count, config, options.allowShrink === true);
    const now = (options.now ?? (() => new Date()))();
    // Each product dated by the cache (the sitemap's lastmod when the store gives none),
    // then kept for the plan; the content files used are known once every product is merged.
    // One pass over the products as they are kept tallies what later stages need of them all.
    const tally = new CatalogTally();
    products = await gathered.keep(cache, now, tally.add);
    const feedExcluded = tally.finish(products);
    const unusedContent = checkContentUse({
      content: content.products,
      unmatched: gathered.unmatched(),
      rejected: upstream.rejected,
      upstreamCount: count + upstream.rejected.length + leftOut.length,
      contentDir: config.content_dir ?? 'content',
      strict: options.strict === true,
      previousSlugs: previous?.products.map((product) => product.slug),
    });
    for (const notice of describeBuildNotices(unusedContent, feedExcluded, config)) {
      warnings.push(notice);
      options.logger.warn(notice.message);
    }
    const productsChanged = cache.productsChanged();
    const partSizes = partSizesOf(options);
    const emitted = await emitAgainst(
      {
        config,
        products,
        ...(productsChanged !== undefined ? { productsChanged } : {}),
        ...(cache.fragments !== undefined ? { fragments: cache.fragments, trust: cache } : {}),
        articles: content.articles,
        now,
        allowEmpty: options.allowEmpty === true,
        // The shard counts stay as they were while the catalog still fits them: no reshard on every build.
        ...(previous ? { previousShards: countShards(previous.digests.keys()) } : {}),
        ...(partSizes ? { partSizes } : {}),
      },
      previous,
      { write: options.write, out, logger: options.logger },
      onStage,
    );
    const { plan, artifacts, changed, dir, sink } = emitted;
    let files: PublishReport = { written: 0, unchanged: changed ? 0 : artifacts.length, removed: 0 };
    let hosts: HostFit[];
    try {
      hosts = checkEveryHost(dir !== undefined ? await readBundleDirShape(dir) : shapeOfArtifacts(artifacts));
      for (const warning of judgeHostFit(hosts, config.build.hosts)) {
        warnings.push(warning);
        options.logger.warn(warning.message);
      }
      if (sink) {
        onStage('publish');
        // Written as emitted and validated from staging; committing makes it durable and swaps it in.
        files = await sink.commit();
        // Against a remembered bundle every file was written here: what differs from it is
        // what a host uploads, which is what the summary counts.
        if (previous?.remembered) files = compareWithDigests(sink.digests, sink.sources, previous.digests);
      }
    } catch (error) {
      await sink?.discard();
      throw error;
    }
    const published = sink !== undefined;
    // After publishing, or when nothing changed but the cache was missing or untrusted.
    options.logger.info(
      `  ${artifacts.length} documents: ${files.written} written, ${files.unchanged} unchanged, ${files.removed} removed`,
    );
    if (options.write) {
      // What the next build may trust without reading: the bundle now in `out`, stamped.
      const inOut =
        sink !== undefined ? await stampBundle(out, sink.digests, sink.sources) : previous?.digests;
      // What the next build's summary and guards need of the catalog, without reading it.
      if (inOut !== undefined)
        keepCatalogFacts(cache.catalogFacts, inOut, config, factsOfPlan(plan), previous?.factsKey);
      await cache.save(published, inOut === undefined ? new Map() : knownFilesOf(inOut));
    }
    return {
      plan,
      artifacts,
      changed,
      published,
      changes: diffCatalogs(previous?.products ?? [], productFactsOf(emitted.plan.products)),
      warnings,
      unusedContent,
      feedExcluded,
      out,
      ...(previous?.generated !== undefined ? { previousGenerated: previous.generated } : {}),
      upstream: { format: upstream.format, requests: upstream.requests },
      files,
      hosts,
      cache: cache.report,
      baseline: previous === undefined ? 'none' : previous.remembered ? 'cache' : 'bundle',
    };
  } finally {
    // Published or not, the fragment file is let go of; what it holds is never wrong.
    cache.close();
    // The plan's products on disk go with the build (the result keeps the plan's facts).
    products?.close?.();
    gathered?.close();
  }
}
