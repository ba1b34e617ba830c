/**
 * The nested sections of `catalog.config.json` that stand on their own: where the
 * upstream catalog comes from and how politely it is fetched, and the usage policy every
 * published document states. Part of the one config schema in `config.ts`.
 */
import { z } from 'zod';
import { OVERRIDABLE_KEY_DOCS } from './override-docs.js';
import { SOURCE_FORMATS } from './sources/source-formats.js';

export const httpUrl = z
  .url({ protocol: /^https?$/, error: 'expected an absolute http(s) URL' })
  .describe('absolute http(s) URL');

export const currencyCode = z
  .string()
  .regex(/^[A-Z]{3}$/, 'expected an ISO 4217 currency code such as "USD"');

export const upstreamSchema = z
  .object({
    format: z.enum(SOURCE_FORMATS).optional().describe(OVERRIDABLE_KEY_DOCS['upstream.format']),
    source: z.string().min(1).describe(OVERRIDABLE_KEY_DOCS['upstream.source']),
    coming_soon_tag: z
      .string()
      .min(1)
      .default('coming-soon')
      .describe('Shopify/WooCommerce tag that marks a product as coming_soon'),
    brand_source: z
      .enum(['vendor', 'merchant'])
      .default('vendor')
      .describe(
        'each product\'s brand: "vendor" takes the store\'s vendor or brand (Shopify vendor, WooCommerce brands, native brand) and falls back to merchant.brand when the store gives none; "merchant" always uses merchant.brand (or the merchant name). A product\'s content file `brand` overrides both',
      ),
    connect_timeout_ms: z
      .number()
      .int()
      .positive()
      .max(60_000)
      .default(5_000)
      .describe('TCP/TLS connect timeout per request'),
    timeout_ms: z
      .number()
      .int()
      .positive()
      .max(3_600_000)
      .default(30_000)
      .describe(
        'total time allowed for the whole upstream fetch over HTTP; a shopify_admin bulk export of a large store takes minutes, so raise it there (e.g. 1800000). A file source is read to its end, however long it takes',
      ),
    request_timeout_ms: z
      .number()
      .int()
      .positive()
      .max(120_000)
      .default(15_000)
      .describe('time allowed for one request, body included'),
    retries: z
      .number()
      .int()
      .min(0)
      .max(10)
      .default(3)
      .describe('retries per request on 5xx, 429 and network errors'),
    max_response_bytes: z
      .number()
      .int()
      .positive()
      .default(20 * 1024 * 1024)
      .describe(
        'largest upstream response body accepted; for a file source (read as a stream, any size), the largest single product or JSON line',
      ),
    max_concurrency: z
      .number()
      .int()
      .min(1)
      .max(8)
      .default(4)
      .describe('upstream requests in flight at once'),
    requests_per_minute: z
      .number()
      .int()
      .min(1)
      .max(600)
      .default(59)
      .describe('politeness ceiling on upstream requests (the merchant asks clients for under 60)'),
    page_size: z
      .number()
      .int()
      .min(1)
      .max(250)
      .optional()
      .describe('page size (Shopify max 250, WooCommerce max 100)'),
    user_agent: z
      .string()
      .min(1)
      .optional()
      .describe('User-Agent sent upstream (default names agent-catalog and the site)'),
  })
  .strict();

export const usageSchema = z
  .object({
    attribution: z
      .string()
      .min(1)
      .default('Cite {merchant} and link to the product URL given in each record.')
      .describe('attribution rule; {merchant} is replaced by the merchant name'),
    allow_search: z.boolean().default(true).describe('search engines may index the content'),
    allow_ai_input: z
      .boolean()
      .default(true)
      .describe('AI systems may read and cite the content (RAG, answers)'),
    allow_training: z.boolean().default(false).describe('content may be used to train models'),
    requests_per_minute: z
      .number()
      .int()
      .positive()
      .default(60)
      .describe('rate the merchant asks clients to stay under'),
    terms_url: httpUrl.optional().describe('page with the terms of use (default {site_url}/api/#usage)'),
    tdm_policy_url: httpUrl.optional().describe('TDMRep policy URL'),
  })
  .strict();

/**
 * Keys only the issuer (agent-auth) reads, so the merchant is described in one file for
 * both; the generator validates them and otherwise ignores them.
 */
export const issuerPagesSchema = z
  .object({
    accent_color: z
      .string()
      .regex(/^#[0-9a-fA-F]{6}$/, 'expected a colour such as "#1f5f3a"')
      .optional()
      .describe('accent colour of the sign-in and account pages, "#rrggbb"'),
    support: z
      .string()
      .min(3)
      .max(320)
      .optional()
      .describe(
        'support email address or URL shown on the issuer pages and in mail (default merchant.contact)',
      ),
    privacy_url: httpUrl.optional().describe('privacy policy linked from every issuer page'),
    terms_url: httpUrl.optional().describe('terms of service linked from every issuer page'),
  })
  .strict();
