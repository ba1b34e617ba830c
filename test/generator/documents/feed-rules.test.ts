import { describe, expect, it } from 'vitest';
import { emitBundle } from '../../../generator/emit/index.js';
import { isCatalogError } from '../../../generator/errors.js';
import { describeShipping, resolveShippingPolicy } from '../../../generator/shipping/policy.js';
import { validateArtifacts } from '../../../generator/validate/index.js';
import { catchError } from '../../helpers/catch-error.js';
import {
  makeFeedReadyProducts,
  makeSampleConfig,
  makeSamplePlan,
  SAMPLE_CONFIG_INPUT,
} from '../../helpers/sample-plan.js';
import { editJson, editText, kinds, productAt } from '../validate/tamper.js';

const POLICY = {
  price: '12.00',
  free_shipping_threshold: '60.00',
  min_handling_days: 0,
  max_handling_days: 2,
  min_transit_days: 1,
  max_transit_days: 2,
  note: 'Ships cold.',
};

function policyConfig(policy: Record<string, unknown> = POLICY) {
  return makeSampleConfig({ ...SAMPLE_CONFIG_INPUT, shipping: undefined, shipping_policy: policy as never });
}

function policyBundle() {
  const config = policyConfig();
  return emitBundle(makeSamplePlan({ config, products: makeFeedReadyProducts(config) }));
}

describe('the feed gate checks Google item rules on every item', () => {
  const good = policyBundle();

  it('when the bundle follows the rules then the gate finds nothing', () => {
    expect(validateArtifacts(good)).toEqual([]);
  });

  it.each([
    [
      'an item without g:image_link',
      (body: string) => body.replace(/<g:image_link>[^<]*<\/g:image_link>/, ''),
    ],
    ['an item priced zero', (body: string) => body.replace('<g:price>42.00 USD', '<g:price>0.00 USD')],
    [
      'an item with no GTIN, no MPN and no identifier_exists',
      (body: string) => body.replace('<g:identifier_exists>no</g:identifier_exists>', ''),
    ],
    ['a g:shipping without a price', (body: string) => body.replace(/<g:price>12\.00 USD<\/g:price>/, '')],
    [
      'a g:free_shipping_threshold without price_threshold',
      (body: string) => body.replace(/<g:price_threshold>[^<]*<\/g:price_threshold>/, ''),
    ],
    [
      'handling days with min above max',
      (body: string) => body.replace('<g:min_handling_time>0<', '<g:min_handling_time>5<'),
    ],
  ])('when feed.xml has %s then the gate refuses it', (_name, edit) => {
    expect(kinds(validateArtifacts(editText(good, 'feed.xml', edit)))).toContain('feed.xml feed');
  });

  it('when the catalog shipping sentence disagrees with g:shipping then the consistency check names the feed', () => {
    const broken = editJson(good, 'agent-catalog.json', (catalog) => {
      productAt(catalog, 0).shipping = 'Free shipping on everything.';
    });
    expect(kinds(validateArtifacts(broken))).toContain('feed.xml consistency');
  });

  it('when g:free_shipping_threshold changes then the catalog no longer agrees', () => {
    const broken = editText(good, 'feed.xml', (body) => body.replace('60.00 USD', '80.00 USD'));
    expect(kinds(validateArtifacts(broken))).toContain('feed.xml consistency');
  });
});

describe('the shipping policy', () => {
  it('when a policy is configured then the catalog sentence states the feed terms and ends with the note', () => {
    const text = describeShipping(policyConfig()) ?? '';
    expect(text).toMatch(/\$12\.00/);
    expect(text).toMatch(/\$60\.00/);
    expect(text.endsWith('Ships cold.')).toBe(true);
  });

  it('when only the deprecated shipping_price is set then it becomes a flat policy to merchant.ships_to', () => {
    const config = makeSampleConfig({ ...SAMPLE_CONFIG_INPUT, feed: { shipping_price: '5' } });
    expect(resolveShippingPolicy(config)).toEqual({
      countries: ['US'],
      currency: 'USD',
      price: '5',
      note: SAMPLE_CONFIG_INPUT.shipping,
    });
  });

  it('when the policy and a deprecated key are both set then CONFIG_INVALID names the old key', () => {
    // Refused when the config is resolved (naming the file), before any policy is read.
    const error = catchError(() =>
      resolveShippingPolicy(makeSampleConfig({ ...SAMPLE_CONFIG_INPUT, shipping_policy: POLICY })),
    );
    expect(isCatalogError(error, 'CONFIG_INVALID') && error.details.fields).toEqual(['shipping']);
  });

  it('when the policy ships to a country outside merchant.ships_to then CONFIG_INVALID names shipping_policy.countries', () => {
    const error = catchError(() =>
      resolveShippingPolicy(policyConfig({ price: '12', countries: ['US', 'FR'] })),
    );
    expect(isCatalogError(error, 'CONFIG_INVALID') && error.details.fields).toEqual([
      'shipping_policy.countries',
    ]);
  });

  it.each([
    [{ price: '12', min_handling_days: 1 }, 'shipping_policy'],
    [{ price: '12', min_transit_days: 3, max_transit_days: 1 }, 'shipping_policy'],
    [{ price: 'twelve' }, 'shipping_policy.price'],
  ])('when the policy %j is inconsistent then the config is refused naming %s', (policy, field) => {
    const error = catchError(() => policyConfig(policy));
    expect(isCatalogError(error, 'CONFIG_INVALID') && error.details.fields).toContain(field);
  });
});
