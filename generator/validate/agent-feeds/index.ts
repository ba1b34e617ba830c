/**
 * The gate's checker for the agent feeds (OpenAI's product feed and the ACP feed): each
 * against its own rules and schema, and both against the catalog, variant by variant.
 */
import type { BundleFiles, Problem } from '../problem.js';
import { readCatalogOffers } from './catalog-offers.js';
import { checkAcpFeed } from './check-acp-feed.js';
import { checkOpenAiFeed } from './check-openai-feed.js';

export function checkAgentFeeds(files: BundleFiles): Problem[] {
  const problems: Problem[] = [];
  const report = (path: string, message: string) => problems.push({ path, rule: 'agent-feed', message });
  const catalog = readCatalogOffers(files);
  checkOpenAiFeed(files, catalog, report);
  checkAcpFeed(files, catalog, report);
  return problems;
}
