/**
 * What the build learns of the catalog in the one pass that keeps its products for the
 * plan (gather-products.ts), so that no later stage walks them again for it: a big
 * catalog's products are read back from disk, and each whole walk parses every one (about
 * 3 s at 100,000 products). It takes the facets the documents describe (catalog-fields.ts),
 * the products left out of the Google feed (feed-rules.ts), each product's price and
 * availability (product-store/product-facts.ts), its count of OpenAI feed rows
 * (agent-feeds/openai-feed.ts) and its sitemap entry (sitemap-entries.ts), and gives them
 * for the list kept.
 */

import { countOpenAiRows, rememberOpenAiRowCounts } from './emit/agent-feeds/openai-feed.js';
import { addCatalogFields, noCatalogFields, rememberCatalogFields } from './emit/catalog-fields.js';
import { addFeedExclusions, type FeedExclusion } from './emit/feed-rules.js';
import { rememberSitemapColumn, SitemapColumnWriter } from './emit/sitemap-entries.js';
import type { PlannedProduct, PlannedProducts } from './plan.js';
import { FactColumnWriter, rememberFactColumn } from './product-store/product-facts.js';
import { NumberColumn } from './validate/digests.js';

export class CatalogTally {
  readonly #fields = noCatalogFields();
  readonly #excluded: FeedExclusion[] = [];
  readonly #facts = new FactColumnWriter();
  /** 4 bytes a product as it grows, not a JS array's 8 (10 MB kept at 1,000,000 products). */
  readonly #openAiRows = new NumberColumn();
  readonly #sitemap = new SitemapColumnWriter();

  /** Takes one product's share; called for every product kept, in plan order. */
  readonly add = (product: PlannedProduct): void => {
    addCatalogFields(this.#fields, product.record);
    addFeedExclusions(this.#excluded, product);
    this.#facts.add(product.record);
    this.#openAiRows.push(countOpenAiRows(product.record));
    this.#sitemap.add(product);
  };

  /**
   * Gives what was taken to `products`, the list the products were kept in (its readers
   * ask by the list), and returns the products left out of the feed
   * (`screenFeedExclusions` of the list).
   */
  finish(products: PlannedProducts): FeedExclusion[] {
    rememberCatalogFields(products, this.#fields);
    rememberFactColumn(products, this.#facts.finish());
    rememberOpenAiRowCounts(products, this.#openAiRows.finish());
    rememberSitemapColumn(products, this.#sitemap.finish());
    return this.#excluded;
  }
}
