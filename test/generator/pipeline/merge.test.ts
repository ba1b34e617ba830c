import { describe, expect, it } from 'vitest';
import { checkContentUse } from '../../../generator/content/content-use.js';
import type { ProductContent } from '../../../generator/content/load-content.js';
import { isCatalogError } from '../../../generator/errors.js';
import { mergeProducts, type UpstreamProduct } from '../../../generator/merge.js';
import type { Product } from '../../../generator/model.js';
import { recordOfSeedProduct } from '../../../record/build-record.js';
import { catchError } from '../../helpers/catch-error.js';

function upstreamProduct(slug: string, fields: Partial<Product> = {}, sourceId = slug): UpstreamProduct {
  return {
    sourceId,
    record: recordOfSeedProduct(
      {
        name: slug.toUpperCase(),
        slug,
        url: `https://shop.example/products/${slug}`,
        description: 'Upstream description',
        ingredients: null,
        nutrition: null,
        benefits: null,
        certifications: null,
        price: '9.50',
        currency: 'USD',
        availability: 'in_stock',
        purchase_url: `https://shop.example/products/${slug}`,
        ...fields,
      },
      sourceId,
    ),
  };
}

function content(slug: string, fields: ProductContent['fields']): ProductContent {
  return { slug, file: `content/products/${slug}.md`, fields };
}

function useInput(files: ProductContent[], unmatched: ProductContent[]) {
  return { content: files, unmatched, rejected: [], upstreamCount: 1, contentDir: 'content' };
}

