import { describe, expect, it } from 'vitest';
import { anchors, codeBlocks, links, runnableBlocks } from './markdown.js';

describe('reading Markdown for the documentation tests', () => {
  const text = [
    '# Title',
    'See [the guide](docs/guide.md#set-up) and <https://example.com>.',
    '',
    '<!-- runnable -->',
    '```sh',
    'npm run build',
    '```',
    '',
    '```sh',
    'npm run preview   # not marked: never run',
    '```',
    '',
    '<!-- runnable -->',
    '',
    '```sh',
    'echo "a blank line between marker and fence does not count"',
    '```',
    '````md',
    '```',
    '[inside a fence](../outside.md)',
    '````',
    '## The `--json` summary',
    '`[inline code](../outside.md)` is not a link',
    '[ref]: ../shared/STYLE.md',
  ].join('\n');

  it('a block is runnable only when the marker is the line right before its fence', () => {
    expect(runnableBlocks(text, 't.md').map((block) => block.code)).toEqual(['npm run build']);
    expect(codeBlocks(text)).toHaveLength(4);
  });

  it('a runnable marker on a block that is not shell is refused', () => {
    expect(() => runnableBlocks('<!-- runnable -->\n```json\n{}\n```', 'x.md')).toThrow(/x\.md:2/);
  });

  it('links inside code are not links; reference definitions are', () => {
    expect(links(text).map((link) => link.target)).toEqual([
      'docs/guide.md#set-up',
      'https://example.com',
      '../shared/STYLE.md',
    ]);
  });

  it('headings make GitHub-style anchors', () => {
    expect(anchors(text)).toEqual(new Set(['title', 'the---json-summary']));
    expect(anchors('## A\n## A')).toEqual(new Set(['a', 'a-1']));
  });
});
