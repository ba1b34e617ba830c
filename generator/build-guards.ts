/**
 * What stops a build before it publishes, or becomes a warning: upstream products left
 * out (an error under `--strict`), a catalog that shrank past the threshold against the
 * last good bundle, and an empty catalog.
 */
import type { ResolvedConfig } from './config.js';
import { CatalogError } from './errors.js';
import type { LeftOutProduct } from './merge.js';
import type { PreviousBundle } from './publish/previous-bundle.js';
import type { BuildNotice } from './summary/notices.js';

export interface BuildWarning {
  code: 'PRODUCT_INVALID' | 'PREVIOUS_UNREADABLE' | 'HOST_LIMIT' | BuildNotice['code'];
  message: string;
  product?: string;
  /** The content file a CONTENT_UNUSED warning is about. */
  file?: string;
}

export function leftOutWarnings(leftOut: readonly LeftOutProduct[], strict: boolean): BuildWarning[] {
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

export function guardShrink(
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
export function guardEmpty(count: number, rejected: readonly LeftOutProduct[], allow: boolean): void {
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
