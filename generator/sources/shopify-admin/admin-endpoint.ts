/**
 * Where the Shopify Admin GraphQL API of a store is, and the one credential it takes. The
 * source is the store's admin origin (`https://{shop}.myshopify.com`), or the full GraphQL
 * endpoint when the merchant pins an API version
 * (`https://{shop}.myshopify.com/admin/api/2026-01/graphql.json`). The access token comes
 * from the environment only, never from the config file, so it cannot be committed with it.
 */
import { CatalogError } from '../../errors.js';

/**
 * The API version the query is written against: 2026-01 returns a bulk result as flat lines
 * (`groupObjects` false by default), which the on-disk join in `bulk-result-store.ts` reads,
 * and knows the `UNLISTED` product status (from 2025-10), which the visibility rule refuses.
 */
export const ADMIN_API_VERSION = '2026-01';

/** The environment variable that holds the Admin API access token (`shpat_…`). */
export const ADMIN_TOKEN_ENV = 'AGENT_CATALOG_SHOPIFY_ADMIN_TOKEN';

const GRAPHQL_PATH = /^\/admin\/api\/(\d{4}-\d{2}|unstable)\/graphql\.json$/;

export function resolveAdminEndpoint(source: URL): URL {
  const endpoint = new URL(source.href);
  endpoint.search = '';
  endpoint.hash = '';
  if (GRAPHQL_PATH.test(endpoint.pathname)) return endpoint;
  const path = endpoint.pathname.replace(/\/+$/, '');
  if (path !== '' && path !== '/admin') {
    throw new CatalogError(
      'CONFIG_INVALID',
      `upstream.source ${source.origin}${source.pathname}: the shopify_admin format expects the store's admin origin (https://{shop}.myshopify.com) or its GraphQL endpoint (/admin/api/{version}/graphql.json)`,
      { field: 'upstream.source' },
    );
  }
  endpoint.pathname = `/admin/api/${ADMIN_API_VERSION}/graphql.json`;
  return endpoint;
}

/** The token, or CONFIG_INVALID (exit 2) naming the variable; the value itself is never shown. */
export function readAdminToken(env: Readonly<Record<string, string | undefined>>): string {
  const token = env[ADMIN_TOKEN_ENV]?.trim();
  if (token === undefined || token === '') {
    throw new CatalogError(
      'CONFIG_INVALID',
      `upstream.format shopify_admin reads the store through the Admin API: set its access token (a custom app's, with the read_products scope) in the environment variable ${ADMIN_TOKEN_ENV}`,
      { field: 'upstream.format', env: ADMIN_TOKEN_ENV },
    );
  }
  return token;
}
