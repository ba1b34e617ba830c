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
    ...feedExcluded.map((item) => ({
      code: 'FEED_ITEM_EXCLUDED' as const,
      message: item.message,
      product: item.product,
    })),
    ...describeShippingDeprecations(config).map((message) => ({
      code: 'CONFIG_DEPRECATED' as const,
      message,
    })),
  ];
}
