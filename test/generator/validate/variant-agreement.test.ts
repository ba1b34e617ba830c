/**
 * The per-variant agreement as another feed reader uses it: rows in the feeds' terms
 * (regular price, sale price, availability in the reader's own vocabulary, link) compared
 * with reference variants read from catalog records.
 */
import { describe, expect, test } from 'vitest';
import {
  checkVariantAgreement,
  collectReferenceVariants,
  type VariantRow,
} from '../../../generator/validate/variant-agreement.js';
import { makeVariedPlan } from '../../helpers/sample-plan.js';

const reference = collectReferenceVariants(makeVariedPlan().catalog.products, () => undefined);

function differences(rows: VariantRow[], availabilityOf?: (value: string) => string): string[] {
  const found: string[] = [];
  checkVariantAgreement(rows, reference, {
    path: 'openai-feed.jsonl',
    add: (_path, message) => found.push(message),
    ...(availabilityOf === undefined ? {} : { availabilityOf }),
  });
  return found;
}

describe('checkVariantAgreement', () => {
  test('reads the catalog variants in the feeds terms: the "was" price is the regular one while on sale', () => {
    expect(reference.get('7001-3')?.row).toEqual({
      variantId: '7001-3',
      price: '59.00 USD',
      salePrice: '49.00 USD',
      availability: 'in_stock',
      url: 'https://shop.ridgeline.example/products/trail-hoodie?variant=7001-3',
    });
    expect(reference.get('7002')?.requiresShipping).toBe(false);
  });

  test('when the rows say what the catalog says then nothing is reported, whatever the decimals', () => {
    const rows: VariantRow[] = [
      { variantId: '7001-3', price: '59 USD', salePrice: '49.0 USD', availability: 'in_stock' },
      { variantId: '7003-100', price: '160.00 USD', availability: 'coming_soon' },
    ];
    expect(differences(rows)).toEqual([]);
  });

  test('when a row differs in price, sale price, availability or link then each difference is named', () => {
    const rows: VariantRow[] = [
      {
        variantId: '7001-3',
        price: '49.00 USD',
        availability: 'out_of_stock',
        url: 'https://shop.ridgeline.example/products/trail-hoodie',
      },
      { variantId: 'nope', price: '1.00 USD', availability: 'in_stock' },
    ];
    const found = differences(rows);
    expect(found).toHaveLength(5);
    expect(found.join('\n')).toMatch(/7001-3: price is 49\.00 USD, the catalog says 59\.00 USD/);
    expect(found.join('\n')).toMatch(/7001-3: sale price is none, the catalog says 49\.00 USD/);
    expect(found.join('\n')).toMatch(/7001-3: availability is out_of_stock/);
    expect(found.join('\n')).toMatch(/7001-3: link is/);
    expect(found.join('\n')).toMatch(/variant nope is not in the catalog/);
  });

  test("compares availability in the reader's own vocabulary", () => {
    const preorder = (value: string) => (value === 'coming_soon' ? 'preorder' : value);
    const row = { variantId: '7003-100', price: '160.00 USD', availability: 'preorder' };
    expect(differences([row], preorder)).toEqual([]);
    expect(differences([row])).toHaveLength(1);
  });
});
