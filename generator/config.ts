/**
 * The generator's configuration: one zod schema that is the single source of truth for
 * the keys of `catalog.config.json`, their defaults and their documentation (docs/config.md
 * is generated from the `.describe()` lines by `npm run docs:config`). `resolveConfig` is pure: it applies
 * the precedence flags > env > config file > defaults and checks what depends on several
 * keys. Reading the file is `loadConfigFile` in `config-file.ts`.
 */
import { z } from 'zod';
import { agentFeedsSchema, assertAgentFeeds } from './config-agent-feeds.js';
import { currencyCode, httpUrl, issuerPagesSchema, upstreamSchema, usageSchema } from './config-sections.js';
import { suggestKey } from './config-suggest.js';
import { resolveStorefrontOrigin } from './deployment.js';
import { CatalogError } from './errors.js';
import { HOST_NAMES } from './hosting/host-limits-table.js';
import { findUnwantedText } from './normalise/clean-text.js';
import { OVERRIDABLE_KEY_DOCS } from './override-docs.js';
import { shippingPolicySchema } from './shipping/policy.js';
import { assertShippingPolicy } from './shipping/policy-config.js';
import type { SourceFormat } from './sources/source-formats.js';

/** Google's limit for g:brand, which the merchant's brand (or name) becomes. */
const FEED_BRAND_MAX = 70;

export const configSchema = z
  .object({
    $schema: z.string().optional().describe('JSON Schema reference for editors; ignored'),
    merchant: z
      .object({
        name: z.string().min(1).max(200).describe('merchant name as shown to people'),
        slug: z
          .string()
          .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'expected lowercase letters, digits and single hyphens')
          .optional()
          .describe('short name used in file names (default: from the name)'),
        description: z.string().min(1).max(1000).optional().describe('one-paragraph summary of the merchant'),
        url: httpUrl.describe('merchant website (site_url defaults to it)'),
        contact: z.string().min(3).describe('contact e-mail address or URL'),
        currency: currencyCode.describe('ISO 4217 currency of all prices'),
        ships_to: z
          .array(z.string().regex(/^[A-Z]{2}$/, 'expected ISO 3166-1 alpha-2 country codes such as "US"'))
          .min(1)
          .describe('countries shipped to'),
        brand: z
          .string()
          .min(1)
          .max(FEED_BRAND_MAX)
          .optional()
          .describe(
            `brand in the product feed, at most ${FEED_BRAND_MAX} characters (default: merchant name, which must then fit)`,
          ),
        logo_url: httpUrl.optional().describe('logo image URL'),
      })
      .strict()
      .describe("who sells: published as the catalog's merchant object"),
    site_url: httpUrl.optional().describe(OVERRIDABLE_KEY_DOCS.site_url),
    storefront_url: httpUrl
      .optional()
      .describe('the store where people read and buy: product pages are built on it (default merchant.url)'),
    storefront_origin: httpUrl
      .optional()
      .describe(
        'deployment model (b) only: the origin server of the storefront behind the CDN (e.g. https://<store>.myshopify.com); everything that is not a bundle path is proxied to it by the last rule of _redirects (Netlify). Requires storefront_url on the origin of site_url',
      ),
    base_url: httpUrl.optional().describe(OVERRIDABLE_KEY_DOCS.base_url),
    auth_url: httpUrl.describe(OVERRIDABLE_KEY_DOCS.auth_url),
    upstream: upstreamSchema.describe('where the product catalog comes from, and how politely it is fetched'),
    content_dir: z
      .string()
      .min(1)
      .optional()
      .describe(
        'folder of product and article Markdown, relative to the config file; when set it must exist (default: "content", used only when present)',
      ),
    shipping: z
      .string()
      .min(1)
      .max(500)
      .optional()
      .describe('deprecated: free shipping text copied into every product; use shipping_policy'),
    shipping_policy: shippingPolicySchema
      .optional()
      .describe("the one shipping policy: the catalog's shipping sentence and the feed's g:shipping"),
    checkout_note: z
      .string()
      .min(1)
      .max(500)
      .default('Purchases are completed by a person on the merchant website.')
      .describe('checkout note; the checkout type is always "redirect"'),
    usage: usageSchema
      .default(() => usageSchema.parse({}))
      .describe('how agents may use the content (llms.txt, robots.txt, TDMRep, terms)'),
    feed: z
      .object({
        condition: z
          .enum(['new', 'refurbished', 'used'])
          .default('new')
          .describe('item condition in the product feed'),
        google_product_category: z
          .string()
          .min(1)
          .optional()
          .describe('Google product taxonomy path or id for every feed item'),
        shipping_price: z
          .string()
          .regex(/^\d+(\.\d+)?$/, 'expected a decimal amount such as "0.00"')
          .optional()
          .describe('deprecated: flat shipping price for the feed; use shipping_policy.price'),
      })
      .strict()
      .default(() => ({ condition: 'new' as const }))
      .describe('Google Merchant Center feed settings'),
    agent_feeds: agentFeedsSchema
      .default(() => agentFeedsSchema.parse({}))
      .describe('product feeds for agent platforms (OpenAI, ACP); off unless enabled'),
    build: z
      .object({
        shrink_threshold: z
          .number()
          .min(0)
          .max(1)
          .default(0.5)
          .describe('refuse to publish when fewer than this share of the last good catalog remains'),
        hosts: z
          .array(z.enum(HOST_NAMES))
          .default([])
          .describe(
            'the hosts the bundle is deployed to (cloudflare-pages-free, cloudflare-pages-paid, netlify): a bundle that breaks one of their limits (files, bytes per file, files per folder, rules, handler size) is refused before publishing, exit 1 with HOST_LIMIT; every other host it does not fit is a warning',
          ),
      })
      .strict()
      .default(() => ({ shrink_threshold: 0.5, hosts: [] }))
      .describe('build safety settings'),
    live: z
      .object({
        enabled: z
          .boolean()
          .default(true)
          .describe(
            'publish the live handler (MCP and UCP REST catalog search at {base_url}/mcp and {base_url}/ucp, the UCP profile at /.well-known/ucp); turn off for a host that runs no functions (GitHub Pages, a bucket)',
          ),
        allowed_origins: z
          .array(httpUrl)
          .default([])
          .describe(
            'browser origins allowed to call the MCP endpoint besides site_url and loopback origins on a local run (others get 403)',
          ),
      })
      .strict()
      .default(() => ({ enabled: true, allowed_origins: [] }))
      .describe('the live catalog search served from the bundle (docs/live.md)'),
    issuer: issuerPagesSchema
      .optional()
      .describe('how the issuer (agent-auth) presents the merchant; read only by agent-auth'),
  })
  .strict();

