/**
 * Shared set-up for the upstream tests: a resolved upstream config with the schema's
 * defaults and small timeouts, and a fetch context for a fictional merchant site.
 */

import { upstreamSchema } from '../../../generator/config-sections.js';
import { createMemoryLogger, type MemoryLogger } from '../../../generator/logger.js';
import type { UpstreamConfig, UpstreamContext } from '../../../generator/sources/index.js';

export const SITE_URL = 'https://shop.pomona.example';

export function makeUpstreamConfig(source: string, overrides: Partial<UpstreamConfig> = {}): UpstreamConfig {
  return {
    ...upstreamSchema.parse({
      source,
      connect_timeout_ms: 1_000,
      request_timeout_ms: 2_000,
      timeout_ms: 5_000,
      retries: 2,
    }),
    ...overrides,
  };
}

export function makeContext(
  overrides: Partial<UpstreamContext> = {},
): UpstreamContext & { logger: MemoryLogger } {
  return {
    configDir: '/nonexistent',
    siteUrl: SITE_URL,
    currency: 'USD',
    userAgent: `agent-catalog/0.0.0-test (+${SITE_URL})`,
    ...overrides,
    logger: createMemoryLogger(),
  };
}
