/**
 * The plan stage and the names of the pipeline's stages. `planBuild` is pure: from the
 * resolved config, the merged products, the articles and the build time it computes the
 * one BuildPlan every emitter reads, so the catalog's `count`, the health document and
 * every other document agree by construction.
 */
import { chooseShardCounts, type ShardCounts } from '../live/live-layout.js';
import type { ResolvedConfig } from './config.js';
import { renderEveryFragment } from './emit/fragments.js';
import type { Health } from './model.js';
import type { PartSizes } from './parts/cut-parts.js';
import type { Article, BuildPlan, CatalogHead, PlannedProducts, ProductFragments } from './plan.js';
import type { fetchUpstream } from './sources/index.js';

export const BUILD_STAGES = [
  'config',
  'upstream',
  'content',
  'merge',
  'plan',
  'emit',
  'validate',
  'publish',
] as const;
export type BuildStage = (typeof BUILD_STAGES)[number];

/** The fetchUpstream stage (`sources/`, normalisation included); tests may pass their own. */
export type UpstreamFetcher = typeof fetchUpstream;

export interface PlanInput {
  config: ResolvedConfig;
  /** Sorted by slug, slugs unique (as `mergeProducts` returns them); the plan keeps this list. */
  products: PlannedProducts;
  articles: readonly Article[];
  /** ISO 8601 build time. */
  generated: string;
  /** The build was told `--allow-empty`; an empty catalog then says so in its health document. */
  allowEmpty?: boolean;
  /** The last bundle's shard counts, kept while they still fit the catalog (`chooseShardCounts`). */
  previousShards?: Partial<ShardCounts>;
  /** Part sizes of parted documents; tests lower them so a small catalog has several parts. */
  partSizes?: PartSizes;
  /** Rendered every time unless the build's cache offers the unchanged products' fragments. */
  fragments?: ProductFragments;
}

export function planBuild(input: PlanInput): BuildPlan {
  const { config, generated } = input;
  const { products } = input;
  const articles = [...input.articles].sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0));
  const catalog: CatalogHead = {
    merchant: {
      name: config.merchant.name,
      url: config.merchant.url,
      contact: config.merchant.contact,
      currency: config.merchant.currency,
      ships_to: [...config.merchant.ships_to],
    },
    generated,
    count: products.length,
    checkout: { type: 'redirect', note: config.checkout_note },
  };
  // Spec 4 rule 2: health "does not call upstream services"; it is a file written by the build.
  const health: Health = {
    status: 'ok',
    service: `${config.merchant.name} agent catalog`,
    generated,
    cached: true,
    ...(input.allowEmpty === true && products.length === 0 ? { allow_empty: true as const } : {}),
  };
  const shards = chooseShardCounts(products.length, input.previousShards);
  const fragments = input.fragments ?? renderEveryFragment;
  const partSizes = input.partSizes ? { partSizes: input.partSizes } : {};
  return { config, generated, products, articles, catalog, health, fragments, shards, ...partSizes };
}
