/**
 * The `agent_feeds` section of `catalog.config.json`: the product feeds that agent
 * platforms ingest, beside Google's `feed.xml` (always published). Both are off unless the
 * merchant turns them on: OpenAI's product feed is for approved partners, and the ACP feed
 * is a snapshot a merchant uploads to an agent's Feed API. Part of the one config schema
 * in `config.ts`; what depends on several keys is checked in `assertAgentFeeds`.
 */
import { z } from 'zod';
import { httpUrl } from './config-sections.js';
import { CatalogError } from './errors.js';

const countryCode = z
  .string()
  .regex(/^[A-Z]{2}$/, 'expected an ISO 3166-1 alpha-2 country code such as "US"');

/** OpenAI: seller_name "Max 70 characters". */
export const SELLER_NAME_MAX = 70;
/** Rows per shard of the OpenAI feed: well under the platform's per-file limits, and a bounded string per file. */
export const DEFAULT_SHARD_ROWS = 10_000;

const openAiFeedSchema = z
  .object({
    enabled: z.boolean().default(false).describe('publish the OpenAI product feed (for approved partners)'),
    seller_name: z
      .string()
      .min(1)
      .max(SELLER_NAME_MAX)
      .optional()
      .describe(`seller_name of every row, at most ${SELLER_NAME_MAX} characters (required when enabled)`),
    seller_url: httpUrl.optional().describe("seller_url: the merchant's storefront (required when enabled)"),
    return_policy: httpUrl
      .optional()
      .describe('return_policy: URL of the returns page (required when enabled)'),
    return_window: z
      .number()
      .int()
      .min(0)
      .max(365)
      .optional()
      .describe('return_window: days a customer has to return an item'),
    store_country: countryCode
      .optional()
      .describe('store_country: where the store is based (required when enabled)'),
    target_countries: z
      .array(countryCode)
      .min(1)
      .optional()
      .describe('target_countries of every row (default: merchant.ships_to)'),
    shard_rows: z
      .number()
      .int()
      .min(100)
      .max(100_000)
      .default(DEFAULT_SHARD_ROWS)
      .describe('rows (variants) per shard file'),
  })
  .strict();

const acpFeedSchema = z
  .object({
    enabled: z.boolean().default(false).describe('publish the Agentic Commerce Protocol product feed'),
    feed_id: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/, 'expected 1 to 64 letters, digits, "_" or "-"')
      .optional()
      .describe('the feed id in metadata.json (default: "<merchant.slug>-<target_country>")'),
    target_country: countryCode
      .optional()
      .describe("the feed's target market (default: the first of merchant.ships_to)"),
  })
  .strict();

export const agentFeedsSchema = z
  .object({
    openai: openAiFeedSchema
      .default(() => openAiFeedSchema.parse({}))
      .describe("OpenAI's product feed (ChatGPT)"),
    acp: acpFeedSchema
      .default(() => acpFeedSchema.parse({}))
      .describe('the ACP product feed (metadata.json + products.jsonl)'),
  })
  .strict();

export type AgentFeedsConfig = z.output<typeof agentFeedsSchema>;

/** The OpenAI feed's settings once it is on: every key it needs is present. */
export interface OpenAiFeedSettings {
  seller_name: string;
  seller_url: string;
  return_policy: string;
  return_window?: number;
  store_country: string;
  target_countries: string[];
  shard_rows: number;
}

const REQUIRED_OPENAI_KEYS = ['seller_name', 'seller_url', 'return_policy', 'store_country'] as const;

/** A turned-on OpenAI feed must name its seller, return policy and store country: refused here, naming the keys. */
export function assertAgentFeeds(feeds: AgentFeedsConfig, file: string): void {
  if (!feeds.openai.enabled) return;
  const missing = REQUIRED_OPENAI_KEYS.filter((key) => feeds.openai[key] === undefined);
  if (missing.length === 0) return;
  const fields = missing.map((key) => `agent_feeds.openai.${key}`);
  throw new CatalogError(
    'CONFIG_INVALID',
    `${file}: ${fields.join(', ')}: required when agent_feeds.openai.enabled is true (OpenAI's feed requires seller_name, seller_url, return_policy and store_country on every row)`,
    { file, fields },
  );
}

/** The OpenAI feed's settings, or undefined when it is off. */
export function openAiFeedSettings(
  feeds: AgentFeedsConfig,
  shipsTo: readonly string[],
): OpenAiFeedSettings | undefined {
  const { openai } = feeds;
  if (!openai.enabled) return undefined;
  const { seller_name, seller_url, return_policy, store_country } = openai;
  if (
    seller_name === undefined ||
    seller_url === undefined ||
    return_policy === undefined ||
    store_country === undefined
  ) {
    throw new TypeError('openAiFeedSettings needs a config that passed assertAgentFeeds');
  }
  return {
    seller_name,
    seller_url,
    return_policy,
    ...(openai.return_window === undefined ? {} : { return_window: openai.return_window }),
    store_country,
    target_countries: [...(openai.target_countries ?? shipsTo)],
    shard_rows: openai.shard_rows,
  };
}
