/**
 * A real Shopify store selling humanoid robots (issue 31, item 1), in the shape of its
 * storefront `/products.json`: a product with an option the store calls "Availability"
 * ("Pre-order" / "In stock"), one variant without a value for it, and variants whose
 * `available` is missing, null, text or a boolean, beside a product whose variants state
 * their stock in different ways. All of it is valid upstream data: the build publishes
 * (its gate, run by `build`, passes) and every variant's availability is the store's.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { readKnowledgeBaseProducts } from '../../../generator/emit/kb-markdown.js';
import { buildFromFixture, cleanUpFixtureBuild } from './build-from-fixture.js';

afterEach(() => cleanUpFixtureBuild());

const FIXTURE = 'shopify-robot-store.json';

describe('a Shopify robot store with an "Availability" option and loosely stated stock', () => {
  it('when an option is named "Availability" then the build publishes and the knowledge base table reads back each variant', async () => {
    const { result, find } = await buildFromFixture(FIXTURE, 'shopify');
    const robot = find('booster-t2').record;
    const kb = result.artifacts.find((artifact) => artifact.path.endsWith('-knowledge-base.md'));
    const section = readKnowledgeBaseProducts(kb?.body ?? '').find((entry) => entry.id === 'booster-t2');
    expect(section?.variants.map((row) => [row.id, row.availability])).toEqual(
      robot.variants.map((variant) => [variant.id, variant.availability]),
    );
    expect(section?.variants.map((row) => row.price)).toEqual(
      robot.variants.map((variant) => `${variant.price} ${robot.currency}`),
    );
    // A reader of the table meets one "Availability" column, the variant's.
    expect(kb?.body).toContain(
      '| Variant ID | Edition | Availability (option) | SKU | Price | Was | Availability |',
    );
  });

  it('when `available` is missing, null, text or a boolean then each variant is read on its own', async () => {
    const { find } = await buildFromFixture(FIXTURE, 'shopify');
    expect(find('booster-t2').record.variants.map((variant) => [variant.id, variant.availability])).toEqual([
      ['14487', 'in_stock'], // no `available`, no inventory tracking: nothing says it is sold out
      ['14488', 'in_stock'], // `available: null`, likewise
      ['14489', 'in_stock'], // "true"
      ['14490', 'out_of_stock'], // "false"
      ['14491', 'in_stock'], // `available: true` is the storefront's word, whatever the counters say
    ]);
  });

  it('when one product states its variants’ stock in different ways then each variant keeps its own', async () => {
    const { find } = await buildFromFixture(FIXTURE, 'shopify');
    const kid = find('booster-k1').record;
    expect(kid.variants.map((variant) => [variant.title, variant.availability])).toEqual([
      ['White', 'out_of_stock'],
      ['Black', 'out_of_stock'],
      ['Blue', 'in_stock'],
    ]);
    expect(kid.availability).toBe('in_stock');
  });
});
