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
import { type BuildWarning, guardEmpty, guardShrink, leftOutWarnings } from './build-guards.js';
import { partSizesOf, productsOnDiskFrom } from './build-settings.js';
import { type CacheReport, openBuildCache } from './cache/build-cache.js';
import { CatalogTally } from './catalog-tally.js';
import type { ConfigOverrides } from './config.js';
import { resolveConfigSources } from './config-file.js';
import { checkContentUse, type UnusedContent } from './content/content-use.js';
import type { FeedExclusion } from './emit/feed-rules.js';
import { emitAgainst } from './emit-against.js';
import { type GatheredProducts, gatherProducts, type KeptProducts } from './gather-products.js';
import { readBundleDirShape, shapeOfArtifacts } from './hosting/bundle-shape.js';
import { checkEveryHost, type HostFit } from './hosting/host-fit.js';
import { judgeHostFit } from './hosting/judge-host-fit.js';
import type { Logger } from './logger.js';
import type { PartSizes } from './parts/cut-parts.js';
import type { BuildStage, UpstreamFetcher } from './pipeline.js';
import type { BuildPlan } from './plan.js';
import { productFactsOf } from './product-store/product-facts.js';
import { factsOfPlan } from './publish/catalog-facts.js';
import { compareWithDigests, knownFilesOf } from './publish/file-digest.js';
import { keepCatalogFacts, readPreviousBundle } from './publish/previous-bundle.js';
import { type PublishReport, recoverBundle } from './publish/publish-bundle.js';
import { stampBundle } from './publish/read-bundle.js';
import { sweepScratchFolders } from './scratch-folder.js';
import type { UpstreamResult } from './sources/index.js';
import { type CatalogChanges, diffCatalogs } from './summary/diff.js';
import { describeBuildNotices } from './summary/notices.js';
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

export type { BuildWarning } from './build-guards.js';
export { PRODUCTS_ON_DISK_FROM } from './build-settings.js';

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
