/**
 * The gate's view of a bundle read from bytes: each file's text is decoded (and a `.gz`
 * gunzipped) when a checker asks for it, and the view behaves as the map of texts it
 * replaces, so `check` on a 100,000-product directory no longer holds every text at once.
 */
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { filesOfBytes } from '../../../generator/validate/lazy-bundle-files.js';

const files = new Map([
  ['agent-catalog.json', Buffer.from('{"name":"Ginger — 生姜"}', 'utf8')],
  ['feeds/openai/shards/products-0001.jsonl.gz', gzipSync(Buffer.from('{"id":"v1"}\n', 'utf8'))],
]);

describe('filesOfBytes', () => {
  it('reads each file as UTF-8 text, gunzipping a .gz, as often as asked', () => {
    const view = filesOfBytes(files);
    expect(view.get('agent-catalog.json')).toBe('{"name":"Ginger — 生姜"}');
    expect(view.get('feeds/openai/shards/products-0001.jsonl.gz')).toBe('{"id":"v1"}\n');
    expect(view.get('feeds/openai/shards/products-0001.jsonl.gz')).toBe('{"id":"v1"}\n');
    expect(view.get('missing.json')).toBeUndefined();
  });

  it('behaves as the map of texts it stands for', () => {
    const view = filesOfBytes(files);
    expect(view.size).toBe(2);
    expect(view.has('agent-catalog.json')).toBe(true);
    expect([...view.keys()]).toEqual([...files.keys()]);
    const copy = new Map(view);
    expect(copy.get('feeds/openai/shards/products-0001.jsonl.gz')).toBe('{"id":"v1"}\n');
    const seen: string[] = [];
    view.forEach((text, path) => {
      seen.push(`${path}=${text.length}`);
    });
    expect(seen).toEqual([...copy].map(([path, text]) => `${path}=${text.length}`));
  });
});
