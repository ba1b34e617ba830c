/**
 * `/feed.xml`: the merchant product feed in Google Merchant Center's RSS 2.0 form, one
 * item per product variant, the whole catalog every time (https://support.google.com/merchants/answer/160589).
 * `checkFeed` (`feed-check.ts`) validates it.
 */
import type { Artifact } from '../artifact.js';
import { chunkedArtifact } from '../compact-artifact.js';
import type { BuildPlan, PlannedProduct } from '../plan.js';
import { buildFeedItem, buildFeedShipping, GOOGLE_NAMESPACE } from './feed-item.js';
import { screenFeedProducts } from './feed-rules.js';
import { productElements } from './fragments.js';
import { FEED_PATH, filePathOf } from './sitemap-pages.js';
import { buildXmlChunksWithElements, buildXmlElementsAtDepth2, sanitizeXmlText } from './xml-text.js';

export const FEED_FILE = filePathOf(FEED_PATH);
export const FEED_MEDIA_TYPE = 'application/rss+xml; charset=utf-8';

export function emitFeed(plan: BuildPlan): Artifact[] {
  const { config } = plan;
  const shipping = buildFeedShipping(config);
  const channel = {
    title: sanitizeXmlText(`${config.merchant.name} products`),
    link: config.site_url,
    description: sanitizeXmlText(config.merchant.description ?? `Products of ${config.merchant.name}`),
    lastBuildDate: new Date(plan.generated).toUTCString(),
  };
  // Products that break a Google item rule stay in the catalog; the build warns about each.
  const itemsOf = (product: PlannedProduct): Record<string, unknown>[] =>
    screenFeedProducts([product]).items.map((offer) => buildFeedItem(offer, config, shipping));
  const fragments = productElements(plan, FEED_ITEMS, (product) =>
    buildXmlElementsAtDepth2('item', itemsOf(product)),
  );
  const frameWith = (item: Iterable<unknown>) => ({
    rss: { '@_version': '2.0', '@_xmlns:g': GOOGLE_NAMESPACE, channel: { ...channel, item } },
  });
  const chunks = buildXmlChunksWithElements(frameWith, 'item', fragments);
  // The gate's tree holds its items as an iterable that renders each product's items again
  // as it is walked, and lets them go: keeping every product's rendered items from emit to
  // the gate, and building the array of all of them, made the gate the peak of a cold build
  // (a tree of 270,000 items at 100,000 products). Rendering is pure, so the items walked
  // are the ones the fragments were written from; a rebuild's gate does not walk them
  // (incremental-gate.ts).
  const items: Iterable<Record<string, unknown>> = {
    *[Symbol.iterator]() {
      for (const product of plan.products) yield* itemsOf(product);
    },
  };
  const serialisedFrom = { body: '', value: frameWith(items) };
  return [chunkedArtifact({ path: FEED_FILE, mediaType: FEED_MEDIA_TYPE, body: '', serialisedFrom }, chunks)];
}

/** The fragment kind of a product's feed items. */
const FEED_ITEMS = 'feed-items';
