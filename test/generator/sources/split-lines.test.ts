import { describe, expect, test } from 'vitest';
import { isCatalogError } from '../../../generator/errors.js';
import { splitLines } from '../../../generator/http/split-lines.js';

async function collect(chunks: readonly (string | Buffer)[], maxLineBytes = 1024, maxTotalBytes = 1 << 20) {
  async function* source() {
    for (const chunk of chunks) yield Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
  }
  const lines: string[] = [];
  for await (const line of splitLines(source(), 'file.jsonl', { maxLineBytes, maxTotalBytes }))
    lines.push(line);
  return lines;
}

describe('splitLines (JSON Lines read in constant memory)', () => {
  test('when lines are cut across chunks, end in CRLF or leave blanks then each comes out whole, blanks dropped', async () => {
    expect(await collect(['{"a":1}\r\n{"b"', ':2}\n\n', '{"c":3}'])).toEqual([
      '{"a":1}',
      '{"b":2}',
      '{"c":3}',
    ]);
  });

  test('when a multi-byte character is cut between two chunks then it is decoded whole', async () => {
    const bytes = Buffer.from('{"name":"قابل"}\n');
    expect(await collect([bytes.subarray(0, 11), bytes.subarray(11)])).toEqual(['{"name":"قابل"}']);
  });

  test('when one line is longer than the limit then UPSTREAM_TOO_LARGE, even before its end arrives', async () => {
    const error = await collect(['x'.repeat(600), 'y'.repeat(600)], 1000).catch((caught: unknown) => caught);
    expect(isCatalogError(error, 'UPSTREAM_TOO_LARGE')).toBe(true);
  });

  test('when the whole body is over its limit then UPSTREAM_TOO_LARGE', async () => {
    const error = await collect(['{"a":1}\n'.repeat(20)], 1000, 100).catch((caught: unknown) => caught);
    expect(isCatalogError(error, 'UPSTREAM_TOO_LARGE')).toBe(true);
  });
});
