import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { ResolvedConfig } from '../../../generator/config.js';
import { isCatalogError } from '../../../generator/errors.js';
import { silentLogger } from '../../../generator/logger.js';
import { fetchUpstreamWithDeadline } from '../../../generator/sources/deadline.js';
import type { fetchUpstream } from '../../../generator/sources/index.js';
import { makeSamplePlan } from '../../helpers/sample-plan.js';

/** An adapter that takes longer than the deadline below, then reads an empty catalog. */
const slowFetcher: typeof fetchUpstream = async (upstream) => {
  // Past timeout_ms (1 ms) and the second of grace the build adds to it.
  await sleep(1_300);
  return { format: 'native', products: [], rejected: [], requests: 0, source: upstream.source };
};

function configReading(source: string): ResolvedConfig {
  const config = makeSamplePlan().config;
  return { ...config, upstream: { ...config.upstream, source, timeout_ms: 1 } };
}

describe('the upstream deadline', () => {
  it('when a store over HTTP takes longer than timeout_ms then the read fails with UPSTREAM_TIMEOUT', async () => {
    const reading = fetchUpstreamWithDeadline(configReading('http://127.0.0.1:9/products.json'), {
      logger: silentLogger,
      fetcher: slowFetcher,
    });
    await expect(reading).rejects.toSatisfy((error) => isCatalogError(error, 'UPSTREAM_TIMEOUT'));
  });

  it('when a file takes longer than timeout_ms then it is still read to its end', async () => {
    const read = await fetchUpstreamWithDeadline(configReading('upstream/products.json'), {
      logger: silentLogger,
      fetcher: slowFetcher,
    });
    expect(read.products).toEqual([]);
  });
});