export type ConfigInput = z.input<typeof configSchema>;
export type ParsedConfig = z.output<typeof configSchema>;

/** Values that override the config file: CLI flags, then environment variables. */
export interface ConfigOverrides {
  site_url?: string;
  base_url?: string;
  auth_url?: string;
  source?: string;
  source_format?: SourceFormat;
}

export interface ResolvedConfig
  extends Omit<
    ParsedConfig,
    'site_url' | 'base_url' | 'storefront_url' | 'storefront_origin' | 'merchant' | '$schema'
  > {
  merchant: ParsedConfig['merchant'] & { slug: string; brand: string };
  /** An origin: no path, no trailing slash. */
  site_url: string;
  /** No trailing slash; product pages are built on it. */
  storefront_url: string;
  /** No trailing slash; same origin as site_url. */
  base_url: string;
  /** Model (b): the storefront's origin server the CDN proxies to (an origin, no trailing slash). */
  storefront_origin?: string;
  /** Exactly as configured (the issuer identifier; never altered). */
  auth_url: string;
  /** Directory the config file's relative paths resolve against. */
  config_dir: string;
}

/** The overrides that replace a top-level URL of the config file as they are. */
export const URL_OVERRIDE_KEYS = ['site_url', 'base_url', 'auth_url'] as const;

/** Environment variables read by the generator, lowest precedence above the file. */
export const ENV_OVERRIDES = {
  AGENT_CATALOG_SITE_URL: 'site_url',
  AGENT_CATALOG_BASE_URL: 'base_url',
  AGENT_CATALOG_AUTH_URL: 'auth_url',
  AGENT_CATALOG_SOURCE: 'source',
} as const satisfies Record<string, keyof ConfigOverrides>;

export function overridesFromEnv(env: Readonly<Record<string, string | undefined>>): ConfigOverrides {
  const overrides: ConfigOverrides = {};
  for (const [name, key] of Object.entries(ENV_OVERRIDES)) {
    const value = env[name];
    if (value !== undefined && value !== '') overrides[key] = value;
  }
  return overrides;
}

function stripTrailingSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** An unknown key, with the nearest known key at the same place when there is one. */
function describeUnknownKey(path: readonly PropertyKey[], key: string): string {
  const suggestion = suggestKey(configSchema, path, key);
  return suggestion === undefined ? 'unknown key' : `unknown key; did you mean ${suggestion}?`;
}

/** One `file: field: message` line per problem; an unknown key names itself as the field. */
function describeIssues(file: string, error: z.ZodError): { fields: string[]; message: string } {
  const lines: { field: string; message: string }[] = [];
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        lines.push({ field: [...issue.path, key].join('.'), message: describeUnknownKey(issue.path, key) });
      }
      continue;
    }
    lines.push({ field: issue.path.join('.'), message: issue.message });
  }
  return {
    fields: lines.map((line) => line.field),
    message: lines.map((line) => `${file}: ${line.field || '(root)'}: ${line.message}`).join('\n'),
  };
}

/**
 * Validates raw config data and applies overrides. Precedence, highest first:
 * flags, env, config file, defaults (content front matter and upstream data come later,
 * in the merge stage). Throws CONFIG_INVALID naming the file and field.
 */
