/**
 * The agent feeds of a live site, which a merchant may have turned off: their entry
 * documents (OpenAI's manifest, the ACP metadata) are fetched, a 404 meaning the feed is
 * off, and when one answers, every file it names is read like any other document (status,
 * media type, CORS), so the gate judges the feeds exactly as published.
 */
import { ACP_METADATA_FILE, ACP_PRODUCTS_FILE } from '../emit/agent-feeds/acp-feed.js';
import { OPENAI_MANIFEST_FILE, OPENAI_SHARD_DIR } from '../emit/agent-feeds/openai-feed.js';
import { isRecord, readJson } from '../validate/bundle-layout.js';
import type { BundleFiles } from '../validate/problem.js';
import type { SiteDocument } from './site-documents.js';

/** More shards than this would be a catalog far past any store's; the rest are not fetched. */
const MAX_SHARDS = 200;
/** The site's manifest is untrusted: only file names in the shards' own folder are fetched. */
const SHARD_PATH = new RegExp(`^/${OPENAI_SHARD_DIR}/[A-Za-z0-9._-]+$`);

export interface DocumentSource {
  readonly files: BundleFiles;
  request(path: string, method?: 'GET' | 'HEAD'): Promise<{ status: number } | undefined>;
  read(document: SiteDocument): Promise<string | undefined>;
}

async function isPublished(source: DocumentSource, file: string): Promise<boolean> {
  const head = await source.request(`/${file}`, 'HEAD');
  return head !== undefined && head.status !== 404;
}

function listedShards(manifest: unknown): string[] {
  if (!isRecord(manifest) || !Array.isArray(manifest.files)) return [];
  return manifest.files
    .map((entry) => (isRecord(entry) && typeof entry.path === 'string' ? entry.path : ''))
    .filter((path) => SHARD_PATH.test(path) && !path.includes('..'))
    .slice(0, MAX_SHARDS);
}

export async function readAgentFeeds(source: DocumentSource): Promise<void> {
  if (await isPublished(source, OPENAI_MANIFEST_FILE)) {
    await source.read({ urlPath: `/${OPENAI_MANIFEST_FILE}`, file: OPENAI_MANIFEST_FILE });
    for (const path of listedShards(readJson(source.files, OPENAI_MANIFEST_FILE))) {
      await source.read({ urlPath: path, file: path.slice(1) });
    }
  }
  if (await isPublished(source, ACP_METADATA_FILE)) {
    await source.read({ urlPath: `/${ACP_METADATA_FILE}`, file: ACP_METADATA_FILE });
    await source.read({ urlPath: `/${ACP_PRODUCTS_FILE}`, file: ACP_PRODUCTS_FILE });
  }
}
