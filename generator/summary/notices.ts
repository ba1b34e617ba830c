/**
 * The build's warnings about what it published differently from what the merchant may
 * expect, once the products are merged: content files no upstream product used, catalog
 * products left out of the feed by a Google rule, and deprecated config keys. Each is a
 * warning (the build still publishes), named so CI can read it in the `--json` summary.
 */
import type { UnusedContent } from '../content/content-use.js';
import { describeUnusedContent } from '../content/content-use.js';
import type { FeedExclusion } from '../emit/feed-rules.js';
import { describeShippingDeprecations, type ShippingConfig } from '../shipping/policy.js';

/**
 * A store without images would otherwise print one line per product on every build; past
 * this many, the rest are counted in one line (the `--json` summary still lists each).
 */
const MAX_FEED_WARNINGS = 20;

export interface BuildNotice {
  code: 'CONTENT_UNUSED' | 'FEED_ITEM_EXCLUDED' | 'CONFIG_DEPRECATED';
  message: string;
  product?: string;
  /** The content file a CONTENT_UNUSED warning is about. */
  file?: string;
}

export function describeBuildNotices(
  unusedContent: readonly UnusedContent[],
  feedExcluded: readonly FeedExclusion[],
  config: ShippingConfig,
): BuildNotice[] {
  return [
    ...unusedContent.map((item) => ({
      code: 'CONTENT_UNUSED' as const,
      message: describeUnusedContent(item),
      file: item.file,
    })),
    ...feedExcluded.slice(0, MAX_FEED_WARNINGS).map((item) => ({
      code: 'FEED_ITEM_EXCLUDED' as const,
      message: item.message,
      product: item.product,
    })),
    ...(feedExcluded.length > MAX_FEED_WARNINGS
      ? [
          {
            code: 'FEED_ITEM_EXCLUDED' as const,
            message: `${feedExcluded.length - MAX_FEED_WARNINGS} more products left out of feed.xml by a Google item rule (all ${feedExcluded.length} are listed in the --json summary's feedExcluded)`,
          },
        ]
      : []),
    ...describeShippingDeprecations(config).map((message) => ({
      code: 'CONFIG_DEPRECATED' as const,
      message,
    })),
  ];
}