export function resolveConfig(
  raw: unknown,
  options: { file: string; configDir: string; flags?: ConfigOverrides; env?: ConfigOverrides },
): ResolvedConfig {
  const overrides: ConfigOverrides = { ...options.env, ...options.flags };
  const merged = applyOverrides(raw, overrides);
  // The merchant's own text is refused, not silently cleaned, so the file says what is published.
  const unwanted = findUnwantedText(merged);
  if (unwanted !== undefined) {
    throw new CatalogError(
      'CONFIG_INVALID',
      `${options.file}: ${unwanted}: must not contain control characters or bidirectional overrides`,
      { file: options.file, fields: [unwanted] },
    );
  }
  const parsed = configSchema.safeParse(merged);
  if (!parsed.success) {
    const { fields, message } = describeIssues(options.file, parsed.error);
    throw new CatalogError('CONFIG_INVALID', message, { file: options.file, fields });
  }
  const config = parsed.data;
  const brand = resolveBrand(config.merchant, options.file);
  assertShippingPolicy(config, options.file);
  assertAgentFeeds(config.agent_feeds, options.file);
  const site_url = stripTrailingSlash(config.site_url ?? config.merchant.url);
  refusePathInSiteUrl(site_url, options.file);
  const base_url = stripTrailingSlash(config.base_url ?? site_url);
  if (new URL(base_url).origin !== new URL(site_url).origin) {
    throw new CatalogError(
      'CONFIG_INVALID',
      `${options.file}: base_url: expected the same origin as site_url (${site_url})`,
      {
        file: options.file,
        fields: ['base_url'],
      },
    );
  }
  const storefront_url = stripTrailingSlash(config.storefront_url ?? config.merchant.url);
  const storefront_origin = resolveStorefrontOrigin(
    { site_url, storefront_url, storefront_origin: config.storefront_origin },
    options.file,
  );
  const { $schema: _schema, storefront_origin: _origin, ...rest } = config;
  return {
    ...rest,
    merchant: {
      ...config.merchant,
      slug: config.merchant.slug ?? slugify(config.merchant.name),
      brand,
    },
    site_url,
    base_url,
    storefront_url,
    ...(storefront_origin === undefined ? {} : { storefront_origin }),
    auth_url: config.auth_url,
    config_dir: options.configDir,
  };
}

/**
 * The feed's g:brand (Google: at most 70 characters) is the merchant's brand, or its name
 * (up to 200): a long name with no brand would fail every build at the feed gate, so it
 * is refused here with the key that fixes it.
 */
function resolveBrand(merchant: { name: string; brand?: string | undefined }, file: string): string {
  if (merchant.brand !== undefined) return merchant.brand;
  if (merchant.name.length <= FEED_BRAND_MAX) return merchant.name;
  throw new CatalogError(
    'CONFIG_INVALID',
    `${file}: merchant.brand: merchant.name is ${merchant.name.length} characters, longer than the feed's brand allows; set merchant.brand (at most ${FEED_BRAND_MAX} characters)`,
    { file, fields: ['merchant.brand'] },
  );
}

/**
 * The hosts serve the bundle's files and rules from the root of the publish directory, and
 * robots.txt, llms.txt and /.well-known/ only count at the root of a host (RFC 9309, RFC
 * 8615), so a site_url with a path would publish links to files that are not there. The
 * catalog paths may still sit under a path: that is what base_url is for.
 */
function refusePathInSiteUrl(siteUrl: string, file: string): void {
  const url = new URL(siteUrl);
  if (url.pathname === '/' && url.search === '' && url.hash === '') return;
  throw new CatalogError(
    'CONFIG_INVALID',
    `${file}: site_url: expected an origin without a path, got ${siteUrl}; the bundle is served from the root of its host. To mount the catalog under a path, set base_url (e.g. "site_url": "${url.origin}", "base_url": "${siteUrl}")`,
    { file, fields: ['site_url'] },
  );
}

function applyOverrides(raw: unknown, overrides: ConfigOverrides): unknown {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return raw;
  const copy: Record<string, unknown> = { ...(raw as Record<string, unknown>) };
  for (const key of URL_OVERRIDE_KEYS) if (overrides[key] !== undefined) copy[key] = overrides[key];
  if (overrides.source !== undefined || overrides.source_format !== undefined) {
    const upstream = typeof copy.upstream === 'object' && copy.upstream !== null ? copy.upstream : {};
    const next: Record<string, unknown> = { ...(upstream as Record<string, unknown>) };
    if (overrides.source !== undefined) {
      next.source = overrides.source;
      // A new source with no explicit format is auto-detected rather than read with the file's format.
      if (overrides.source_format === undefined) delete next.format;
    }
    if (overrides.source_format !== undefined) next.format = overrides.source_format;
    copy.upstream = next;
  }
  return copy;
}
