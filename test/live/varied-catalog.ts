/**
 * A made-up catalog with the variety the search's filters and ranking meet in a real one:
 * names and descriptions drawn from a small vocabulary (so words repeat and scores tie),
 * categories in mixed case and some missing, one to four variants with prices that often
 * coincide, some sold out. Drawn from a seeded generator, so every run sees the same one.
 */
import { buildProductRecord } from '../../record/build-record.js';
import type { ProductRecord } from '../../record/product-record.js';

const WORDS = (
  'ginger lemon beet kale mango almond matcha cherry apple carrot turmeric spinach pineapple celery cucumber ' +
  'berry coconut mint lime orange shot juice tonic press cold green sparkling organic boxes'
).split(' ');
const CATEGORIES = ['Juice', 'juice', 'Shots', 'Tonics', 'Gift Boxes', undefined];

/** Mulberry32: a small seeded generator, the same sequence on every run. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function makeVariedRecords(count: number, seed = 30): ProductRecord[] {
  const random = seeded(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const words = (n: number): string => Array.from({ length: n }, () => pick(WORDS)).join(' ');
  return Array.from({ length: count }, (_, index) => {
    const url = `https://juice.example/products/v${index}`;
    const sizes = 1 + Math.floor(random() * 4);
    // Mostly on a coarse grid, so many variants share a price (ties in the price order); some
    // off it, so a narrow range holds a few variants at several prices.
    const prices = Array.from(
      { length: sizes },
      () =>
        (random() < 0.15 ? 100 + Math.floor(random() * 1_500) : 100 + Math.floor(random() * 60) * 25) / 100,
    );
    return buildProductRecord({
      name: `${words(1 + Math.floor(random() * 3))} ${index}`,
      slug: `v${index}`,
      url,
      description: random() < 0.8 ? words(3 + Math.floor(random() * 12)) : null,
      ingredients: null,
      nutrition: null,
      benefits: null,
      certifications: null,
      currency: 'USD',
      purchase_url: url,
      id: `v${index}`,
      category: pick(CATEGORIES),
      tags: random() < 0.5 ? [pick(WORDS)] : [],
      images: [],
      options: sizes > 1 ? [{ name: 'Size', values: prices.map((_, v) => `${8 * (v + 1)} oz`) }] : [],
      variants: prices.map((price, v) => ({
        id: `v${index}-${v}`,
        title: sizes > 1 ? `${8 * (v + 1)} oz` : 'Default',
        options: sizes > 1 ? [{ name: 'Size', value: `${8 * (v + 1)} oz` }] : [],
        price: price.toFixed(2),
        availability: random() < 0.2 ? 'out_of_stock' : 'in_stock',
        requires_shipping: true,
      })),
    });
  });
}
