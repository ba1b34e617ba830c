/**
 * The engines' output is kept bounded (`appendBounded` in engines.ts): wrangler printed
 * hundreds of MB of errors at 100,000 products, which ended the test process with
 * "Invalid string length" while the engine was still running. No engine is started here.
 */
import { describe, expect, it } from 'vitest';
import { appendBounded } from './engines.js';

describe('engine output', () => {
  it('when an engine prints more than the limit then its first and last halves are kept', () => {
    let text = '';
    for (let line = 0; line < 1_000; line++) text = appendBounded(text, `line ${line}\n`, 100);
    expect(text.length).toBeLessThanOrEqual(103);
    expect(text.startsWith('line 0\nline 1\n')).toBe(true);
    expect(text.endsWith('line 999\n')).toBe(true);
    expect(text).toContain('\n…\n');
  });

  it('when an engine prints less than the limit then nothing is cut', () => {
    expect(appendBounded('ready\n', 'GET / 200\n', 100)).toBe('ready\nGET / 200\n');
  });
});
