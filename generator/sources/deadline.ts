/**
 * The fetchUpstream stage as the build runs it: under one deadline of its own (the
 * configured total timeout plus a little grace), whatever the adapter does, and with the
 * User-Agent that names this version of the tool. The HTTP client keeps its own deadline;
 * this one also bounds a test's fetcher, so no adapter can hold a cron job past its
 * timeout. A file source has none: it is read to its end, bounded by its size. Anything an adapter throws that is not a CatalogError becomes
 * UPSTREAM_NETWORK naming the source, so the build exits 1 as the contract says.
 */

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ResolvedConfig } from '../config.js';
import { CatalogError } from '../errors.js';
import { redactUrl } from '../http/redact-url.js';
import type { Logger } from '../logger.js';
import type { NormaliseMemo } from '../normalise/item-key.js';
import { PACKAGE_ROOT } from '../paths.js';
import { resolveSourceLocation } from './documents.js';
import { fetchUpstream, formatUserAgent, type UpstreamResult } from './index.js';

/** Grace beyond the configured total timeout before the build gives up on the adapter itself. */
const DEADLINE_GRACE_MS = 1_000;

export async function readPackageVersion(): Promise<string> {
  try {
    const data: unknown = JSON.parse(await readFile(join(PACKAGE_ROOT, 'package.json'), 'utf8'));
    const version = typeof data === 'object' && data !== null && 'version' in data ? data.version : undefined;
    return typeof version === 'string' ? version : '0';
  } catch {
    return '0';
  }
}

/** True for a file source; a source that cannot be resolved fails in the read itself, under the deadline. */
function isFileSource(config: ResolvedConfig): boolean {
  try {
    return resolveSourceLocation(config.upstream.source, config.config_dir).kind === 'file';
  } catch {
    return false;
  }
}

export async function fetchUpstreamWithDeadline(
  config: ResolvedConfig,
  options: {
    logger: Logger;
    fetcher?: typeof fetchUpstream;
    env?: Readonly<Record<string, string | undefined>>;
    memo?: NormaliseMemo;
    /** See `UpstreamContext.productsOnDiskFrom`. */
    productsOnDiskFrom?: number;
  },
): Promise<UpstreamResult> {
  const fetcher = options.fetcher ?? fetchUpstream;
  const userAgent = formatUserAgent(await readPackageVersion(), config.site_url);
  const controller = new AbortController();
  const limit = config.upstream.timeout_ms + DEADLINE_GRACE_MS;
  // A file is read to its end, however long: its size bounds the read, and a million
  // products take minutes to normalise, past any deadline meant for a slow store.
  const isFile = isFileSource(config);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    if (isFile) return;
    timer = setTimeout(() => {
      controller.abort();
      reject(
        new CatalogError(
          'UPSTREAM_TIMEOUT',
          `the upstream did not answer within ${limit} ms; raise upstream.timeout_ms (now ${config.upstream.timeout_ms}) for a slow store`,
          { limit, field: 'upstream.timeout_ms' },
        ),
      );
    }, limit);
  });
  const fetching = fetcher(config.upstream, {
    configDir: config.config_dir,
    // Product pages live on the store, which is not always where the bundle is served.
    siteUrl: config.storefront_url,
    currency: config.merchant.currency,
    logger: options.logger,
    signal: controller.signal,
    userAgent,
    ...(options.env ? { env: options.env } : {}),
    ...(options.memo ? { memo: options.memo } : {}),
    ...(options.productsOnDiskFrom !== undefined ? { productsOnDiskFrom: options.productsOnDiskFrom } : {}),
  });
  let settled = false;
  try {
    const result = await Promise.race([fetching, deadline]);
    settled = true;
    return result;
  } catch (error) {
    if (error instanceof CatalogError) throw error;
    throw new CatalogError(
      'UPSTREAM_NETWORK',
      `cannot read the upstream ${redactUrl(config.upstream.source)}`,
      { source: redactUrl(config.upstream.source) },
      { cause: error },
    );
  } finally {
    clearTimeout(timer);
    // The loser of the race may still reject later; that rejection is already accounted for.
    // An adapter that still finishes after the deadline lets go of its products file.
    fetching.then(
      (late) => (settled ? undefined : late.shelved?.close()),
      () => {},
    );
  }
}
