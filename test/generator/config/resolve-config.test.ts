import { describe, expect, it } from 'vitest';
import {
  type ConfigInput,
  type ConfigOverrides,
  overridesFromEnv,
  resolveConfig,
} from '../../../generator/config.js';
import { isCatalogError } from '../../../generator/errors.js';
import { catchError } from '../../helpers/catch-error.js';

const base: ConfigInput = {
  merchant: {
    name: 'Pomona Juice Co.',
    url: 'https://pomona-juice.example/',
    contact: 'hello@pomona-juice.example',
    currency: 'USD',
    ships_to: ['US'],
  },
  auth_url: 'https://auth.pomona-juice.example',
  upstream: { format: 'shopify', source: 'upstream/products.json' },
};

function resolveWith(raw: unknown, extra: { flags?: ConfigOverrides; env?: ConfigOverrides } = {}) {
  return resolveConfig(raw, { file: 'catalog.config.json', configDir: '/site', ...extra });
}

describe('resolveConfig', () => {
  it('when only required keys are given then the schema defaults fill the rest', () => {
    const config = resolveWith(base);
    expect(config.site_url).toBe('https://pomona-juice.example');
    expect(config.base_url).toBe('https://pomona-juice.example');
    expect(config.merchant.slug).toBe('pomona-juice-co');
    expect(config.merchant.brand).toBe('Pomona Juice Co.');
    expect(config.content_dir).toBeUndefined();
    expect(config.upstream.timeout_ms).toBe(30_000);
    expect(config.upstream.coming_soon_tag).toBe('coming-soon');
    expect(config.build.shrink_threshold).toBe(0.5);
    expect(config.usage.allow_training).toBe(false);
    expect(config.config_dir).toBe('/site');
  });

  it('when a flag, an env variable and the file all set site_url then the flag wins, then env', () => {
    const file = { ...base, site_url: 'https://file.example' };
    const env = overridesFromEnv({ AGENT_CATALOG_SITE_URL: 'https://env.example' });
    expect(resolveWith(file, { env }).site_url).toBe('https://env.example');
    expect(resolveWith(file, { env, flags: { site_url: 'https://flag.example' } }).site_url).toBe(
      'https://flag.example',
    );
    expect(resolveWith(file).site_url).toBe('https://file.example');
  });

  it('when --source is given without a format then the file format is dropped for auto-detection', () => {
    const config = resolveWith(base, { flags: { source: 'https://store.example' } });
    expect(config.upstream.source).toBe('https://store.example');
    expect(config.upstream.format).toBeUndefined();
    const explicit = resolveWith(base, { flags: { source: 'x.json', source_format: 'native' } });
    expect(explicit.upstream.format).toBe('native');
  });

  it('when an empty env variable is set then it is ignored', () => {
    expect(
      overridesFromEnv({ AGENT_CATALOG_SOURCE: '', AGENT_CATALOG_AUTH_URL: 'https://a.example' }),
    ).toEqual({
      auth_url: 'https://a.example',
    });
  });

  it('when a field is wrong then CONFIG_INVALID names the file and the field', () => {
    const error = catchError(() =>
      resolveWith({ ...base, merchant: { ...base.merchant, currency: 'usd' }, upstream: { source: '' } }),
    );
    expect(isCatalogError(error, 'CONFIG_INVALID')).toBe(true);
    if (!isCatalogError(error)) return;
    expect(error.details.file).toBe('catalog.config.json');
    expect(error.details.fields).toEqual(expect.arrayContaining(['merchant.currency', 'upstream.source']));
  });

  it('when an unknown key is present then it is refused rather than silently ignored', () => {
    const error = catchError(() => resolveWith({ ...base, shiping: 'typo' }));
    expect(isCatalogError(error, 'CONFIG_INVALID')).toBe(true);
  });

  it('when base_url is on another origin than site_url then CONFIG_INVALID names base_url', () => {
    const error = catchError(() => resolveWith({ ...base, base_url: 'https://other.example/api' }));
    expect(isCatalogError(error, 'CONFIG_INVALID') && error.details.fields).toEqual(['base_url']);
  });

  it('when the raw data is not an object then CONFIG_INVALID is raised', () => {
    expect(
      isCatalogError(
        catchError(() => resolveWith([])),
        'CONFIG_INVALID',
      ),
    ).toBe(true);
  });
});

describe('shipping amounts and the currency', () => {
  const withPolicy = (currency: string, price: string) => ({
    ...base,
    merchant: { ...base.merchant, currency },
    shipping_policy: { price },
  });

  it('when a JPY price has only zeros after the point then it is accepted', () => {
    expect(resolveWith(withPolicy('JPY', '500.00')).shipping_policy?.price).toBe('500.00');
  });

  it.each([
    ['JPY', '500.5'],
    ['USD', '4.999'],
  ])(
    'when a %s price is %s then CONFIG_INVALID names the file and shipping_policy.price',
    (currency, price) => {
      const error = catchError(() => resolveWith(withPolicy(currency, price)));
      expect(isCatalogError(error, 'CONFIG_INVALID') && error.details.fields).toEqual([
        'shipping_policy.price',
      ]);
      expect(error instanceof Error && error.message).toContain('catalog.config.json: shipping_policy.price');
    },
  );
});
