/**
 * The gate's checker for the agent feeds (OpenAI's product feed and the ACP feed): each
 * against its own rules and schema, and both against the catalog, variant by variant. A
 * message that quotes the catalog waits for the end, when the few products it names are
 * read from the catalog again (`pending-messages.ts`).
 */
import { type Message, wordMessages } from '../pending-messages.js';
import type { BundleFiles, Problem } from '../problem.js';
import { checkAcpFeed } from './check-acp-feed.js';
import { checkOpenAiFeed } from './check-openai-feed.js';
import { readCatalogProducts, takeCatalogOffers } from './offers-of-bundle.js';

export function checkAgentFeeds(files: BundleFiles): Problem[] {
  const paths: string[] = [];
  const messages: Message[] = [];
  const report = (path: string, message: Message) => {
    paths.push(path);
    messages.push(message);
  };
  const catalog = takeCatalogOffers(files);
  checkOpenAiFeed(files, catalog, report);
  checkAcpFeed(files, catalog, report);
  return wordMessages(messages, () => readCatalogProducts(files) ?? []).map((message, at) => ({
    path: paths[at] ?? '',
    rule: 'agent-feed',
    message,
  }));
}
