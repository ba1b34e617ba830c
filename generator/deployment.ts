/**
 * The deployment model a configuration describes, and the one key that turns model (b) on.
 * Model (a): the bundle has a host of its own (`site_url`) and the store is elsewhere
 * (`storefront_url` on another origin). Model (b): the bundle is served at the store's own
 * origin (`storefront_url` on the origin of `site_url`), and with `storefront_origin` set
 * the CDN proxies every path the bundle does not serve to the storefront's origin server.
 * `resolveStorefrontOrigin` refuses the combinations that cannot work, naming the keys.
 */
import { CatalogError } from './errors.js';

interface DeploymentUrls {
  /** An origin, no trailing slash. */
  site_url: string;
  /** No trailing slash. */
  storefront_url: string;
  /** As configured (an absolute http(s) URL), or absent. */
  storefront_origin: string | undefined;
}

function refuse(file: string, fields: string[], message: string): CatalogError {
  return new CatalogError('CONFIG_INVALID', `${file}: ${message}`, { file, fields });
}

/**
 * The storefront origin the proxy rule targets, or undefined in model (a) and in model (b)
 * without a proxy. Refused: a path, query or fragment (the rule appends `/:splat` to an
 * origin); model (a) (the storefront is not served at `site_url`, so there is nothing to
 * proxy); and the site's own origin (the CDN would proxy to itself, a loop).
 */
export function resolveStorefrontOrigin(urls: DeploymentUrls, file: string): string | undefined {
  if (urls.storefront_origin === undefined) return undefined;
  const origin = new URL(urls.storefront_origin);
  if (origin.pathname !== '/' || origin.search !== '' || origin.hash !== '') {
    throw refuse(
      file,
      ['storefront_origin'],
      `storefront_origin: expected an origin without a path, got ${urls.storefront_origin}`,
    );
  }
  const site = new URL(urls.site_url).origin;
  if (new URL(urls.storefront_url).origin !== site) {
    throw refuse(
      file,
      ['storefront_origin', 'storefront_url', 'site_url'],
      `storefront_origin is for model (b), where the bundle is served at the store's own origin, but storefront_url (${urls.storefront_url}) is not on the origin of site_url (${urls.site_url}). Either remove storefront_origin (model (a): the bundle on its own host), or set storefront_url to ${site}`,
    );
  }
  if (origin.origin === site) {
    throw refuse(
      file,
      ['storefront_origin', 'site_url'],
      `storefront_origin (${urls.storefront_origin}) is the origin of site_url; the CDN would proxy to itself. Name the storefront's own server (e.g. https://<store>.myshopify.com)`,
    );
  }
  return origin.origin;
}
