import { describe, expect, it } from 'vitest';
import { bindIssuerToPort, bindServedResources, resolveConfig } from '../../auth-server/config.js';
import { merchantFromCatalogConfig } from '../../auth-server/merchant.js';
import { catchError } from '../helpers/catch-error.js';

const MERCHANT = { name: 'Shop', url: 'https://shop.example/', contact: 'a@shop.example' };

describe('the resources the issuer serves (RFC 8707)', () => {
  it('by default they are the issuer and {base_url}/mcp, base_url read from the catalog config', () => {
    const merchant = merchantFromCatalogConfig(
      { merchant: MERCHANT, site_url: 'https://shop.example', base_url: 'https://shop.example/api/' },
      'catalog.config.json',
    );
    expect(merchant.catalogBaseUrl).toBe('https://shop.example/api');
    const config = bindServedResources(
      resolveConfig({ issuer: 'https://auth.shop.example', mail: 'outbox' }),
      `${merchant.catalogBaseUrl}/mcp`,
    );
    expect(config.resources).toEqual(['https://auth.shop.example', 'https://shop.example/api/mcp']);
  });

  it('without base_url the catalog mounts at site_url, else at merchant.url', () => {
    const atSite = merchantFromCatalogConfig(
      { merchant: MERCHANT, site_url: 'https://www.shop.example' },
      'c',
    );
    expect(atSite.catalogBaseUrl).toBe('https://www.shop.example');
    expect(merchantFromCatalogConfig({ merchant: MERCHANT }, 'c').catalogBaseUrl).toBe(
      'https://shop.example',
    );
  });

  it('when the port is picked at start then the default issuer resource follows it', () => {
    const config = bindServedResources(
      bindIssuerToPort(resolveConfig({ port: 0 }), 4321),
      'https://s.example/mcp',
    );
    expect(config.resources).toEqual(['http://127.0.0.1:4321', 'https://s.example/mcp']);
  });

  it('a configured list replaces the default and is kept as given', () => {
    const config = bindServedResources(
      resolveConfig({
        issuer: 'https://auth.example',
        mail: 'outbox',
        resources: ['https://api.example/orders'],
      }),
      'https://s.example/mcp',
    );
    expect(config.resources).toEqual(['https://api.example/orders']);
  });

  it('a resource that is not an absolute http(s) URI without a fragment is refused, naming the flag', () => {
    for (const bad of ['/mcp', 'https://s.example/mcp#x', 'urn:x']) {
      const error = catchError(() => resolveConfig({ resources: [bad] }));
      expect(error).toMatchObject({ code: 'CONFIG_INVALID' });
      expect(String((error as Error).message)).toContain('--resource');
    }
  });
});
