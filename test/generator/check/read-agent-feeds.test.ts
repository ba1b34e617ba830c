/**
 * `check` on a live site reads the OpenAI feed's shards from the site's own manifest, which
 * is untrusted: only file names inside the shards' folder are fetched, however many paths
 * the manifest lists and whatever they point at.
 */
import { describe, expect, it } from 'vitest';
import { type DocumentSource, readAgentFeeds } from '../../../generator/check/read-agent-feeds.js';

function siteWithManifest(paths: readonly string[]): { source: DocumentSource; fetched: string[] } {
  const files = new Map<string, string>();
  const fetched: string[] = [];
  const manifest = JSON.stringify({ files: paths.map((path) => ({ path })) });
  const source: DocumentSource = {
    files,
    request: async (path) => ({ status: path === '/feeds/openai/manifest.json' ? 200 : 404 }),
    read: async ({ urlPath, file }) => {
      fetched.push(urlPath);
      const body = file === 'feeds/openai/manifest.json' ? manifest : '';
      files.set(file, body);
      return body;
    },
  };
  return { source, fetched };
}

describe('readAgentFeeds', () => {
  it('fetches the manifest and the shards it lists in the shards folder, and nothing else', async () => {
    const { source, fetched } = siteWithManifest([
      '/feeds/openai/shards/products-0001.jsonl.gz',
      '/feeds/openai/shards/products-0001.csv.gz',
      '/feeds/openai/products-0002.jsonl.gz',
      '/feeds/openai/shards/..',
      '/feeds/openai/shards/../../admin',
      '/etc/passwd',
      'https://elsewhere.example/feed.gz',
    ]);
    await readAgentFeeds(source);
    expect(fetched).toEqual([
      '/feeds/openai/manifest.json',
      '/feeds/openai/shards/products-0001.jsonl.gz',
      '/feeds/openai/shards/products-0001.csv.gz',
    ]);
  });
});