describe('mergeProducts', () => {
  it('when content and upstream both describe a product then content wins for descriptive fields only', () => {
    const { products } = mergeProducts({
      upstream: [upstreamProduct('green-glow', { price: '9.50', availability: 'out_of_stock' })],
      content: [content('green-glow', { description: 'From content', flavor: 'Kale', benefits: ['Greens'] })],
      shipping: 'Ships cold.',
    });
    const record = products[0]?.record;
    expect(record).toMatchObject({
      description: 'From content',
      flavor: 'Kale',
      benefits: ['Greens'],
      price: '9.50',
      availability: 'out_of_stock',
      url: 'https://shop.example/products/green-glow',
      shipping: 'Ships cold.',
    });
  });

  it('when a store handle and a content file name differ only in the order of their harakat then the content applies', () => {
    // Shadda before fatha, as the store typed it; the file system gave the name in NFC.
    const handle = 'مُقَوَّى'.replace('\u064e\u0651', '\u0651\u064e');
    const { products, unmatched } = mergeProducts({
      upstream: [upstreamProduct(handle)],
      content: [content(handle.normalize('NFC'), { flavor: 'Booster' })],
    });
    expect(products[0]?.record.slug).toBe(handle);
    expect(products[0]?.record.flavor).toBe('Booster');
    expect(unmatched).toEqual([]);
  });

  it('when no content exists then the upstream fields stay and the nullable ones are null', () => {
    const { products } = mergeProducts({ upstream: [upstreamProduct('plain')], content: [] });
    expect(products[0]?.record).toMatchObject({ description: 'Upstream description', nutrition: null });
    expect(products[0]?.record).not.toHaveProperty('shipping');
    expect(products[0]?.record).not.toHaveProperty('packaging');
  });

  it('when products arrive in any order then they come out sorted by slug with the seed keys in spec order, extensions after', () => {
    const { products } = mergeProducts({
      upstream: [upstreamProduct('zeta'), upstreamProduct('alpha'), upstreamProduct('mid')],
      content: [content('mid', { packaging: '1 x 16 fl oz (473 mL) glass bottle', flavor: 'x' })],
    });
    expect(products.map((p) => p.record.slug)).toEqual(['alpha', 'mid', 'zeta']);
    expect(Object.keys(products[1]?.record ?? {})).toEqual([
      'name',
      'flavor',
      'slug',
      'url',
      'description',
      'packaging',
      'ingredients',
      'nutrition',
      'benefits',
      'certifications',
      'price',
      'currency',
      'availability',
      'purchase_url',
      'id',
      'tags',
      'images',
      'options',
      'variants',
      'requires_shipping',
    ]);
  });

  it('when two upstream products share a slug then the second is left out naming both', () => {
    const result = mergeProducts({
      upstream: [upstreamProduct('twin', {}, '1'), upstreamProduct('twin', {}, '2')],
      content: [],
    });
    expect(result.products.map((p) => p.sourceId)).toEqual(['1']);
    expect(result.leftOut).toHaveLength(1);
    expect(result.leftOut[0]?.id).toBe('2');
    expect(result.leftOut[0]?.reason).toContain('1');
  });

  it('when a content file matches no upstream product then it is reported unused, not fatal', () => {
    const files = [content('a', { flavor: 'y' }), content('ghost', { flavor: 'x' })];
    const result = mergeProducts({ upstream: [upstreamProduct('a')], content: files });
    expect(result.unmatched.map((item) => item.slug)).toEqual(['ghost']);
    const unused = checkContentUse({ ...useInput(files, result.unmatched), strict: false });
    expect(unused).toEqual([{ file: 'content/products/ghost.md', slug: 'ghost' }]);
  });

  it('when a content file matches no upstream product under --strict then CONTENT_INVALID names the file', () => {
    const files = [content('a', { flavor: 'y' }), content('ghost', { flavor: 'x' })];
    const result = mergeProducts({ upstream: [upstreamProduct('a')], content: files });
    const error = catchError(() => checkContentUse({ ...useInput(files, result.unmatched), strict: true }));
    expect(isCatalogError(error, 'CONTENT_INVALID') && error.details.files).toEqual([
      'content/products/ghost.md',
    ]);
  });

  it('when not one content file matches the store then CONTENT_INVALID names content_dir', () => {
    const files = [content('ghost', { flavor: 'x' }), content('other', { flavor: 'x' })];
    const result = mergeProducts({ upstream: [upstreamProduct('a')], content: files });
    const error = catchError(() => checkContentUse({ ...useInput(files, result.unmatched), strict: false }));
    expect(isCatalogError(error, 'CONTENT_INVALID') && error.details.field).toBe('content_dir');
  });

  it('when a content file belongs to a product the store sent but that was left out then it is not unused', () => {
    const files = [content('a', { flavor: 'y' }), content('broken', { flavor: 'x' })];
    const result = mergeProducts({ upstream: [upstreamProduct('a')], content: files });
    const input = { ...useInput(files, result.unmatched), strict: true };
    expect(checkContentUse({ ...input, rejected: [{ slug: 'broken' }] })).toEqual([]);
    expect(() => checkContentUse({ ...input, rejected: [{ slug: 'other' }] })).toThrow();
  });

  it('when the brand rule is "vendor" then the store brand wins, the merchant brand fills in, and content overrides both', () => {
    const upstream = [
      upstreamProduct('a', { brand: 'Shall' }),
      upstreamProduct('b'),
      upstreamProduct('c', { brand: 'Luma' }),
    ];
    const files = [content('c', { brand: 'House Brand' })];
    const vendor = mergeProducts({ upstream, content: files, brand: { source: 'vendor', merchant: 'Shop' } });
    expect(vendor.products.map((product) => product.record.brand)).toEqual(['Shall', 'Shop', 'House Brand']);
    const merchant = mergeProducts({
      upstream,
      content: files,
      brand: { source: 'merchant', merchant: 'Shop' },
    });
    expect(merchant.products.map((product) => product.record.brand)).toEqual(['Shop', 'Shop', 'House Brand']);
  });

  it('when a product needs no shipping then it gets no shipping sentence; one that ships does', () => {
    const digital = upstreamProduct('ebook');
    const noShipping = {
      ...digital,
      record: {
        ...digital.record,
        requires_shipping: false,
        variants: digital.record.variants.map((variant) => ({ ...variant, requires_shipping: false })),
      },
    };
    const result = mergeProducts({
      upstream: [noShipping, upstreamProduct('juice')],
      content: [],
      shipping: 'Ships cold.',
    });
    expect(result.products.map((product) => [product.record.slug, product.record.shipping])).toEqual([
      ['ebook', undefined],
      ['juice', 'Ships cold.'],
    ]);
  });

  it("when the merchant writes a description then the store's Markdown rendering is dropped with the store's text", () => {
    const withMarkdown = { ...upstreamProduct('a'), descriptionMarkdown: '| a | b |' };
    const kept = mergeProducts({ upstream: [withMarkdown], content: [] });
    expect(kept.products[0]?.descriptionMarkdown).toBe('| a | b |');
    const replaced = mergeProducts({
      upstream: [withMarkdown],
      content: [content('a', { description: 'Mine.' })],
    });
    expect(replaced.products[0]?.descriptionMarkdown).toBeUndefined();
    expect(replaced.products[0]?.record.description).toBe('Mine.');
  });
});
