import { describe, expect, it } from 'vitest';
import type { FeedExclusion } from '../../../generator/emit/feed-rules.js';
import { describeBuildNotices } from '../../../generator/summary/notices.js';

const config = { merchant: { currency: 'USD', ships_to: ['US'] }, feed: {} };

function exclusions(count: number): FeedExclusion[] {
  return Array.from({ length: count }, (_, index) => ({
    product: `p-${index}`,
    rule: 'image_link' as const,
    message: `product "p-${index}" has no image`,
  }));
}

describe('the build notices', () => {
  it('when a few products leave the feed then each is its own warning naming the product', () => {
    const notices = describeBuildNotices([], exclusions(3), config);
    expect(notices.map((notice) => notice.product)).toEqual(['p-0', 'p-1', 'p-2']);
  });

  it('when thousands of products leave the feed then the warnings stay a screenful and count the rest', () => {
    const notices = describeBuildNotices([], exclusions(5_000), config);
    expect(notices.length).toBeLessThanOrEqual(21);
    expect(notices.at(-1)?.message).toContain(String(5_000 - (notices.length - 1)));
  });

  it('when the config uses the deprecated shipping keys then each is a CONFIG_DEPRECATED notice', () => {
    const legacy = { ...config, shipping: 'Ships cold.', feed: { shipping_price: '5.00' } };
    expect(describeBuildNotices([], [], legacy).map((notice) => notice.code)).toEqual([
      'CONFIG_DEPRECATED',
      'CONFIG_DEPRECATED',
    ]);
  });

  it('when a content file is unused then the notice names the file', () => {
    const notices = describeBuildNotices([{ file: 'content/products/gone.md', slug: 'gone' }], [], config);
    expect(notices).toMatchObject([{ code: 'CONTENT_UNUSED', file: 'content/products/gone.md' }]);
  });
});
